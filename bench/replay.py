"""Benchmark: replaying a log file end to end — reading it, decoding every line, and checking every event.

    .venv/bin/python bench/replay.py [--games 2000]

Writes `--games` four-player 2019 games between random bots to a JSONL file (hash-chained, as the referee
exports them), then times, on one core, `events.log.read_path` (reading, JSON parsing, pydantic validation of
every event, the header and chain fields) followed by `replays.replay.check` of every game (every decision judged
again by `decide`, every consequence compared with what the rules derive, the state folded). Compare with
`bench/fold.py`, which folds events already decoded in memory and judges nothing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fold import build_logs
from loveletter.events.log import Header, read_path, write_game
from loveletter.replays.replay import check


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    logs = build_logs(args.games)
    events = sum(len(log) for log in logs)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "games.jsonl"
        with path.open("wb") as fp:
            for number, log in enumerate(logs):
                started = log[0]
                write_game(fp, log, Header("2019", started.players, dict(started.options), f"g{number}"))  # type: ignore[union-attr]
        size = path.stat().st_size
        start = time.perf_counter()
        games = read_path(str(path))
        read = time.perf_counter() - start
        for game in games:
            result = check(game.entries)
            assert not result.problems, result.problems
        total = time.perf_counter() - start
    print(f"{args.games:,} games, {events:,} events, {size / 1e6:.1f} MB")
    print(f"read and decode: {read:.2f} s ({events / read:,.0f} events/s)")
    per_game = total / args.games * 1e3
    print(f"read, decode and check every event: {total:.2f} s ({events / total:,.0f} events/s, {per_game:.2f} ms/game)")


if __name__ == "__main__":
    main()
