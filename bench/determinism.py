"""Benchmark: determinism. The same seed, twice, must give byte-identical JSONL logs.

    .venv/bin/python bench/determinism.py [--games 10000] [--seed 1]

Simulates `--games` four-player 2019 games (heuristic bot against random bots) twice, once in this
process and once in a child process with another string-hash seed, each writing its log in memory;
prints both SHA-256 digests and exits 1 if they differ.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.play.simulate import Config, simulate

BOTS = ("heuristic", "random", "random", "random")


def log_digest(games: int, seed: int) -> tuple[str, int, float]:
    buffer = io.BytesIO()
    start = time.perf_counter()
    simulate(Config("2019", 4, games, seed, BOTS), buffer)
    seconds = time.perf_counter() - start
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest(), len(data), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:  # the second run: another process, another string-hash seed
        digest, _, seconds = log_digest(args.games, args.seed)
        print(digest, f"{seconds:.1f}")
        return
    first, size, t1 = log_digest(args.games, args.seed)
    child = subprocess.run(
        [sys.executable, __file__, "--child", "--games", str(args.games), "--seed", str(args.seed)],
        env={**os.environ, "PYTHONHASHSEED": "12345"},
        capture_output=True,
        text=True,
        check=True,
    )
    second, t2 = child.stdout.split()
    same = first == second
    print(f"determinism: {args.games:,} games (2019, 4 players, {','.join(BOTS)}), seed {args.seed}, twice")
    print(f"  run 1 (this process)    sha256 {first}  ({size:,} bytes, {t1:.1f} s)")
    print(f"  run 2 (another process) sha256 {second}  ({t2} s)")
    print("  identical" if same else "  DIFFERENT")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
