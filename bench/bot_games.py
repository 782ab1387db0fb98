"""Moves/s of concurrent bot games over HTTP on SQLite (issue 25): bots as `loveletter bot run` runs them.

Starts the referee as its own process on 127.0.0.1 (SQLite, durable commits), creates `--games` two-seat games and
plays them all at once: every seat is a bot on its own thread with its own `Client` (its own connection pool), played
by the harness's `play` — woken by the game's event stream, reading its view and legal moves, the built-in policy
(`heuristic` unless `--bot` names another) choosing the move — the loop a staying bot runs for each game.
Prints moves/s, move latency percentiles (the client's `play` call, retries included), the server's CPU time a
move (all its threads, from /proc) and the bots' own (this process: 2 × `--games` threads under one GIL).

    .venv/bin/python bench/bot_games.py --games 100

The server keeps its limits except the per-address game creation rate (the games are created from one address
before the clock starts; `--max-in-flight 0` lifts the cap below); a request the server turns away (503 when more
than `max_in_flight` are answered at once) is retried by the client after its backoff, and counted.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import cpu_seconds, start_server, stop  # noqa: E402
from loveletter.client.sync import Client  # noqa: E402
from loveletter.events.pgcluster import free_port  # noqa: E402
from loveletter.play.harness import load, play  # noqa: E402


class Tally:
    """Counts shared by every bot thread (under one lock)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.retries = 0
        self.games = 0
        self.failures: list[str] = []


class TimedSeat(Client):
    """A seat's client whose moves are timed: the time of `play`, from the call to the referee's answer."""

    tally: Tally

    def play(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        start = time.perf_counter()
        answer = super().play(*args, **kwargs)
        elapsed = time.perf_counter() - start
        with self.tally.lock:
            self.tally.latencies.append(elapsed)
        return answer


def pct(values: list[float], q: int) -> float:
    """The `q`th percentile of `values` (seconds) in ms, within the sample's range; nan for none."""
    if len(values) < 2:
        return values[0] * 1000 if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1] * 1000


def seat_client(url: str, token: str, tally: Tally) -> TimedSeat:
    def sleep(seconds: float) -> None:
        with tally.lock:
            tally.retries += 1
        time.sleep(seconds)

    seat = TimedSeat(url, token, sleep=sleep, timeout=120.0)
    seat.tally = tally
    return seat


def run_bot(url: str, game_id: str, token: str, bot_name: str, seed: int, tally: Tally, go: threading.Event) -> None:
    """One seat, as `loveletter bot run` plays it: its own client, the harness's `play` to the game's end."""
    seat = seat_client(url, token, tally)
    try:
        go.wait()
        final = play(seat, game_id, load(bot_name, seed))
        if final.over:
            with tally.lock:
                tally.games += 1
    except Exception as exc:  # a benchmark reports a failed seat rather than hang on it
        with tally.lock:
            tally.failures.append(f"{game_id}: {exc!r}")
    finally:
        seat.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=100, help="two-seat games played at once")
    ap.add_argument("--bot", default="heuristic", help="the built-in policy of every seat")
    ap.add_argument("--durability", choices=["full", "normal"], default="full")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-in-flight", help="the server's LOVELETTER_MAX_IN_FLIGHT (0: no cap; default: its own)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
            "LOVELETTER_DURABILITY": args.durability,
            "LOVELETTER_KEY_PATH": f"{tmp}/signing.key",
            "LOVELETTER_LOG_FORMAT": "json",
            "LOVELETTER_CREATE_RATE": "0",
        }
        if args.max_in_flight is not None:
            env["LOVELETTER_MAX_IN_FLIGHT"] = args.max_in_flight
        port = free_port()
        server = start_server("loveletter.server.app:create_app", port, env)
        url = f"http://127.0.0.1:{port}"
        try:
            tally = Tally()
            go = threading.Event()
            threads = []
            with Client(url) as organiser:
                for g in range(args.games):
                    created = organiser.create_game([f"Bot{g}a", f"Bot{g}b"])
                    for s in created.seats:
                        assert s.token is not None
                        thread = threading.Thread(
                            target=run_bot,
                            args=(
                                url,
                                created.game_id,
                                s.token,
                                args.bot,
                                args.seed * 10_000 + 2 * g + s.seat,
                                tally,
                                go,
                            ),
                            daemon=True,
                        )
                        thread.start()
                        threads.append(thread)
            cpu_before, bots_before = cpu_seconds(server.pid), time.process_time()
            start = time.perf_counter()
            go.set()
            for thread in threads:
                thread.join()
            elapsed = time.perf_counter() - start
            server_cpu = cpu_seconds(server.pid) - cpu_before
            bots_cpu = time.process_time() - bots_before
        finally:
            stop(server)
    lat = tally.latencies
    moves = len(lat)
    print(
        f"SQLite ({args.durability} durability), {args.games} two-seat games at once, {2 * args.games} {args.bot} bots"
    )
    print(f"games played to the end: {tally.games // 2} of {args.games}, moves: {moves}, retries: {tally.retries}")
    for failure in tally.failures[:5]:
        print(f"failed seat: {failure}")
    print(f"moves/s: {moves / elapsed:,.1f} over {elapsed:.1f} s")
    print(
        f"move latency ms: p50 {pct(lat, 50):.1f}  p90 {pct(lat, 90):.1f}  p99 {pct(lat, 99):.1f}  "
        f"max {max(lat) * 1000:.1f}"
    )
    print(f"server CPU: {server_cpu / max(moves, 1) * 1e3:.2f} ms per move, {server_cpu / elapsed:.0%} of one core")
    bots = f"{bots_cpu / max(moves, 1) * 1e3:.2f} ms per move, {bots_cpu / elapsed:.0%} of one core"
    print(f"bots' CPU (this process, all threads): {bots}")
    if tally.failures or tally.games != 2 * args.games:
        raise SystemExit(f"{len(tally.failures)} seats failed")


if __name__ == "__main__":
    main()
