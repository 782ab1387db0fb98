"""Benchmark: how many rollouts a second the expert's search plays, at two and four players (issue 36).

    python bench/rollouts.py [--positions 40] [--iterations 400] [--repeat 3] [--seed 1]

The positions are the decisions of seeded heuristic games of 2019 (every `--every`-th decision with more than one
legal move, the first `--positions` of them); each is searched with `--iterations` rollouts (`play.engine.search`,
the world sampler of the deciding seat, no reading of the others' plays), and the CPU time of this process spent in
the searches alone is divided into the rollouts they played. The best of `--repeat` passes is printed, for each
table size. The same positions and seeds every run: two trees compared by running this script from each
(docs/performance.md, "The expert's rollouts").
"""

from __future__ import annotations

import argparse
import hashlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.chance import deal
from loveletter.core.commands import StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_DEAL, PHASE_PLAY, GameState
from loveletter.core.views import View, view
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.search import Budget, search
from loveletter.play.policies import choose_heuristic


def positions(players: int, count: int, every: int, seed: int) -> list[tuple[View, list[object]]]:
    """`count` decisions (a seat's view and its legal moves) of heuristic games of 2019 at `players` seats."""
    rng = random.Random(seed)
    found: list[tuple[View, list[object]]] = []
    game = 0
    while len(found) < count:
        game += 1
        s: GameState = INITIAL.thaw()
        apply_all(s, decide(s, StartGame("2019", tuple(f"P{i}" for i in range(players)), {}, first_player=0)))
        decisions = 0
        while len(found) < count:
            if s.phase == PHASE_DEAL:
                key = b"rollouts/%d/%d/%d" % (seed, game, s.round)
                apply_all(s, decide(s, deal(s, hashlib.sha256(key).digest())))
                continue
            if s.phase not in (PHASE_PLAY, PHASE_CHANCELLOR):
                break
            seat = s.active
            moves = legal_moves(s, seat)
            seen = view(s, seat)
            if len(moves) > 1:
                decisions += 1
                if decisions % every == 0:
                    found.append((seen, list(moves)))
            apply_all(s, decide(s, choose_heuristic(seen, moves, rng)))
    return found


def measure(found: list[tuple[View, list[object]]], iterations: int, seed: int) -> tuple[int, float]:
    """Rollouts played and CPU seconds spent searching every position once."""
    budget = Budget(iterations=iterations)
    rollouts, seconds = 0, 0.0
    for i, (seen, moves) in enumerate(found):
        sampler = Sampler(seen)
        rng = random.Random(seed * 1000 + i)
        start = time.process_time()
        estimates = search(sampler, moves, rng, budget, moves[0])  # type: ignore[arg-type]
        seconds += time.process_time() - start
        rollouts += sum(e.n for e in estimates)
    return rollouts, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for players in (2, 4):
        found = positions(players, args.positions, args.every, args.seed)
        best = 0.0
        for r in range(args.repeat):
            rollouts, seconds = measure(found, args.iterations, args.seed)
            rate = rollouts / seconds
            best = max(best, rate)
            print(f"  {players} players, pass {r + 1}: {rollouts:,} rollouts in {seconds:.2f} s of CPU: {rate:,.0f}/s")
        print(f"{players} players: {best:,.0f} rollouts/s (best of {args.repeat} passes, {len(found)} positions)")


if __name__ == "__main__":
    main()
