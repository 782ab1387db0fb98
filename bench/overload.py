"""Overload: many more clients than the referee can serve at once, and connections that never finish a request.

Starts the referee as `loveletter serve` runs it (its default limits and timeouts, SQLite with durable commits) on
127.0.0.1, then:

1. **Load**: --clients keep-alive clients, each from its own loopback address (127.0.x.y: the referee's per-address
   limits see as many clients), play two-seat games for --duration seconds, honouring Retry-After when the referee
   answers 429 or 503; a probe asks `GET /healthz` every 20 ms on a connection of its own. Printed: every answer by
   status (an answer other than 200, 201, a rules refusal, 429 or 503 is an error), the latency of the answered moves
   (everything but 429/503) and of `/healthz`.
2. **Connections**: --idle connections that never send a byte and --slowloris connections that send a request head
   one header line per second; printed: how many the referee closed, and when.

    python bench/overload.py --clients 256 --duration 20
    python bench/overload.py --clients 256 --duration 20 --no-limits   # the same with the limits turned off

Traffic goes to 127.0.0.1 only; every loop is bounded in time and the script stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import cpu_seconds, first_choice, listening, pct  # noqa: E402
from bench.http_client import Connection  # noqa: E402
from loveletter.events.pgcluster import free_port  # noqa: E402

SHED = (429, 503)
REFUSED = (409, 412, 422)


def loveletter_command() -> list[str]:
    found = Path(sys.executable).parent / "loveletter"
    if found.exists():
        return [str(found)]
    which = shutil.which("loveletter")
    if which is None:
        raise SystemExit("the loveletter command is not installed (pip install -e .)")
    return [which]


def start_referee(port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """`loveletter serve` on 127.0.0.1:port, ready to answer."""
    proc = subprocess.Popen(
        [*loveletter_command(), "serve", "--port", str(port)],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return listening(proc, port, 0.3, "the referee")


def source_address(k: int) -> str:
    return f"127.0.{1 + k // 250}.{1 + k % 250}"


class Tally:
    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.move_latencies: list[float] = []
        self.health: list[float] = []
        self.connection_errors = 0
        self.moves = 0
        self.games = 0
        self.errors: list[str] = []


class Client:
    """One simulated client: plays games on one keep-alive connection from its own address."""

    def __init__(self, k: int, port: int, tally: Tally, deadline: float) -> None:
        self.k, self.port, self.tally, self.deadline = k, port, tally, deadline
        self.rng = random.Random(k)
        self.conn: Connection | None = None

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None, move: bool = False
    ) -> tuple[int, Any] | None:
        """The answer, after waiting out any 429/503 (Retry-After); None once past the deadline."""
        while time.monotonic() < self.deadline:
            try:
                if self.conn is None:
                    self.conn = await Connection.open("127.0.0.1", self.port, source_address(self.k))
                start = time.perf_counter()
                status, answer = await self.conn.request(method, path, body, headers)
            except (OSError, ConnectionError, IndexError, ValueError, asyncio.IncompleteReadError):
                self.tally.connection_errors += 1
                self.conn = None
                await asyncio.sleep(0.1)
                continue
            elapsed = time.perf_counter() - start
            self.tally.statuses[status] += 1
            if status in SHED:
                await asyncio.sleep(min(self.conn.retry_after or 1.0, max(0.0, self.deadline - time.monotonic())))
                continue
            if move:
                self.tally.move_latencies.append(elapsed)
            return status, answer
        return None

    async def run(self) -> None:
        await asyncio.sleep(self.rng.random() * 0.5)  # clients arrive over half a second, not in one instant
        while time.monotonic() < self.deadline:
            await self.play()
        if self.conn is not None:
            await self.conn.close()

    async def play(self) -> None:
        got = await self.request("POST", "/games", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
        if got is None:
            return
        status, game = got
        if status != 201:
            self.tally.errors.append(f"POST /games: {status} {game}")
            return
        gid = game["game_id"]
        tokens = [s["token"] for s in game["seats"]]
        views: dict[int, dict[str, Any]] = {}
        pending: list[dict[str, Any]] | None = None
        active: int | None = None
        for _ in range(400):
            if active is None or (pending is None and active not in views):
                seat = 0 if active is None else active
                got = await self.request("GET", f"/games/{gid}", headers={"Authorization": f"Bearer {tokens[seat]}"})
                if got is None:
                    return
                state = got[1]
                active = state["view"]["active"]
                if active != seat:
                    continue
                pending = state["legal_moves"]
            seat = active
            if pending:
                move = {"type": "code", "action_code": self.rng.choice(pending)["action_code"]}
            else:
                move = first_choice(views[seat], seat) or {"type": "play", "card": "guard"}
            auth = {"Authorization": f"Bearer {tokens[seat]}"}
            got = await self.request("POST", f"/games/{gid}/moves", move, auth, move=True)
            if got is None:
                return
            status, answer = got
            if status in REFUSED:
                pending = answer.get("legal_moves") or None
                if pending is None:
                    active = None
                continue
            if status != 200:
                self.tally.errors.append(f"move: {status} {answer}")
                return
            self.tally.moves += 1
            view = answer["view"]
            views[seat] = view
            if view["winners"]:
                self.tally.games += 1
                return
            active = view["active"]
            pending = answer["legal_moves"] if active == seat else None
            if active != seat and active in views:
                views[active] = {**view, "hand": views[active]["hand"][-1:]}


async def probe_health(port: int, tally: Tally, deadline: float) -> None:
    conn = await Connection.open("127.0.0.1", port)
    while time.monotonic() < deadline:
        start = time.perf_counter()
        status, _ = await conn.request("GET", "/healthz")
        tally.health.append(time.perf_counter() - start)
        tally.statuses[-status] += 1  # kept apart from the clients' answers
        await asyncio.sleep(0.02)
    await conn.close()


async def load(port: int, clients: int, duration: float) -> tuple[Tally, float]:
    tally = Tally()
    deadline = time.monotonic() + duration
    start = time.perf_counter()
    await asyncio.gather(
        probe_health(port, tally, deadline), *(Client(k, port, tally, deadline).run() for k in range(clients))
    )
    return tally, time.perf_counter() - start


async def hold(port: int, k: int, slow: bool, window: float) -> float | None:
    """A connection that sends nothing (or a head one line a second): seconds until the server closed it."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source_address(k), 0))
    except OSError:
        return None
    start = time.monotonic()
    closed: float | None = None

    async def watch() -> None:
        nonlocal closed
        try:
            while await reader.read(4096):
                pass
        except OSError:
            pass
        closed = time.monotonic() - start

    watcher = asyncio.ensure_future(watch())
    try:
        if slow:
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        i = 0
        while closed is None and time.monotonic() - start < window:
            await asyncio.sleep(1.0)
            if slow and closed is None:
                writer.write(b"X-Slow-%d: 1\r\n" % i)
                i += 1
    except OSError:
        pass
    finally:
        await asyncio.sleep(0)
        watcher.cancel()
        writer.close()
    return closed


async def connections(port: int, idle: int, slowloris: int, window: float) -> tuple[list[float | None], ...]:
    idle_tasks = [hold(port, k, False, window) for k in range(idle)]
    slow_tasks = [hold(port, 1000 + k, True, window) for k in range(slowloris)]
    results = await asyncio.gather(*idle_tasks, *slow_tasks)
    return results[:idle], results[idle:]


def closed_summary(results: list[float | None], window: float) -> str:
    closed = [r for r in results if r is not None]
    if not closed:
        return f"{len(results)}: none closed by the referee within {window:.0f} s"
    return f"{len(results)}: {len(closed)} closed by the referee, after {min(closed):.1f}–{max(closed):.1f} s" + (
        f"; {len(results) - len(closed)} still open after {window:.0f} s" if len(closed) < len(results) else ""
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=256)
    ap.add_argument("--duration", type=float, default=20.0, help="seconds of load")
    ap.add_argument("--idle", type=int, default=500, help="connections that send nothing")
    ap.add_argument("--slowloris", type=int, default=500, help="connections that send a head a line a second")
    ap.add_argument("--window", type=float, default=15.0, help="seconds the idle and slow connections are watched")
    ap.add_argument("--no-limits", action="store_true", help="turn the referee's limits and read deadlines off")
    args = ap.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/overload.db",
            "LOVELETTER_KEY_PATH": f"{tmp}/signing.key",
            "LOVELETTER_LOG_FORMAT": "json",
            "LOVELETTER_LOG_LEVEL": "error",
            "LOVELETTER_REQUEST_LOG_LEVEL": "debug",
        }
        if args.no_limits:
            env.update(
                LOVELETTER_CREATE_RATE="0",
                LOVELETTER_MOVE_RATE="0",
                LOVELETTER_MAX_IN_FLIGHT="0",
                LOVELETTER_HEADER_TIMEOUT="0",
                LOVELETTER_BODY_TIMEOUT="0",
            )
        port = free_port()
        server = start_referee(port, env)
        try:
            cpu_before, client_before = cpu_seconds(server.pid), time.process_time()
            tally, elapsed = asyncio.run(load(port, args.clients, args.duration))
            server_cpu, client_cpu = cpu_seconds(server.pid) - cpu_before, time.process_time() - client_before
            idle, slow = asyncio.run(connections(port, args.idle, args.slowloris, args.window))
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    statuses = {s: n for s, n in tally.statuses.items() if s > 0}
    answered = sum(n for s, n in statuses.items() if s not in SHED)
    errors = sum(n for s, n in statuses.items() if s not in (200, 201, *REFUSED, *SHED))
    limits = "limits off" if args.no_limits else "the referee's default limits"
    print(
        f"overload: {args.clients} clients (one loopback address each), {elapsed:.1f} s, SQLite (full durability), "
        f"{limits}"
    )
    print(
        f"answers: {sum(statuses.values())} — "
        + ", ".join(f"{s}: {n}" for s, n in sorted(statuses.items()))
        + f"; answered (not 429/503): {answered}; errors other than 429/503: {errors + len(tally.errors)}; "
        f"connection errors: {tally.connection_errors}"
    )
    lat = tally.move_latencies
    print(
        f"moves answered: {len(lat)} ({tally.moves} accepted, {tally.moves / elapsed:,.0f}/s; {tally.games} games "
        f"finished); latency ms p50 {pct(lat, 50):.1f}  p99 {pct(lat, 99):.1f}  max {max(lat, default=0) * 1000:.1f}"
    )
    print(
        f"/healthz: {len(tally.health)} probes, latency ms p50 {pct(tally.health, 50):.1f}  "
        f"p99 {pct(tally.health, 99):.1f}  max {max(tally.health, default=0) * 1000:.1f}"
    )
    print(
        f"CPU: the referee {server_cpu / elapsed:.0%} of one core, this load generator {client_cpu / elapsed:.0%} "
        "(both on this machine)"
    )
    print(f"idle connections {closed_summary(idle, args.window)}")
    print(f"slowloris connections {closed_summary(slow, args.window)}")
    for line in tally.errors[:5]:
        print("error:", line[:300])


if __name__ == "__main__":
    main()
