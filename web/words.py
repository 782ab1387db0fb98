"""The web pages' words in English and French, and which language a request gets.

Card names, rule texts and the narrative come from the rules themselves (`core.rulesets`, `core.rules`,
`replays.narrative`); this catalogue holds only the pages' own words. Each entry is a `Text` pair, so no string
exists in one language only. A page's language is the visitor's choice (the `lang` cookie, set by the switch in
the header) or else the browser's (`Accept-Language`).
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from loveletter.api.problems import language
from loveletter.core.lang import Lang, Text
from loveletter.core.rules import RULES
from loveletter.core.rulesets import RULESETS

COOKIE = "lang"
"""The cookie that remembers the visitor's language (a year; no other cookie is ever set)."""

WORDS: dict[str, Text] = {
    # the layout
    "site": Text("Love Letter Referee", "Arbitre de Love Letter"),
    "nav": Text("Main", "Principal"),
    "nav.lobby": Text("Lobby", "Salon"),
    "nav.replay": Text("Replay", "Relecture"),
    "nav.stats": Text("Statistics", "Statistiques"),
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
    "seat.card": Text("Card", "Carte"),
    "seat.target": Text("Target", "Cible"),
    "seat.guess": Text("Guess", "Carte nommée"),
    "seat.keep": Text("Keep", "Garder"),
    "seat.bottom": Text("Under the deck, top first", "Sous la pioche, du haut vers le bas"),
    "seat.play": Text("Play", "Jouer"),
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
}


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


def rule_text(rule_id: str, lang: Lang) -> str:
    rule = RULES.get(rule_id)
    return rule.text(lang) if rule is not None else rule_id
