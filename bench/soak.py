"""Soak: a bounded mixed load with faults, then proof that nothing acknowledged was lost.

Two phases of --duration/2 seconds each, every server on 127.0.0.1:

- **SQLite** (durable commits): `loveletter serve`, killed with SIGKILL every --kill-every seconds and started again
  on the same file.
- **PostgreSQL** (a throwaway cluster, `loveletter serve --workers 2`): the database stopped and started again every
  --restart-every seconds, under load, the referee left running.

Meanwhile --clients clients (each from its own loopback address) play two-seat games: every move carries an
Idempotency-Key and is retried with the same key after a lost connection, a 429 or a 503 (after Retry-After). Some
clients misbehave on purpose: they drop a connection after sending a move (its answer never read), in the middle of a
request body, or in the middle of an event stream they opened.

At the end of each phase the referee is started afresh on the same store and every game is checked: each move that
was acknowledged (200) has its events in the log exactly as its seat was told them, and every game's log replays
clean (`replays.replay.check`). The figures are printed; the exit status is 1 if any check failed.

    python bench/soak.py                      # 3 minutes
    python bench/soak.py --duration 600 --clients 48
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import orjson  # noqa: E402

from bench.api_load import START_SECONDS  # noqa: E402
from bench.http_client import Connection  # noqa: E402
from bench.overload import loveletter_command, source_address  # noqa: E402
from loveletter.events.log import read_games  # noqa: E402
from loveletter.events.pgcluster import PostgresUnavailable, TempCluster, free_port  # noqa: E402
from loveletter.replays.replay import check  # noqa: E402

ADMIN = "soak-admin-token"
TWO = {"players": [{"name": "Ann"}, {"name": "Bob"}]}


@dataclass
class Game:
    gid: str
    tokens: list[str]
    acknowledged: list[tuple[int, list[dict[str, Any]]]] = field(default_factory=list)  # (seat, events told)


@dataclass
class Figures:
    statuses: Counter[int] = field(default_factory=Counter)
    connection_errors: int = 0
    acknowledged: int = 0
    replayed: int = 0
    abandoned: int = 0
    cut_bodies: int = 0
    streams: int = 0
    faults: int = 0
    fault_times: list[tuple[float, float]] = field(default_factory=list)  # (fault began, server or database back)
    ack_times: list[float] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)


class Referee:
    """`loveletter serve` as a process that the soak kills and starts again."""

    def __init__(self, port: int, env: dict[str, str], workers: int = 1) -> None:
        self.port, self.env, self.workers = port, env, workers
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        args = [*loveletter_command(), "serve", "--port", str(self.port), "--workers", str(self.workers)]
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise SystemExit(f"the referee exited with {self.proc.returncode} at start")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as s:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                    if s.recv(12).startswith(b"HTTP/1.1 200"):
                        return
            except OSError:
                pass
            time.sleep(0.1)
        raise SystemExit("the referee did not start")

    def kill(self) -> None:
        """SIGKILL, to the whole process group (workers too): no shutdown of any kind."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()


class Player:
    def __init__(self, k: int, port: int, figures: Figures, stop: asyncio.Event, seed: int) -> None:
        self.k, self.port, self.figures, self.stop = k, port, figures, stop
        self.rng = random.Random(seed * 1000 + k)
        self.conn: Connection | None = None
        self.source = source_address(k)

    async def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any] | None:
        """An answer other than 429/503, retrying the same request after those and after lost connections; None
        once the soak is stopping."""
        for _ in range(200):
            if self.stop.is_set():
                return None
            try:
                if self.conn is None:
                    self.conn = await Connection.open("127.0.0.1", self.port, self.source)
                status, answer = await asyncio.wait_for(self.conn.request(method, path, body, headers), 30)
            except (OSError, ConnectionError, IndexError, ValueError, asyncio.IncompleteReadError, TimeoutError):
                self.figures.connection_errors += 1
                await self.drop()
                await asyncio.sleep(0.2)
                continue
            self.figures.statuses[status] += 1
            if status in (429, 503):
                await asyncio.sleep(min(self.conn.retry_after or 1.0, 3.0))
                continue
            return status, answer
        self.figures.unexpected.append(f"{method} {path}: no answer after 200 tries")
        return None

    async def drop(self) -> None:
        if self.conn is not None:
            self.conn.writer.close()
            self.conn = None

    async def raw(self, data: bytes, read: bool = False) -> None:
        """Send `data` on a connection of its own and drop it (after reading a little, if `read`)."""
        with contextlib.suppress(OSError, asyncio.TimeoutError):
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port, local_addr=(self.source, 0))
            writer.write(data)
            await writer.drain()
            if read:
                await asyncio.wait_for(reader.read(2000), 2)
            writer.close()

    async def run(self) -> None:
        while not self.stop.is_set():
            await self.play()
        await self.drop()

    async def play(self) -> None:
        got = await self.call("POST", "/games", TWO)
        if got is None:
            return
        status, created = got
        if status != 201:
            self.figures.unexpected.append(f"POST /games: {status} {created}")
            return
        game = Game(created["game_id"], [s["token"] for s in created["seats"]])
        self.figures.games.append(game)
        for _ in range(300):
            if self.stop.is_set():
                return
            got = await self.call("GET", f"/games/{game.gid}")
            if got is None or got[0] != 200:
                return
            state = got[1]
            if state["over"]:
                return
            seat = state["view"]["active"]
            auth = {"Authorization": f"Bearer {game.tokens[seat]}"}
            got = await self.call("GET", f"/games/{game.gid}", headers=auth)
            if got is None or got[0] != 200:
                return
            mine = got[1]
            if not mine["legal_moves"]:
                continue
            move = {"type": "code", "action_code": self.rng.choice(mine["legal_moves"])["action_code"]}
            key = f"soak-{self.rng.getrandbits(64):016x}"
            headers = {**auth, "Idempotency-Key": key, "If-Match": f'"{mine["version"]}"'}
            await self.misbehave(game, headers, move)
            got = await self.call("POST", f"/games/{game.gid}/moves", move, headers)
            if got is None:
                return
            status, answer = got
            if status == 200:
                game.acknowledged.append((seat, answer["events"]))
                self.figures.acknowledged += 1
                self.figures.ack_times.append(time.monotonic())
            elif status not in (409, 412, 422):
                self.figures.unexpected.append(f"move: {status} {answer}")

    async def misbehave(self, game: Game, headers: dict[str, str], move: dict[str, Any]) -> None:
        roll = self.rng.random()
        path = f"/games/{game.gid}/moves"
        body = orjson.dumps(move)  # the bytes the retry sends: the same key with another body would be refused
        head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        head += "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        if roll < 0.03:  # the whole move sent, the connection dropped before the answer (retried with its key)
            self.figures.abandoned += 1
            await self.raw(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body)
        elif roll < 0.05:  # dropped in the middle of the body
            self.figures.cut_bodies += 1
            await self.raw(f"{head}Content-Length: {len(body)}\r\n\r\n".encode() + body[: len(body) // 2])
        elif roll < 0.07:  # an event stream, dropped after its first events
            self.figures.streams += 1
            token = headers["Authorization"]
            await self.raw(
                f"GET /games/{game.gid}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: {token}\r\n\r\n".encode(),
                read=True,
            )


async def load(port: int, clients: int, seconds: float, seed: int, fault: Any, every: float, figures: Figures) -> None:
    stop = asyncio.Event()
    players = [Player(k, port, figures, stop, seed) for k in range(clients)]
    tasks = [asyncio.ensure_future(p.run()) for p in players]
    end = time.monotonic() + seconds
    loop = asyncio.get_running_loop()
    while time.monotonic() + every < end:
        await asyncio.sleep(every)
        start = time.monotonic()
        await loop.run_in_executor(None, fault)
        figures.fault_times.append((start, time.monotonic()))
        figures.faults += 1
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    stop.set()
    await asyncio.wait(tasks, timeout=60)


async def verify(port: int, figures: Figures) -> list[str]:
    """Every acknowledged move in the log as its seat was told it; every game's log replays clean."""
    failures: list[str] = []
    conn = await Connection.open("127.0.0.1", port)
    for game in figures.games:
        for seat, events in game.acknowledged:
            first = events[0]["seq"]
            status, seen = await conn.request(
                "GET",
                f"/games/{game.gid}/events?after={first - 1}",
                headers={"Authorization": f"Bearer {game.tokens[seat]}"},
            )
            if status != 200 or seen["events"][: len(events)] != events:
                failures.append(f"{game.gid}: the move acknowledged at seq {first} is not in the log as it was told")
        status, _ = await conn.request("GET", f"/games/{game.gid}")
        if status != 200:
            failures.append(f"{game.gid}: {status}")
            continue
        conn.writer.write(
            f"GET /games/{game.gid}/log HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN}\r\n\r\n".encode()
        )
        head = await conn.reader.readuntil(b"\r\n\r\n")
        length = int(
            next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length"))
        )
        data = await conn.reader.readexactly(length)
        (log,) = read_games(data.splitlines())
        result = check(log)
        if result.problems:
            failures.append(f"{game.gid}: the log does not replay clean: {result.problems[0]}")
    await conn.close()
    return failures


def report(name: str, figures: Figures, failures: list[str], seconds: float) -> None:
    told = sum(len(g.acknowledged) for g in figures.games)
    statuses = ", ".join(f"{s}: {n}" for s, n in sorted(figures.statuses.items()))
    outages = [back - began for began, back in figures.fault_times]
    recoveries = [
        min((t for t in figures.ack_times if t > back), default=float("inf")) - back for _, back in figures.fault_times
    ]
    print(f"{name}: {seconds:.0f} s, {figures.faults} faults; games {len(figures.games)}, moves acknowledged {told}")
    print(f"  answers: {statuses}; lost connections: {figures.connection_errors}")
    print(
        f"  misbehaving clients: {figures.abandoned} moves abandoned before the answer, "
        f"{figures.cut_bodies} bodies cut, {figures.streams} streams dropped"
    )
    if recoveries:
        print(
            f"  each fault lasted {min(outages):.2f}–{max(outages):.2f} s; the next move was acknowledged "
            f"{min(recoveries):.2f}–{max(recoveries):.2f} s after the server or database was back"
        )
    print(
        f"  check: {told} acknowledged moves and {len(figures.games)} logs — "
        + ("all in the log, every log replays clean" if not failures else f"{len(failures)} FAILURES")
    )
    for line in (failures + figures.unexpected)[:10]:
        print("  !", line)


def phase(name: str, seconds: float, clients: int, seed: int, referee: Referee, fault: Any, every: float) -> bool:
    figures = Figures()
    referee.start()
    try:
        asyncio.run(load(referee.port, clients, seconds, seed, fault, every, figures))
    finally:
        referee.stop()
    referee.start()  # a fresh referee on the same store: it sees only what the store kept
    try:
        failures = asyncio.run(verify(referee.port, figures))
    finally:
        referee.stop()
    report(name, figures, failures, seconds)
    return not failures and not figures.unexpected


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--duration", type=float, default=180.0, help="seconds in all (half on each store)")
    ap.add_argument("--clients", type=int, default=24)
    ap.add_argument("--kill-every", type=float, default=15.0, help="seconds between SIGKILLs of the SQLite referee")
    ap.add_argument("--restart-every", type=float, default=15.0, help="seconds between PostgreSQL restarts")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        base = {
            "LOVELETTER_KEY_PATH": f"{tmp}/signing.key",
            "LOVELETTER_ADMIN_TOKEN": ADMIN,
            "LOVELETTER_LOG_FORMAT": "json",
            "LOVELETTER_LOG_LEVEL": "critical",
        }
        sqlite = Referee(free_port(), {**base, "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/soak.db"})

        def kill_and_restart() -> None:
            sqlite.kill()
            sqlite.start()

        ok &= phase(
            "SQLite, SIGKILL and restart",
            args.duration / 2,
            args.clients,
            args.seed,
            sqlite,
            kill_and_restart,
            args.kill_every,
        )
        cluster = TempCluster()
        try:
            url = cluster.start()
        except PostgresUnavailable as exc:
            cluster.stop()
            print(f"PostgreSQL: skipped ({exc})")
        else:
            try:
                pg = Referee(free_port(), {**base, "LOVELETTER_DATABASE_URL": url}, workers=2)

                def restart_database() -> None:
                    cluster.stop_server()
                    time.sleep(1.0)
                    cluster.start_server()

                ok &= phase(
                    "PostgreSQL (2 workers), database restarts",
                    args.duration / 2,
                    args.clients,
                    args.seed + 1,
                    pg,
                    restart_database,
                    args.restart_every,
                )
            finally:
                cluster.stop()
    print("soak:", "passed" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
