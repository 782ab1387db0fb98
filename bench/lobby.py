"""The lobby list (`GET /games?status=…&cursor=…`) with many games in the store, over real HTTP.

Fills a fresh store (SQLite, or a throwaway PostgreSQL cluster) with --games public games through the referee
itself, in-process (`Referee.create`, and `Referee.abort` for the finished ones: the same code, events and index
rows as `POST /games` and `POST /games/{id}/abort`, without an HTTP round trip per game). A third are open (one open
seat), a third running (two named seats, dealt), a third finished (aborted); their creation times are one second
apart. Then the filled store is served by `loveletter.server.app:create_app` under uvicorn in its own process on
127.0.0.1, and one keep-alive client asks for pages of 20, one at a time:

- for each status and for no status: the first --walk pages, each with the previous page's `next` cursor;
- --deep pages each starting at a random depth of the whole listing (the cursor a client would hold there), and
  the page after it, grouped by how far down the listing they start.

It prints p50/p99/max per page for each kind of page, and all of them together; then the store's lobby query at
the middle of the listing run on the database directly, with its plan, beside the same page asked with a
row-value cursor condition.

    python bench/lobby.py --store sqlite --games 100000
    python bench/lobby.py --store postgres --games 100000
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import listening, stop  # noqa: E402
from bench.api_load import pct as _pct  # noqa: E402
from bench.http_client import Connection  # noqa: E402
from loveletter.api.parse import lobby_cursor_of  # noqa: E402
from loveletter.api.schemas import CreateGameIn  # noqa: E402
from loveletter.events.pgcluster import TempCluster, free_port  # noqa: E402
from loveletter.events.statements import lobby_query  # noqa: E402
from loveletter.referee.referee import Referee  # noqa: E402
from loveletter.server.app import open_store  # noqa: E402
from loveletter.server.logs import configure  # noqa: E402
from loveletter.server.settings import Settings  # noqa: E402


def pct(values: list[float], q: float) -> float:
    """`bench.api_load.pct` (ms), never above the largest value (its interpolation may overshoot on few values)."""
    return min(_pct(values, q), max(values, default=float("nan")) * 1000)


STATUSES = ("open", "running", "finished")
START_MS = 1_767_225_600_000  # 2026-01-01T00:00:00Z: the first game's creation time


class SteppingClock:
    """The referee's time source while filling: each reading one second after the last (games created a second
    apart, as a busy lobby would see them, rather than thousands in one millisecond)."""

    def __init__(self) -> None:
        self.now = START_MS

    def __call__(self) -> int:
        self.now += 1000
        return self.now


async def fill(url: str, games: int, concurrency: int = 64) -> tuple[float, list[tuple[int, str]]]:
    """Create `games` public games through `Referee` on the store at `url`: seconds taken, and every game's
    (created, game_id), the lobby's sort key."""
    configure("json", "warning")  # no log line per game created
    store = open_store(Settings(database_url=url, durability="normal"))
    referee = Referee(store, cache_games=256, clock=SteppingClock())
    keys: list[tuple[int, str]] = []
    todo = iter(range(games))
    open_body = CreateGameIn(players=[{"name": "Ann"}, {"open": True}], public=True).plain()  # type: ignore[list-item]
    named_body = CreateGameIn(players=[{"name": "Ann"}, {"name": "Bob"}], public=True).plain()  # type: ignore[list-item]

    async def worker() -> None:
        for i in todo:
            kind = STATUSES[i % 3]
            created = await referee.create(open_body if kind == "open" else named_body)
            game_id = created["game_id"]
            if kind == "finished":
                await referee.abort(game_id, created["organiser_token"])
            keys.append((referee._tables.cached[game_id].record.created, game_id))

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - start
    store.close()
    return elapsed, keys


def query_plans(url: str, keys: list[tuple[int, str]]) -> list[str]:
    """The store's own lobby query (`events.statements.lobby_query`) at the middle of the listing, beside the same page
    asked with a row-value cursor, `(created, game_id) < (…, …)`: each one's plan and time, straight on the database
    (what this benchmark found, and the fix it suggests; the server is not involved)."""
    created, game_id = sorted(keys, reverse=True)[len(keys) // 2]
    lines = []
    if url.startswith("sqlite"):
        import sqlite3

        db = sqlite3.connect(url.removeprefix("sqlite:///"))
        mark, explain = "?", "EXPLAIN QUERY PLAN "
        run = db.execute
    else:
        import psycopg

        pg = psycopg.connect(url, autocommit=True)
        mark, explain = "%s", "EXPLAIN ANALYZE "
        run = pg.execute  # type: ignore[assignment]
    for status in (None, "open"):
        sql, params = lobby_query(mark, status, None, (created, game_id), 21)
        cut = f"(created < {mark} OR (created = {mark} AND game_id < {mark}))"
        row_sql = sql.replace(cut, f"(created, game_id) < ({mark}, {mark})")
        row_params = (*([status] if status else []), created, game_id, 21)
        variants = [("as written", sql, params)]
        if cut in sql:  # the store's cursor is an OR: compare with the row value (the store has used one since b6e98ef)
            variants.append(("row value", row_sql, row_params))
        for name, query, args in variants:
            start = time.perf_counter()
            for _ in range(10):
                rows = run(query, args).fetchall()
            took = (time.perf_counter() - start) / 10
            steps = run(explain + query, args).fetchall()
            said = [str(r[-1] if mark == "?" else r[0]).strip() for r in steps]
            if mark != "?":  # PostgreSQL: what the index bounds, and what is read only to be thrown away
                kept = ("Index Cond", "Filter", "Rows Removed", "->")
                said = [line.split("  (cost")[0] for line in said if line.startswith(kept)]
            plan = " / ".join(said)
            lines.append(
                f"  status={status or 'any':4} {name:10} {len(rows)} rows {took * 1000:7.2f} ms   plan: {plan[:300]}"
            )
    return lines


def start_server(port: int, url: str) -> subprocess.Popen[bytes]:
    """The referee as `loveletter serve` runs it (uvicorn, one worker) on the filled store."""
    env = {**os.environ, "LOVELETTER_DATABASE_URL": url, "LOVELETTER_LOG_LEVEL": "warning"}
    env["LOVELETTER_KEY_PATH"] = os.path.join(tempfile.mkdtemp(prefix="loveletter-key-"), "signing.key")
    cmd = [sys.executable, "-m", "uvicorn", "loveletter.server.app:create_app", "--factory"]
    cmd += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log", "--log-level", "warning"]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return listening(proc, port, 0.5, "referee")


async def measure(
    port: int, keys: list[tuple[int, str]], walk: int, deep: int, seed: int
) -> tuple[dict[str, list[float]], int]:
    """Latency (s) of each page asked for, by kind of page; and how many games the pages held in all."""
    conn = await Connection.open("127.0.0.1", port)
    rng = random.Random(seed)
    by_kind: dict[str, list[float]] = {}
    shown = 0

    async def page(kind: str, query: str) -> str | None:
        nonlocal shown
        start = time.perf_counter()
        status, body = await conn.request("GET", "/games" + query)
        by_kind.setdefault(kind, []).append(time.perf_counter() - start)
        assert status == 200, (status, body)
        shown += len(body["games"])
        return body["next"]  # type: ignore[no-any-return]

    for _ in range(3):  # warm the connection and the server's first-request paths
        await page("warm-up", "")
    for status in (None, *STATUSES):
        prefix = f"?status={status}&" if status else "?"
        kind = f"walk, status={status or 'any'}"
        cursor = await page(kind, f"?status={status}" if status else "")
        for _ in range(walk - 1):
            if cursor is None:
                break
            cursor = await page(kind, f"{prefix}cursor={cursor}")
    ordered = sorted(keys, reverse=True)
    quarters = [f"random depth, {25 * q}-{25 * q + 25}% down" for q in range(4)]
    for kind in quarters:
        by_kind[kind] = []
    for _ in range(deep):
        status = rng.choice((None, *STATUSES))
        prefix = f"?status={status}&" if status else "?"
        depth = rng.randrange(len(ordered))
        created, game_id = ordered[depth]
        kind = quarters[4 * depth // len(ordered)]
        cursor = await page(kind, f"{prefix}cursor={lobby_cursor_of(created, game_id)}")
        if cursor is not None:
            await page(kind, f"{prefix}cursor={cursor}")
    await conn.close()
    del by_kind["warm-up"]
    return by_kind, shown


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", choices=["sqlite", "postgres"], default="sqlite")
    ap.add_argument("--games", type=int, default=100_000, help="public games in the store")
    ap.add_argument("--walk", type=int, default=250, help="pages followed by cursor from the top, per status")
    ap.add_argument("--deep", type=int, default=500, help="pairs of pages starting at a random depth")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        os.environ.setdefault("LOVELETTER_KEY_PATH", os.path.join(tmp, "signing.key"))
        url = f"sqlite:///{tmp}/lobby.db" if args.store == "sqlite" else stack.enter_context(TempCluster())
        fill_s, keys = asyncio.run(fill(url, args.games))
        print(f"store: {args.store}, public games: {len(keys):,} (filled in-process in {fill_s:.1f} s)")
        plans = query_plans(url, keys)
        port = free_port()
        proc = start_server(port, url)
        stack.callback(proc.kill)
        by_kind, shown = asyncio.run(measure(port, keys, args.walk, args.deep, args.seed))
        stop(proc)
    everything = [t for times in by_kind.values() for t in times]
    print(f"pages of 20 over HTTP, one client, one page at a time: {len(everything):,} pages, {shown:,} games shown")
    for kind, times in by_kind.items():
        if not times:
            continue
        print(f"  {kind:28} {len(times):5} pages  p50 {pct(times, 50):6.2f} ms  p99 {pct(times, 99):6.2f} ms  "
              f"max {max(times) * 1000:6.2f} ms")  # fmt: skip
    print(
        f"lobby page latency, all pages: p50 {pct(everything, 50):.2f} ms  p99 {pct(everything, 99):.2f} ms  "
        f"max {max(everything) * 1000:.2f} ms  (target p99 <= 20 ms)"
    )
    print("the lobby's query at the middle of the listing, on the database directly (10 runs each, mean):")
    print("\n".join(plans))


if __name__ == "__main__":
    main()
