"""What each card does, said shortly in English and French, as the seat page prints it on the card (beside its
art, value and name). Short texts of the pages, not the rules' own (`core.rules`, written for refusals and rulings):
each names the cards it mentions as the game's ruleset calls them (`{guard}`, `{king}`, `{prince}`), so Princess
Princess's Countess is played beside "the Ghost King or Prince Vladric". Read-only, like the words' catalogue.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from loveletter.core.cards import Card
from loveletter.core.lang import Lang, Text
from loveletter.core.rulesets import Ruleset

EFFECTS: Mapping[str, Text] = MappingProxyType(
    {
        "spy": Text(
            "No effect. At the end of the round, if you alone still in it played or discarded a card of value 0, "
            "you gain a favor.",
            "Aucun effet. À la fin de la manche, si vous êtes le seul joueur encore en lice à avoir joué ou "
            "défaussé une carte de valeur 0, vous gagnez une faveur.",
        ),
        "guard": Text(
            "Choose another player and name a card other than {guard}: if they hold it, they are out of the round.",
            "Choisissez un autre joueur et nommez une carte autre que {guard} : s'il l'a en main, il quitte la manche.",
        ),
        "priest": Text(
            "Choose another player and look at their hand in secret.",
            "Choisissez un autre joueur et regardez sa main en secret.",
        ),
        "baron": Text(
            "Choose another player and compare your hands in secret: the lower card is out of the round.",
            "Choisissez un autre joueur et comparez vos mains en secret : la carte la plus faible quitte la manche.",
        ),
        "handmaid": Text(
            "Until your next turn, other players' cards cannot choose you.",
            "Jusqu'à votre prochain tour, les cartes des autres joueurs ne peuvent pas vous cibler.",
        ),
        "prince": Text(
            "Choose any player, yourself included: they discard their hand and draw a new card.",
            "Choisissez un joueur, vous compris : il défausse sa main et pioche une nouvelle carte.",
        ),
        "chancellor": Text(
            "Draw two cards, keep one of your hand and put the others under the deck in the order you choose.",
            "Piochez deux cartes, gardez-en une de votre main et placez les autres sous la pioche dans l'ordre de "
            "votre choix.",
        ),
        "chancellor.pp": Text(
            "If two players still in the round each played or discarded a card of value 6, each gains a favor.",
            "Si deux joueurs encore en lice ont chacun joué ou défaussé une carte de valeur 6, chacun gagne une "
            "faveur.",
        ),
        "king": Text(
            "Choose another player and trade hands with them.",
            "Choisissez un autre joueur et échangez vos mains.",
        ),
        "countess": Text(
            "You must play this card if your other card is {king} or {prince}.",
            "Vous devez jouer cette carte si votre autre carte est {king} ou {prince}.",
        ),
        "princess": Text(
            "Whoever plays or discards this card is out of the round.",
            "Qui joue ou défausse cette carte quitte la manche.",
        ),
    }
)
"""One short effect per card kind (`chancellor.pp`: what Princess Princess's value-6 card adds)."""


def effect(rs: Ruleset, card: Card, lang: Lang) -> str:
    """What `card` does in `rs`, in `lang`, with the ruleset's own names of the cards it mentions."""
    text = EFFECTS[str(card)](lang)
    if card is Card.CHANCELLOR and rs.amira_sadie_favor:
        text = f"{text} {EFFECTS['chancellor.pp'](lang)}"
    names = {str(c): rs.the(c, lang) for c in (Card.GUARD, Card.KING, Card.PRINCE)}
    return text.format(**names)
