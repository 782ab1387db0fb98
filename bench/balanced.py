"""Moves/s through a real load balancer (issue 34): two referees on 127.0.0.2 and 127.0.0.3 (one worker each, one
throwaway PostgreSQL cluster), Debian's HAProxy in front of them on 127.0.0.1 as tests/balancer.py configures it
(round robin, no sticky sessions, health checks). The clients of bench/api_load.py play `--games` games, `--concurrency`
at once, through the balancer; then the same number again straight to the two hosts (each client to one of them),
to show what the balancer costs. Each referee's rate limits are off (they measure capacity, as api_load does).

    python bench/balanced.py --games 300 --concurrency 32
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import pct, run_games, start_server  # noqa: E402
from loveletter.events.pgcluster import TempCluster, free_port  # noqa: E402
from tests.balancer import HAProxy  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with ExitStack() as stack:
        url = stack.enter_context(TempCluster())
        env = {"LOVELETTER_DATABASE_URL": url, "LOVELETTER_LOG_FORMAT": "json", "LOVELETTER_CREATE_RATE": "0",
               "LOVELETTER_MOVE_RATE": "0"}  # fmt: skip
        hosts = [("127.0.0.2", free_port()), ("127.0.0.3", free_port())]
        for host, port in hosts:
            proc = start_server("loveletter.server.app:create_app", port, env, host=host)
            stack.callback(proc.kill)
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        balancer = HAProxy(workdir, [f"{h}:{p}" for h, p in hosts]).wait_ready()
        stack.callback(balancer.stop)
        through, elapsed = asyncio.run(run_games([balancer.port], args.games, args.concurrency, args.seed))
        direct, direct_elapsed = asyncio.run(
            run_games([p for _, p in hosts], args.games, args.concurrency, args.seed + 1, [h for h, _ in hosts])
        )
    for what, tally, seconds in (("through HAProxy", through, elapsed), ("straight to the hosts", direct,
                                                                          direct_elapsed)):  # fmt: skip
        lat = tally.latencies
        print(f"{what}: {tally.games} games, {tally.moves} moves, {tally.moves / seconds:,.0f} moves/s, "
              f"move latency p50 {pct(lat, 50):.2f} ms, p99 {pct(lat, 99):.2f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
