"""The parts of this project's audit that do not depend on how a log is read, timed one by one on one core.

    .venv/bin/python bench/audit_parts.py [--games 2000]

Generates signed four-player games as `bench/audit.py` does, then times, each alone and best of three:
judging every decision again with this project's rules engine (`decide` + `evolve`, with every deck derived from
the revealed seed, the commands taken ready-made so no parsing is counted), the SHA-256 of every line (the hash
chain), one Ed25519 verification per game, and cutting the file into lines. Their sum is what this audit spends
before it reads a single field; it is printed per game and scaled to the 10,000 games of the issue's target. It
is not a floor for audits in general: another rules engine (native code, or a cheaper Python one) would judge
faster, and the judging is two thirds of the sum.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.audit import generate
from loveletter.core.catalogue import RoundStarted, SeedRevealed
from loveletter.core.chance import committed_deal
from loveletter.core.commands import Command
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.state import INITIAL
from loveletter.events.log import read_path
from loveletter.events.signing import verify
from loveletter.replays.decisions import DECISIONS, command_of


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "games.jsonl")
        generate(path, args.games, raw, os.cpu_count() or 1)
        data = Path(path).read_bytes()
        games = read_path(path)
    lines = data.splitlines()
    plans: list[tuple[bytes, list[Command | None]]] = []
    for game in games:
        reveal = next(e.event for e in game.entries if isinstance(e.event, SeedRevealed))
        decisions = [e.event for e in game.entries if isinstance(e.event, DECISIONS)]
        # None stands for a deal, derived from the seed as the audit does
        plans.append(
            (bytes.fromhex(reveal.seed), [None if isinstance(d, RoundStarted) else command_of(d) for d in decisions])
        )
    signatures = [(g.signature or {}) for g in games]

    def judge() -> None:
        for seed, commands in plans:
            state = INITIAL.thaw()
            for command in commands:
                events = decide(state, command if command is not None else committed_deal(state, seed))
                apply_all(state, events)

    def chain() -> None:
        sha256 = hashlib.sha256
        for line in lines:
            sha256(line).hexdigest()

    def signatures_check() -> None:
        for sig in signatures:
            assert verify(sig["public_key"], sig["hash"], sig["signature"])

    parts = {
        "judging every decision again (decide + evolve + deck derivation)": best(3, judge),
        "SHA-256 of every line (hash chain)": best(3, chain),
        "one Ed25519 verification per game": best(3, signatures_check),
        "cutting the file into lines": best(3, data.splitlines),
    }
    n = len(games)
    total = sum(parts.values())
    print(f"{n:,} games, {len(lines):,} lines, one core (CPU time, best of 3):")
    for name, seconds in parts.items():
        print(f"  {name:<68} {seconds / n * 1e3:6.3f} ms/game  -> {seconds / n * 1e4:5.2f} s per 10,000 games")
    label = "the sum (this engine, before any parsing)"
    print(f"  {label:<68} {total / n * 1e3:6.3f} ms/game  -> {total / n * 1e4:5.2f} s per 10,000 games")
    print(f"  on two cores at best half of that: {total / n * 1e4 / 2:.2f} s per 10,000 games")


if __name__ == "__main__":
    main()
