"""Load test of the HTTP referee: N concurrent games played to the end by keep-alive clients.

Starts the server as its own process on 127.0.0.1 (SQLite with durable commits by default, or a
throwaway PostgreSQL cluster with --store postgres --workers 2), plays --games games with --concurrency
of them at once, and prints moves/s with latency percentiles; then measures two bare endpoints — a FastAPI route,
and a plain handler behind the referee's own request middleware, the path the move route really takes —
in the same way for the ratio. Each game has two human seats; each client plays its seats the way a
simple bot client would: it plays the card it knows it holds and, when the referee refuses (stale
knowledge after a King or Prince, or the Countess rule), picks from the legal moves the refusal lists.

    python bench/api_load.py --games 400 --concurrency 32
    python bench/api_load.py --store postgres --workers 2 --games 400 --concurrency 32

It also prints the server's CPU time per move (all its processes and threads, from /proc), which a busy
machine disturbs less than the wall-clock figures; --raw adds a plain ASGI app, what uvicorn alone costs.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.http_client import Connection  # noqa: E402
from loveletter.events.pgcluster import TempCluster, free_port  # noqa: E402


def start_server(
    app: str, port: int, env: dict[str, str], workers: int = 1, host: str = "127.0.0.1"
) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "uvicorn", app, "--host", host, "--port", str(port)]
    cmd += ["--no-access-log", "--log-level", "warning", "--workers", str(workers)]
    if app.endswith("create_app"):
        cmd.append("--factory")
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    return listening(proc, port, 0.3 if workers == 1 else 1.5, f"server {app}", host)


START_SECONDS = 120.0
"""How long a benchmark's referee may take to start: the test suite's own bound (`tests.servers.STARTUP_SECONDS`),
since the suite runs these scripts. A bound for one that hangs, not a wait: a start is waited for by its port."""


def listening(
    proc: subprocess.Popen[bytes], port: int, settle: float, what: str, host: str = "127.0.0.1"
) -> subprocess.Popen[bytes]:
    """`proc` once it accepts connections on `port` (and `settle` seconds more); killed if not within
    `START_SECONDS`."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.2):
                time.sleep(settle)
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit(f"{what} did not start on port {port}")


STOP_SECONDS = 30.0
"""How long a benchmark's referee is given to stop after SIGTERM before it is killed: its figures are taken by then,
and a graceful stop on a machine as busy as the test suite's (load 15) has taken over 10 s."""


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a benchmark's server: SIGTERM, then SIGKILL if it has not exited within `STOP_SECONDS`."""
    proc.terminate()
    try:
        proc.wait(STOP_SECONDS)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def cpu_seconds(root: int) -> float:
    """CPU time (user + system, all threads) of a process and its descendants so far, from /proc (Linux)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as fp:
                fields = fp.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        times[int(entry)] = (int(fields[11]) + int(fields[12])) / tick
    total, todo = 0.0, [root]
    while todo:
        pid = todo.pop()
        total += times.get(pid, 0.0)
        todo += [child for child, parent in parents.items() if parent == pid]
    return total


class Tally:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.moves = 0
        self.refused = 0
        self.games = 0


def first_choice(view: dict[str, Any], seat: int) -> dict[str, Any] | None:
    """The move a simple client makes with the card it knows it holds."""
    if not view["hand"]:
        return None
    card = view["hand"][0]
    others = [s["seat"] for s in view["seats"] if s["seat"] != seat and s["in_round"] and not s["protected"]]
    move: dict[str, Any] = {"type": "play", "card": card}
    if card in ("guard", "priest", "baron", "king") and others:
        move["target"] = others[0]
        if card == "guard":
            move["guess"] = "priest"
    elif card == "prince":
        move["target"] = others[0] if others else seat
    return move


async def legal_moves(conn: Connection, gid: str, token: str, version: int) -> list[dict[str, Any]]:
    """The seat's legal moves at `version` or later: behind a balancer the read may reach a host that has not heard
    of the last move yet (a few milliseconds), so it is asked again until it has."""
    for _ in range(200):
        _, seen = await conn.request("GET", f"/games/{gid}", headers={"Authorization": f"Bearer {token}"})
        if seen["version"] >= version:
            return list(seen["legal_moves"])
        await asyncio.sleep(0.005)
    raise AssertionError(f"game {gid} stayed behind version {version}")


async def play_game(conn: Connection, tally: Tally, rng: random.Random) -> None:
    status, game = await conn.request("POST", "/games", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    assert status == 201, game
    gid = game["game_id"]
    tokens = [s["token"] for s in game["seats"]]
    status, state = await conn.request("GET", f"/games/{gid}", headers={"Authorization": f"Bearer {tokens[0]}"})
    views: dict[int, dict[str, Any]] = {}
    active = state["view"]["active"]
    pending: list[dict[str, Any]] | None = state["legal_moves"] if state["your_turn"] else None
    if active != 0:
        pending = await legal_moves(conn, gid, tokens[1], state["version"])
    while True:
        seat = active
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        if pending:
            move = {"type": "code", "action_code": rng.choice(pending)["action_code"]}
        else:
            move = first_choice(views[seat], seat) or {"type": "play", "card": "guard"}
        start = time.perf_counter()
        status, answer = await conn.request("POST", f"/games/{gid}/moves", move, auth)
        tally.latencies.append(time.perf_counter() - start)
        if status != 200:
            assert status in (409, 422), (status, answer)
            tally.refused += 1
            pending = answer.get("legal_moves") or None
            continue
        tally.moves += 1
        view = answer["view"]
        views[seat] = view
        if view["winners"]:
            tally.games += 1
            return
        active = view["active"]
        pending = answer["legal_moves"] if active == seat else None
        if active != seat and active in views:
            # what this seat knew when it last moved: its hand then (stale after a trade or a Prince)
            views[active] = {**view, "hand": views[active]["hand"][-1:]}
        elif active not in views:
            pending = await legal_moves(conn, gid, tokens[active], view["version"])


async def run_games(
    ports: list[int], games: int, concurrency: int, seed: int, hosts: list[str] | None = None
) -> tuple[Tally, float]:
    """Play `games` games, `concurrency` at a time; client k plays on one connection to `ports[k % len(ports)]`
    (on `hosts[k % len(hosts)]`, 127.0.0.1 when not given)."""
    tally = Tally()
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(games):
        queue.put_nowait(i)

    async def client(k: int) -> None:
        host = hosts[k % len(hosts)] if hosts else "127.0.0.1"
        conn = await Connection.open(host, ports[k % len(ports)])
        rng = random.Random(seed * 1000 + k)
        while not queue.empty():
            queue.get_nowait()
            await play_game(conn, tally, rng)
        await conn.close()

    start = time.perf_counter()
    await asyncio.gather(*(client(k) for k in range(concurrency)))
    return tally, time.perf_counter() - start


async def run_bare(port: int, requests: int, concurrency: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    per = requests // concurrency

    async def client() -> None:
        conn = await Connection.open("127.0.0.1", port)
        for i in range(per):
            start = time.perf_counter()
            status, _ = await conn.request("POST", "/bare", {"type": "code", "action_code": i})
            latencies.append(time.perf_counter() - start)
            assert status == 200
        await conn.close()

    start = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(concurrency)))
    return latencies, time.perf_counter() - start


def pct(values: list[float], q: float) -> float:
    """The `q`th percentile of `values` (seconds) in ms; the largest value for a small sample, nan for none."""
    if not values:
        return float("nan")
    if len(values) < 20:
        return max(values) * 1000
    return statistics.quantiles(values, n=1000)[int(q * 10) - 1] * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--durability", choices=["full", "normal"], default="full")
    ap.add_argument("--workers", type=int, default=1, help="PostgreSQL only: worker processes, one port each")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--raw", action="store_true", help="also measure a plain ASGI app: what uvicorn alone costs")
    args = ap.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        if args.store == "sqlite":
            url = f"sqlite:///{tmp}/bench.db"
        else:
            url = stack.enter_context(TempCluster())
        env = {
            "LOVELETTER_DATABASE_URL": url,
            "LOVELETTER_DURABILITY": args.durability,
            "LOVELETTER_LOG_FORMAT": "json",
            # The throughput measured here is the referee's capacity: all clients share one address and each seat
            # moves some 45 times a second, above the per-address and per-seat rate limits (bench/overload.py
            # measures the referee with its limits on).
            "LOVELETTER_CREATE_RATE": "0",
            "LOVELETTER_MOVE_RATE": "0",
        }
        # Several workers each listen on their own port and the clients are spread evenly over them, as a load
        # balancer would: behind uvicorn's one shared socket a burst of 32 connections was often accepted by a
        # single worker (ss showed 32 and 0), which measured one worker, not two.
        servers = []
        for _ in range(args.workers if args.store == "postgres" else 1):
            port = free_port()
            servers.append((port, start_server("loveletter.server.app:create_app", port, env)))
            stack.callback(servers[-1][1].kill)
        pids = [server.pid for _, server in servers]
        cpu_before = sum(cpu_seconds(pid) for pid in pids)
        ports = [port for port, _ in servers]
        tally, elapsed = asyncio.run(run_games(ports, args.games, args.concurrency, args.seed))
        server_cpu = sum(cpu_seconds(pid) for pid in pids) - cpu_before
        for _, server in servers:
            stop(server)
        bare_port = free_port()
        bare = start_server("bench.bare_app:app", bare_port, {}, 1)
        stack.callback(bare.kill)
        bare_before = cpu_seconds(bare.pid)
        bare_lat, bare_elapsed = asyncio.run(run_bare(bare_port, max(len(tally.latencies), 20_000), args.concurrency))
        bare_cpu = cpu_seconds(bare.pid) - bare_before
        stop(bare)
        short_port = free_port()
        short = start_server("bench.bare_app:short", short_port, {}, 1)
        stack.callback(short.kill)
        short_before = cpu_seconds(short.pid)
        short_lat, short_elapsed = asyncio.run(run_bare(short_port, len(bare_lat), args.concurrency))
        short_cpu = cpu_seconds(short.pid) - short_before
        stop(short)
        if args.raw:
            raw_port = free_port()
            raw = start_server("bench.bare_app:raw", raw_port, {}, 1)
            stack.callback(raw.kill)
            raw_before = cpu_seconds(raw.pid)
            raw_lat, raw_elapsed = asyncio.run(run_bare(raw_port, len(bare_lat), args.concurrency))
            raw_cpu = cpu_seconds(raw.pid) - raw_before
    lat = tally.latencies
    moves_s = tally.moves / elapsed
    bare_s = len(bare_lat) / bare_elapsed
    label = f"{args.store}" + (f" ({args.durability} durability)" if args.store == "sqlite" else "")
    print(f"store: {label}, workers: {args.workers}, concurrent games: {args.concurrency}")
    print(f"games played to the end: {tally.games}, moves: {tally.moves}, refused attempts: {tally.refused}")
    print(f"moves/s: {moves_s:,.0f}  (requests/s incl. refusals: {len(lat) / elapsed:,.0f})")
    print(f"move latency ms: p50 {pct(lat, 50):.2f}  p99 {pct(lat, 99):.2f}  max {max(lat) * 1000:.2f}")
    print(
        f"server CPU (all processes and threads): {server_cpu / tally.moves * 1e6:,.0f} µs per move, "
        f"{server_cpu / len(lat) * 1e6:,.0f} µs per request, {server_cpu / elapsed:.0%} of one core"
    )
    print(
        f"bare FastAPI endpoint: {bare_s:,.0f} requests/s, "
        f"p50 {pct(bare_lat, 50):.2f} ms, p99 {pct(bare_lat, 99):.2f} ms, "
        f"{bare_cpu / len(bare_lat) * 1e6:,.0f} µs of server CPU per request"
    )
    short_s = len(short_lat) / short_elapsed
    print(
        f"bare endpoint on the move route's own path (RequestContext + plain handler): {short_s:,.0f} requests/s, "
        f"p50 {pct(short_lat, 50):.2f} ms, p99 {pct(short_lat, 99):.2f} ms, "
        f"{short_cpu / len(short_lat) * 1e6:,.0f} µs of server CPU per request"
    )
    print(f"moves/s as a share of the bare FastAPI endpoint: {moves_s / bare_s:.0%}")
    print(f"moves/s as a share of the bare endpoint on the same path (like with like): {moves_s / short_s:.0%}")
    if args.raw:
        print(
            f"plain ASGI app on uvicorn: {len(raw_lat) / raw_elapsed:,.0f} requests/s, "
            f"p99 {pct(raw_lat, 99):.2f} ms, {raw_cpu / len(raw_lat) * 1e6:,.0f} µs of server CPU per request"
        )


if __name__ == "__main__":
    main()
