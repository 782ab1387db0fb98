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

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from loveletter.core.cards import CARD_INDEX, CARD_ORDER, Card
from loveletter.core.rulesets import Ruleset
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_PLAY
from loveletter.core.views import SeatPublic, View

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
        Field("in_game", 1, 1, "the seat has not left the game"),
        Field("in_round", 1, 1, "the seat is still in this round"),
        Field("protected", 1, 1, "the seat is protected by a Handmaid"),
        Field("hand_size", 1, 3, "cards in the seat's hand"),
        Field("favors", 1, 15, "favor tokens"),
        Field("known_hand", KINDS, 1, "one-hot: the card the observer knows the seat holds (never set for itself)"),
        Field("front", KINDS, 6, "the cards in front of the seat this round: copies of each kind"),
        Field("last_front", KINDS, 1, "one-hot: the card the seat played or discarded last this round"),
    )
    return head + tuple(Field(f"seat{k}.{f.name}", f.size, f.high, f.means) for k in range(players) for f in seat)


_F32 = np.dtype(np.float32)


def _bytes(values: list[float]) -> bytes:
    return np.asarray(values, dtype=_F32).tobytes()


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


class Encoder:
    """Views of one ruleset and table size -> observation vectors, with each group's bytes remembered."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.players = players
        self.fields = fields(players)
        self.size = sum(f.size for f in self.fields)
        self.high = np.concatenate([np.full(f.size, f.high, dtype=_F32) for f in self.fields])
        self._kinds = ruleset.cards  # the order of `View.unseen`
        self._favors_to_win = float(ruleset.favors_to_win[players])
        self._memo: dict[object, bytes] = {}

    def encode(self, view: View) -> npt.NDArray[np.float32]:
        """The observation vector of `view` (a fresh, writable array)."""
        memo = self._memo
        if len(memo) >= 1 << 16:
            memo.clear()
        n = self.players
        me = view.seat
        assert me is not None, "observations are a seat's, not a spectator's"
        active = view.active
        key_head = ("head", view.phase, None if active is None else (active - me) % n, me == active)
        parts = [memo.get(key_head) or self._remember(key_head, self._head(*key_head[1:]))]
        for key in (
            ("cards", view.hand),
            ("cards", view.face_up),
            ("unseen", tuple(view.unseen.values())),
            ("deck", view.deck_known),
            ("misc", view.deck_size, view.set_aside_face_down, min(view.round, ROUND_CAP)),
        ):
            parts.append(memo.get(key) or self._remember(key, self._group(key)))
        seats = view.seats
        for k in range(n):
            s = seats[(me + k) % n]
            key_seat = (s.in_game, s.in_round, s.protected, s.hand_size, s.favors, s.known_hand, s.front)
            parts.append(memo.get(key_seat) or self._remember(key_seat, self._seat(s)))
        return np.frombuffer(bytearray().join(parts), dtype=_F32)

    def _remember(self, key: object, value: bytes) -> bytes:
        self._memo[key] = value
        return value

    def _head(self, phase: str, active: int | None, to_move: bool) -> bytes:
        where = [0.0] * self.players
        if active is not None:
            where[active] = 1
        phases = [float(phase == PHASE_PLAY), float(phase == PHASE_CHANCELLOR)]
        phases.append(float(not any(phases)))
        return _bytes([float(to_move), *phases, *where])

    def _group(self, key: tuple[object, ...]) -> bytes:
        kind = key[0]
        if kind == "cards":
            return _bytes(_counts(key[1]))  # type: ignore[arg-type]
        if kind == "unseen":
            out = [0.0] * KINDS
            for card, count in zip(self._kinds, key[1], strict=True):  # type: ignore[call-overload]
                out[CARD_INDEX[card]] = count
            return _bytes(out)
        if kind == "deck":
            known: tuple[tuple[int, Card], ...] = key[1]  # type: ignore[assignment]
            top = next((card for pos, card in known if pos == 0), None)
            return _bytes(_counts([card for _, card in known]) + _one_hot(top))
        _, deck_size, set_aside, round_no = key
        return _bytes([float(deck_size), float(set_aside), float(round_no), self._favors_to_win])  # type: ignore[arg-type]

    def _seat(self, s: SeatPublic) -> bytes:
        flags = [float(s.in_game), float(s.in_round), float(s.protected), float(s.hand_size), float(s.favors)]
        last = s.front[-1] if s.front else None
        return _bytes(flags + _one_hot(s.known_hand) + _counts(s.front) + _one_hot(last))
