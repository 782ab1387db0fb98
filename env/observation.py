"""A seat's knowledge view as a fixed-size vector of small non-negative numbers (float32).

The vector is built from `loveletter.core.views.view(state, seat)` and from nothing else, so it holds exactly
what the seat may know (RULINGS §10): its own hand, what it was shown, what lies face up, and the public
facts of each seat. Seats are listed relative to the observer (block 0 is the observer, block 1 the next seat
clockwise…), so one policy can play any seat. Every per-card group has ten cells, one per card kind in
`CARD_ORDER` (spy, guard, priest, baron, handmaid, prince, chancellor, king, countess, princess), whatever the
ruleset: a kind the ruleset lacks stays 0. `FIELDS` lists the groups in order; docs/env.md has the table.

Encoding is most of the environment's cost per step, so each group is turned into bytes once per distinct
value (a seat's public facts, a hand, the unseen counts…) and the vector is those bytes joined.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from loveletter.core.cards import CARD_INDEX, CARD_ORDER, Card
from loveletter.core.rulesets import Ruleset
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_PLAY
from loveletter.core.views import View

KINDS = len(CARD_ORDER)
ROUND_CAP = 63
"""The round number is shown up to this value (a longer game shows 63 from then on)."""


class Field(NamedTuple):
    """One group of cells: its name, its size, the largest value a cell may hold, and what it means."""

    name: str
    size: int
    high: float
    means: str


def fields(players: int) -> tuple[Field, ...]:
    """The observation's groups, in order, for a table of `players`."""
    head = (
        Field("to_move", 1, 1, "1 when the observer must decide now (its mask has a 1)"),
        Field("phase", 3, 1, "one-hot: play, chancellor (keep one and return), other (between rounds, over)"),
        Field("active", players, 1, "one-hot, relative seat of the player who must decide (all 0 when nobody)"),
        Field("hand", KINDS, 3, "the observer's hand: copies of each kind"),
        Field("face_up", KINDS, 3, "the cards laid face up at the start of a two-player round"),
        Field("unseen", KINDS, 6, "copies of each kind the observer has not seen anywhere (core's `unseen`)"),
        Field("deck_known", KINDS, 6, "cards the observer put under the deck with a Chancellor, still in it"),
        Field("deck_top", KINDS, 1, "one-hot: the next card to be drawn, when the observer knows it"),
        Field("deck_size", 1, 21, "cards left in the draw pile"),
        Field("set_aside", 1, 1, "1 while a card is set aside face down"),
        Field("round", 1, ROUND_CAP, "the round number (capped)"),
        Field("favors_to_win", 1, 7, "favors that win the game at this table"),
    )
    seat = (
        Field("favors", 1, 15, "favor tokens"),
        Field("in_round", 1, 1, "the seat is still in this round"),
        Field("protected", 1, 1, "the seat is protected by a Handmaid"),
        Field("hand_size", 1, 3, "cards in the seat's hand"),
        Field("in_game", 1, 1, "the seat has not left the game"),
        Field("known_hand", KINDS, 1, "one-hot: the card the observer knows the seat holds (never set for itself)"),
        Field("front", KINDS, 6, "the cards in front of the seat this round: copies of each kind"),
        Field("last_front", KINDS, 1, "one-hot: the card the seat played or discarded last this round"),
    )
    return head + tuple(Field(f"seat{k}.{f.name}", f.size, f.high, f.means) for k in range(players) for f in seat)


_F32 = np.dtype(np.float32)


def _bytes(values: list[float]) -> bytes:
    return array("f", values).tobytes()  # a C float is float32 (IEEE 754 single) on every platform numpy runs on


def _counts(cards: tuple[Card, ...] | list[Card]) -> list[float]:
    out = [0.0] * KINDS
    for card in cards:
        out[CARD_INDEX[card]] += 1
    return out


def _one_hot(card: Card | None) -> list[float]:
    out = [0.0] * KINDS
    if card is not None:
        out[CARD_INDEX[card]] = 1
    return out


def _card_counts(cards: tuple[Card, ...]) -> bytes:
    return _bytes(_counts(cards))


def _numbers(values: tuple[int | bool, ...]) -> bytes:
    return _bytes([float(x) for x in values])


def _front(front: tuple[Card, ...]) -> bytes:
    """The cards in front of a seat: copies of each kind, then the last one."""
    return _bytes(_counts(front) + _one_hot(front[-1] if front else None))


class _Memo(dict[Any, bytes]):
    """A dict that makes a missing value with `make` and keeps it: a hit costs one C-level lookup."""

    def __init__(self, make: Callable[[Any], bytes]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> bytes:
        if len(self) >= 1 << 15:
            self.clear()
        value = self[key] = self.make(key)
        return value


class Encoder:
    """Views of one ruleset and table size -> observation vectors, with each group's bytes remembered."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.players = players
        self.fields = fields(players)
        self.size = sum(f.size for f in self.fields)
        self.high = np.concatenate([np.full(f.size, f.high, dtype=_F32) for f in self.fields])
        self._slots = tuple(CARD_INDEX[card] for card in ruleset.cards)  # `View.unseen` lists ruleset.cards
        self._favors_to_win = float(ruleset.favors_to_win[players])
        # seat order as the observer lists them: itself first, then clockwise
        self._orders = tuple(tuple((me + k) % players for k in range(players)) for me in range(players))
        self._heads = _Memo(self._head)
        self._cards = _Memo(_card_counts)
        self._unseen = _Memo(self._unseen_counts)
        self._deck = _Memo(self._deck_known)
        self._misc = _Memo(self._scalars)
        # A seat's block is keyed by SeatPublic[2:9], one slice: (favors, in_round, protected, hand_size, front,
        # known_hand, in_game). A new key (about one a step: someone's front grew) is built from smaller parts.
        self._seats = _Memo(self._seat)
        self._flags = _Memo(_numbers)
        self._known = {card: _bytes(_one_hot(card)) for card in (None, *CARD_ORDER)}
        self._fronts = _Memo(_front)

    def encode(self, view: View) -> npt.NDArray[np.float32]:
        """The observation vector of `view` (a fresh, writable array)."""
        me = view.seat
        assert me is not None, "observations are a seat's, not a spectator's"
        cards, seats, at = self._cards, self._seats, view.seats
        parts = [
            self._heads[view.phase, view.active, me],
            cards[view.hand],
            cards[view.face_up],
            self._unseen[tuple(view.unseen.values())],
            self._deck[view.deck_known],
            self._misc[view.deck_size, view.set_aside_face_down, view.round],
            *[seats[at[i][2:9]] for i in self._orders[me]],
        ]
        return np.frombuffer(b"".join(parts), dtype=_F32).copy()  # (copying is cheaper than joining into a bytearray)

    def _head(self, key: tuple[str, int | None, int]) -> bytes:
        phase, active, me = key
        where = [0.0] * self.players
        if active is not None:
            where[(active - me) % self.players] = 1
        phases = [float(phase == PHASE_PLAY), float(phase == PHASE_CHANCELLOR)]
        phases.append(float(not any(phases)))
        return _bytes([float(active == me), *phases, *where])

    def _unseen_counts(self, counts: tuple[int, ...]) -> bytes:
        out = [0.0] * KINDS
        for slot, count in zip(self._slots, counts, strict=True):
            out[slot] = count
        return _bytes(out)

    def _deck_known(self, known: tuple[tuple[int, Card], ...]) -> bytes:
        top = next((card for pos, card in known if pos == 0), None)
        return _bytes(_counts([card for _, card in known]) + _one_hot(top))

    def _scalars(self, key: tuple[int, bool, int]) -> bytes:
        deck_size, set_aside, round_no = key
        return _bytes([float(deck_size), float(set_aside), float(min(round_no, ROUND_CAP)), self._favors_to_win])

    def _seat(self, key: tuple[int, bool, bool, int, tuple[Card, ...], Card | None, bool]) -> bytes:
        favors, in_round, protected, hand_size, front, known, in_game = key
        flags = self._flags[favors, in_round, protected, hand_size, in_game]
        return flags + self._known[known] + self._fronts[front]
