"""What a round's end is worth to a seat: its chance of winning the game from the favors then held.

A rollout stops where the round ends. Winning the round is not the whole story (a Spy favor counts too, and a favor
is worth more to a seat one short of the target), so the end is scored by a simple model of the rounds still to
come: each is won by one seat still in the game, all equally likely, until someone reaches the ruleset's target.
That chance is computed exactly over the favors still missing, and remembered (a few hundred values at most).
"""

from __future__ import annotations

from functools import lru_cache

from loveletter.core import memo
from loveletter.core.state import PHASE_OVER, GameState


def end_value(state: GameState, seat: int) -> float:
    """`seat`'s share of the game at the end of a round: 1 for a sole winner of the game, 1/k for one of k winners,
    0 for a loser, and between the two the model's chance of winning the game from the favors held."""
    if state.phase == PHASE_OVER:
        winners = state.winners
        return 1.0 / len(winners) if seat in winners else 0.0
    rs = state.ruleset
    assert rs is not None
    key = (rs.favors_to_win[len(state.players)], state.favors, state.resigned, seat)
    value = _WORTH.get(key)
    if value is None:
        if len(_WORTH) >= 1 << 14:
            _WORTH.clear()
        value = _WORTH[key] = _worth(*key)
    return value


_WORTH: dict[tuple[int, tuple[int, ...], tuple[bool, ...], int], float] = memo.table()
"""`_worth` remembered: a game has few distinct favors between rounds, and every rollout ends at one of them."""


def _worth(target: int, favors: tuple[int, ...], resigned: tuple[bool, ...], seat: int) -> float:
    if resigned[seat]:
        return 0.0
    missing = max(1, target - favors[seat])
    others = tuple(
        sorted(
            max(1, target - f)
            for i, (f, gone) in enumerate(zip(favors, resigned, strict=True))
            if i != seat and not gone
        )
    )
    return race(missing, others)


@lru_cache(maxsize=4096)
def race(mine: int, others: tuple[int, ...]) -> float:
    """The chance that a seat `mine` favors short of the target gets there first, when every round is won by one
    of the seats (itself and `others`, each so many favors short) with equal chance."""
    if not others:
        return 1.0
    k = len(others) + 1
    total = race(mine - 1, others) if mine > 1 else 1.0
    for j, need in enumerate(others):
        if need > 1:
            total += race(mine, tuple(sorted((*others[:j], need - 1, *others[j + 1 :]))))
    return total / k
