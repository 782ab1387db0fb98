"""Benchmark: the referee and its SQLite store alone, in one process, without HTTP.

    .venv/bin/python bench/referee_inprocess.py [--games 300] [--concurrency 32] [--durability full]

Drives `api.referee.Referee.move` — the very function the HTTP move route calls: judging the move, the automatic
continuation, the seat's answer, the durable group commit — with `--concurrency` two-seat games at a time on a
fresh SQLite file, each seat playing the legal move its view lists first. It prints moves/s and the process's CPU
time per move (every thread: the event loop and the store's writer). What it leaves out: HTTP parsing, uvicorn,
the request middleware with its log lines, and the network, which `bench/api_load.py` adds.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.events.sqlite_store import SqliteStore
from loveletter.referee.inputs import Code, NewGame, NewSeat
from loveletter.referee.referee import Moved, Referee
from loveletter.server.logs import configure


async def play(referee: Referee, index: int) -> int:
    created = await referee.create(NewGame((NewSeat("Ann"), NewSeat("Bob")), first_player=0))
    game_id = created["game_id"]
    tokens = [seat["token"] for seat in created["seats"]]
    moves = 0
    view = (await referee.reader(game_id, tokens[0])).game()["view"]
    while view["winners"] == []:  # one read a move, by the seat to play, as a client does
        seat = view["active"]
        code = (await referee.reader(game_id, tokens[seat])).game()["legal_moves"][0]["action_code"]
        result = await referee.move(game_id, tokens[seat], Code(code), request=b"")
        assert isinstance(result, Moved), result
        view = result.answer["view"]  # the mover's view after its move: who is to play next
        moves += 1
    return moves


async def run(games: int, concurrency: int, path: str, durability: str) -> tuple[int, float, float]:
    store = SqliteStore(path, durability)
    referee = Referee(store, cache_games=10_000, signing_key=None)
    await referee.start()
    queue = list(range(games))
    total = 0

    async def worker() -> None:
        nonlocal total
        while queue:
            moves = await play(referee, queue.pop())
            total += moves

    wall, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    store.close()
    return total, wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--durability", choices=("full", "normal"), default="full")
    args = parser.parse_args()
    configure("json", "warning")  # the referee's work only: no log lines
    with tempfile.TemporaryDirectory() as tmp:
        moves, wall, cpu = asyncio.run(run(args.games, args.concurrency, f"{tmp}/bench.db", args.durability))
    print(f"{args.games} two-seat games, {args.concurrency} at a time, SQLite synchronous={args.durability.upper()}")
    print(f"moves: {moves:,}  moves/s: {moves / wall:,.0f}  CPU per move (all threads): {cpu / moves * 1e6:,.0f} µs")


if __name__ == "__main__":
    main()
