"""The ten card kinds. A card's id is stable across rulesets; its value and names are not."""

from __future__ import annotations

from enum import StrEnum


class Card(StrEnum):
    """A card kind, identified by the stable id used in every log and API."""

    SPY = "spy"
    GUARD = "guard"
    PRIEST = "priest"
    BARON = "baron"
    HANDMAID = "handmaid"
    PRINCE = "prince"
    CHANCELLOR = "chancellor"
    KING = "king"
    COUNTESS = "countess"
    PRINCESS = "princess"


CARD_ORDER: tuple[Card, ...] = tuple(Card)
"""Canonical order of card kinds; an index into it is a card's slot in action codes."""

CARD_INDEX: dict[Card, int] = {card: i for i, card in enumerate(CARD_ORDER)}

TARGETS_OTHER: frozenset[Card] = frozenset({Card.GUARD, Card.PRIEST, Card.BARON, Card.KING})
"""Cards whose effect chooses another player (RULINGS §5)."""

TARGETS_ANY: frozenset[Card] = frozenset({Card.PRINCE})
"""Cards whose effect chooses any player, the actor included."""

NAMES_EN: dict[Card, str] = {
    Card.SPY: "Spy",
    Card.GUARD: "Guard",
    Card.PRIEST: "Priest",
    Card.BARON: "Baron",
    Card.HANDMAID: "Handmaid",
    Card.PRINCE: "Prince",
    Card.CHANCELLOR: "Chancellor",
    Card.KING: "King",
    Card.COUNTESS: "Countess",
    Card.PRINCESS: "Princess",
}

NAMES_FR: dict[Card, str] = {
    Card.SPY: "Espionne",
    Card.GUARD: "Garde",
    Card.PRIEST: "Prêtre",
    Card.BARON: "Baron",
    Card.HANDMAID: "Servante",
    Card.PRINCE: "Prince",
    Card.CHANCELLOR: "Chancelier",
    Card.KING: "Roi",
    Card.COUNTESS: "Comtesse",
    Card.PRINCESS: "Princesse",
}

NAMES_FR_2012: dict[Card, str] = {
    Card.GUARD: "Garde Odette",
    Card.PRIEST: "Prêtre Tomas",
    Card.BARON: "Baron Talus",
    Card.HANDMAID: "Servante Susannah",
    Card.PRINCE: "Prince Arnaud",
    Card.KING: "Roi Arnaud IV",
    Card.COUNTESS: "Comtesse Wilhelmina",
    Card.PRINCESS: "Princesse Annette",
}
"""Named characters of the original edition (seed 004)."""

NAMES_FR_PRINCESS_PRINCESS: dict[Card, str] = {
    Card.SPY: "Claire l'espionne",
    Card.GUARD: "Garde",
    Card.PRIEST: "Conseillers du roi",
    Card.BARON: "Bibliothécaire du palais",
    Card.HANDMAID: "Oliver le dragon",
    Card.PRINCE: "Prince Vladric",
    Card.CHANCELLOR: "Princesses Amira & Sadie",
    Card.KING: "Roi fantôme",
    Card.COUNTESS: "Céleste la licorne",
    Card.PRINCESS: "Ogre",
}
"""Themed names of "Love Letter : Princesse Princesse" (RULINGS §8)."""

NAMES_EN_PRINCESS_PRINCESS: dict[Card, str] = {
    Card.SPY: "Claire the Spy",
    Card.GUARD: "Guard",
    Card.PRIEST: "King's Advisors",
    Card.BARON: "Palace Librarian",
    Card.HANDMAID: "Oliver the Dragon",
    Card.PRINCE: "Prince Vladric",
    Card.CHANCELLOR: "Princesses Amira & Sadie",
    Card.KING: "Ghost King",
    Card.COUNTESS: "Celeste the Unicorn",
    Card.PRINCESS: "Ogre",
}

# -- the names in a sentence -------------------------------------------------------------------------------------

THE_FR: dict[str, str] = {
    # 2019 and 2019-classic (seed 000): the rulebook writes « le Garde », « la Comtesse », « l'Espionne ».
    "Espionne": "l'Espionne",
    "Garde": "le Garde",
    "Prêtre": "le Prêtre",
    "Baron": "le Baron",
    "Servante": "la Servante",
    "Prince": "le Prince",
    "Chancelier": "le Chancelier",
    "Roi": "le Roi",
    "Comtesse": "la Comtesse",
    "Princesse": "la Princesse",
    # 2012 (seed 004): a title and a character's name; the article agrees with the character (Odette is a woman).
    "Garde Odette": "la Garde Odette",
    "Prêtre Tomas": "le Prêtre Tomas",
    "Baron Talus": "le Baron Talus",
    "Servante Susannah": "la Servante Susannah",
    "Prince Arnaud": "le Prince Arnaud",
    "Roi Arnaud IV": "le Roi Arnaud IV",
    "Comtesse Wilhelmina": "la Comtesse Wilhelmina",
    "Princesse Annette": "la Princesse Annette",
    # Princesse Princesse (seed 002): a character's own name takes no article (« jouer Céleste la licorne »).
    "Claire l'espionne": "Claire l'espionne",
    "Conseillers du roi": "les Conseillers du roi",
    "Bibliothécaire du palais": "la Bibliothécaire du palais",
    "Oliver le dragon": "Oliver le dragon",
    "Prince Vladric": "le Prince Vladric",
    "Princesses Amira & Sadie": "les Princesses Amira & Sadie",
    "Roi fantôme": "le Roi fantôme",
    "Céleste la licorne": "Céleste la licorne",
    "Ogre": "l'Ogre",
}
"""Every French card name with its definite article, as a sentence uses it: « jouer la Comtesse »."""

THE_EN: dict[str, str] = {
    **{name: f"the {name}" for name in NAMES_EN.values()},
    "King's Advisors": "the King's Advisors",
    "Palace Librarian": "the Palace Librarian",
    "Ghost King": "the Ghost King",
    "Ogre": "the Ogre",
    # A character's own name takes no article.
    "Claire the Spy": "Claire the Spy",
    "Oliver the Dragon": "Oliver the Dragon",
    "Prince Vladric": "Prince Vladric",
    "Princesses Amira & Sadie": "Princesses Amira & Sadie",
    "Celeste the Unicorn": "Celeste the Unicorn",
}
"""Every English card name with its article where it takes one: "play the Countess", "play Celeste the Unicorn"."""

PLURAL_NAMES = frozenset({"Conseillers du roi", "King's Advisors", "Princesses Amira & Sadie"})
"""Card names that are plural: their verb agrees (« les Princesses Amira & Sadie ne ciblent personne »)."""
