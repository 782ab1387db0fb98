"""Solving a reduced game to a budget, and measuring a built-in bot on the same tree: what `loveletter solve` and
bench/solve.py report.

Times are this process's CPU time (`time.process_time`), like the expert's budget: on a shared machine, other work
makes a run longer on the wall but not more expensive. The budget counts everything: writing the tree, the CFR+
iterations and the best responses that measure the solution along the way.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from loveletter.play.bots import get_bot
from loveletter.play.solver.cfr import CFRPlus, Strategy
from loveletter.play.solver.exploit import Exploitability, best_response, policy_strategy, value
from loveletter.play.solver.games import CutGame
from loveletter.play.solver.tree import Tree, build


@dataclass(frozen=True, slots=True)
class Step:
    """The solution's exact exploitability after so many iterations and so much CPU time (from the start)."""

    iterations: int
    seconds: float
    exploitability: float


@dataclass(slots=True)
class Solved:
    game: CutGame
    tree: Tree
    build_seconds: float
    iterations: int = 0
    seconds: float = 0.0
    result: Exploitability | None = None
    strategy: Strategy = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)


def checkpoints() -> list[int]:
    """The iterations after which the solution is measured: 1, 2, 5, 10, 20, 50, … (a best response costs about
    as much as an iteration, so measuring at every one would double the work)."""
    return [m * 10**e for e in range(9) for m in (1, 2, 5)]


def solve(
    game: CutGame,
    iterations: int | None = None,
    seconds: float | None = None,
    target: float | None = None,
    on_step: Callable[[Step], None] | None = None,
    on_build: Callable[[int], None] | None = None,
) -> Solved:
    """CFR+ on `game` until `iterations` are done, `seconds` of CPU are spent, or the measured exploitability is at
    most `target`, whichever comes first (at least one iteration; with no limit at all, 100 iterations)."""
    if iterations is None and seconds is None and target is None:
        iterations = 100
    start = time.process_time()
    tree = build(game, progress=on_build)
    solved = Solved(game, tree, time.process_time() - start)
    solver = CFRPlus(tree)
    marks = iter(checkpoints())
    mark = next(marks)
    while True:
        solver.iterate()
        spent = time.process_time() - start
        done = (iterations is not None and solver.iterations >= iterations) or (
            seconds is not None and spent >= seconds
        )
        if solver.iterations == mark or done:
            while mark <= solver.iterations:
                mark = next(marks)
            average = solver.average()
            north, south = best_response(tree, average, 0), best_response(tree, average, 1)
            step = Step(solver.iterations, time.process_time() - start, (north + south - 1.0) / 2.0)
            solved.steps.append(step)
            if on_step is not None:
                on_step(step)
            if done or (target is not None and step.exploitability <= target):
                solved.result = Exploitability(north, south, value(tree, average))
                break
    solved.iterations = solver.iterations
    solved.seconds = time.process_time() - start
    solved.strategy = solver.average()
    return solved


def bot_strategy(tree: Tree, bot: str, seed: int = 0, progress: Callable[[int, int], None] | None = None) -> Strategy:
    """The built-in bot `bot` as a strategy of `tree` (one seeded choice at each information set)."""
    return policy_strategy(tree, get_bot(bot).choose, seed=seed, progress=progress)
