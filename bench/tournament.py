"""Benchmark: tournament games per second in process (`loveletter tournament` without --server).

    .venv/bin/python bench/tournament.py [--games 2000] [--repeat 3]

Each line plays `--games` games of 2019 with 4 players through `api.tournament.run_in_process` (the loop of the
command: schedule, duplicate deals, the bots, decide + evolve, each game's outcome), best of `--repeat` runs, then
rates them (`api.tournament_ratings.rate`, OpenSkill Plackett–Luce, with the history the chart draws). Three
fields: the built-in bots only (their policies called directly), a bot file among them (given the seat's `Game`
built as the HTTP answer is, `client.bots.seat_game`), and bot files only. For scale, the first line is
`loveletter simulate`'s loop on the same games (heuristic, random, heuristic, random: no schedule, no ratings),
in the same run. No log is written.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.play.ratings import rate
from loveletter.play.simulate import Config as SimulationConfig
from loveletter.play.simulate import simulate
from loveletter.play.tournament import Config, run_in_process

FIELDS = {
    "built-in (heuristic, random)": ("heuristic", "random"),
    "one bot file (heuristic, random, careful)": ("heuristic", "random", "examples.bots.careful:Bot"),
    "bot files only (careful, first)": ("examples.bots.careful:Bot", "examples.bots.first:choose"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"tournament in process: 2019, 4 players, {args.games:,} games, best of {args.repeat}, one core")
    best = 0.0
    for _ in range(args.repeat):
        stats = simulate(SimulationConfig("2019", 4, args.games, 1, ("heuristic", "random") * 2))
        best = max(best, stats.games / stats.seconds)
    print(f"  {'simulate, for scale (heuristic, random x2)':44} {best:8,.0f} games/s")
    for label, bots in FIELDS.items():
        best = 0.0
        rating_ms = 0.0
        for _ in range(args.repeat):
            config = Config(bots, players=4, ruleset="2019", games=args.games, seed=1)
            start = time.perf_counter()
            outcomes = run_in_process(config)
            played = time.perf_counter() - start
            start = time.perf_counter()
            rate(outcomes, len(bots))
            rated = time.perf_counter() - start
            if args.games / played > best:
                best, rating_ms = args.games / played, 1000 * rated / args.games
        print(f"  {label:44} {best:8,.0f} games/s   rating: {rating_ms:.3f} ms/game")


if __name__ == "__main__":
    main()
