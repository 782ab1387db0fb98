"""Benchmark: the memory `loveletter audit` needs does not grow with the log it reads.

    .venv/bin/python bench/audit_memory.py [--games 2000 20000] [--jobs 2] [--keep DIR]

For each size, writes a simulated log with `loveletter simulate --ruleset 2019 --players 4 --games N --seed 1
--log FILE` (random bots: long games, about 33 KB each), then runs `loveletter audit FILE --jobs J --json` as a
child process and measures it two ways: the peak of the resident memory of the whole process tree (the command and
its workers, read from /proc every 10 ms: pages the workers share with the command they were forked from count
twice, so this is an upper bound), and the largest `ru_maxrss` of a single process of the tree (`os.wait4`). The
audit must find every game valid.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import orjson

ROOT = Path(__file__).resolve().parent.parent
LOVELETTER = Path(sys.executable).parent / "loveletter"


def _tree(pid: int) -> list[int]:
    """`pid` and every process below it."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fp:
                    todo.extend(int(c) for c in fp.read().split())
        except OSError:
            continue
    return out


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as fp:
            for line in fp:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(command: list[str]) -> tuple[float, int, int, bytes]:
    """Run `command`; its seconds, the peak summed RSS of its process tree and the largest single ru_maxrss (KiB),
    and its stdout."""
    peak = 0
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.append(child.stdout.read() if child.stdout else b""))
    reader.start()
    while True:
        peak = max(peak, sum(_rss_kb(p) for p in _tree(child.pid)))
        done, status, usage = os.wait4(child.pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.01)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    reader.join()
    return seconds, peak, usage.ru_maxrss, b"".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[2000, 20000])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", default=None, help="write the logs in this folder and keep them")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for games in args.games:
            path = folder / f"audit-memory-{games}.jsonl"
            if not path.exists():
                simulate = [str(LOVELETTER), "simulate", "--ruleset", "2019", "--players", "4", "--games", str(games)]
                simulate += ["--seed", "1", "--log", str(path)]
                subprocess.run(simulate, check=True, stdout=subprocess.DEVNULL)
            audit = [str(LOVELETTER), "audit", str(path), "--jobs", str(args.jobs), "--json"]
            seconds, tree_kb, single_kb, out = measure(audit)
            counts = orjson.loads(out)["counts"]
            assert counts["games"] == games and counts["valid"] == games, counts
            size = path.stat().st_size
            print(
                f"audit of {games:,} games ({size / 1e6:,.0f} MB), --jobs {args.jobs}: {seconds:.1f} s; "
                f"peak resident memory {tree_kb / 1024:,.0f} MB for the process tree, "
                f"{single_kb / 1024:,.0f} MB for its largest process"
            )


if __name__ == "__main__":
    main()
