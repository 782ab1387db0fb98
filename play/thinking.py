"""The thinking room: engine work done by a few worker processes, so that it never holds the event loop.

The expert searches for tens of milliseconds a decision and a review of a game takes seconds: pure Python that
holds the GIL, so neither may run on a server's event loop, nor in one of its threads (every other request would
wait its turn for the interpreter). `Thinking` hands such work to a small pool of processes, started at its first
use, and keeps its bookkeeping on the event loop:

- **two lanes**: *urgent* work (a bot seat's decision, a timed-out seat's) goes before *background* work (a decision
  of a review, a game of a simulation); with two workers or more, one is kept for urgent work alone, so a seat
  never waits behind a long job;
- **bounded queues**: at most `max_urgent` urgent and `max_background` background tasks wait at once; beyond, the
  caller is told at once (`Busy`) rather than queued;
- **small tasks**: each task is one decision or one simulated game, so a job takes its turns with everyone else.

Every task is a pure function of its arguments (its randomness comes from a seed among them), so the same work
gives the same answer in any worker. `bot_seed` derives a bot seat's seed from its game's server seed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import multiprocessing
import os
import random
import signal
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

from loveletter.core.commands import PlayerCommand
from loveletter.core.views import View
from loveletter.play.bots import get_bot
from loveletter.play.simulate import Config, GameFigures, play_game, root_key

T = TypeVar("T")

OFF_THE_LOOP = frozenset({"expert"})
"""The built-in bots whose decisions are thought in the pool; `random` and `heuristic` decide in microseconds and
stay inline."""
WORKERS = 2
"""Worker processes (CPU-bound work: one per core is the most that helps, and the server keeps its own)."""
MAX_URGENT = 64
"""Seat decisions waiting at once; beyond, a seat is played by the heuristic (`Busy`)."""
MAX_BACKGROUND = 16
"""Background tasks waiting at once (a review or a simulation has one task in flight at a time)."""
DECISION_SECONDS = 10.0
"""The time a seat's decision may take, waiting included, before the heuristic decides instead: a guard against a
wedged or swamped room (a decision takes tens of milliseconds), not the expert's budget."""
NICENESS = 5
"""How much lower the workers' CPU priority is than the server's: when the machine is short of CPU, the event loop
answers first and the search waits."""
START_SECONDS = 30.0
"""More time for the decisions asked while the workers start (importing the engine takes a few tenths of a second
of CPU, far more on a busy machine)."""


class Busy(Exception):
    """The room's queue for this kind of work is full: try later (or decide another way)."""


def bot_seed(server_seed: str, seq: int, seat: int) -> int:
    """The seed of a bot seat's decision after event `seq`: from the game's (secret) server seed, so the same game
    is thought the same way, and no one learns anything of that seed from the bot's play."""
    digest = hashlib.sha256(b"loveletter-bot:%s:%d:%d" % (server_seed.encode(), seq, seat)).digest()
    return int.from_bytes(digest[:8], "big")


def choose(bot: str, view: View, moves: Sequence[PlayerCommand], seed: int) -> PlayerCommand:
    """A built-in bot's move with its own generator seeded by `seed` (what a worker runs for a seat)."""
    move: PlayerCommand = get_bot(bot).choose(view, moves, random.Random(seed))
    return move


def simulated_game(config: Config, game: int) -> GameFigures:
    """Game `game` of the simulation `config`, alone: its figures, which `Stats.add` adds up as `simulate` does (each
    game has its own seeds, so the games may be played anywhere, in any order)."""
    bots = [get_bot(name) for name in config.bots]
    played = GameFigures()
    play_game(config.ruleset, bots, root_key(config.seed), game, dict(config.options), figures=played)
    return played


def _ready() -> None:
    """A task that does nothing: it makes the pool start a worker."""


def _worker_start(parent: int) -> None:
    """A worker leaves Ctrl-C to the server, which shuts the pool down itself, and the CPU to the server first; and
    it ends when the server (`parent`) is gone, killed before it could shut the pool down, rather than wait forever
    (even when it was gone before this worker had started)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


@dataclass(eq=False)
class _Task:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    done: asyncio.Future[Any]
    urgent: bool


@dataclass
class Thinking:
    """The pool and its two lanes (see the module). Use it from one event loop."""

    workers: int = WORKERS
    max_urgent: int = MAX_URGENT
    max_background: int = MAX_BACKGROUND
    decision_seconds: float = DECISION_SECONDS
    _pool: ProcessPoolExecutor | None = field(default=None, init=False, repr=False)
    _waiting: dict[bool, deque[_Task]] = field(default_factory=lambda: {True: deque(), False: deque()}, init=False)
    _running: dict[bool, int] = field(default_factory=lambda: {True: 0, False: 0}, init=False)
    _closed: bool = field(default=False, init=False)
    _started: bool = field(default=False, init=False)
    """Whether a worker has answered once (the workers are up)."""

    @property
    def state(self) -> str:
        """`idle` (no worker yet: they start at the first task), `starting`, `ready` or `closed`."""
        if self._closed:
            return "closed"
        if self._pool is None:
            return "idle"
        return "ready" if self._started else "starting"

    @property
    def background_workers(self) -> int:
        """Workers background work may hold at once: all but one, so that a seat never waits for a job."""
        return max(1, self.workers - 1)

    def waiting(self, urgent: bool) -> int:
        """Tasks of a lane queued or running."""
        return len(self._waiting[urgent]) + self._running[urgent]

    async def run(self, fn: Callable[..., T], *args: Any, urgent: bool = False, timeout: float | None = None) -> T:
        """`fn(*args)` in a worker: its result, or its exception. `Busy` at once when the lane is full;
        `TimeoutError` after `timeout` seconds (a task not started by then never starts)."""
        if self._closed:
            raise Busy("the thinking room is closed")
        limit = self.max_urgent if urgent else self.max_background
        if self.waiting(urgent) >= limit:
            raise Busy("urgent" if urgent else "background")
        task = _Task(fn, args, asyncio.get_running_loop().create_future(), urgent)
        self._waiting[urgent].append(task)
        self._dispatch()
        try:
            return await asyncio.wait_for(task.done, timeout)
        except BaseException:  # timed out or cancelled: a task still queued leaves the queue
            if task in self._waiting[urgent]:
                self._waiting[urgent].remove(task)
            raise

    async def choose(self, bot: str, view: View, moves: Sequence[PlayerCommand], seed: int) -> PlayerCommand:
        """A seat's decision by a bot that thinks (urgent; `decision_seconds` at most, or `TimeoutError`)."""
        seconds = self.decision_seconds + (0.0 if self._started else START_SECONDS)
        return await self.run(choose, bot, view, tuple(moves), seed, urgent=True, timeout=seconds)

    def warm(self) -> None:
        """Start the workers now, if not yet started (a game that will need them has begun), so that the first
        decision does not wait for them to start."""
        if self._pool is None and not self._closed:
            pool = self._executor()
            for _ in range(self.workers):
                pool.submit(_ready).add_done_callback(self._up)

    def _up(self, _: Future[None]) -> None:
        self._started = True  # a plain flag, set from the pool's thread

    def _dispatch(self) -> None:
        """Start waiting tasks while workers are free: urgent ones first; background ones on all but one worker."""
        while self._running[True] + self._running[False] < self.workers:
            lane = self._waiting[True]
            if not lane and self._running[False] < self.background_workers:
                lane = self._waiting[False]
            if not lane:
                return
            task = lane.popleft()
            if task.done.done():  # given up (its caller's time ran out) before it started
                continue
            self._start(task)

    def _start(self, task: _Task) -> None:
        loop = task.done.get_loop()
        try:
            future = self._executor().submit(task.fn, *task.args)
        except BrokenProcessPool as exc:  # a worker died: the next task gets a new pool
            self._pool = None
            task.done.set_exception(exc)
            return
        self._running[task.urgent] += 1

        def finished(future: Future[Any]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed first (the server stopped): nobody waits
                loop.call_soon_threadsafe(self._finished, task, future)

        future.add_done_callback(finished)

    def _finished(self, task: _Task, future: Future[Any]) -> None:
        self._started = True
        self._running[task.urgent] -= 1
        if not task.done.done():
            exc = Busy("the thinking room is closed") if future.cancelled() else future.exception()
            if exc is None:
                task.done.set_result(future.result())
            else:
                if isinstance(exc, BrokenProcessPool):
                    self._pool = None
                task.done.set_exception(exc)
        if not self._closed:
            self._dispatch()

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawned, not forked: the server has threads (its store's, asyncio's), which a fork would copy mid-step
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
            weakref.finalize(self, self._pool.shutdown, wait=False, cancel_futures=True)  # a room nobody closed
        return self._pool

    def close(self) -> None:
        """Stop the workers (a running task is abandoned) and fail every waiting task with `Busy`."""
        self._closed = True
        for lane in self._waiting.values():
            while lane:
                task = lane.popleft()
                if not task.done.done():
                    task.done.set_exception(Busy("the thinking room is closed"))
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
