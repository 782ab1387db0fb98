"""Benchmark: how well the expert's inference predicts the hidden hands of `heuristic` players (docs/engine.md).

    nice -n 10 .venv/bin/python bench/belief.py [--players 4] [--games 100] [--floors 0.0001,0.1,0.25,0.5,1]

Seeded games of `heuristic` bots in every seat. At every card play, for each opponent the deciding seat may weigh
(`play.engine.belief.weighed_seats`: in the round, one card, not known, something played), the odds of that
opponent's hand are taken from the deciding seat's view (`belief.leanings`, `belief.hand_odds`), for each value of
`belief.FLOOR` (1 is the uniform odds, the unseen counts alone), and compared with the card it really holds: the
mean log of the chance given to the true card (higher is better) and how often the likeliest card is the true one
(what a Guard names). The world handed to `leanings` is the game's true state: a likelihood reads only the judged
hand and what is public, so any world of the view gives the same figures (tests/test_engine_belief.py).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.state import PHASE_PLAY
from loveletter.core.views import view
from loveletter.play.engine import belief
from loveletter.play.policies import choose_heuristic
from loveletter.play.simulate import decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--floors", default="0.0001,0.1,0.25,0.5,1")
    args = parser.parse_args()
    floors = [float(f) for f in args.floors.split(",")]
    log_sum = dict.fromkeys(floors, 0.0)
    right = dict.fromkeys(floors, 0)
    judged = 0
    kept = belief.FLOOR
    start = time.process_time()
    try:
        for state, seat, _, _ in decisions("2019", args.players, args.games, choose_heuristic, args.seed):
            if state.phase != PHASE_PLAY:
                continue
            seen = view(state, seat)
            for other in belief.weighed_seats(seen):
                true = state.hands[other][0]
                judged += 1
                for floor in floors:
                    belief.FLOOR = floor
                    odds = belief.hand_odds(seen, other, belief.leanings(seen, state)[other])
                    log_sum[floor] += math.log(max(odds.get(true, 0.0), 1e-12))
                    right[floor] += max(odds, key=lambda c: odds[c]) is true
    finally:
        belief.FLOOR = kept
    print(
        f"2019, {args.players} players, {args.games} games of heuristic bots, seed {args.seed}: "
        f"{judged:,} hidden hands judged ({time.process_time() - start:.0f} s of CPU)"
    )
    for floor in floors:
        name = "uniform (the unseen counts)" if floor == 1 else f"FLOOR {floor:g}"
        print(
            f"  {name:28} mean log-chance of the true card {log_sum[floor] / judged:.3f}, "
            f"likeliest card right {right[floor] / judged:.1%}"
        )


if __name__ == "__main__":
    main()
