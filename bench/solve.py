"""Benchmark: exact answers on reduced decks (docs/engine.md, "Exact answers on small decks").

    nice -n 10 .venv/bin/python bench/solve.py [--cards 4,5,6,7] [--seconds 600 | --iterations N]
        [--target 0.01] [--bots heuristic,expert] [--seed 0]

For each published N-card game (`play.solver.games.published`): the tree's size and the CPU time to write it, then
CFR+ until the budget is spent or the solution's exploitability (exact, by best responses over the whole tree) is
at most `--target`, with the CPU time and iterations at which it first measured at most 5% and at most 1%; then each
bot's exact exploitability on the same game, and the CPU time its strategy took to ask for. Times are this
process's CPU time (one core): on a shared machine other work makes a run longer on the wall, not dearer.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.play.solver.exploit import measure
from loveletter.play.solver.games import published
from loveletter.play.solver.run import Solved, Step, bot_strategy, solve


def first_below(solved: Solved, bound: float) -> Step | None:
    return next((s for s in solved.steps if s.exploitability <= bound), None)


def when(step: Step | None) -> str:
    return "not reached" if step is None else f"{step.seconds:.1f} s ({step.iterations} iterations)"


def run(
    cards: int, seconds: float | None, iterations: int | None, target: float | None, bots: list[str], seed: int
) -> None:
    game = published(cards)
    print(f"{game.name} ({game.ruleset.id}), in play: {', '.join(map(str, game.in_play))}", flush=True)
    solved = solve(
        game,
        iterations,
        seconds,
        target,
        on_step=lambda s: print(
            f"  … {s.iterations} iterations, {s.seconds:.1f} s: {s.exploitability:.4%}", flush=True
        ),
    )
    result = solved.result
    assert result is not None
    tree = solved.tree
    print(
        f"  tree: {len(tree):,} nodes, {len(tree.infosets):,} information sets, written in {solved.build_seconds:.1f} s"
    )
    print(f"  exploitability at most 5% after {when(first_below(solved, 0.05))}")
    print(f"  exploitability at most 1% after {when(first_below(solved, 0.01))}")
    print(
        f"  solution: exploitability {result.exploitability:.4%} after {solved.iterations} iterations, "
        f"{solved.seconds:.1f} s of CPU (North wins {result.value:.2%} of the round)",
        flush=True,
    )
    for bot in bots:
        began = time.process_time()
        mine = measure(tree, bot_strategy(tree, bot, seed))
        spent = time.process_time() - began
        print(
            f"  {bot}: exploitability {mine.exploitability:.2%} (best responses win {mine.north_best:.1%} as North, "
            f"{mine.south_best:.1%} as South; {spent:.1f} s)",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", default="4,5,6,7", help="the published games to solve, by their number of cards")
    parser.add_argument("--seconds", type=float, default=None, help="CPU seconds a game (writing its tree included)")
    parser.add_argument("--iterations", type=int, default=None, help="CFR+ iterations a game")
    parser.add_argument("--target", type=float, default=None, help="stop a game at this exploitability (0.01 = 1%%)")
    parser.add_argument("--bots", default="heuristic,expert", help="built-in bots to measure ('' for none)")
    parser.add_argument("--seed", type=int, default=0, help="the bots' seed")
    args = parser.parse_args()
    bots = [b for b in args.bots.split(",") if b]
    for cards in (int(c) for c in args.cards.split(",")):
        run(cards, args.seconds, args.iterations, args.target, bots, args.seed)


if __name__ == "__main__":
    main()
