"""Benchmark: one durable SQLite commit, the floor under every acknowledged move on the embedded store.

    .venv/bin/python bench/sqlite_commit.py [--commits 300] [--durability full]

Times `--commits` single-row `BEGIN IMMEDIATE … COMMIT` transactions on a fresh file in WAL mode with the
store's own pragmas (synchronous=FULL by default: each commit waits for the disk). It measures the file system
and SQLite, nothing of the referee; the group commit of `events/sqlite_store.py` pays it once per batch of moves.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--durability", choices=("full", "normal"), default="full")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = sqlite3.connect(f"{tmp}/commit.db", isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(f"PRAGMA synchronous={args.durability.upper()}")
        db.execute("PRAGMA temp_store=MEMORY")
        db.execute("CREATE TABLE events (game_id TEXT, seq INTEGER, body BLOB, PRIMARY KEY (game_id, seq))")
        times = []
        for seq in range(args.commits):
            start = time.perf_counter()
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO events VALUES (?, ?, ?)", ("g", seq, b"x" * 200))
            db.execute("COMMIT")
            times.append(time.perf_counter() - start)
        db.close()
    times.sort()
    print(f"{args.commits} single-row commits, WAL, synchronous={args.durability.upper()}")
    print(
        f"median {statistics.median(times) * 1000:.3f} ms  p99 {times[int(len(times) * 0.99) - 1] * 1000:.3f} ms  "
        f"mean {statistics.fmean(times) * 1000:.3f} ms"
    )


if __name__ == "__main__":
    main()
