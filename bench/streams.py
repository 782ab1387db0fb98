"""One game watched by many open event streams (`GET /games/{id}/stream`, server-sent events), over real HTTP.

Starts the referee as `loveletter serve` runs it (uvicorn, one worker, its default limits: at most 1,000 streams
in all and 8 per address, so each watcher connects from its own loopback address 127.0.x.y, as --clients
spectators on as many machines would) on a fresh SQLite store (durable commits), or a throwaway PostgreSQL cluster
with --store postgres. It creates one game of two human seats, opens --streams spectator streams on it from the
current version, and once every stream has its response head, plays --moves moves (random legal moves, by action
code, one every --interval seconds) with a separate keep-alive client.

For every event it measures, on every stream, the time from the moment the move that caused it was sent (so the
move's own judging and durable commit are included: an upper bound of "append to arrival") to the moment the
stream's bytes holding that event were read; and it checks that every stream received every event, in order, once.
It also prints the server's resident memory (VmRSS, from /proc) before the streams, with them open, and after the
moves, and its CPU time per event delivered to a stream. All watchers are read by this one process (uvloop when
installed), on the same 2 cores as the server: reading 1,000 sockets after each event is part of the figure.

    python bench/streams.py --streams 1000 --moves 40
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import cpu_seconds, start_server, stop  # noqa: E402
from bench.api_load import pct as _pct  # noqa: E402
from bench.http_client import Connection  # noqa: E402
from loveletter.events.pgcluster import TempCluster, free_port  # noqa: E402


def pct(values: list[float], q: float) -> float:
    """`bench.api_load.pct` (ms), never above the largest value (its interpolation may overshoot on few values)."""
    return min(_pct(values, q), max(values, default=float("nan")) * 1000)


def rss_kib(pid: int) -> int:
    """The resident memory of process `pid`, in KiB (Linux)."""
    with open(f"/proc/{pid}/status") as fp:
        for line in fp:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def source_address(k: int) -> str:
    """Watcher k's own loopback address (the referee counts streams per address)."""
    return f"127.0.{1 + k // 250}.{1 + k % 250}"


class Watcher:
    """One spectator's stream: the seq of every event read, with the time its bytes were read."""

    def __init__(self, k: int) -> None:
        self.k = k
        self.arrivals: list[tuple[int, float]] = []
        self.ready = asyncio.Event()
        self.closed = False

    async def run(self, port: int, game_id: str, after: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source_address(self.k), 0))
        writer.write(
            f"GET /games/{game_id}/stream?after={after} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream {self.k}: {status!r}")
        chunked = False
        while (line := await reader.readline()) not in (b"\r\n", b""):
            chunked = chunked or line.lower().startswith(b"transfer-encoding: chunked")
        assert chunked, "an event stream answers in chunks"
        self.ready.set()
        while True:
            size_line = await reader.readline()
            if not size_line:
                break
            size = int(size_line.strip() or b"0", 16)
            if size == 0:
                break
            chunk = await reader.readexactly(size + 2)
            now = time.perf_counter()
            for line in chunk.split(b"\n"):
                if line.startswith(b"id: "):
                    self.arrivals.append((int(line[4:]), now))
        self.closed = True
        writer.close()


async def play(
    conn: Connection, game_id: str, tokens: list[str], moves: int, interval: float, rng: random.Random
) -> list[tuple[int, int, float, float]]:
    """Play up to `moves` random legal moves, one every `interval` s: (first seq, last seq, sent, answered) each."""
    played: list[tuple[int, int, float, float]] = []
    _, state = await conn.request("GET", f"/games/{game_id}", headers={"Authorization": f"Bearer {tokens[0]}"})
    version, active = state["version"], state["view"]["active"]
    for _ in range(moves):
        auth = {"Authorization": f"Bearer {tokens[active]}"}
        _, state = await conn.request("GET", f"/games/{game_id}", headers=auth)
        code = rng.choice(state["legal_moves"])["action_code"]
        await asyncio.sleep(interval)
        sent = time.perf_counter()
        move = {"type": "code", "action_code": code}
        status, answer = await conn.request("POST", f"/games/{game_id}/moves", move, auth)
        answered = time.perf_counter()
        assert status == 200, (status, answer)
        played.append((version + 1, answer["version"], sent, answered))
        version = answer["version"]
        if answer["view"]["winners"]:
            break
        active = answer["view"]["active"]
    return played


async def run(port: int, pid: int, streams: int, moves: int, interval: float, seed: int) -> dict[str, Any]:
    conn = await Connection.open("127.0.0.1", port)
    status, game = await conn.request("POST", "/games", {"players": [{"name": "Ann"}, {"name": "Bob"}]})
    assert status == 201, game
    game_id, tokens = game["game_id"], [s["token"] for s in game["seats"]]
    await asyncio.sleep(0.5)
    rss_before = rss_kib(pid)
    watchers = [Watcher(k) for k in range(streams)]
    opening = time.perf_counter()
    tasks = [asyncio.ensure_future(w.run(port, game_id, game["version"])) for w in watchers]
    ready = asyncio.gather(*(w.ready.wait() for w in watchers))
    done, _ = await asyncio.wait([ready, *tasks], return_when=asyncio.FIRST_COMPLETED, timeout=120)
    if ready not in done:
        for task in tasks:
            if task.done() and task.exception():
                raise task.exception()  # type: ignore[misc]
        raise RuntimeError("the streams did not all open within 120 s")
    opened_s = time.perf_counter() - opening
    await asyncio.sleep(1.0)
    rss_open = rss_kib(pid)
    await conn.close()
    conn = await Connection.open("127.0.0.1", port)  # the first one may have been idle past the keep-alive timeout
    cpu_before = cpu_seconds(pid)
    played = await play(conn, game_id, tokens, moves, interval, random.Random(seed))
    await asyncio.sleep(1.0)  # the last events reach the streams
    cpu = cpu_seconds(pid) - cpu_before
    rss_after = rss_kib(pid)
    await conn.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    sent_of = {seq: sent for first, last, sent, _ in played for seq in range(first, last + 1)}
    answered_of = {seq: answered for first, last, _, answered in played for seq in range(first, last + 1)}
    expected = sorted(sent_of)
    latencies, after_answer, incomplete = [], [], 0
    for w in watchers:
        seqs = [seq for seq, _ in w.arrivals]
        if seqs != expected:
            incomplete += 1
        for seq, at in w.arrivals:
            if seq in sent_of:
                latencies.append(at - sent_of[seq])
                after_answer.append(at - answered_of[seq])
    move_lat = [answered - sent for _, _, sent, answered in played]
    return {
        "events": len(expected),
        "moves": len(played),
        "latencies": latencies,
        "after_answer": after_answer,
        "move_lat": move_lat,
        "incomplete": incomplete,
        "opened_s": opened_s,
        "rss": (rss_before, rss_open, rss_after),
        "cpu": cpu,
    }


def wake_up_parts(streams: int) -> tuple[float, float]:
    """In-process, on this machine, what each stream did by itself before commit b6e98ef (which frames each event
    once per viewer and waits without `wait_for`): seconds to encode and frame one event for one spectator
    (`events_json` and the SSE framing), and to wake `streams` waits `asyncio.wait_for(event.wait(), 15)` at once."""
    import timeit

    import orjson

    from loveletter.core.chance import commitment, committed_deal
    from loveletter.core.commands import StartGame
    from loveletter.core.decide import decide
    from loveletter.core.evolve import fold
    from loveletter.core.legal import legal_moves
    from loveletter.core.state import INITIAL
    from loveletter.referee.reading import events_json

    seed = bytes(32)
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), {}, None, False, commitment(seed))))
    state = fold(decide(state, committed_deal(state, seed)), state)
    events = list(decide(state, legal_moves(state, state.active)[0]))

    def frame() -> list[bytes]:
        return [
            f"id: {item['seq']}\nevent: {item['type']}\ndata: {orjson.dumps(item).decode()}\n\n".encode()
            for item in events_json(events, 10, None)
        ]

    encode = timeit.timeit(frame, number=5000) / 5000 / len(events)

    async def wake() -> float:
        changed = asyncio.Event()

        async def one() -> None:
            await asyncio.wait_for(changed.wait(), timeout=15)

        waiting = [asyncio.ensure_future(one()) for _ in range(streams)]
        await asyncio.sleep(0.05)
        start = time.perf_counter()
        changed.set()
        await asyncio.gather(*waiting)
        return time.perf_counter() - start

    return encode, asyncio.run(wake())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--streams", type=int, default=1000, help="spectator streams on the one game (the default cap)")
    ap.add_argument("--moves", type=int, default=40, help="moves played while they watch (fewer if the game ends)")
    ap.add_argument("--interval", type=float, default=0.25, help="seconds between moves")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        url = f"sqlite:///{tmp}/streams.db" if args.store == "sqlite" else stack.enter_context(TempCluster())
        env = {"LOVELETTER_DATABASE_URL": url, "LOVELETTER_KEY_PATH": os.path.join(tmp, "signing.key")}
        port = free_port()
        server = start_server("loveletter.server.app:create_app", port, env)
        stack.callback(server.kill)
        result = asyncio.run(run(port, server.pid, args.streams, args.moves, args.interval, args.seed))
        stop(server)
    lat, after, n = result["latencies"], result["after_answer"], args.streams
    before, opened, final = result["rss"]
    delivered = len(lat)
    print(f"store: {args.store}; one game, {n:,} spectator streams, each from its own address")
    print(f"streams opened (response head received) in {result['opened_s']:.2f} s")
    print(
        f"moves played: {result['moves']}, events: {result['events']}, arrivals: {delivered:,} "
        f"(expected {result['events'] * n:,}); streams missing or repeating an event: {result['incomplete']}"
    )
    print(
        f"event latency, move sent -> arrival on a stream: p50 {pct(lat, 50):.2f} ms  p99 {pct(lat, 99):.2f} ms  "
        f"max {max(lat, default=0) * 1000:.2f} ms  (target p99 <= 100 ms)"
    )
    print(
        f"  from the move's answer -> arrival: p50 {pct(after, 50):.2f} ms  p99 {pct(after, 99):.2f} ms; "
        f"the move itself: p50 {pct(result['move_lat'], 50):.2f} ms  p99 {pct(result['move_lat'], 99):.2f} ms"
    )
    print(
        f"server memory (VmRSS): {before / 1024:.1f} MiB before the streams, {opened / 1024:.1f} MiB with them "
        f"open, {final / 1024:.1f} MiB after the moves: {(opened - before) / n:.1f} KiB per open stream, "
        f"{(final - before) / n:.1f} KiB per stream after the moves"
    )
    if delivered:
        print(
            f"server CPU while playing: {result['cpu']:.2f} s, {result['cpu'] / delivered * 1e6:.0f} µs per event "
            f"delivered to a stream"
        )

    encode, wake = wake_up_parts(n)
    print(
        f"in this process, what each stream did alone before b6e98ef: encoding and framing an event for one "
        f"spectator {encode * 1e6:.1f} µs ({encode * n * 1000:.1f} ms for {n:,} streams); waking {n:,} "
        f"wait_for(event.wait(), 15) at once {wake * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
