"""`api_load.py`'s workload against the referee's ASGI application in process: no socket, no uvicorn.

What the application itself costs a request — middleware, routes, the referee, the store's writer thread — without
the transport, so that a before/after of the code is not drowned in the machine's noise. `--tree` runs another
checkout's application with this tree's client (a tree from before issue 22 serves `loveletter.api.app`).

    python bench/asgi_load.py --games 160
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python bench/asgi_load.py --tree ../before --games 16

Under valgrind the instruction count is the measure: it does not depend on what else the machine runs. Two runs of
one tree, 16 and 48 games, give the instructions of a request as (I48 − I16) / (requests48 − requests16), the
imports and start-up cancelling out. It prints the requests, the CPU time a request (all threads, and the event
loop's thread alone) and the wall time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]


class InProcess:
    """`bench.http_client.Connection`'s `request`, answered by calling the ASGI application directly."""

    def __init__(self, app: Callable[..., Awaitable[None]]) -> None:
        self.app = app

    async def request(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        raw = b"" if body is None else orjson.dumps(body)
        head = [(b"host", b"127.0.0.1"), (b"content-length", str(len(raw)).encode())]
        if body is not None:
            head.append((b"content-type", b"application/json"))
        head += [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": head,
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": raw, "more_body": False}
            await asyncio.Event().wait()  # the client never goes away
            raise AssertionError("unreachable")

        status, chunks = 0, []

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        data = b"".join(chunks)
        return status, orjson.loads(data) if data else None


async def run(tree: Path, games: int, clients: int) -> None:
    sys.path.insert(0, str(tree))
    try:
        from loveletter.server.app import create_app
    except ImportError:  # a tree from before issue 22
        from loveletter.api.app import create_app  # type: ignore[import-not-found,no-redef]
    sys.path.insert(0, str(ROOT))
    from bench.api_load import Tally, play_game

    app = create_app()
    inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
    await inbox.put({"type": "lifespan.startup"})
    lifespan = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    life = asyncio.create_task(app(lifespan, inbox.get, outbox.put))
    started = await outbox.get()
    assert started["type"] == "lifespan.startup.complete", started
    conn = InProcess(app)
    tally = Tally()
    cpu, loop_cpu, wall = time.process_time(), time.thread_time(), time.perf_counter()

    async def client(k: int) -> None:
        rng = random.Random(k)
        for _ in range(games // clients):
            await play_game(conn, tally, rng)  # type: ignore[arg-type]

    await asyncio.gather(*(client(k) for k in range(clients)))
    cpu, loop_cpu, wall = time.process_time() - cpu, time.thread_time() - loop_cpu, time.perf_counter() - wall
    requests = len(tally.latencies)
    print(
        f"{tree}: {requests} move requests ({tally.moves} moves, {tally.refused} refused) in {tally.games} games; "
        f"{1e6 * cpu / requests:.1f} µs CPU a request (the event loop's thread {1e6 * loop_cpu / requests:.1f}), "
        f"{1e6 * wall / requests:.1f} µs wall",
        flush=True,
    )
    await inbox.put({"type": "lifespan.shutdown"})
    await outbox.get()
    await life


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose application is measured")
    ap.add_argument("--games", type=int, default=160)
    ap.add_argument("--clients", type=int, default=16, help="games played at once")
    args = ap.parse_args()
    tree = args.tree.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(
            {
                "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/bench.db",
                "LOVELETTER_DURABILITY": "full",
                "LOVELETTER_LOG_FORMAT": "json",
                "LOVELETTER_CREATE_RATE": "0",  # the application's cost, not its per-address limits
                "LOVELETTER_MOVE_RATE": "0",
            }
        )
        os.chdir(tree)
        sys.stderr = open(os.devnull, "w")  # noqa: SIM115 (the request log lines: not this benchmark's output)
        asyncio.run(run(tree, args.games, args.clients))


if __name__ == "__main__":
    main()
