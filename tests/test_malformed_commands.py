"""A command built in process with a seat that is no seat number (a bool, a string, a float, None) or a Chancellor's
return whose cards are not a tuple is refused by the rules with their refusal, never a Python error, by `decide` and
`advance` alike; and a refused one leaves nothing behind (the events the rules share by value stay right)."""

from __future__ import annotations

from typing import Any

import pytest

from loveletter.core.commands import ContributeSeed, PlayCard, ReturnCards
from loveletter.core.decide import advance, decide
from loveletter.core.rules import RuleViolation
from loveletter.core.state import PHASE_CHANCELLOR, GameState
from loveletter.play.policies import choose_heuristic
from loveletter.play.simulate import decisions

NOT_SEATS: list[Any] = [True, False, "0", "1", 0.0, 1.0, None]


def _targeted() -> tuple[GameState, PlayCard]:
    """A position of a seeded game where the seat to move may play a card at another seat."""
    for state, seat, moves, _ in decisions("2019", 2, 3, choose_heuristic, 2):
        for m in moves:
            if isinstance(m, PlayCard) and m.target is not None and m.target != seat:
                return state, m
    raise AssertionError("no targeted play in three games")


def _refused(state: GameState, command: Any) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        decide(state, command)
    s = state.thaw()
    with pytest.raises(RuleViolation) as also:
        advance(s, command)
    assert (also.value.code, also.value.rule_id) == (refused.value.code, refused.value.rule_id)
    assert s == state
    return refused.value


@pytest.mark.parametrize("bad", NOT_SEATS, ids=repr)
def test_a_player_that_is_no_seat_number_is_refused_by_the_turn_rule(bad: Any) -> None:
    state, move = _targeted()
    refusal = _refused(state, PlayCard(bad, move.card, move.target, move.guess))
    assert (refusal.code, refusal.rule_id) == ("unknown_player", "turn.order")
    assert f"no seat {bad!r} in" in refusal.en and f"pas de siège «\u202f{bad}\u202f» dans" in refusal.fr


@pytest.mark.parametrize("bad", [b for b in NOT_SEATS if b is not None], ids=repr)
def test_a_target_that_is_no_seat_number_is_refused_by_the_target_rule(bad: Any) -> None:
    state, move = _targeted()
    refusal = _refused(state, PlayCard(move.player, move.card, bad, move.guess))
    assert (refusal.code, refusal.rule_id) == ("unknown_player", "target.required")


def test_a_refused_bool_seat_leaves_the_shared_events_with_int_seats() -> None:
    state, move = _targeted()
    for bad_player, bad_target in ((bool(move.player), move.target), (move.player, bool(move.target))):
        if bad_player in (0, 1) and bad_target in (0, 1):
            _refused(state, PlayCard(bad_player, move.card, bad_target, move.guess))
    events = decide(state, move)
    for event in events:
        for name in ("player", "target"):
            value = getattr(event, name, None)
            assert value is None or type(value) is int, event


def test_a_chancellor_return_whose_cards_are_not_a_tuple_is_refused() -> None:
    for state, seat, moves, _ in decisions("2019", 2, 6, choose_heuristic, 4):
        if state.phase == PHASE_CHANCELLOR:
            legal = moves[0]
            assert isinstance(legal, ReturnCards)
            for bottom in (list(legal.bottom), None, "guard"):
                refusal = _refused(state, ReturnCards(seat, legal.keep, bottom))  # type: ignore[arg-type]
                assert (refusal.code, refusal.rule_id) == ("invalid_return", "chancellor.return")
            assert decide(state, legal)  # the same cards as a tuple: accepted
            return
    raise AssertionError("no Chancellor in six games")


@pytest.mark.parametrize("bad", NOT_SEATS, ids=repr)
def test_a_seat_seed_from_no_seat_number_is_refused_by_the_seed_rule(bad: Any) -> None:
    state, _ = _targeted()
    refusal = _refused(state, ContributeSeed(bad, "ab" * 32))
    assert (refusal.code, refusal.rule_id) == ("unknown_player", "shuffle.seat-seed")
