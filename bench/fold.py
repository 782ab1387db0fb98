"""Benchmark: `core.evolve.fold` over pre-built game logs (events/s, one core, no I/O).

    .venv/bin/python bench/fold.py [--games 2000] [--repeat 5]

The logs are 2019 four-player games between random bots, made once by the simulator; the figure
is the best of `--repeat` passes folding every log from the initial state.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.catalogue import Event
from loveletter.core.evolve import evolve, fold
from loveletter.play.bots import get_bot
from loveletter.play.simulate import play_game, root_key


def build_logs(games: int, ruleset: str = "2019", players: int = 4, seed: int = 1) -> list[list[Event]]:
    bots = [get_bot("random")] * players
    key = root_key(seed)
    logs: list[list[Event]] = []
    for game in range(games):
        record: list[Event] = []
        play_game(ruleset, bots, key, game, record=record)
        logs.append(record)
    return logs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    logs = build_logs(args.games)
    events = sum(len(log) for log in logs)
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for log in logs:
            fold(log)
        best = min(best, time.perf_counter() - start)
    # One `evolve` (copy, apply, freeze) per event, from the states met along 200 of the logs.
    pairs = []
    for log in logs[:200]:
        state = fold(())
        for event in log:
            pairs.append((state, event))
            state = evolve(state, event)
    single = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        for state, event in pairs:
            evolve(state, event)
        single = min(single, time.perf_counter() - start)
    print(
        f"fold: {events:,} events in {len(logs):,} logs (2019, 4 players), best of {args.repeat}: "
        f"{best:.3f} s = {events / best:,.0f} events/s ({events / len(logs):.0f} events/game)"
    )
    print(f"evolve: {single / len(pairs) * 1e6:.2f} µs per event, one at a time with copy and freeze ({len(pairs):,})")


if __name__ == "__main__":
    main()
