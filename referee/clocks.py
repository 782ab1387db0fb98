"""The turn clocks of every game on this worker: one heap of running deadlines and one task that sleeps until the
earliest, then asks the judge to act on it (`Judge.expire`: the seat times out, or a bot decides for it).

The referee never reads the wall clock itself: `now` is handed in (Unix milliseconds), so tests move time by
hand and the poll interval bounds how late a moved clock is seen."""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Callable

import structlog

from loveletter.core.state import GameState
from loveletter.events.store import EventStore

log = structlog.get_logger()


def wall_ms() -> int:
    """The time source of a live referee: Unix time in milliseconds."""
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class Timing:
    """The referee's intervals, in seconds (the defaults are those of `server.settings.Settings`)."""

    clock_poll: float = 1.0
    """The longest sleep between two looks at the time source (which tests may move by hand)."""
    keep_alive: float = 15.0
    """Between two keep-alives on an idle stream (and looks at whether its client has gone)."""
    clock_rescan: float = 10.0
    """Between two reads of the store's running deadlines by a worker sharing its store with others."""
    join_seconds: int = 60
    """How long the accounts of a game made for them (paired seeks, an accepted challenge) have to take their seats."""
    open_seat_seconds: int = 3600
    """How long any other game's open seats wait for players."""
    challenge_seconds: int = 600
    """How long a challenge waits for its answer."""


class Idle:
    """When an idle stream is due a keep-alive: a stream notes each time it sends (`sent`), and asks after each
    wake-up whether `keep_alive` seconds (less a tenth, the ticker's own slack) went by without (`due`)."""

    def __init__(self, keep_alive: float) -> None:
        self.keep_alive = keep_alive
        self._loop = asyncio.get_running_loop()
        self._sent = self._loop.time()

    def sent(self) -> None:
        self._sent = self._loop.time()

    def due(self) -> bool:
        """True, and counted as sent, when a keep-alive is due."""
        if self._loop.time() - self._sent < self.keep_alive * 0.9:
            return False
        self.sent()
        return True


class Clocks:
    """Running deadlines, kept once each, acted on by `expire(game_id, deadline)` when due; and the one ticker
    that wakes every idle stream (`tick`) every `keep_alive` seconds."""

    def __init__(
        self,
        store: EventStore,
        now: Callable[[], int],
        timing: Timing,
        expire: Callable[[str, int], Awaitable[bool]],
        tick: Callable[[], None],
    ) -> None:
        self.store = store
        self.now = now
        self.timing = timing
        self._expire = expire
        self._tick_all = tick
        self._deadlines: list[tuple[int, str]] = []  # (deadline, game id): one heap for every running clock
        self._kept: set[tuple[int, str]] = set()  # what the heap holds, so an entry is kept once
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def started(self, game_id: str, state: GameState) -> None:
        """Keep the game's next deadline, if it has one (a listener of every table loaded or grown)."""
        deadline = state.next_deadline
        if deadline is not None:
            self.keep(deadline, game_id)

    def keep(self, deadline: int, game_id: str) -> None:
        entry = (deadline, game_id)
        if entry not in self._kept:
            self._kept.add(entry)
            heapq.heappush(self._deadlines, entry)
            self._wake.set()

    async def _take_up(self) -> None:
        for game_id, deadline in await asyncio.to_thread(self.store.deadlines):
            self.keep(deadline, game_id)

    async def start(self) -> None:
        """Take up every running clock the store knows of (after a restart, or as another worker) and keep them;
        and start the ticker."""
        await self._take_up()
        self._tasks = [asyncio.ensure_future(self._keep_all()), asyncio.ensure_future(self._tick())]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def _tick(self) -> None:
        """Every `keep_alive` seconds wake every stream once: one timer for all of them, none per stream."""
        while True:
            await asyncio.sleep(self.timing.keep_alive)
            self._tick_all()

    async def _keep_all(self) -> None:
        """One task for every clock: sleep until the earliest deadline, act on what is due. With several workers,
        each also reads the store's running deadlines now and then, so a clock set by a worker that has stopped
        is still kept (whoever records a timeout first wins; the others' appends are refused)."""
        looked = time.monotonic()
        while True:
            if self.store.shared and time.monotonic() - looked > self.timing.clock_rescan:
                looked = time.monotonic()
                with contextlib.suppress(Exception):
                    await self._take_up()
            now = self.now()
            while self._deadlines and self._deadlines[0][0] <= now:
                deadline, game_id = heapq.heappop(self._deadlines)
                self._kept.discard((deadline, game_id))
                try:
                    await self._expire(game_id, deadline)
                except Exception:  # a store outage, say: try again at the next look
                    log.exception("clock", game_id=game_id)
                    self.keep(deadline, game_id)
                    break
            wait = self.timing.clock_poll
            if self._deadlines:
                wait = max(0.0, min(wait, (self._deadlines[0][0] - self.now()) / 1000))
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)
