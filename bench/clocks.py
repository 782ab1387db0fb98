"""Running games with turn clocks: the referee keeps every deadline with one task, whatever the number of games.

Starts the referee under uvicorn in its own process on 127.0.0.1 (SQLite, durable commits), with the real wall
clock: no fake time source. Games of two human seats nobody plays, each with `turn_seconds` = --turn and
`on_timeout: "bot"`, are created over HTTP (`POST /games`), so each game's clock runs out every --turn seconds: the
referee records `clock_ran_out`, its stand-in (the expert) moves for the seat, and the next seat's clock starts. The
games of each step are created evenly over one turn (--burst: all at once, deadlines bunched together). Before the
first step is measured the script waits for the first timeout: that stand-in move starts the engine's worker
processes, a cost of the server's start, not of its clocks.

At each step (--sizes, games running in all) it waits --turns turns, then prints what the server holds: its asyncio
tasks, the live timers its event loop has scheduled (cancelled ones waiting to be dropped from the loop's heap
not counted; with --loop asyncio, as uvloop does not expose them), the length of the
referee's deadline heap, its resident memory (VmRSS, /proc) and the CPU it spent per timeout; and the lateness of
the timeouts during those turns: from each deadline to `Referee.expire` returning after the durable commit of
`clock_ran_out` and the bot's move ("recorded"), and to the moment the clock keeper called `expire` for it
("seen").

The server is `bench.clocks:instrumented`, `create_app` with two additions for this measurement only: a route
`GET /_bench/stats` answering the figures above from inside the server's event loop, and a wrapper around
`Referee.expire` noting the wall time when it returns True.

    python bench/clocks.py --sizes 10,100,1000 --turn 5 --turns 2
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import cpu_seconds, listening, stop  # noqa: E402
from bench.api_load import pct as _pct  # noqa: E402
from bench.http_client import Connection  # noqa: E402
from loveletter.events.pgcluster import free_port  # noqa: E402


def pct(values: list[float], q: float) -> float:
    """`bench.api_load.pct` (ms), never above the largest value (its interpolation may overshoot on few values)."""
    return min(_pct(values, q), max(values, default=float("nan")) * 1000)


def _rss_kib() -> int:
    with open("/proc/self/status") as fp:
        for line in fp:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


WARM_SECONDS = 60.0
"""How long the first step waits for its first timeout (the engine's workers started) before measuring."""


def _kinds(scheduled: list[Any]) -> dict[str, int]:
    """How many timers of the event loop call each function."""
    kinds: dict[str, int] = {}
    for handle in scheduled:
        if not handle.cancelled():
            name = getattr(handle._callback, "__qualname__", repr(handle._callback))
            kinds[name] = kinds.get(name, 0) + 1
    return kinds


def instrumented() -> Any:
    """`create_app()` (settings from LOVELETTER_*), plus `GET /_bench/stats` and a note of each timeout recorded."""
    from loveletter.referee.clocks import wall_ms
    from loveletter.server.app import create_app

    app = create_app()
    referee = app.state.referee
    expired: list[tuple[int, int, int]] = []  # (deadline, wall ms when seen, wall ms when recorded)
    expire: Callable[[str, int], Awaitable[bool]] = referee.expire

    async def noted_expire(game_id: str, deadline: int) -> bool:
        seen = wall_ms()
        acted = await expire(game_id, deadline)
        if acted:
            expired.append((deadline, seen, wall_ms()))
        return acted

    referee.expire = noted_expire  # the clock keeper calls self.expire

    async def stats_app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"] == "/_bench/stats":
            loop = asyncio.get_running_loop()
            scheduled = getattr(loop, "_scheduled", None)
            body = orjson.dumps(
                {
                    "tasks": len(asyncio.all_tasks()),
                    "timers": None if scheduled is None else sum(_kinds(scheduled).values()),
                    "timer_kinds": None if scheduled is None else _kinds(scheduled),
                    "heap": len(referee._clocks._deadlines),
                    "cached_games": len(referee._tables.cached),
                    "rss_kib": _rss_kib(),
                    "expired": expired,
                }
            )
            expired.clear()
            headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await app(scope, receive, send)

    return stats_app


async def create_games(conn: Connection, count: int, turn: int, spread: float) -> None:
    """Create `count` clocked games over `spread` seconds (evenly), over HTTP."""
    body = {"players": [{"name": "Ann"}, {"name": "Bob"}], "turn_seconds": turn, "on_timeout": "bot"}
    start = time.perf_counter()
    for i in range(count):
        if spread:
            delay = start + spread * i / count - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
        status, game = await conn.request("POST", "/games", body)
        assert status == 201, (status, game)


async def stats(conn: Connection) -> dict[str, Any]:
    status, body = await conn.request("GET", "/_bench/stats")
    assert status == 200, body
    return body  # type: ignore[no-any-return]


async def warmed(conn: Connection, seconds: float = WARM_SECONDS) -> None:
    """Wait for the first timeout: the first stand-in move starts the engine's workers, seconds of imports on a busy
    machine, which are the server's start and not what a clocked game costs (its timeouts are not counted)."""
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        if (await stats(conn))["expired"]:
            return
        await asyncio.sleep(0.2)
    raise SystemExit(f"no timeout was recorded within {seconds:.0f} s of the first clocked game")


async def run(port: int, pid: int, sizes: list[int], turn: int, turns: int, burst: bool) -> list[dict[str, Any]]:
    conn = await Connection.open("127.0.0.1", port)
    rows = []
    running = 0
    idle = await stats(conn)
    rows.append({"games": 0, "samples": [idle], "lateness": [], "seen": [], "cpu": 0.0, "timeouts": 0})
    for step, size in enumerate(sizes):
        await create_games(conn, size - running, turn, 0 if burst else turn)
        running = size
        if step == 0:
            await warmed(conn)
        await stats(conn)  # drop the timeouts of the creation period
        cpu_before = cpu_seconds(pid)
        samples, expired = [], []
        end = time.perf_counter() + turns * turn
        while time.perf_counter() < end:
            await asyncio.sleep(min(0.5, turn / 4))
            sample = await stats(conn)
            expired += sample.pop("expired")
            samples.append(sample)
        cpu = cpu_seconds(pid) - cpu_before
        lateness = [(recorded - deadline) / 1000 for deadline, _, recorded in expired]
        seen = [(at - deadline) / 1000 for deadline, at, _ in expired]
        row = {"games": size, "samples": samples, "lateness": lateness, "seen": seen, "cpu": cpu}
        rows.append({**row, "timeouts": len(expired)})
    await conn.close()
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10,100,1000", help="games running at each step (growing)")
    ap.add_argument("--turn", type=int, default=5, help="turn_seconds of every game")
    ap.add_argument("--turns", type=int, default=2, help="turns measured at each step")
    ap.add_argument("--burst", action="store_true", help="create each step's games at once, not over one turn")
    ap.add_argument("--loop", choices=["asyncio", "uvloop"], default="asyncio", help="the server's event loop")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        env = {
            **os.environ,
            "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/clocks.db",
            "LOVELETTER_KEY_PATH": os.path.join(tmp, "signing.key"),
            "LOVELETTER_LOG_LEVEL": "warning",
            "LOVELETTER_CREATE_RATE": "0",  # one client creates every game
        }
        port = free_port()
        cmd = [sys.executable, "-m", "uvicorn", "bench.clocks:instrumented", "--factory", "--loop", args.loop]
        cmd += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log", "--log-level", "warning"]
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stack.callback(proc.kill)
        listening(proc, port, 0.3, "referee")
        rows = asyncio.run(run(port, proc.pid, sizes, args.turn, args.turns, args.burst))
        stop(proc)
    how = "all at once" if args.burst else "evenly over one turn"
    print(
        f"SQLite (durable), real clock, turn_seconds={args.turn}, on_timeout=bot, games created {how}, "
        f"{args.turns} turns measured per step, event loop: {args.loop}"
    )
    print("games  tasks(max)  timers(max)  heap(max)  RSS MiB  timeouts  CPU/timeout  lateness recorded p50/p99/max")
    for row in rows:
        s = row["samples"]
        timers = [x["timers"] for x in s if x["timers"] is not None]
        lat = row["lateness"]
        per = f"{row['cpu'] / row['timeouts'] * 1e3:8.2f} ms" if row["timeouts"] else "        -  "
        late = f"{pct(lat, 50):7.1f} / {pct(lat, 99):7.1f} / {max(lat) * 1000:7.1f} ms" if lat else "        -"
        print(
            f"{row['games']:5}  {max(x['tasks'] for x in s):10}  {max(timers) if timers else '-':>11}  "
            f"{max(x['heap'] for x in s):9}  {s[-1]['rss_kib'] / 1024:7.1f}  {row['timeouts']:8}  {per}  "
            f"{late}"
        )
    last = rows[-1]
    kinds = last["samples"][-1].get("timer_kinds")
    if kinds is not None:
        print(f"live timers at {last['games']} games, by callback: {kinds}")
    if last["lateness"]:
        print(
            f"timeout lateness with {last['games']} clocked games (deadline -> clock_ran_out recorded): "
            f"p50 {pct(last['lateness'], 50):.1f} ms  p99 {pct(last['lateness'], 99):.1f} ms; seen by the keeper: "
            f"p50 {pct(last['seen'], 50):.1f} ms  p99 {pct(last['seen'], 99):.1f} ms"
        )


if __name__ == "__main__":
    main()
