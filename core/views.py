"""What a seat may know (RULINGS §10): the seat view, the spectator view, and redacted events.

A view is derived from the full state and the viewer only; nothing hidden is ever copied into it
unless the viewer's own cards showed it to them (Priest, Baron, King, their own Chancellor).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    CardDrawn,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    HandsCompared,
    HandSeen,
    HandsTraded,
    RoundStarted,
    TurnStarted,
)
from loveletter.core.state import GameState


class SeatPublic(NamedTuple):
    """One seat as anyone at the table sees it; `known_hand` is what the viewer knows of its hand.

    Views are immutable named tuples rather than frozen dataclasses: every answer the referee gives builds
    one, and a tuple is built in one step where a frozen dataclass sets each field through `object.__setattr__`."""

    seat: int
    name: str
    favors: int
    in_round: bool
    protected: bool
    hand_size: int
    front: tuple[Card, ...]
    known_hand: Card | None = None
    in_game: bool = True
    """False once the seat has left the game (RULINGS §12)."""
    open: bool = False
    """True while nobody has taken the seat (its name is empty)."""


class View(NamedTuple):
    """A game as `seat` sees it (`seat` None: a spectator)."""

    seat: int | None
    ruleset: str
    options: dict[str, str]
    round: int
    phase: str
    active: int | None
    deck_size: int
    set_aside_face_down: bool
    face_up: tuple[Card, ...]
    seats: tuple[SeatPublic, ...]
    hand: tuple[Card, ...]
    deck_known: tuple[tuple[int, Card], ...]
    unseen: dict[Card, int]
    round_winners: tuple[int, ...]
    winners: tuple[int, ...]
    version: int
    deadline: tuple[int, int] | None = None
    """(seat, Unix milliseconds) by which the pending decision must be made, when the game has a clock."""
    turn_seconds: int | None = None
    on_timeout: str | None = None
    aborted: bool = False

    def as_dict(self) -> dict[str, Any]:
        # str(card) is the card's id (Card is a StrEnum), and several times cheaper than card.value
        return {
            "seat": self.seat,
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "round": self.round,
            "phase": self.phase,
            "active": self.active,
            "deck_size": self.deck_size,
            "set_aside_face_down": self.set_aside_face_down,
            "face_up": [str(c) for c in self.face_up],
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "favors": s.favors,
                    "in_round": s.in_round,
                    "protected": s.protected,
                    "hand_size": s.hand_size,
                    "front": [str(c) for c in s.front],
                    "known_hand": str(s.known_hand) if s.known_hand else None,
                    "in_game": s.in_game,
                    "open": s.open,
                }
                for s in self.seats
            ],
            "hand": [str(c) for c in self.hand],
            "deck_known": [{"from_top": pos, "card": str(card)} for pos, card in self.deck_known],
            "unseen": {str(card): n for card, n in self.unseen.items()},
            "round_winners": list(self.round_winners),
            "winners": list(self.winners),
            "version": self.version,
            "clock": None
            if self.turn_seconds is None
            else {
                "turn_seconds": self.turn_seconds,
                "on_timeout": self.on_timeout,
                "deadline": None if self.deadline is None else {"seat": self.deadline[0], "at": self.deadline[1]},
            },
            "aborted": self.aborted,
        }


class Glance(NamedTuple):
    """What a seat's own decision reads of its view, and no more: its hand, the deck's size, the unseen counts, what it
    knows of each hand (`known[i]`, None for its own) and the favors. A policy played thousands of times a second
    (the engine's rollouts) reads this instead of a whole `View`, which costs a seat tuple for every seat, the
    options and the deck's known cards at every decision."""

    seat: int
    ruleset: str
    hand: tuple[Card, ...]
    deck_size: int
    unseen: dict[Card, int]
    known: tuple[Card | None, ...]
    favors: tuple[int, ...]

    @classmethod
    def of(cls, seen: View) -> Glance:
        """The glance of a seat's view (the same as `glance(state, seat)` for the state it was made from)."""
        if seen.seat is None:
            raise ValueError("a spectator makes no decision")
        return cls(
            seen.seat,
            seen.ruleset,
            seen.hand,
            seen.deck_size,
            seen.unseen,
            tuple(s.known_hand for s in seen.seats),
            tuple(s.favors for s in seen.seats),
        )


_new_glance = tuple.__new__


def glance(state: GameState, seat: int) -> Glance:
    """`Glance.of(view(state, seat))`, without building the view."""
    rs = state.ruleset
    if rs is None:
        raise ValueError("no game yet")
    knows = state.knows[seat]
    if knows[seat] is not None:  # (a seat's own entry is never set by the fold: defensive, and cheap to test)
        knows = (*knows[:seat], None, *knows[seat + 1 :])
    hand = state.hands[seat]
    fields = (seat, rs.id, hand, len(state.deck), _unseen(state, seat, hand, knows), knows, state.favors)
    return _new_glance(Glance, fields)  # tuple.__new__: a NamedTuple's own __new__ is a Python function


def _unseen(
    state: GameState, seat: int | None, hand: tuple[Card, ...], knows: Iterable[Card | None]
) -> dict[Card, int]:
    """How many of each card `seat` has not seen: all copies less those face up, in front of any seat, in its hand,
    in the hands it knows (`knows[i]`, its own left None) and among the deck's cards it knows."""
    rs = state.ruleset
    assert rs is not None
    unseen = dict(rs.counts)
    for group in (state.face_up, *state.front, hand):
        for card in group:
            unseen[card] -= 1
    for known in knows:
        if known is not None:
            unseen[known] -= 1
    if seat is not None:
        for pos, card in state.deck_known[seat]:
            if pos >= state.drawn:
                unseen[card] -= 1
    return unseen


def view(state: GameState, seat: int | None) -> View:
    """What `seat` (or, with None, a spectator) may know of `state`."""
    rs = state.ruleset
    if rs is None:
        raise ValueError("no game yet")
    if seat is not None and not 0 <= seat < len(state.players):
        raise ValueError(f"no seat {seat}")
    knows = state.knows[seat] if seat is not None else (None,) * len(state.players)
    players, favors, out, protected, hands, fronts, resigned = (
        state.players,
        state.favors,
        state.out,
        state.protected,
        state.hands,
        state.front,
        state.resigned,
    )
    seats = tuple(
        [
            SeatPublic(
                i,
                players[i],
                favors[i],
                not out[i],
                protected[i],
                len(hands[i]),
                fronts[i],
                knows[i] if i != seat else None,
                not resigned[i],
                not players[i],
            )
            for i in range(len(players))
        ]
    )
    hand = hands[seat] if seat is not None else ()
    deck_known: tuple[tuple[int, Card], ...] = ()
    if seat is not None and state.deck_known[seat]:
        deck_known = tuple((pos - state.drawn, card) for pos, card in state.deck_known[seat] if pos >= state.drawn)
    unseen = _unseen(state, seat, hand, (k if i != seat else None for i, k in enumerate(knows)))
    return View(
        seat=seat,
        ruleset=rs.id,
        options=state.options.as_dict(),
        round=state.round,
        phase=state.phase,
        active=state.active if state.active >= 0 else None,
        deck_size=len(state.deck),
        set_aside_face_down=state.set_aside is not None,  # None until the first deal, and once drawn by a Prince
        face_up=state.face_up,
        seats=seats,
        hand=hand,
        deck_known=deck_known,
        unseen=unseen,
        round_winners=state.round_winners,
        winners=state.winners,
        version=state.seq,
        deadline=state.deadline,
        turn_seconds=state.turn_seconds,
        on_timeout=state.on_timeout,
        aborted=state.aborted,
    )


def visible_to(event: Event, seat: int | None) -> bool:
    """Whether `seat` may see every field of `event` (public events: everybody)."""
    kind = type(event)
    if kind is RoundStarted:
        return False
    if kind in (TurnStarted, CardDrawn, ChancellorDrew, ChancellorReturned, HandSeen):
        return seat is not None and seat == event.player  # type: ignore[union-attr]
    if kind in (HandsCompared, HandsTraded):
        return seat is not None and seat in (event.player, event.target)  # type: ignore[union-attr]
    return True


def redact(event: Event, fields: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The fields of an encoded `event` that `seat` may see (`fields` is its full JSON form)."""
    if visible_to(event, seat):
        return fields
    kind = type(event)
    keep: dict[str, Any] = {k: fields[k] for k in ("type", "v", "seq") if k in fields}
    if isinstance(event, RoundStarted):
        keep.update(
            round=event.round,
            first_player=event.first_player,
            first_player_rule=event.first_player_rule,
            face_up=fields["face_up"],
            deck_size=len(event.deck),
        )
        if seat is not None:
            mine = event.hands[seat]
            keep["hand"] = None if mine is None else mine.value
        return keep
    keep["player"] = fields["player"]
    if kind in (HandSeen, HandsCompared, HandsTraded):
        keep["target"] = fields["target"]
    elif isinstance(event, CardDrawn):
        keep["source"] = event.source
    elif isinstance(event, ChancellorDrew):
        keep["count"] = len(event.cards)
    elif isinstance(event, ChancellorReturned):
        keep["count"] = len(event.bottom)
    return keep
