"""The four rulesets of RULINGS §1 and the rule options of RULINGS §11."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from types import MappingProxyType
from typing import Mapping, TypeVar

from loveletter.core.cards import (
    CARD_ORDER,
    NAMES_EN,
    NAMES_EN_PRINCESS_PRINCESS,
    NAMES_FR,
    NAMES_FR_2012,
    NAMES_FR_PRINCESS_PRINCESS,
    PLURAL_NAMES,
    THE_EN,
    THE_FR,
    Card,
)
from loveletter.core.lang import BilingualError, Lang, Text


class TieRule(StrEnum):
    """How a deck-out showdown tie is settled."""

    ALL_WIN = "all-win"
    DISCARD_SUM = "discard-sum"


class Tie2012(StrEnum):
    """RULINGS §11: a 2012 tie that survives the discard sums."""

    NOBODY = "nobody"
    ALL = "all"


class GuardUnknown(StrEnum):
    """RULINGS §11: a Guard naming a card that is not in the ruleset."""

    REFUSE = "refuse"
    MISS = "miss"


MAX_SPECTATOR_DELAY = 100
"""The longest spectator delay, in moves: beyond any two-player game's length, so a bound and not a setting."""


@dataclass(frozen=True, slots=True)
class Options:
    """The rule options chosen when a game is created (recorded in `game_started`), and one table option that
    rides with them: `spectator_delay`, the moves a spectator's view of the running game lags behind (the referee
    enforces it; the rules ignore it). It is written only when set, so the options of older games keep their
    bytes and every log without it stays valid."""

    tie_2012: Tie2012 = Tie2012.NOBODY
    guard_unknown: GuardUnknown = GuardUnknown.REFUSE
    spectator_delay: int = 0

    def as_dict(self) -> dict[str, str]:
        options = {"tie_2012": self.tie_2012.value, "guard_unknown": self.guard_unknown.value}
        if self.spectator_delay:
            options["spectator_delay"] = str(self.spectator_delay)
        return options

    @classmethod
    def from_dict(cls, data: Mapping[str, str] | None) -> Options:
        data = data or {}
        unknown = set(data) - {"tie_2012", "guard_unknown", "spectator_delay"}
        if unknown:
            names = ", ".join(sorted(unknown))
            quoted = ", ".join(f"« {name} »" for name in sorted(unknown))
            raise BilingualError(
                Text(
                    f"unknown rule option(s): {names}",
                    f"l'option {quoted} n'existe pas" if len(unknown) == 1 else f"les options {quoted} n'existent pas",
                )
            )
        return cls(
            tie_2012=_option(Tie2012, "tie_2012", data.get("tie_2012", Tie2012.NOBODY.value)),
            guard_unknown=_option(GuardUnknown, "guard_unknown", data.get("guard_unknown", GuardUnknown.REFUSE.value)),
            spectator_delay=_delay(data.get("spectator_delay", "0")),
        )


E = TypeVar("E", Tie2012, GuardUnknown)


def _delay(value: str) -> int:
    """A spectator delay as the options write it: a whole number of moves, in decimal digits, within the bound."""
    digits = isinstance(value, str) and 0 < len(value) <= 3 and value.isascii() and value.isdigit()
    if digits and int(value) <= MAX_SPECTATOR_DELAY:
        return int(value)
    raise BilingualError(
        Text(
            f"spectator_delay must be a number of moves from 0 to {MAX_SPECTATOR_DELAY}, not {value!r}",
            f"l'option spectator_delay doit être un nombre de coups de 0 à {MAX_SPECTATOR_DELAY}, et non « {value} »",
        )
    )


def _option(kind: type[E], key: str, value: str) -> E:
    """`kind(value)`; a value the option does not take is an error naming the ones it does, in both languages."""
    try:
        return kind(value)
    except ValueError:
        allowed_en = ", ".join(member.value for member in kind)
        allowed_fr = " ou ".join(f"« {member.value} »" for member in kind)
        raise BilingualError(
            Text(
                f"{key} must be one of {allowed_en}, not {value!r}",
                f"l'option {key} doit valoir {allowed_fr}, et non « {value} »",
            )
        ) from None


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Everything that varies between editions; the rules themselves live in `core.decide`."""

    id: str
    title: str
    title_fr: str
    values: Mapping[Card, int]
    copies: Mapping[Card, int]
    min_players: int
    max_players: int
    favors_to_win: Mapping[int, int]
    tie_rule: TieRule
    spy_favor: bool
    amira_sadie_favor: bool
    names_en: Mapping[Card, str]
    names_fr: Mapping[Card, str]
    deck: tuple[Card, ...] = field(init=False)
    cards: tuple[Card, ...] = field(init=False)
    """The card kinds in this ruleset, by increasing value (computed once: every seat view lists them)."""
    counts: tuple[tuple[Card, int], ...] = field(init=False)
    """Each kind of `cards` with its copies, in that order: a view's unseen counts start from `dict(counts)`."""

    def __post_init__(self) -> None:
        deck = tuple(card for card in Card for _ in range(self.copies.get(card, 0)))
        object.__setattr__(self, "deck", deck)
        kinds = sorted((c for c in Card if self.copies.get(c, 0)), key=self.values.__getitem__)
        object.__setattr__(self, "cards", tuple(kinds))
        object.__setattr__(self, "counts", tuple((c, self.copies[c]) for c in kinds))

    def has(self, card: Card) -> bool:
        return self.copies.get(card, 0) > 0

    def name(self, card: Card, lang: Lang = "en") -> str:
        return (self.names_fr if lang == "fr" else self.names_en)[card]

    def title_in(self, lang: Lang = "en") -> str:
        return self.title_fr if lang == "fr" else self.title

    def the(self, card: Card, lang: Lang = "en") -> str:
        """The card's name with its article, as a sentence uses it: "the Countess", « la Comtesse », « l'Ogre »,
        « Céleste la licorne »."""
        name = self.name(card, lang)
        return (THE_FR if lang == "fr" else THE_EN).get(name, name)

    def plural(self, card: Card, lang: Lang = "en") -> bool:
        """Whether the card's name is plural (« les Conseillers du roi »): its verb agrees."""
        return self.name(card, lang) in PLURAL_NAMES


K = TypeVar("K")


def _frozen(mapping: Mapping[K, int]) -> Mapping[K, int]:
    return MappingProxyType(dict(mapping))


_VALUES_2019 = {
    Card.SPY: 0, Card.GUARD: 1, Card.PRIEST: 2, Card.BARON: 3, Card.HANDMAID: 4,
    Card.PRINCE: 5, Card.CHANCELLOR: 6, Card.KING: 7, Card.COUNTESS: 8, Card.PRINCESS: 9,
}  # fmt: skip
_COPIES_2019 = {
    Card.SPY: 2, Card.GUARD: 6, Card.PRIEST: 2, Card.BARON: 2, Card.HANDMAID: 2,
    Card.PRINCE: 2, Card.CHANCELLOR: 2, Card.KING: 1, Card.COUNTESS: 1, Card.PRINCESS: 1,
}  # fmt: skip
_VALUES_2012 = {
    Card.GUARD: 1, Card.PRIEST: 2, Card.BARON: 3, Card.HANDMAID: 4,
    Card.PRINCE: 5, Card.KING: 6, Card.COUNTESS: 7, Card.PRINCESS: 8,
}  # fmt: skip
_COPIES_2012 = {
    Card.GUARD: 5, Card.PRIEST: 2, Card.BARON: 2, Card.HANDMAID: 2,
    Card.PRINCE: 2, Card.KING: 1, Card.COUNTESS: 1, Card.PRINCESS: 1,
}  # fmt: skip
_FAVORS_2019 = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}

RULESETS: Mapping[str, Ruleset] = MappingProxyType(
    {
        "2019": Ruleset(
            id="2019",
            title="Love Letter (2019, 21 cards)",
            title_fr="Love Letter (2019, 21 cartes)",
            values=_frozen(_VALUES_2019),
            copies=_frozen(_COPIES_2019),
            min_players=2,
            max_players=6,
            favors_to_win=_frozen(_FAVORS_2019),
            tie_rule=TieRule.ALL_WIN,
            spy_favor=True,
            amira_sadie_favor=False,
            names_en=NAMES_EN,
            names_fr=NAMES_FR,
        ),
        "2019-classic": Ruleset(
            id="2019-classic",
            title="Love Letter (2019, classic variant, 16 cards)",
            title_fr="Love Letter (2019, version classique, 16 cartes)",
            values=_frozen(_VALUES_2019),
            copies=_frozen({**_COPIES_2019, Card.GUARD: 5, Card.CHANCELLOR: 0, Card.SPY: 0}),
            min_players=2,
            max_players=4,
            favors_to_win=_frozen({2: 6, 3: 5, 4: 4}),
            tie_rule=TieRule.ALL_WIN,
            spy_favor=False,
            amira_sadie_favor=False,
            names_en=NAMES_EN,
            names_fr=NAMES_FR,
        ),
        "2012": Ruleset(
            id="2012",
            title="Love Letter (original edition, 16 cards)",
            title_fr="Love Letter (édition originale, 16 cartes)",
            values=_frozen(_VALUES_2012),
            copies=_frozen(_COPIES_2012),
            min_players=2,
            max_players=4,
            favors_to_win=_frozen({2: 7, 3: 5, 4: 4}),
            tie_rule=TieRule.DISCARD_SUM,
            spy_favor=False,
            amira_sadie_favor=False,
            names_en=NAMES_EN,
            names_fr={**NAMES_FR, **NAMES_FR_2012},
        ),
        "princess-princess": Ruleset(
            id="princess-princess",
            title="Love Letter: Princess Princess (themed 2019 edition)",
            title_fr="Love Letter : Princesse Princesse (édition thématique de 2019)",
            values=_frozen(_VALUES_2019),
            copies=_frozen(_COPIES_2019),
            min_players=2,
            max_players=6,
            favors_to_win=_frozen(_FAVORS_2019),
            tie_rule=TieRule.ALL_WIN,
            spy_favor=True,
            amira_sadie_favor=True,
            names_en=NAMES_EN_PRINCESS_PRINCESS,
            names_fr=NAMES_FR_PRINCESS_PRINCESS,
        ),
    }
)

DEFAULT_RULESET = "2019"


def get_ruleset(ruleset_id: str) -> Ruleset:
    """Look a ruleset up by id (a reduced research deck too); an unknown id is a `KeyError` naming the known ones."""
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        if MARK in ruleset_id:  # a reduced research deck, named by its id (below)
            return parse(ruleset_id)
        known = ", ".join(RULESETS)
        raise KeyError(f"unknown ruleset {ruleset_id!r} (known: {known})") from None


# -- reduced research decks ---------------------------------------------------------------------------------
#
# Reduced research decks: a ruleset of the catalogue cut down to fewer cards, for the exact solver (play/solver).
#
# A reduced ruleset keeps everything of its parent (the card values and names, the tie rule, the favors) but holds
# only the copies its id names, and is played by two players only. Its id says it all, so a log that names one can be
# folded anywhere without registering anything first: `"2012@guard*4,baron*1,prince*1,king*1,countess*1"`.
#
# These decks are not offered at a table: `decide` creates games of the rulesets of `RULESETS` only, and a reduced
# one is reached through `get_ruleset`, which the fold and the engine use. The rules stay those of `core.decide`.

MARK = "@"
"""What separates the parent's id from the list of copies in a reduced ruleset's id."""

SMALLEST = 7
"""A two-player round deals one card aside, three face up, one to each seat and needs one to draw: seven cards."""


def reduced_id(parent: str, copies: Mapping[Card, int]) -> str:
    """The id of `parent` cut down to `copies` (cards in the catalogue's order, kinds with no copy left out)."""
    kinds = ",".join(f"{card.value}*{copies[card]}" for card in CARD_ORDER if copies.get(card, 0) > 0)
    return f"{parent}{MARK}{kinds}"


def reduced(parent: str, copies: Mapping[Card, int]) -> Ruleset:
    """The reduced ruleset of `parent` holding `copies`; a `KeyError` says why when it cannot be one."""
    return parse(reduced_id(parent, copies))


@lru_cache(maxsize=256)
def parse(ruleset_id: str) -> Ruleset:
    """The reduced ruleset an id names (one object per id, so states that share it compare alike)."""
    parent_id, _, spec = ruleset_id.partition(MARK)
    parent = RULESETS.get(parent_id)
    if parent is None or not spec:
        raise KeyError(f"unknown ruleset {ruleset_id!r}: a reduced ruleset is <ruleset>{MARK}<card>*<copies>,…")
    copies: dict[Card, int] = {}
    for part in spec.split(","):
        name, _, count = part.partition("*")
        try:
            card, n = Card(name), int(count)
        except ValueError:
            raise KeyError(f"unknown ruleset {ruleset_id!r}: {part!r} is not <card>*<copies>") from None
        if card in copies or not 0 < n <= parent.copies.get(card, 0):
            raise KeyError(f"unknown ruleset {ruleset_id!r}: {parent_id} has {parent.copies.get(card, 0)} {name}")
        copies[card] = n
    size = sum(copies.values())
    if size < SMALLEST:
        raise KeyError(f"unknown ruleset {ruleset_id!r}: {size} cards, a two-player round needs {SMALLEST}")
    if reduced_id(parent_id, copies) != ruleset_id:
        raise KeyError(f"unknown ruleset {ruleset_id!r}: write it {reduced_id(parent_id, copies)!r}")
    return Ruleset(
        id=ruleset_id,
        title=f"{parent.title}, cut down to {size} cards (research)",
        title_fr=f"{parent.title_fr}, réduit à {size} cartes (recherche)",
        values=parent.values,
        copies=_frozen(copies),
        min_players=2,
        max_players=2,
        favors_to_win=_frozen({2: parent.favors_to_win[2]}),
        tie_rule=parent.tie_rule,
        spy_favor=parent.spy_favor,
        amira_sadie_favor=parent.amira_sadie_favor,
        names_en=parent.names_en,
        names_fr=parent.names_fr,
    )
