"""The web pages' one catalogue of words in English and French, and which language a request gets.

Every page reads its words here: the layout, the lobby, the seat page, the ladder and the account page
(`web.pages`), the replay viewer and the statistics page (`web.viewer`), and their scripts (each page's data
carries the catalogue in its language). Card names, rule texts and the narrative come from the rules themselves
(`core.rulesets`, `core.rules`, `replays.narrative`); this catalogue holds only the pages' own words. Each entry is
a `Text` pair, so no string exists in one language only, and the catalogue is read-only: what a page shows never
depends on which modules were imported. A page's language is the visitor's choice (the `lang` cookie, set by the
switch in the header) or else the browser's (`Accept-Language`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from fastapi import Request

from loveletter.api.problems import language
from loveletter.core.lang import Lang, Text
from loveletter.core.rulesets import RULESETS

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
        "lobby.public": Text("Public: listed in the lobby", "Publique : visible dans le salon"),
        "lobby.clock": Text("Seconds per turn (empty: no clock)", "Secondes par tour (vide : sans pendule)"),
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
            "En attente de joueurs : la partie commence quand tous les sièges sont pris.",
        ),
        "seat.invites.hint": Text(
            "Send each friend one link: whoever opens it takes that seat.",
            "Envoyez un lien à chaque ami : qui l'ouvre prend ce siège.",
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
        "seat.second": Text("second left", "seconde restante"),
        "seat.seconds": Text("seconds left", "secondes restantes"),
        "seat.story": Text("What happened", "Ce qui s'est passé"),
        "seat.resign": Text("Resign", "Abandonner"),
        "seat.resign.sure": Text("Leave this game for good?", "Quitter cette partie pour de bon ?"),
        "seat.refused": Text("Refused", "Refusé"),
        "seat.rule": Text("Rule", "Règle"),
        "seat.over": Text("The game is over.", "La partie est terminée."),
        "seat.winners": Text("Winners", "Gagnants"),
        "seat.link": Text("Your seat's link (keep it secret)", "Le lien de votre siège (gardez-le secret)"),
        "seat.reconnecting": Text("Connection lost: reconnecting…", "Connexion perdue : nouvelle tentative…"),
        "seat.connected": Text("Live", "En direct"),
        "seat.turn": Text("It is your turn.", "C'est votre tour."),
        "seat.none": Text("none", "aucune"),
        "seat.aborted": Text("The game was stopped.", "La partie a été arrêtée."),
        "seat.abort": Text("Stop the game (organiser)", "Arrêter la partie (organisateur)"),
        "seat.abort.sure": Text(
            "Stop this game for everyone? Nobody wins.", "Arrêter cette partie pour tous ? Personne ne gagne."
        ),
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
            "Valid: every line and every move checks out.", "Valide : chaque ligne et chaque coup sont conformes."
        ),
        "replay.invalid": Text(
            "Invalid: the first problem is marked on the timeline.",
            "Invalide : le premier problème est marqué sur la frise.",
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
            "Home, End: the first or the last position", "Début, Fin : la première ou la dernière position"
        ),
        "replay.keys.pov": Text("v: the next point of view", "« v » : le point de vue suivant"),
        "replay.keys.help": Text("?: show or hide these keys", "? : afficher ou masquer ces touches"),
        "replay.close": Text("Close", "Fermer"),
        "replay.hand": Text("Hand", "Main"),
        "replay.deck_all": Text("The deck, from the top", "La pioche, depuis le haut"),
        "replay.set_aside": Text("Set aside", "Mise de côté"),
        "replay.whatif": Text("What if this move had been played here?", "Et si ce coup avait été joué ici ?"),
        "replay.whatif.player": Text("Player", "Joueur"),
        "replay.whatif.card": Text("Card", "Carte"),
        "replay.whatif.target": Text("Target", "Cible"),
        "replay.whatif.guess": Text("Card named", "Carte nommée"),
        "replay.whatif.none": Text("(none)", "(aucune)"),
        "replay.whatif.kind": Text("Move", "Coup"),
        "replay.whatif.play": Text("play a card", "jouer une carte"),
        "replay.whatif.return": Text(
            "Chancellor: keep one, return the others", "Chancelier : en garder une, rendre les autres"
        ),
        "replay.whatif.bottom": Text("Under the deck, from the top:", "Sous la pioche, depuis le haut :"),
        "replay.whatif.ask": Text("Ask the referee", "Demander à l'arbitre"),
        "replay.legal": Text("Legal", "Permis"),
        "replay.illegal": Text("Refused", "Refusé"),
        "replay.sources": Text("Sources", "Sources"),
        "replay.event": Text("event", "événement"),
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
            "Un journal (« loveletter simulate --log ») ou un rapport (« --json »)",
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
            "Les barres montrent l'estimation ; les moustaches, son intervalle de confiance à 95 %.",
        ),
        "stats.seat": Text("seat", "siège"),
        "stats.reason.round": Text("round won", "manche gagnée"),
        "stats.reason.amira-sadie": Text("Amira & Sadie", "Amira & Sadie"),
        "stats.mean": Text("mean", "moyenne"),
        "stats.bot.random": Text("random", "hasard"),
        "stats.bot.heuristic": Text("heuristic", "heuristique"),
        # the ladder, the account page and the lobby's account key (issue 25, docs/accounts.md "On the web")
        "nav.ladder": Text("Ladder", "Classement"),
        "ladder.title": Text("Ladder", "Classement"),
        "ladder.choose": Text("Which ladder", "Quel classement"),
        "ladder.players": Text("Players at the table", "Joueurs à la table"),
        "ladder.show": Text("Show", "Afficher"),
        "ladder.seats": Text("players", "joueurs"),
        "ladder.caption": Text("Rated accounts, best first", "Comptes classés, du meilleur au moins bon"),
        "ladder.rank": Text("Rank", "Rang"),
        "ladder.name": Text("Name", "Nom"),
        "ladder.kind": Text("Kind", "Nature"),
        "ladder.rating": Text("Rating (95% interval)", "Cote (intervalle à 95 %)"),
        "ladder.games": Text("Rated games", "Parties classées"),
        "ladder.empty": Text(
            "No rated game has ended at this table yet.", "Aucune partie classée n'est encore finie à cette table."
        ),
        "ladder.folded": Text("rated games folded", "parties classées prises en compte"),
        "ladder.pages": Text("Pages of the ladder", "Pages du classement"),
        "ladder.first": Text("First page", "Première page"),
        "ladder.next": Text("Next page", "Page suivante"),
        "ladder.hint": Text(
            "Ratings are OpenSkill's mu; the interval is mu ± 1.96 sigma. The command loveletter ratings gives the "
            "same figures from the games' logs.",
            "La cote est la moyenne estimée par le modèle de classement ; l'intervalle, cette moyenne ± 1,96 "
            "écart-type. La commande « loveletter ratings » donne les mêmes chiffres d'après les journaux des parties.",
        ),
        "kind.person": Text("person", "personne"),
        "kind.bot": Text("bot", "robot"),
        "account.title": Text("Account", "Compte"),
        "account.revoked": Text("Its key is revoked: it plays no more.", "Sa clé est révoquée : il ne joue plus."),
        "account.ratings": Text("Ratings", "Cotes"),
        "account.ladder": Text("Ladder", "Classement"),
        "account.no_rating": Text("No rated game yet.", "Aucune partie classée pour l'instant."),
        "account.chart": Text("Rating over time", "Cote au fil du temps"),
        "account.chart.label": Text("rating after each rated game", "cote après chaque partie classée"),
        "account.chart.game": Text("game", "partie"),
        "account.record": Text("Win rate", "Taux de victoire"),
        "account.won": Text("won", "gagnées"),
        "account.of": Text("of", "sur"),
        "account.rated_game": Text("rated game", "partie classée"),
        "account.rated_games": Text("rated games", "parties classées"),
        "account.h2h": Text("Head-to-head", "Face-à-face"),
        "account.opponent": Text("Opponent", "Adversaire"),
        "account.together": Text("Games together", "Parties ensemble"),
        "account.wins": Text("Won", "Gagnées"),
        "account.losses": Text("Lost", "Perdues"),
        "account.h2h.hint": Text(
            "Rated games only; a game both won, or neither, is neither won nor lost.",
            "Parties classées seulement ; une partie gagnée par les deux, ou par aucun, n'est ni gagnée ni perdue.",
        ),
        "account.games": Text("Games", "Parties"),
        "account.replay": Text("replay", "relecture"),
        "account.none": Text("None yet.", "Aucune pour l'instant."),
        "account.ladders": Text("table of", "table de"),
        "lobby.account.key": Text(
            "Account key (kept in this browser only)", "Clé de compte (gardée dans ce navigateur seulement)"
        ),
        "lobby.account.use": Text("Use this key", "Utiliser cette clé"),
        "lobby.account.forget": Text("Forget the key", "Oublier la clé"),
        "lobby.account.as": Text("My games follow the account", "Mes parties suivent le compte"),
        "lobby.account.forgotten": Text("The key is forgotten by this browser.", "Ce navigateur a oublié la clé."),
        "lobby.account.hint": Text(
            "Paste the key shown when the account was made: My games then lists the account's games on any device. "
            "The key is sent only to this referee.",
            "Collez la clé montrée à la création du compte : Mes parties liste alors les parties du compte, sur tout "
            "appareil. La clé n'est envoyée qu'à cet arbitre.",
        ),
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
    """Each ruleset's title and cards (id, value, name) in `lang`, for the pages' controls and tables."""
    return {
        rs.id: {
            "title": rs.title_in(lang),
            "players": [rs.min_players, rs.max_players],
            "cards": {str(c): {"value": rs.values[c], "name": rs.name(c, lang)} for c in rs.cards},
        }
        for rs in RULESETS.values()
    }
