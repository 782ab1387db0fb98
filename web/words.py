"""The web pages' one catalogue of words in English and French, and which language a request gets.

Every page reads its words here (those of the accounts' pages kept in `web.words_accounts`), and the scripts get them
with their page's data. Card names, rule texts and the narrative come from the rules (`core.rulesets`, `core.rules`,
`replays.narrative`), each card's short effect from `web.card_texts`. Every entry is a `Text` pair, so no string
exists in one language only; the catalogue is read-only: what a page shows never depends on which modules were
imported. A page's language is the visitor's choice (the `lang` cookie, set by the header's switch), else the
browser's (`Accept-Language`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from fastapi import Request

from loveletter.api.problems import language
from loveletter.core.lang import Lang, Text
from loveletter.core.rulesets import RULESETS
from loveletter.web.card_texts import effect
from loveletter.web.words_accounts import ACCOUNT_WORDS
from loveletter.web.words_evaluation import EVALUATION_WORDS
from loveletter.web.words_seat import SEAT_WORDS

COOKIE = "lang"
"""The cookie that remembers the visitor's language (a year; no other cookie is ever set)."""

WORDS: Mapping[str, Text] = MappingProxyType(
    {
        # the layout
        "site": Text("Love Letter Referee", "Arbitre de Love Letter"),
        "nav": Text("Main", "Principal"),
        "nav.lobby": Text("Lobby", "Salon"),
        "nav.replay": Text("Replay", "Relecture"),
        "nav.stats": Text("Statistics", "Statistiques"),
        "nav.rulings": Text("Rulings", "Décisions"),
        "nav.api": Text("API", "API"),
        "lang.switch": Text("Language", "Langue"),
        "skip": Text("Skip to the content", "Aller au contenu"),
        "soon": Text("This page is on its way.", "Cette page arrive bientôt."),
        "noscript": Text("This page needs JavaScript.", "Cette page a besoin de JavaScript."),
        # the lobby
        "lobby.title": Text("Lobby", "Salon"),
        "lobby.create": Text("New game", "Nouvelle partie"),
        "lobby.ruleset": Text("Ruleset", "Règles"),
        "lobby.you": Text("Your name", "Votre nom"),
        "lobby.seats": Text("Seats", "Sièges"),
        "lobby.seat": Text("Seat", "Siège"),
        "lobby.seat.me": Text("me", "moi"),
        "lobby.seat.open": Text("open", "ouvert"),
        "lobby.seat.heuristic": Text("bot (heuristic)", "robot (heuristique)"),
        "lobby.seat.random": Text("bot (random)", "robot (hasard)"),
        "lobby.seat.none": Text("nobody", "personne"),
        "lobby.public": Text("Public: listed in the lobby", "Publique : visible dans le salon"),
        "lobby.clock": Text("Seconds per turn (empty: no clock)", "Secondes par tour (vide : sans pendule)"),
        "lobby.timeout": Text("When time runs out", "Quand le temps est écoulé"),
        "lobby.timeout.bot": Text("a bot plays", "un robot joue"),
        "lobby.timeout.resign": Text("the seat resigns", "le siège abandonne"),
        "lobby.option.tie": Text("Ties (2012)", "Égalités (2012)"),
        "lobby.option.tie.nobody": Text("nobody wins", "personne ne gagne"),
        "lobby.option.tie.all": Text("all win", "tous gagnent"),
        "lobby.option.guard": Text("Guard naming an absent card", "Garde nommant une carte absente"),
        "lobby.option.guard.refuse": Text("refused", "refusé"),
        "lobby.option.guard.miss": Text("a miss", "un échec"),
        "lobby.start": Text("Create the game", "Créer la partie"),
        "lobby.open": Text("Open games", "Parties ouvertes"),
        "lobby.running": Text("Games in play", "Parties en cours"),
        "lobby.finished": Text("Finished games", "Parties terminées"),
        "lobby.mine": Text("My games", "Mes parties"),
        "lobby.none": Text("None at the moment.", "Aucune pour le moment."),
        "lobby.join": Text("Join", "Rejoindre"),
        "lobby.join.as": Text("Join as", "Rejoindre sous le nom"),
        "lobby.watch": Text("Watch", "Regarder"),
        "lobby.play": Text("Play", "Jouer"),
        "lobby.rematch": Text("Rematch", "Revanche"),
        "lobby.invites": Text("Invite links", "Liens d'invitation"),
        "lobby.copy": Text("Copy", "Copier"),
        "lobby.copied": Text("Copied", "Copié"),
        "lobby.created": Text("Game created.", "Partie créée."),
        "lobby.open_seat": Text("open seat", "siège libre"),
        "lobby.open_seats": Text("open seats", "sièges libres"),
        "lobby.winners": Text("won by", "gagnée par"),
        "lobby.aborted": Text("stopped", "arrêtée"),
        "lobby.live": Text("The list updates by itself.", "La liste se met à jour toute seule."),
        "lobby.invited": Text("You are invited to a game.", "Vous êtes invité à une partie."),
        # the seat page
        "seat.title": Text("Table", "Table"),
        "seat.spectator": Text("You are watching as a spectator.", "Vous regardez en spectateur."),
        "seat.you_are": Text("You play", "Vous jouez"),
        "seat.you": Text("you", "vous"),
        "seat.hand": Text("Your hand", "Votre main"),
        "seat.moves": Text("Your move", "Votre coup"),
        "seat.waiting": Text("Waiting for", "On attend"),
        "seat.waiting_players": Text(
            "Waiting for players: the game starts when every seat is taken.",
            "En attente de joueurs : la partie commence quand tous les sièges sont pris.",
        ),
        "seat.invites.hint": Text(
            "Send each friend one link: whoever opens it takes that seat.",
            "Envoyez un lien à chaque ami : qui l'ouvre prend ce siège.",
        ),
        "colon": Text(":", "\u202f:"),
        "seat.card": Text("Card", "Carte"),
        "seat.target": Text("Target", "Cible"),
        "seat.guess": Text("Guess", "Carte nommée"),
        "seat.keep": Text("Keep", "Garder"),
        "seat.bottom": Text("Under the deck, top first", "Sous la pioche, du haut vers le bas"),
        "seat.play": Text("Play", "Jouer"),
        "seat.choose": Text("Choose first:", "Choisissez d'abord\u202f:"),
        "seat.table": Text("The table", "La table"),
        "seat.player": Text("Player", "Joueur"),
        "seat.favors": Text("Favors", "Faveurs"),
        "seat.played": Text("Played and discarded", "Jouées et défaussées"),
        "seat.known": Text("You know their hand", "Vous connaissez sa main"),
        "seat.protected": Text("protected", "protégé"),
        "seat.out": Text("out of the round", "hors de la manche"),
        "seat.gone": Text("left the game", "a quitté la partie"),
        "seat.present": Text("here", "présent"),
        "seat.absent": Text("away", "absent"),
        "seat.open": Text("open seat", "siège libre"),
        "seat.deck": Text("Cards in the deck", "Cartes dans la pioche"),
        "seat.face_up": Text("Face up", "Face visible"),
        "seat.unseen": Text("Cards you have not seen", "Cartes que vous n'avez pas vues"),
        "seat.deck_known": Text("You know in the deck", "Vous connaissez dans la pioche"),
        "seat.from_top": Text("from the top", "depuis le haut"),
        "seat.round": Text("Round", "Manche"),
        "seat.clock": Text("Clock", "Pendule"),
        "seat.story": Text("What happened", "Ce qui s'est passé"),
        "seat.resign": Text("Resign", "Abandonner"),
        "seat.resign.sure": Text("Leave this game for good?", "Quitter cette partie pour de bon ?"),
        "seat.refused": Text("Refused", "Refusé"),
        "seat.rule": Text("Rule", "Règle"),
        "seat.over": Text("The game is over.", "La partie est terminée."),
        "seat.winners": Text("Winners", "Gagnants"),
        "seat.link": Text("Your seat's link (keep it secret)", "Le lien de votre siège (gardez-le secret)"),
        "seat.reconnecting": Text("Connection lost: reconnecting…", "Connexion perdue : nouvelle tentative…"),
        "seat.connected": Text("Live", "En direct"),
        "seat.turn": Text("It is your turn.", "C'est votre tour."),
        "seat.none": Text("none", "aucune"),
        "seat.aborted": Text("The game was stopped.", "La partie a été arrêtée."),
        "seat.abort": Text("Stop the game (organiser)", "Arrêter la partie (organisateur)"),
        "seat.abort.sure": Text(
            "Stop this game for everyone? Nobody wins.", "Arrêter cette partie pour tous ? Personne ne gagne."
        ),
        # the table (issue 24): cards as cards, play by pointing, the table, ends, clocks, the seat's link
        "seat.unplayable": Text(
            "Not playable now: you must play {card}.", "Injouable pour l'instant : vous devez jouer {card}."
        ),
        "seat.pick_card": Text(
            "Point at a card of your hand, then at a player at the table.",
            "Montrez une carte de votre main, puis un joueur à la table.",
        ),
        "seat.can_target": Text("can be chosen", "peut être ciblé"),
        "seat.cannot_target": Text("cannot be chosen", "ne peut pas être ciblé"),
        "seat.not_yourself": Text("not yourself with this card", "pas vous-même avec cette carte"),
        "seat.guess_grid": Text("Name a card", "Nommez une carte"),
        "seat.order": Text(
            "Drag the cards, or move one with the arrow keys: the top one goes under the deck first.",
            "Faites glisser les cartes, ou déplacez-en une avec les flèches : celle du haut passe sous la pioche "
            "en premier.",
        ),
        "seat.order.use": Text("This order", "Cet ordre"),
        "seat.moved_to": Text("Now at place", "Maintenant à la place"),
        "seat.turn_title": Text("Your turn", "À vous"),
        "seat.plays_now": Text("plays now", "joue maintenant"),
        "seat.last_move": Text("Last move", "Dernier coup"),
        "seat.alerts": Text("When it becomes my turn", "Quand vient mon tour"),
        "seat.alert.sound": Text("play a sound", "jouer un son"),
        "seat.alert.notify": Text("show a notification", "afficher une notification"),
        "seat.alert.denied": Text(
            "This browser refuses notifications for this site.", "Ce navigateur refuse les notifications de ce site."
        ),
        "seat.until": Text("until", "jusqu'à"),
        "seat.round_over": Text("Round {n} is over", "La manche {n} est terminée"),
        "seat.game_over": Text("The game is over", "La partie est terminée"),
        "seat.why.last-standing": Text("the last player left in the round", "le dernier joueur encore en lice"),
        "seat.why.deck-out": Text(
            "the highest card when the deck ran out", "la carte la plus forte quand la pioche a été vide"
        ),
        "seat.won_round": Text("wins the round", "remporte la manche"),
        "seat.won_round.many": Text("win the round", "remportent la manche"),
        "seat.nobody_won": Text("Nobody wins the round.", "Personne ne remporte la manche."),
        "seat.revealed": Text("Hands revealed", "Mains révélées"),
        "seat.tie": Text("Tie-break", "Départage"),
        "seat.tie.sum": Text(
            "tied on the highest card: the higher total of cards played and discarded wins",
            "égalité sur la carte la plus forte : le plus fort total des cartes jouées et défaussées l'emporte",
        ),
        "seat.tie.all": Text(
            "tied on the highest card: every tied player wins",
            "égalité sur la carte la plus forte : tous les joueurs à égalité l'emportent",
        ),
        "seat.total": Text("total", "total"),
        "seat.set_aside": Text("Card set aside", "Carte mise de côté"),
        "seat.favor_gained": Text("Favors gained", "Faveurs gagnées"),
        "seat.favor.round": Text("round won", "manche gagnée"),
        "seat.favor.spy": Text("the card of value 0", "la carte de valeur 0"),
        "seat.favor.amira-sadie": Text("two cards of value 6", "deux cartes de valeur 6"),
        "seat.favors_now": Text("Favors now", "Faveurs à présent"),
        "seat.close": Text("Close", "Fermer"),
        "seat.replay": Text("Replay this game", "Revoir cette partie"),
        "seat.download": Text("Download the log", "Télécharger le journal"),
        "seat.waiting_for": Text("Waiting for players", "En attente de joueurs"),
        "seat.taken": Text("taken", "pris"),
        "seat.link.reveal": Text("Show", "Afficher"),
        "seat.link.hide": Text("Hide", "Masquer"),
        "seat.link.secret": Text(
            "Whoever has this link plays your seat: share it with nobody.",
            "Qui a ce lien joue à votre place : ne le donnez à personne.",
        ),
        "seat.forget": Text("Forget this seat on this device", "Oublier ce siège sur cet appareil"),
        "seat.forget.sure": Text(
            "Forget this seat on this device? Without its link you will only watch.",
            "Oublier ce siège sur cet appareil ? Sans son lien, vous ne ferez que regarder.",
        ),
        # the other device of a seat, the log offered by the viewer (issue 24)
        "seat.elsewhere": Text(
            "This seat is also open on another device.", "Ce siège est aussi ouvert sur un autre appareil."
        ),
        "replay.download_file": Text("Download this file", "Télécharger ce fichier"),
        # the replay and dispute viewer
        "replay.title": Text("Replay and disputes", "Relecture et litiges"),
        "replay.open": Text("Open a game", "Ouvrir une partie"),
        "replay.file": Text(
            "A log (.jsonl) or a transcript (.json)", "Un journal (.jsonl) ou une transcription (.json)"
        ),
        "replay.drop": Text(
            "…or drop the file anywhere on this page.", "…ou déposez le fichier n'importe où sur cette page."
        ),
        "replay.game": Text("A finished game's id", "L'identifiant d'une partie terminée"),
        "replay.go": Text("Open", "Ouvrir"),
        "replay.loading": Text("Reading the game…", "Lecture de la partie…"),
        "replay.audit": Text("Audit", "Vérification"),
        "replay.valid": Text(
            "Valid: every line and every move checks out.", "Valide : chaque ligne et chaque coup sont conformes."
        ),
        "replay.invalid": Text(
            "Invalid: the first problem is marked on the timeline.",
            "Invalide : le premier problème est marqué sur la frise.",
        ),
        "replay.problem_at": Text("First problem, at event", "Premier problème, à l'événement"),
        "replay.goto_problem": Text("Go to the problem", "Aller au problème"),
        "replay.problem_at_end": Text(
            "First problem, at the end of the log (its signature line)",
            "Premier problème, à la fin du journal (sa ligne de signature)",
        ),
        "replay.more_problems": Text("Further problems", "Autres problèmes"),
        "replay.at_event": Text("at event", "à l'événement"),
        "replay.at_end": Text(
            "at the end of the log (its signature line)", "à la fin du journal (sa ligne de signature)"
        ),
        "replay.stopped": Text(
            "The log's events cannot be applied from event",
            "Les événements du journal ne s'appliquent plus à partir de l'événement",
        ),
        "replay.pov": Text("Point of view", "Point de vue"),
        "replay.pov.spectator": Text("spectator", "spectateur"),
        "replay.pov.all": Text("everything (the game is over)", "tout (la partie est finie)"),
        "replay.position": Text("Position", "Position"),
        "replay.of": Text("of", "sur"),
        "replay.first": Text("First position", "Première position"),
        "replay.prev": Text("Previous position", "Position précédente"),
        "replay.next": Text("Next position", "Position suivante"),
        "replay.last": Text("Last position", "Dernière position"),
        "replay.link": Text("Link to this position", "Lien vers cette position"),
        "replay.keys": Text("Keys", "Touches"),
        "replay.keys.step": Text("← → one event back or forward", "← → un événement en arrière ou en avant"),
        "replay.keys.ends": Text(
            "Home, End: the first or the last position", "Début, Fin : la première ou la dernière position"
        ),
        "replay.keys.pov": Text("v: the next point of view", "« v » : le point de vue suivant"),
        "replay.keys.help": Text("?: show or hide these keys", "? : afficher ou masquer ces touches"),
        "replay.close": Text("Close", "Fermer"),
        "replay.hand": Text("Hand", "Main"),
        "replay.deck_all": Text("The deck, from the top", "La pioche, depuis le haut"),
        "replay.set_aside": Text("Set aside", "Mise de côté"),
        "replay.whatif": Text("What if this move had been played here?", "Et si ce coup avait été joué ici ?"),
        "replay.whatif.player": Text("Player", "Joueur"),
        "replay.whatif.card": Text("Card", "Carte"),
        "replay.whatif.target": Text("Target", "Cible"),
        "replay.whatif.guess": Text("Card named", "Carte nommée"),
        "replay.whatif.none": Text("(none)", "(aucune)"),
        "replay.whatif.kind": Text("Move", "Coup"),
        "replay.whatif.play": Text("play a card", "jouer une carte"),
        "replay.whatif.return": Text(
            "Chancellor: keep one, return the others", "Chancelier : en garder une, rendre les autres"
        ),
        "replay.whatif.bottom": Text("Under the deck, from the top:", "Sous la pioche, depuis le haut :"),
        "replay.whatif.ask": Text("Ask the referee", "Demander à l'arbitre"),
        "replay.legal": Text("Legal", "Permis"),
        "replay.illegal": Text("Refused", "Refusé"),
        "replay.sources": Text("Sources", "Sources"),
        "replay.event": Text("event", "événement"),
        # the replay viewer's evaluation (POST /analyses)
        "replay.keys.eval": Text(
            "a: analyse every decision (the evaluation graph)",
            "« a » : analyser chaque décision (le graphique d'évaluation)",
        ),
        # the rulings page
        "rulings.title": Text("Rulings", "Décisions d'arbitrage"),
        # the statistics page
        "stats.title": Text("Statistics", "Statistiques"),
        "stats.run": Text("Run a simulation", "Lancer une simulation"),
        "stats.players": Text("Players", "Joueurs"),
        "stats.games": Text("Games", "Parties"),
        "stats.seed": Text("Seed", "Graine"),
        "stats.bot": Text("Bot of seat", "Robot du siège"),
        "stats.start": Text("Simulate", "Simuler"),
        "stats.progress": Text("Progress", "Avancement"),
        "stats.open": Text("Or open a simulation's file", "Ou ouvrir le fichier d'une simulation"),
        "stats.file": Text(
            "A log (loveletter simulate --log) or a report (--json)",
            "Un journal (« loveletter simulate --log ») ou un rapport (« --json »)",
        ),
        "stats.results": Text("Results", "Résultats"),
        "stats.summary": Text("games", "parties"),
        "stats.by_seat": Text("Win rate by seat", "Taux de victoire par siège"),
        "stats.by_bot": Text("Win rate by bot", "Taux de victoire par robot"),
        "stats.favors": Text("Favors per game, by reason", "Faveurs par partie, selon leur cause"),
        "stats.eliminations": Text("Eliminations per game, by card", "Éliminations par partie, selon la carte"),
        "stats.rounds": Text("Rounds per game", "Manches par partie"),
        "stats.interval": Text(
            "Bars show the estimate; whiskers its 95% confidence interval.",
            "Les barres montrent l'estimation ; les moustaches, son intervalle de confiance à 95 %.",
        ),
        "stats.seat": Text("seat", "siège"),
        "stats.reason.round": Text("round won", "manche gagnée"),
        "stats.reason.amira-sadie": Text("Amira & Sadie", "Amira & Sadie"),
        "stats.mean": Text("mean", "moyenne"),
        "stats.bot.random": Text("random", "hasard"),
        "stats.bot.heuristic": Text("heuristic", "heuristique"),
        "stats.bot.expert": Text("expert", "expert"),
        **EVALUATION_WORDS,  # the replay viewer's evaluation graph (web/words_evaluation.py)
        **ACCOUNT_WORDS,  # the ladder, the account page, the lobby's account key (web/words_accounts.py)
        **SEAT_WORDS,  # the seat page's table of issue 35, the lobby's name check (web/words_seat.py)
    }
)


def choose(request: Request) -> Lang:
    """The visitor's language: the `lang` cookie if set, else the browser's preference (English by default)."""
    chosen = request.cookies.get(COOKIE)
    if chosen in ("en", "fr"):
        return "fr" if chosen == "fr" else "en"
    return "fr" if language(request.headers.get("accept-language", "")) == "fr" else "en"


def words(lang: Lang) -> dict[str, str]:
    """The catalogue in one language, as the pages' scripts read it."""
    return {key: text(lang) for key, text in WORDS.items()}


def rulesets(lang: Lang) -> dict[str, Any]:
    """Each ruleset's title, its art set (web/static/cards/<art>/<card>.svg) and cards (id, value, name, name with
    its article, effect) in `lang`, for the pages' controls and tables."""
    return {
        rs.id: {
            "title": rs.title_in(lang),
            "players": [rs.min_players, rs.max_players],
            "art": "pp" if rs.id == "princess-princess" else "court",
            "cards": {
                str(c): {
                    "value": rs.values[c],
                    "name": rs.name(c, lang),
                    "the": rs.the(c, lang),
                    "effect": effect(rs, c, lang),
                }
                for c in rs.cards
            },
        }
        for rs in RULESETS.values()
    }
