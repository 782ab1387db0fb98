"""The thinking room (`play.thinking`): urgent work before background work and a worker kept for it, bounded
queues, a time limit that drops a task not yet started, the same answer in a worker as in process, and a
simulation played a game at a time adding up to `simulate`'s own totals."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from loveletter.core.chance import chance_move
from loveletter.core.commands import StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL, PHASE_PLAY, GameState
from loveletter.core.views import view
from loveletter.play.bots import get_bot
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, Stats, simulate
from loveletter.play.thinking import Busy, Thinking, bot_seed, choose, simulated_game


def first_decision(seed: bytes = b"s" * 32, players: int = 2) -> GameState:
    names = tuple("ABCDEF"[:players])
    state = fold(decide(INITIAL, StartGame("2019", names, first_player=0)))
    while state.phase != PHASE_PLAY:
        command = chance_move(state, seed)
        assert command is not None
        state = fold(decide(state, command), state)
    return state


def test_urgent_work_goes_first_and_a_worker_is_kept_for_it() -> None:
    async def go() -> None:
        room = Thinking(workers=2)
        try:
            await asyncio.gather(*(room.run(time.sleep, 0.2, urgent=True) for _ in range(2)))  # both workers up
            finished: list[str] = []

            async def job(name: str, seconds: float, urgent: bool) -> None:
                await room.run(time.sleep, seconds, urgent=urgent)
                finished.append(name)

            background = [asyncio.ensure_future(job(f"b{i}", 1.5, False)) for i in range(2)]
            await asyncio.sleep(0.05)
            assert room._running == {True: 0, False: 1}  # the second background task waits: a worker is kept
            started = time.monotonic()
            await job("u", 0.0, True)
            assert time.monotonic() - started < 1.0  # not behind the background task
            assert finished == ["u"]
            await asyncio.gather(*background)
            assert finished == ["u", "b0", "b1"]
        finally:
            room.close()

    asyncio.run(go())


def test_with_one_worker_urgent_work_overtakes_waiting_background_work() -> None:
    async def go() -> None:
        room = Thinking(workers=1)
        try:
            order: list[str] = []

            async def job(name: str, urgent: bool) -> None:
                await room.run(time.sleep, 0.3, urgent=urgent)
                order.append(name)

            first = asyncio.ensure_future(job("b0", False))
            await asyncio.sleep(0.01)
            rest = [asyncio.ensure_future(job("b1", False)), asyncio.ensure_future(job("u", True))]
            await asyncio.gather(first, *rest)
            assert order == ["b0", "u", "b1"]
        finally:
            room.close()

    asyncio.run(go())


def test_a_full_lane_says_busy_at_once_and_a_late_task_never_starts() -> None:
    async def go() -> None:
        room = Thinking(workers=1, max_urgent=2, max_background=1)
        try:
            running = asyncio.ensure_future(room.run(time.sleep, 1.0, urgent=True))
            await asyncio.sleep(0.01)
            with pytest.raises(TimeoutError):
                await room.run(time.sleep, 0.0, urgent=True, timeout=0.1)
            assert room.waiting(True) == 1  # the timed-out task left the queue; only the running one counts
            waiting = asyncio.ensure_future(room.run(time.sleep, 0.0, urgent=True))
            await asyncio.sleep(0.01)
            with pytest.raises(Busy):
                await room.run(time.sleep, 0.0, urgent=True)
            background = asyncio.ensure_future(room.run(time.sleep, 0.0))
            await asyncio.sleep(0.01)
            with pytest.raises(Busy):
                await room.run(time.sleep, 0.0)
            await asyncio.gather(running, waiting, background)
            assert room.waiting(True) == room.waiting(False) == 0
        finally:
            room.close()
        with pytest.raises(Busy):
            await room.run(time.sleep, 0.0)

    asyncio.run(go())


def test_an_exception_in_a_worker_reaches_the_caller() -> None:
    async def go() -> None:
        room = Thinking(workers=1)
        try:
            with pytest.raises(ValueError):
                await room.run(int, "not a number")
            assert await room.run(int, "42") == 42
        finally:
            room.close()

    asyncio.run(go())


def test_a_seat_decision_in_a_worker_is_the_bots_own_under_the_same_seed() -> None:
    state = first_decision()
    seen, moves = view(state, 0), legal_moves(state, 0)
    assert len(moves) > 1
    seed = bot_seed("ab" * 32, state.seq, 0)
    assert seed == bot_seed("ab" * 32, state.seq, 0) != bot_seed("ab" * 32, state.seq, 1)
    assert seed != bot_seed("cd" * 32, state.seq, 0)
    expected = get_bot("expert").choose(seen, moves, random.Random(seed))

    async def go() -> None:
        room = Thinking(workers=1)
        try:
            assert await room.choose("expert", seen, moves, seed) == expected
        finally:
            room.close()

    asyncio.run(go())
    assert choose("expert", seen, moves, seed) == expected


def test_a_simulation_a_game_at_a_time_adds_up_to_simulates_totals() -> None:
    config = Config("2019", 3, 12, 5, ("heuristic", "random", "random"))
    whole = simulate(config)
    total = Stats(config, wins_by_seat=[0] * config.players)
    for game in reversed(range(config.games)):  # any order
        total.add(simulated_game(config, game))
    ours, theirs = statistics(total), statistics(whole)
    for answer in (ours, theirs):
        answer.pop("seconds")
        answer.pop("games_per_second")
    assert ours == theirs
    assert total.games == 12 and sum(total.wins_by_seat) >= 12


WORKERS_OF_A_KILLED_SERVER = """
import asyncio, time
from loveletter.play.thinking import Thinking

async def main():
    room = Thinking(workers=2)
    await asyncio.gather(*(room.run(time.sleep, 0.2) for _ in range(2)))
    print(" ".join(str(pid) for pid in room._pool._processes), flush=True)
    await asyncio.sleep(60)

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_the_workers_end_when_their_server_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "server.py"
    script.write_text(WORKERS_OF_A_KILLED_SERVER)
    server = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        pids = [int(p) for p in server.stdout.readline().split()]
        # two tasks at once start one or two workers, as the pool's timing goes: every one must end
        assert 1 <= len(pids) <= 2 and all(alive(pid) for pid in pids)
    finally:
        server.kill()  # no shutdown: the workers are left to notice by themselves
        server.wait()
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in pids):
        assert time.monotonic() < deadline, "a worker outlived its server"
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie waiting for its reaper has ended too
        return stat.read().split(") ")[-1][0] != "Z"
