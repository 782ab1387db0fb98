"""Determinized search at the root: every legal move tried in sampled worlds, the weaker half dropped in turns.

Each iteration is one rollout: a world drawn by `Sampler` (the hidden cards dealt again, consistently with the
seat's knowledge), the candidate move judged by `core.decide.advance` (`decide`, its events folded into the world),
then every seat (this one included) played by the `heuristic` policy, from its own glance at that world
(`core.views.glance`: what its view holds that the policy reads, without building the view), until the round ends;
`value.end_value` scores the end. The rules core is the only model of the game.

The budget is spread by sequential halving (Karnin, Koren and Somekh, 2013): in each of ⌈log2 k⌉ stages the moves
still in the race are tried in the same fresh worlds with the same rollout seeds (common random numbers: the
comparison sees the moves' difference, not the deal's luck), then the worse half is dropped. The move with the best
mean over the worlds it was tried in is chosen; an exact tie goes to the heuristic's own choice.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, TypeVar

from loveletter.core import memo
from loveletter.core.commands import PlayerCommand
from loveletter.core.decide import advance
from loveletter.core.legal import legal_move_tuple
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_PLAY, GameState, Transient
from loveletter.core.views import glance
from loveletter.play.engine import collector
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.value import end_value
from loveletter.play.policies import heuristic_best

T = TypeVar("T")

MAX_ROLLOUT_DECISIONS = 400
"""A round has at most a few dozen decisions; a rollout longer than this is a bug, not a game."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking one decision gets: `iterations` rollouts (deterministic under the seed) or, when `seconds`
    is given, as many as fit in that time (then the choice depends on the machine's speed). The time is this
    process's CPU time unless `wall`: on a shared machine, other work then does not shorten the thinking."""

    iterations: int = 200
    seconds: float | None = None
    wall: bool = False

    def clock(self) -> float:
        return time.perf_counter() if self.wall else time.process_time()


ROLLOUTS_PER_OPPONENT = 200
"""The built-in expert's search: this many rollouts a decision for each other seat at the table."""


def default_budget(players: int) -> Budget:
    """The expert's built-in budget at a table of `players`: a fixed number of rollouts (200 at two players, 600 at
    four), never a time, so that it plays the same moves however busy the machine is (docs/engine.md, Strength). A
    four-player decision has three targets to tell apart in noisier rounds, hence more rollouts."""
    return Budget(iterations=ROLLOUTS_PER_OPPONENT * max(1, players - 1))


@dataclass(slots=True)
class Estimate:
    """One candidate move's rollouts: their count and the sum of their values."""

    move: PlayerCommand
    n: int = 0
    total: float = 0.0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.0


_MASK = (1 << 64) - 1


class Ties:
    """A rollout's tie-breaks: a 64-bit linear congruential generator (Knuth's MMIX constants) seeded by an int. A
    rollout draws only to choose among the heuristic's equal moves, which does not need `random.Random`'s quality,
    and seeding one of those (its 2.5 KB of state) cost as much as a few decisions of the rollout."""

    __slots__ = ("x",)

    def __init__(self, seed: int) -> None:
        self.x = seed & _MASK

    def choice(self, seq: Sequence[T]) -> T:
        """One of `seq`, each alike (from the generator's high 32 bits)."""
        self.x = x = (self.x * 6364136223846793005 + 1442695040888963407) & _MASK
        return seq[((x >> 32) * len(seq)) >> 32]


class Chooser(Protocol):
    """What a rollout draws from: `Ties`, or a `random.Random`."""

    def choice(self, seq: Sequence[T]) -> T: ...


def play_out(world: GameState, move: PlayerCommand, rng: Chooser) -> GameState:
    """`move` played in `world`, then every seat by the heuristic from its own view: the state at the round's end
    (the review, `review.py`, reads both the round's winners and the game's value from it)."""
    return _finish(_after(world, move), rng)


def _after(world: GameState, move: PlayerCommand) -> Transient:
    """A private copy of `world` with `move` played in it."""
    s = world.thaw()
    advance(s, move)
    return s


def _finish(s: Transient, rng: Chooser) -> Transient:
    """`s` played on in place, every seat by the heuristic, to the round's end."""
    for _ in range(MAX_ROLLOUT_DECISIONS):
        phase = s.phase
        if phase != PHASE_PLAY and phase != PHASE_CHANCELLOR:
            return s
        best = _best(s, s.active)
        advance(s, best[0] if len(best) == 1 else rng.choice(best))
    raise RuntimeError("a rollout did not reach the end of the round")


_BEST: dict[tuple[object, ...], list[PlayerCommand]] = memo.table()
_BEST_MAX = 1 << 15


@contextmanager
def thinking() -> Iterator[None]:
    """One stretch of the engine's thinking (a search, a review's worlds): the cyclic collector paused (`collector`),
    and the situations judged forgotten at its end, before the collector comes back. Kept from one decision to the
    next, they were almost never met again (14 of 31,742 judged at two players, in `bench/rollouts.py`), and the
    collector walked every one of them after each search: 12-15% of a four-player search."""
    with collector.paused():
        try:
            yield
        finally:
            forget()


def _best(s: GameState, seat: int) -> list[PlayerCommand]:
    """The heuristic's best moves for `seat` (`heuristic_best` of its glance and legal moves), remembered by every
    part of the state that its glance and its legal moves are made of: in the many rollouts of one search a third of
    the decisions at two players (a quarter at four) meet a situation already judged, and the heuristic is a pure
    function of what it is shown."""
    rs = s.ruleset
    assert rs is not None
    mine = s.deck_known[seat]
    key = (
        rs.id, s.options.guard_unknown, s.phase, seat, s.hands[seat], s.knows[seat], len(s.deck), s.face_up,
        s.front, mine, s.drawn if mine else 0, s.favors, s.out, s.protected,
    )  # fmt: skip
    best = _BEST.get(key)
    if best is None:
        moves = legal_move_tuple(s, seat)
        best = list(moves) if len(moves) == 1 else heuristic_best(glance(s, seat), moves)  # a forced move: no glance
        if len(_BEST) >= _BEST_MAX:
            _BEST.clear()
        _BEST[key] = best
    return best


def forget() -> None:
    """Forget every situation judged (each stretch of thinking ends with it)."""
    _BEST.clear()


def search(
    sampler: Sampler, moves: Sequence[PlayerCommand], rng: random.Random, budget: Budget, prior: PlayerCommand
) -> list[Estimate]:
    """Every candidate's estimate after the budget is spent, best first: the moves still in the race by their mean
    (ties to `prior`, then to the moves' order), then the dropped ones, the last dropped first (they have fewer
    rollouts, so their means are not compared with the survivors')."""
    with thinking():
        return _search(sampler, moves, rng, budget, prior)


def _search(
    sampler: Sampler, moves: Sequence[PlayerCommand], rng: random.Random, budget: Budget, prior: PlayerCommand
) -> list[Estimate]:
    estimates = [Estimate(m) for m in moves]
    if len(estimates) < 2:
        return estimates
    seat = sampler.seat
    alive = list(estimates)
    stages = math.ceil(math.log2(len(alive)))
    total = budget.iterations
    deadline = None
    clock = budget.clock
    if budget.seconds is not None:
        start = clock()
        deadline = start + budget.seconds
        _sweep(sampler, alive, seat, rng)  # one world for every move: how long a rollout takes here and now
        per_rollout = (clock() - start) / len(alive)
        total = max(len(alive), int(budget.seconds / max(per_rollout, 1e-6)))
    spent = sum(e.n for e in estimates)
    dropped: list[Estimate] = []  # the candidates out of the race, the last dropped first
    for stage in range(stages):
        left = total - spent
        worlds = max(1, left // (len(alive) * (stages - stage)))
        for _ in range(worlds):
            if deadline is not None and clock() > deadline:
                break
            _sweep(sampler, alive, seat, rng)
            spent += len(alive)
        ranked = _ranked(alive, prior)
        keep = max(1, math.ceil(len(alive) / 2))
        alive, dropped = ranked[:keep], ranked[keep:] + dropped
        if len(alive) == 1 or (deadline is not None and clock() > deadline):
            break
    return _ranked(alive, prior) + dropped


def _sweep(sampler: Sampler, alive: Sequence[Estimate], seat: int, rng: random.Random) -> None:
    """One sampled world, each candidate tried in it with the same rollout seed. What a rollout is worth depends on
    nothing but the state after its move and its seed, so candidates that lead to the same state (a Guard's guesses
    that miss the same hand, say) share the value of one rollout instead of playing it again."""
    world = sampler.sample(rng)
    seed = rng.getrandbits(64)
    worth: dict[tuple[object, ...], list[float]] = {}
    for e in alive:
        s = _after(world, e.move)
        cell: list[float] = []
        found = worth.setdefault(s.fingerprint(), cell)  # one hash of the long key, not a lookup and a store
        if found is cell:
            cell.append(end_value(_finish(s, Ties(seed)), seat))
        e.total += found[0]
        e.n += 1


def _ranked(estimates: Sequence[Estimate], prior: PlayerCommand) -> list[Estimate]:
    """Best mean first; among equal means the prior first, then the given order (a stable sort)."""
    return sorted(estimates, key=lambda e: (-round(e.mean, 12), e.move != prior))
