"""The words of an account in the browser (issue 35, docs/web.md "An account in the browser"): making one in the
lobby, its key shown once, leaving it; quick pairing; challenges made from an account's page and answered on every
page; the rating change at the end of a rated game; and the lobby's spectator delay and what "My games" says of
each game. In English and French, French typography included (a narrow no-break space, U+202F, before « : ; ! ? »
and inside the quotes), merged into the pages' one catalogue through `web.words_accounts`
(`tests/test_web_accounts_routes.py` checks the typography). Read-only.

`{name}` stands for an account's name; no French sentence here puts it after « de » or « le », which would elide.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from loveletter.core.lang import Text

LOBBY_WORDS: Mapping[str, Text] = MappingProxyType(
    {
        # the lobby's account panel
        "me.title": Text("Your account", "Votre compte"),
        "me.make": Text("Make an account", "Créer un compte"),
        "me.name": Text("Name shown to the other players", "Nom montré aux autres joueurs"),
        "me.make.hint": Text(
            "An account keeps your name, your rated games and your rating from one game to the next. It has no "
            "password: a key, shown once, is what lets you play as it.",
            "Un compte garde votre nom, vos parties classées et votre cote d'une partie à l'autre. Il n'a pas de mot "
            "de passe : une clé, montrée une seule fois, permet de jouer sous ce nom.",
        ),
        "me.made": Text("Account made:", "Compte créé :"),
        "me.key": Text("Your account key, shown only once", "Votre clé de compte, montrée une seule fois"),
        "me.key.lost": Text(
            "Keep this key somewhere safe: it is the only way to play as this account. This browser keeps it, but "
            "if it is lost (the browser's data cleared, a new device), nobody can give it back, not even this "
            "referee. To play on another device, paste it there.",
            "Gardez cette clé en lieu sûr : c'est le seul moyen de jouer sous ce compte. Ce navigateur la garde, "
            "mais si elle est perdue (données du navigateur effacées, nouvel appareil), personne ne peut la rendre, "
            "pas même cet arbitre. Pour jouer sur un autre appareil, collez-la là-bas.",
        ),
        "me.key.kept": Text("I have kept it", "Je l'ai gardée"),
        "me.other_device": Text("Already have an account? Paste its key", "Déjà un compte ? Collez sa clé"),
        "me.you": Text("You are", "Vous êtes"),
        "me.leave": Text("Leave this account", "Quitter ce compte"),
        "me.leave.confirm": Text(
            "This browser will forget the key of the account {name}. Without the key nobody can play as it again, "
            "and this referee cannot give it back: leave only if you have kept the key elsewhere.",
            "Ce navigateur va oublier la clé du compte {name}. Sans elle, personne ne pourra plus jouer sous ce "
            "compte, et cet arbitre ne peut pas la rendre : ne le quittez que si vous avez gardé la clé ailleurs.",
        ),
        "me.leave.yes": Text("Leave and forget the key", "Quitter et oublier la clé"),
        "me.leave.no": Text("Stay", "Rester"),
        "me.alerts": Text("When someone challenges me", "Quand quelqu'un me défie"),
        "me.key_refused": Text(
            "This browser's account key no longer works (it was changed or revoked elsewhere).",
            "La clé de compte de ce navigateur ne fonctionne plus (elle a été changée ou révoquée ailleurs).",
        ),
        # quick pairing
        "quick.title": Text("Play a rated game", "Jouer une partie classée"),
        "quick.hint": Text(
            "Choose a game: you are paired with an account of a close rating that wants the same one, and the game "
            "opens by itself.",
            "Choisissez une partie : un compte de cote proche qui veut la même vous sera opposé, et la partie "
            "s'ouvrira d'elle-même.",
        ),
        "quick.need_account": Text(
            "Make an account (above) to play rated games.",
            "Créez un compte (ci-dessus) pour jouer des parties classées.",
        ),
        "quick.players": Text("players", "joueurs"),
        "quick.per_turn": Text("a turn", "par tour"),
        "quick.day": Text("day", "jour"),
        "quick.looking": Text("Looking for an opponent…", "Recherche d'un adversaire…"),
        "quick.looking.many": Text("Looking for opponents…", "Recherche d'adversaires…"),
        "quick.cancel": Text("Cancel", "Annuler"),
        "quick.cancelled": Text("Search cancelled.", "Recherche annulée."),
        "quick.found": Text("Opponent found: the game opens.", "Adversaire trouvé : la partie s'ouvre."),
        "quick.expired": Text(
            "The game found was not joined in time: the search has ended.",
            "La partie trouvée n'a pas été rejointe à temps : la recherche est terminée.",
        ),
        # challenges: made from an account's page, answered on every page of the account
        "challenge.heading": Text("Challenges", "Défis"),
        "challenge.from": Text("{name} challenges you", "{name} vous défie"),
        "challenge.new": Text("New challenge", "Nouveau défi"),
        "challenge.accept": Text("Accept", "Accepter"),
        "challenge.decline": Text("Decline", "Refuser"),
        "challenge.declined_by_me": Text("Challenge declined.", "Défi refusé."),
        "challenge.waiting": Text(
            "{name} has not answered your challenge yet", "{name} n'a pas encore répondu à votre défi"
        ),
        "challenge.declined": Text("{name} declined your challenge.", "{name} a refusé votre défi."),
        "challenge.expired": Text(
            "Your challenge to {name} expired unanswered.", "Votre défi à {name} a expiré sans réponse."
        ),
        "challenge.rated": Text("rated", "classée"),
        "challenge.unrated": Text("not rated", "non classée"),
        "challenge.title": Text("Challenge {name}", "Défier {name}"),
        "challenge.rated_box": Text("Rated game", "Partie classée"),
        "challenge.send": Text("Challenge", "Défier"),
        "challenge.sent": Text(
            "Challenge sent: the game opens by itself when {name} accepts.",
            "Défi envoyé : la partie s'ouvrira d'elle-même quand {name} l'acceptera.",
        ),
        "challenge.need_account": Text(
            "To challenge this account, make one of your own in the lobby.",
            "Pour défier ce compte, créez le vôtre dans le salon.",
        ),
        "challenge.self": Text("This is your account.", "C'est votre compte."),
        "account.playing": Text("Playing now", "En cours"),
        # the lobby's new game: a spectator delay (POST /games's spectator_delay)
        "lobby.delay": Text("Spectator delay, in moves", "Retard des spectateurs, en coups"),
        "lobby.delay.hint": Text(
            "Spectators see the running game this many moves behind; the players see it at once, and everyone sees "
            "everything once it is over. Empty: no delay.",
            "Les spectateurs voient la partie en cours avec ce nombre de coups de retard ; les joueurs la voient "
            "aussitôt, et tout le monde voit tout une fois la partie finie. Vide : sans retard.",
        ),
        # My games: what each game is
        "lobby.mine.with": Text("with", "avec"),
        "lobby.mine.waiting": Text("waiting for players", "en attente de joueurs"),
        "lobby.mine.playing": Text("playing", "en cours"),
        "lobby.mine.over": Text("over", "terminée"),
        "lobby.mine.won": Text("over: won", "terminée : gagnée"),
        "lobby.mine.lost": Text("over: lost", "terminée : perdue"),
        "lobby.mine.resigned": Text("you resigned; the game goes on", "vous avez abandonné ; la partie continue"),
        "lobby.mine.aborted": Text("stopped, nobody won", "arrêtée, sans gagnant"),
        "lobby.mine.created": Text("created", "créée le"),
        "lobby.mine.unread": Text("could not be read", "illisible"),
        # the end of a rated game
        "rated.title": Text("Ratings after this game", "Cotes après cette partie"),
        "rated.rating": Text("rating", "cote"),
        "rated.reading": Text("Reading the new ratings…", "Lecture des nouvelles cotes…"),
        "rated.rematch": Text("A rematch is not rated.", "Une revanche n'est pas classée."),
    }
)
