"""The words of the ladder, the account page and the lobby's account key (issue 25, docs/accounts.md "On the web"),
in English and French: a part of the pages' one catalogue (`web.words.WORDS` holds them with the rest), kept apart
so that each module stays short enough to read. Read-only.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from loveletter.core.lang import Text
from loveletter.web.words_lobby import LOBBY_WORDS

ACCOUNT_WORDS: Mapping[str, Text] = MappingProxyType(
    {
        "nav.ladder": Text("Ladder", "Classement"),
        "lobby.rated": Text("rated", "classée"),
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
        "ladder.folded_one": Text("rated game folded", "partie classée prise en compte"),
        "ladder.folded": Text("rated games folded", "parties classées prises en compte"),
        "ladder.pages": Text("Pages of the ladder", "Pages du classement"),
        "ladder.first": Text("First page", "Première page"),
        "ladder.next": Text("Next page", "Page suivante"),
        "ladder.hint": Text(
            "Ratings are OpenSkill's mu; the interval is mu ± 1.96 sigma. The command loveletter ratings gives the "
            "same figures from the games' logs.",
            "La cote est la moyenne estimée par le modèle de classement\u202f; l'intervalle, cette moyenne ± 1,96 "
            "écart-type. La commande «\u202floveletter ratings\u202f» donne les mêmes chiffres d'après les journaux "
            "des parties.",
        ),
        "kind.person": Text("person", "personne"),
        "kind.bot": Text("bot", "robot"),
        "account.title": Text("Account", "Compte"),
        "account.revoked": Text("Its key is revoked: it plays no more.", "Sa clé est révoquée\u202f: il ne joue plus."),
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
            "Parties classées seulement\u202f; une partie gagnée par les deux, ou par aucun, n'est ni gagnée ni "
            "perdue.",
        ),
        "account.won_one": Text("won", "gagnée"),
        "account.games": Text("Games", "Parties"),
        "account.games.caption": Text("Newest first", "Les plus récentes d'abord"),
        "account.games.more": Text(
            "The newest {shown} of its {total} games.", "Ses {shown} parties les plus récentes, sur {total}."
        ),
        "account.created": Text("Created", "Créée le"),
        "account.game": Text("Game", "Partie"),
        "account.opponents": Text("Opponents", "Adversaires"),
        "account.result": Text("Result", "Résultat"),
        "account.rating": Text("Rated", "Classée"),
        "account.player": Text("player", "joueur"),
        "account.players": Text("players", "joueurs"),
        "account.status.waiting": Text("waiting for players", "en attente de joueurs"),
        "account.status.playing": Text("playing", "en cours"),
        "account.status.resigned": Text("resigned", "abandonnée"),
        "account.status.won": Text("won", "gagnée"),
        "account.status.lost": Text("lost", "perdue"),
        "account.status.aborted": Text("stopped", "arrêtée"),
        "account.rated": Text("rated", "classée"),
        "account.unrated": Text("unrated", "non classée"),
        "account.replay.of": Text("Replay of the game of {date}", "Relecture de la partie du {date}"),
        "account.none": Text("None yet.", "Aucune pour l'instant."),
        "account.ladders": Text("table of", "table de"),
        "lobby.account.key": Text(
            "Account key (kept in this browser only)", "Clé de compte (gardée dans ce navigateur seulement)"
        ),
        "lobby.account.use": Text("Use this key", "Utiliser cette clé"),
        "lobby.account.as": Text("My games follow the account", "Mes parties suivent le compte"),
        "lobby.account.forgotten": Text("The key is forgotten by this browser.", "Ce navigateur a oublié la clé."),
        "lobby.account.hint": Text(
            "Paste the key shown when the account was made: My games then lists the account's games on any device. "
            "The key is sent only to this referee.",
            "Collez la clé montrée à la création du compte\u202f: Mes parties liste alors les parties du compte, sur "
            "tout appareil. La clé n'est envoyée qu'à cet arbitre.",
        ),
        **LOBBY_WORDS,  # an account in the browser: made, kept, left; quick pairing; challenges (web/words_lobby.py)
    }
)
