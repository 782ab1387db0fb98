"""The HTTP load of `api_load.py`, alternated across checkouts: is one tree's referee faster than another's?

One run of `api_load.py` on this 2-core machine spreads by up to 29% from the next on the same code, so a before/after
figure from one run of each says nothing about a 5% bound. This script starts each tree's referee in turn (SQLite,
durable commits, its own fresh database), plays the same workload against it with the same client (this tree's
`api_load.play_game`, the same seeds for every tree in a round), and repeats the rounds, every other one in the
reverse order, so that the machine's drift and the order fall on every tree alike; it prints each run, then each
tree's median moves/s and median server CPU per move and the change of each tree against the first.

    python bench/api_load_compare.py --rounds 8 --games 300 ../before ../after

A tree is a checkout of this repository (`git worktree add --detach ../before <commit>`); a tree from before the
house moved serves `loveletter.api.app:create_app`, a later one `loveletter.server.app:create_app`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import cpu_seconds, listening, run_games, stop  # noqa: E402
from loveletter.events.pgcluster import free_port  # noqa: E402


def factory(tree: Path) -> str:
    """The tree's application factory: it moved from `api/` to `server/` with issue 22."""
    room = "server" if (tree / "server" / "app.py").exists() else "api"
    return f"loveletter.{room}.app:create_app"


def one_run(tree: Path, games: int, concurrency: int, seed: int) -> tuple[float, float, int]:
    """(moves/s, server CPU µs a move, moves) of `tree`'s referee on a fresh SQLite database."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            **os.environ,
            "PYTHONPATH": str(tree),
            "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
            "LOVELETTER_DURABILITY": "full",
            "LOVELETTER_LOG_FORMAT": "json",
            "LOVELETTER_CREATE_RATE": "0",  # the referee's capacity, not its per-address limits (as api_load.py)
            "LOVELETTER_MOVE_RATE": "0",
        }
        port = free_port()
        cmd = [sys.executable, "-m", "uvicorn", factory(tree), "--factory", "--host", "127.0.0.1"]
        cmd += ["--port", str(port), "--no-access-log", "--log-level", "warning"]
        server = subprocess.Popen(cmd, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            listening(server, port, 0.3, f"the referee of {tree}")
            before = cpu_seconds(server.pid)
            tally, elapsed = asyncio.run(run_games([port], games, concurrency, seed))
            cpu = cpu_seconds(server.pid) - before
        finally:
            stop(server)
    return tally.moves / elapsed, 1e6 * cpu / max(tally.moves, 1), tally.moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trees", nargs="+", type=Path, help="checkouts of this repository; the first is the reference")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--concurrency", type=int, default=32)
    args = ap.parse_args()
    trees = [tree.resolve() for tree in args.trees]
    for tree in trees:
        if not (tree / "loveletter").is_dir():
            ap.error(f"{tree} is not a checkout of this repository (no loveletter/ in it)")
    runs: dict[Path, list[tuple[float, float]]] = {tree: [] for tree in trees}
    width = max(len(str(tree)) for tree in trees)
    for round_ in range(args.rounds):
        for tree in trees if round_ % 2 == 0 else trees[::-1]:  # every other round backwards: no tree always first
            rate, cpu, moves = one_run(tree, args.games, args.concurrency, round_ + 1)
            runs[tree].append((rate, cpu))
            line = f"{rate:7,.0f} moves/s  {cpu:5.0f} µs CPU a move  ({moves} moves)"
            print(f"round {round_ + 1}/{args.rounds}  {tree!s:{width}}  {line}", flush=True)
    first_rate = statistics.median(rate for rate, _ in runs[trees[0]])
    first_cpu = statistics.median(cpu for _, cpu in runs[trees[0]])
    print(f"\nmedians over {args.rounds} rounds, {args.games} games each, {args.concurrency} at once (SQLite durable):")
    for tree in trees:
        rates = [rate for rate, _ in runs[tree]]
        rate, cpu = statistics.median(rates), statistics.median(c for _, c in runs[tree])
        print(
            f"  {tree!s:{width}}  {rate:7,.0f} moves/s ({rate / first_rate - 1:+.1%};"
            f" runs {min(rates):,.0f}–{max(rates):,.0f})"
            f"  {cpu:5.0f} µs CPU a move ({cpu / first_cpu - 1:+.1%})"
        )


if __name__ == "__main__":
    main()
