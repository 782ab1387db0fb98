"""What a client's input means for the rules core: a seat named by number or name, a seat's move as a command, a
scenario's deal as the game's record keeps it."""

from __future__ import annotations

from typing import Any

from loveletter.core.cards import Card
from loveletter.core.commands import Command, ContributeSeed, DealRound, PlayCard, ReturnCards
from loveletter.core.lang import Text
from loveletter.core.legal import from_action_code
from loveletter.core.state import GameState
from loveletter.referee.inputs import Code, Move, Play, Return, SeatRef, Seed
from loveletter.referee.refusals import Refusal, unknown_player


def seat_of(state: GameState, ref: SeatRef | None, what: str) -> int | None:
    """The seat a reference names (a seat number or a player's name); refused if it names nobody."""
    if ref is None:
        return None
    if isinstance(ref, int) and 0 <= ref < len(state.players):
        return ref
    if isinstance(ref, str) and ref in state.players:
        return state.players.index(ref)
    raise unknown_player(ref, what)


def command(state: GameState, seat: int, move: Move) -> Command:
    """The rules core's command for a seat's move (a card, a return, a seed, an action code)."""
    if isinstance(move, Seed):
        return ContributeSeed(seat, move.seed)
    if isinstance(move, Play):
        return PlayCard(seat, move.card, seat_of(state, move.target, "target"), move.guess)
    if isinstance(move, Return):
        return ReturnCards(seat, move.keep, tuple(move.bottom))
    assert isinstance(move, Code)
    try:
        return from_action_code(move.action_code, seat)
    except ValueError as exc:
        raise Refusal(
            "unknown_action_code", Text(str(exc), f"aucun coup n'a le code d'action {move.action_code}")
        ) from None


def deal_of(data: dict[str, Any]) -> DealRound:
    """A scenario's deal as the game's record keeps it."""
    return DealRound(
        Card(data["set_aside"]),
        tuple(Card(c) for c in data["face_up"]),
        tuple(Card(c) for c in data["hands"]),
        tuple(Card(c) for c in data["deck"]),
        int(data["first_player"]),
    )
