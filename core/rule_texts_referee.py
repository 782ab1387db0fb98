"""The referee's own rules in English and French, each with its stable id and its sources: the log and its
signatures, the shuffle's commitments, what each seat may see, positions, the lobby, leaving a game and the clocks.
Data only, like `core.rule_texts`; `core.rules` makes the registry."""

from __future__ import annotations

from loveletter.core.rule_texts import RuleText

REFEREE: tuple[RuleText, ...] = (
    (
        "log.sequence",
        "A game's events are numbered 1, 2, 3… in order, without gaps or repeats, and a log starts with the game's "
        "creation.",
        "Les événements d'une partie sont numérotés 1, 2, 3… dans l'ordre, sans lacune ni doublon, et un journal "
        "commence par la création de la partie.",
        ("events/log.py",),
    ),
    (
        "log.consistent",
        "Every event written in a log must be exactly what the rules derive from the decisions before it: a "
        "decision (a card played, a Chancellor's return, a deal) where one is due, and its consequences as the "
        "rules compute them.",
        "Chaque événement écrit dans un journal doit être exactement ce que les règles déduisent des décisions "
        "précédentes : une décision (carte jouée, retour du Chancelier, distribution) quand elle est attendue, et "
        "ses conséquences telles que les règles les calculent.",
        ("RULINGS §10", "events/log.py"),
    ),
    (
        "shuffle.commitment",
        "When the referee shuffles, it commits at creation to the SHA-256 of a secret 256-bit server seed and "
        "reveals that seed only once the game is over; the revealed seed must match the commitment.",
        "Quand l'arbitre mélange lui-même, il s'engage dès la création de la partie en publiant le SHA-256 d'une "
        "graine secrète de 256 bits, la graine du serveur, et ne révèle cette graine qu'une fois la partie terminée ; "
        "la graine révélée doit correspondre à cet engagement.",
        ("docs/shuffle.md", "our ruling"),
    ),
    (
        "shuffle.seat-seed",
        "Each seat may add one 256-bit seed of its own (64 hex digits) before the game ends; it is mixed into "
        "every round dealt after it.",
        "Chaque siège peut ajouter sa propre graine de 256 bits (64 chiffres hexadécimaux) avant la fin de la "
        "partie ; elle entre dans le mélange de chaque manche distribuée ensuite.",
        ("docs/shuffle.md", "our ruling"),
    ),
    (
        "shuffle.derivation",
        "Each round's deck order and random first player are derived from the server seed and the seat seeds "
        "given before the round (HMAC-SHA256 in counter mode driving an unbiased Fisher–Yates).",
        "L'ordre du paquet et le premier joueur tiré au sort de chaque manche découlent de la graine du serveur et "
        "des graines des sièges fournies avant la manche (HMAC-SHA256 en mode compteur, qui alimente un mélange de "
        "Fisher–Yates sans biais).",
        ("docs/shuffle.md", "RULINGS §2"),
    ),
    (
        "log.chain",
        "Every event line carries the SHA-256 of the line before it (the header, for the first event), computed "
        "over its canonical JSON: a changed, removed, added or moved line breaks the chain.",
        "Chaque ligne d'événement porte le SHA-256 de la ligne précédente (l'en-tête, pour le premier événement), "
        "calculé sur le JSON canonique de cette ligne : une ligne modifiée, supprimée, ajoutée ou déplacée rompt la "
        "chaîne.",
        ("docs/log-format.md",),
    ),
    (
        "log.signature",
        "An exported log ends with the referee's Ed25519 signature over the hash of its last line.",
        "Un journal exporté se termine par la signature Ed25519 de l'arbitre sur le condensé de sa dernière ligne.",
        ("docs/log-format.md",),
    ),
    (
        "info.views",
        "Each player sees public information, their own hand and what their own cards showed them; the deck order "
        "and the face-down card are known to nobody until the round ends.",
        "Chaque joueur voit les informations publiques, sa propre main et ce que ses propres cartes lui ont montré ; "
        "l'ordre de la pioche et la carte mise de côté face cachée ne sont connus de personne avant la fin de la "
        "manche.",
        ("RULINGS §10",),
    ),
    (
        "position.possible",
        "A position described in the middle of a round is possible only if its cards and the unknown ones make up "
        "exactly the ruleset's deck: no more copies of a card than the deck holds, one card in each hand still in "
        "the round and two in the hand of the player to play, and as many unseen cards as unknown places for them.",
        "Une position décrite en cours de manche n'est possible que si ses cartes et les cartes inconnues forment "
        "exactement le paquet du jeu de règles : pas plus d'exemplaires d'une carte que le paquet n'en compte, une "
        "carte dans chaque main encore en jeu et deux dans celle du joueur qui doit jouer, et autant de cartes non "
        "vues que de places inconnues pour elles.",
        ("RULINGS §1", "RULINGS §2"),
    ),
    (
        "lobby.join",
        "A game may leave seats open when it is created. An open seat is taken once, under a name nobody at the "
        "table has, and only before the first round is dealt.",
        "Une partie peut laisser des sièges ouverts à sa création. Un siège ouvert se prend une seule fois, sous un "
        "nom qu'aucun joueur de la table ne porte, et seulement avant la distribution de la première manche.",
        ("docs/api.md",),
    ),
    (
        "lobby.join-deadline",
        "A game created with open seats may say until when they may be taken (join_by). A seat cannot be taken at "
        "or after that time; if a seat is still open then, the referee ends the game unplayed (game_aborted, reason "
        "seats_unfilled): nobody wins, and no rating moves.",
        "Une partie créée avec des sièges ouverts peut dire jusqu'à quand ils peuvent être pris (join_by). Un siège "
        "ne peut plus être pris à cette heure ni après ; si un siège est encore ouvert alors, l'arbitre met fin à la "
        "partie sans qu'elle soit jouée (game_aborted, raison seats_unfilled) : personne ne gagne, et aucun "
        "classement ne bouge.",
        ("docs/operations.md",),
    ),
    (
        "lobby.deal",
        "The first round is dealt once every seat is taken.",
        "La première manche n'est distribuée qu'une fois tous les sièges pris.",
        ("docs/api.md",),
    ),
    (
        "leave.resign",
        "A player may resign once the game has been dealt: they are out of the round at once, their hand "
        "discarded face up without effect (a Spy discarded this way gains no favor), and if it was their turn the "
        "turn ends there, a Chancellor's decision included. When only one player is left in the game, that "
        "player wins it at once.",
        "Un joueur peut abandonner une fois la partie distribuée : il quitte aussitôt la manche, sa main est "
        "défaussée face visible sans effet (une Espionne défaussée ainsi ne rapporte aucune faveur) et, si c'était "
        "son tour, le tour s'arrête là, décision du Chancelier comprise. Quand il ne reste qu'un joueur dans la "
        "partie, celui-ci la gagne aussitôt.",
        ("RULINGS §12",),
    ),
    (
        "leave.gone",
        "A player who has left the game makes no more moves, is dealt no card in later rounds (two players left "
        "play the 2-player setup) and cannot win the game; their favors stay on the record, and the number of "
        "favors needed to win stays the one of the starting player count.",
        "Un joueur qui a quitté la partie ne joue plus, ne reçoit aucune carte dans les manches suivantes (deux "
        "joueurs restants jouent avec la mise en place à deux) et ne peut pas gagner la partie ; ses faveurs "
        "restent acquises, et le nombre de faveurs nécessaire pour gagner reste celui du nombre de joueurs du "
        "départ.",
        ("RULINGS §12",),
    ),
    (
        "leave.abort",
        "The game's organiser may abort it before it ends: nobody wins, and nothing after it is accepted.",
        "L'organisateur d'une partie peut l'annuler avant sa fin : personne ne gagne, et plus rien n'est accepté "
        "ensuite.",
        ("RULINGS §12",),
    ),
    (
        "clock.deadline",
        "A game may have a turn clock: turn_seconds (1 second to 7 days) for each decision, and what happens when "
        "it runs out (on_timeout: bot or resign). Each pending decision has one deadline, turn_seconds after its "
        "clock was started.",
        "Une partie peut avoir une pendule : « turn_seconds » (d'une seconde à sept jours) pour chaque décision, "
        "et ce qui se passe quand le temps est écoulé (« on_timeout » : « bot » ou « resign »). Chaque décision "
        "en attente a une échéance, « turn_seconds » après le départ de sa pendule.",
        ("RULINGS §12",),
    ),
    (
        "clock.timeout",
        "A timeout is recorded only once the deadline has passed. Then, as the game says, the seat resigns, or the "
        "server's expert bot makes the pending decision as an ordinary move of that seat.",
        "Un dépassement de temps n'est enregistré qu'une fois l'échéance passée. Alors, selon la partie, le siège "
        "abandonne, ou le robot « expert » du serveur prend la décision en attente, comme un coup ordinaire "
        "de ce siège.",
        ("RULINGS §12",),
    ),
    (
        "clock.order",
        "The times a log records (joins, clocks, timeouts, resignations, an abort) never go backwards.",
        "Les heures qu'un journal enregistre (arrivées, pendules, dépassements, abandons, annulation) ne "
        "reviennent jamais en arrière.",
        ("RULINGS §12",),
    ),
)
