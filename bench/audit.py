"""Benchmark: `loveletter audit` on 10,000 signed four-player games (about 2.2 million events).

    .venv/bin/python bench/audit.py [--games 10000] [--jobs 2 1] [--keep FILE]

Generates the games with `api.simulate.play_game` (chained, seed committed and revealed, each game signed with a
throwaway Ed25519 key) into a temporary JSONL file, then audits the file with every check (schema, sequence,
chain, signature pinned to the key, commitment, deck derivation, rules) once per `--jobs` value, printing the
seconds and events/s of each run. The audit must find every game valid.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from loveletter.core.catalogue import Event
from loveletter.events.log import write_game
from loveletter.events.signing import SigningKey
from loveletter.play.bots import get_bot
from loveletter.play.simulate import Config, _header, play_game, root_key
from loveletter.replays.audit import Options, audit_file


def _games(args: tuple[int, int, bytes]) -> tuple[bytes, int]:
    """Games [start, stop) of the simulation with seed 1, signed: (their log lines, their event count)."""
    start, stop, private = args
    key = SigningKey(Ed25519PrivateKey.from_private_bytes(private))
    config = Config("2019", 4, stop, 1, ("random",) * 4)
    bots = [get_bot(b) for b in config.bots]
    seed_key = root_key(config.seed)
    buf = io.BytesIO()
    events = 0
    for game in range(start, stop):
        record: list[Event] = []
        play_game(config.ruleset, bots, seed_key, game, {}, record)
        events += len(record)
        write_game(buf, record, _header(record, config, game), signer=key.sign)
    return buf.getvalue(), events


def generate(path: str, games: int, private: bytes, jobs: int) -> int:
    step = max(1, games // (jobs * 8))
    parts = [(a, min(games, a + step), private) for a in range(0, games, step)]
    events = 0
    with open(path, "wb") as fp, ProcessPoolExecutor(jobs) as pool:
        for data, n in pool.map(_games, parts):
            fp.write(data)
            events += n
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--jobs", type=int, nargs="+", default=[2, 1])
    parser.add_argument("--keep", help="write the generated log here (and keep it)")
    args = parser.parse_args()
    private = Ed25519PrivateKey.generate()
    raw = private.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    public = SigningKey(private).public_key
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or os.path.join(tmp, "games.jsonl")
        start = time.perf_counter()
        events = generate(path, args.games, raw, os.cpu_count() or 1)
        size = os.path.getsize(path)
        print(
            f"generated {args.games:,} games, {events:,} events, {size / 1e6:,.0f} MB "
            f"in {time.perf_counter() - start:.1f} s ({os.cpu_count()} cores)"
        )
        options = Options(key=public, require_signature=True)
        for jobs in args.jobs:
            start = time.perf_counter()
            report = audit_file(path, options, jobs)
            seconds = time.perf_counter() - start
            counts = report.counts()
            assert report.exit_code == 0, (report.error, counts)
            assert counts["events"] == events and counts["signed"] == args.games
            print(
                f"audit --jobs {jobs}: {seconds:.2f} s, {events / seconds:,.0f} events/s, "
                f"{args.games / seconds:,.0f} games/s — {counts['valid']:,}/{counts['games']:,} valid"
            )


if __name__ == "__main__":
    main()
