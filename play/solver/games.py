"""The reduced games the solver plays: one round of two players on a deck cut down from a ruleset of the catalogue.

A `CutGame` is a reduced ruleset (`core.rulesets`) and the three cards its two-player round puts face up,
fixed in advance: only the other cards are dealt at random (one set aside, one to each seat, the rest the draw pile).

**The published N-card games.** jackie-scholl/love-letter-AI (the best published equilibrium: under 5%
exploitability on its 4-card game) cuts the original 16-card deck (2012: five Guards, two each of Priest, Baron,
Handmaid, Prince, then King, Countess, Princess) down to N cards: the deck, listed Princess first and Guards last, is
shuffled by Java's `Collections.shuffle` with `new Random(0)`, the first 16 − N cards are laid face up, and the last N
are played. Its 4-card game leaves a Baron and three Guards. Here the same N cards are played, with the three cards
just before them face up (the project's two-player round lays three face up); the other face-up cards of the
original are simply not in the reduced deck, which tells both seats the same as seeing them. `java_order` rebuilds
that order from Java's documented generator (a 48-bit linear congruential one) and shuffle, not from its code.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from loveletter.core.cards import Card
from loveletter.core.rulesets import Ruleset, get_ruleset, reduced

FACE_UP = 3
"""Cards a two-player round lays face up (RULINGS §2)."""

_JAVA_DECK = (
    (Card.PRINCESS,) * 1
    + (Card.COUNTESS,) * 1
    + (Card.KING,) * 1
    + (Card.PRINCE,) * 2
    + (Card.HANDMAID,) * 2
    + (Card.BARON,) * 2
    + (Card.PRIEST,) * 2
    + (Card.GUARD,) * 5
)
"""The original deck in the order the published code lists it (its card enum runs from the Princess down)."""

PUBLISHED = range(4, 14)
"""The published games this module can rebuild: 4 cards (one decision) up to 13 (three left for the face-up ones)."""


@dataclass(frozen=True, slots=True)
class CutGame:
    """One round of two players on `ruleset`, with `face_up` laid face up and the rest dealt at random."""

    name: str
    ruleset: Ruleset
    face_up: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.face_up) != FACE_UP:
            raise ValueError(f"a two-player round lays {FACE_UP} cards face up, not {len(self.face_up)}")
        if Counter(self.face_up) - Counter(self.ruleset.deck):
            raise ValueError("the face-up cards are not all in the deck")
        if self.ruleset.has(Card.CHANCELLOR):
            # The solver deals the unseen cards again in any order; a Chancellor's known cards under the deck would
            # pin some of them (not needed by the published games, which are of the original deck).
            raise ValueError("the solver does not take decks with a Chancellor")

    @property
    def in_play(self) -> tuple[Card, ...]:
        """The cards dealt at random: the deck less the face-up ones, in the catalogue's order."""
        rest = Counter(self.ruleset.deck) - Counter(self.face_up)
        return tuple(card for card in Card for _ in range(rest[card]))


def java_order() -> tuple[Card, ...]:
    """The original deck after `Collections.shuffle(deck, new Random(0))`, as the published code lays it out."""
    rng = _JavaRandom(0)
    cards = list(_JAVA_DECK)
    for i in range(len(cards), 1, -1):  # Collections.shuffle on a random-access list
        j = rng.next_int(i)
        cards[i - 1], cards[j] = cards[j], cards[i - 1]
    return tuple(cards)


def published(n: int) -> CutGame:
    """The published game of `n` cards: the last `n` of `java_order()` in play, the three before them face up."""
    if n not in PUBLISHED:
        raise ValueError(f"the published games have {PUBLISHED.start} to {PUBLISHED.stop - 1} cards, not {n}")
    order = java_order()
    start = len(order) - n
    face_up = order[start - FACE_UP : start]
    return CutGame(f"published {n}-card game", reduced("2012", Counter(order[start - FACE_UP :])), face_up)


def cut(parent: str, in_play: tuple[Card, ...], face_up: tuple[Card, ...]) -> CutGame:
    """A game of one's own: `in_play` dealt at random, `face_up` laid face up, on `parent`'s rules."""
    get_ruleset(parent)  # an unknown parent is a KeyError naming the known ones
    return CutGame(f"{len(in_play)}-card game", reduced(parent, Counter(in_play + face_up)), face_up)


class _JavaRandom:
    """`java.util.Random` as its documentation specifies it: enough for `next_int(bound)`."""

    __slots__ = ("_seed",)
    _MULTIPLIER, _ADDEND, _MASK = 0x5DEECE66D, 0xB, (1 << 48) - 1

    def __init__(self, seed: int) -> None:
        self._seed = (seed ^ self._MULTIPLIER) & self._MASK

    def _next(self, bits: int) -> int:
        self._seed = (self._seed * self._MULTIPLIER + self._ADDEND) & self._MASK
        return self._seed >> (48 - bits)  # bits <= 31 here: never negative as a Java int

    def next_int(self, bound: int) -> int:
        r = self._next(31)
        if bound & (bound - 1) == 0:  # a power of two: the high bits
            return (bound * r) >> 31
        u = r
        while u - (r := u % bound) + bound - 1 >= 1 << 31:  # Java's int overflow test: redraw
            u = self._next(31)
        return r
