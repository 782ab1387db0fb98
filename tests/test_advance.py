"""`core.decide.advance` judges as `decide` does and leaves the state `fold` makes of the events: every legal move
of whole games at every ruleset and table size, illegal plays refused alike with the state untouched, and the other
commands (a resignation) folded too. The expected state is `fold(decide(state, move), state)`, the pure path."""

from __future__ import annotations

import random

import pytest

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, PlayerCommand, Resign, ReturnCards
from loveletter.core.decide import advance, decide
from loveletter.core.evolve import fold
from loveletter.core.rules import RuleViolation
from loveletter.core.state import GameState
from loveletter.play.policies import choose_heuristic
from loveletter.play.simulate import decisions
from tests.test_engine import TABLES


def _same(state: GameState, command: object) -> int:
    """Play `command` both ways from `state`; the number of round ends it caused (0 or 1)."""
    s = state.thaw()
    try:
        expected = decide(state, command)  # type: ignore[arg-type]
    except RuleViolation as refused:
        with pytest.raises(RuleViolation) as also:
            advance(s, command)  # type: ignore[arg-type]
        assert (also.value.code, also.value.rule_id, also.value.en) == (refused.code, refused.rule_id, refused.en)
        assert s == state  # refused: nothing folded
        return 0
    assert advance(s, command) == expected  # type: ignore[arg-type]
    assert s == fold(expected, state)
    return sum(type(e).__name__ == "RoundEnded" for e in expected)


def _illegal(state: GameState, seat: int, rng: random.Random) -> list[object]:
    """Plays the rules refuse: another seat's move, a card not in hand, a Guard naming the Guard, a bad return."""
    hand = state.hands[seat]
    missing = next(c for c in Card if c not in hand)
    other = (seat + 1) % len(state.players)
    return [
        PlayCard(other, hand[0]),
        PlayCard(seat, missing),
        PlayCard(seat, Card.GUARD, other, Card.GUARD),
        ReturnCards(seat, hand[0], ()),
        PlayCard(seat, hand[0], rng.randrange(-1, 9)),
    ]


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_advance_judges_and_folds_as_decide_and_fold_do(ruleset: str, players: int) -> None:
    rng = random.Random(players)
    moves_tried = round_ends = refused_tried = 0
    for state, seat, moves, _ in decisions(ruleset, players, 2, choose_heuristic, 3):
        for move in moves:
            round_ends += _same(state, move)
            moves_tried += 1
        for command in _illegal(state, seat, rng):
            _same(state, command)
            refused_tried += 1
        _same(state, Resign(seat, state.clock + 1))
    assert moves_tried > 100 and refused_tried > 100
    assert round_ends > 5  # the round's end, judged on the state itself, was met many times


def test_a_move_advance_refuses_leaves_its_transient_exactly_as_it_was() -> None:
    state, seat, moves, _ = next(iter(decisions("2019", 2, 1, choose_heuristic, 1)))
    s = state.thaw()
    before = s.fingerprint()
    bad: PlayerCommand = PlayCard(seat, next(c for c in Card if c not in state.hands[seat]))
    with pytest.raises(RuleViolation) as refused:
        advance(s, bad)
    assert refused.value.rule_id and s.fingerprint() == before
    assert moves and advance(s, moves[0]) == decide(state, moves[0])
