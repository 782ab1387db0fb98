"""The event store contract, and the group committer both stores share.

A store keeps each game's events append-only under the key (game_id, seq). Appending says which
seq it expects to follow: if another writer got there first the key collides and the append is a
`ConflictError`, never an overwrite. Appends from many games wait in one queue; a single writer
thread commits everything waiting in one transaction (group commit), so durability costs one disk
flush per batch, not per move.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.catalogue import Event, GameStarted
from loveletter.events.accounts import AccountRecords
from loveletter.events.codec import decode, loads
from loveletter.events.log import Header, chain, digest, header_line


class StoreError(Exception):
    """A store failure that is not the caller's fault (I/O, database down)."""


class ConflictError(Exception):
    """The game moved on since the version the writer expected (or the game id is taken)."""

    def __init__(self, game_id: str, expected: int, actual: int | None) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, found {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True, slots=True)
class Idempotency:
    """A request's idempotency key, a digest of its body, and the response it produced."""

    key: str
    request_hash: str
    status: int
    response: bytes


@dataclass(frozen=True, slots=True)
class GameIndex:
    """What the store keeps beside a game's log to find it without reading it: whether the lobby lists it, its
    status (open, running, finished), ruleset, creation time (Unix ms), public facts (`listing`, JSON) and the
    deadline of its running clock. Derived from the log and written in the same transaction as the events."""

    public: bool
    status: str
    ruleset: str
    created: int
    listing: bytes
    deadline: int | None = None
    news: str | None = None
    """What the lobby's feed says of this change (`game_opened`, `seat_filled`, `game_started`, `game_finished`),
    for a public game; None: nothing to announce."""


@dataclass(slots=True)
class Append:
    """One writer's request: these events after `expected`, optionally creating the game first, replacing its
    creation record (`meta`: a seat's token after a join) or its index entry."""

    game_id: str
    expected: int
    events: Sequence[Event]
    idempotency: Idempotency | None = None
    create: dict[str, Any] | None = None
    meta: dict[str, Any] | None = None
    index: GameIndex | None = None
    accounts: tuple[tuple[str, int], ...] = ()
    """(account, seat) of the seats these events give an account: the store indexes each account's games."""
    rated: tuple[str, int, int] | None = None
    """(ruleset, table size, when it began) when these events end a rated game: the ladder's games gain it in the
    same transaction. The writer says both, read from the events; the store guesses neither."""
    future: Future[int] = field(default_factory=Future)
    waiter: asyncio.Future[int] | None = None  # set by `EventStore.commit` for callers on an event loop

    def rows(self, prev: str) -> tuple[list[tuple[str, int, str, bytes, str, str]], str]:
        """The rows to insert, chained after the line whose hash is `prev`, and the last row's hash."""
        chained = chain(self.events, prev, self.expected + 1)
        rows = [
            (self.game_id, c.seq, e.TYPE, c.body, c.prev, c.hash) for c, e in zip(chained, self.events, strict=True)
        ]
        return rows, chained[-1].hash if chained else prev

    def genesis(self) -> str:
        """The hash the first event chains to: the game's header line."""
        first = self.events[0] if self.events else None
        if not isinstance(first, GameStarted):
            raise ValueError("a game's first event is game_started")
        return digest(header_line(Header.of(first, self.game_id)))


class BatchRows:
    """The rows a batch of appends inserts, gathered request by request; each store writes them its own way
    (few statements for the whole batch)."""

    __slots__ = ("accounts", "events", "idempotency", "rated")

    def __init__(self) -> None:
        self.events: list[tuple[str, int, str, bytes, str, str]] = []
        self.idempotency: list[tuple[str, str, str, int, bytes]] = []
        self.accounts: list[tuple[str, str, int]] = []
        """(account_id, game_id, seat) of the seats the appends give an account (a store inserts each unless it is
        there already)."""
        self.rated: list[tuple[str, str, int, int]] = []
        """(game_id, ruleset, table size, began) of the rated games these rows end: the ladder's games."""

    def add(self, request: Append, prev: str) -> tuple[int, str]:
        """Add `request`'s events chained after `prev`, its idempotency record, the seats it gives an account and
        the rated game it ends: its new (version, last hash)."""
        events, last_hash = request.rows(prev)
        self.events += events
        if request.idempotency is not None:
            idem = request.idempotency
            self.idempotency.append((request.game_id, idem.key, idem.request_hash, idem.status, idem.response))
        self.accounts += [(account, request.game_id, seat) for account, seat in request.accounts]
        if request.rated is not None:
            self.rated.append((request.game_id, *request.rated))
        return request.expected + len(request.events), last_hash


class EventStore(AccountRecords, ABC):
    """What the referee needs from a database; `tests/test_store_contract.py` holds every store to it (and
    `tests/test_accounts.py` to the accounts part, `events.accounts`)."""

    shared = False
    """True when other processes may append too (so a cached state may be behind the store)."""
    commit_observer: Callable[[float], None] | None = None
    """Told the seconds each `commit` took (the server's metrics set it)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[list[tuple[str, int]]], None]] = []

    # -- writing ---------------------------------------------------------------------------------

    @abstractmethod
    def submit(self, request: Append) -> Future[int]:
        """Queue an append; the future gives the game's new version once it is durable."""

    def append(
        self, game_id: str, expected: int, events: Sequence[Event], idempotency: Idempotency | None = None
    ) -> int:
        return self.submit(Append(game_id, expected, events, idempotency)).result()

    async def commit(self, request: Append) -> int:
        """`submit` for a coroutine: the writer wakes each event loop once per batch, not once per append. The
        time it took goes to `commit_observer`, when one is set (the server's metrics)."""
        started = time.perf_counter()
        request.waiter = asyncio.get_running_loop().create_future()
        self.submit(request)
        version: int = await request.waiter
        if self.commit_observer is not None:
            self.commit_observer(time.perf_counter() - started)
        return version

    def create(self, game_id: str, meta: dict[str, Any], events: Sequence[Event]) -> int:
        """Record a new game with its first events; `ConflictError` if the id is taken."""
        return self.submit(Append(game_id, 0, events, create=meta)).result()

    # -- reading ---------------------------------------------------------------------------------

    @abstractmethod
    def _rows(self, game_id: str, after: int) -> list[tuple[int, bytes]]: ...

    @abstractmethod
    def meta(self, game_id: str) -> dict[str, Any] | None:
        """The game's creation record (ruleset, seats, token digests…), or None if unknown."""

    @abstractmethod
    def idempotency(self, game_id: str, key: str) -> Idempotency | None: ...

    @abstractmethod
    def game_ids(self) -> list[str]: ...

    @abstractmethod
    def lobby(
        self, status: str | None, ruleset: str | None, before: tuple[int, str] | None, limit: int
    ) -> list[tuple[int, str, bytes]]:
        """Public games, newest first: (created, game_id, listing) of at most `limit` games created before
        `before` (a previous page's last (created, game_id)), of one status and ruleset when given."""

    @abstractmethod
    def deadlines(self) -> list[tuple[str, int]]:
        """(game_id, deadline) of every game whose clock is running."""

    @abstractmethod
    def lobby_feed(self, after: int, limit: int) -> list[tuple[int, str, str, bytes]]:
        """The lobby's news after feed id `after`, oldest first: (id, game_id, kind, listing). Ids only grow, and a
        reader that saw id N has seen every news item before it."""

    @abstractmethod
    def lobby_feed_head(self) -> int:
        """The id of the latest news item (0: none yet)."""

    @abstractmethod
    def game_counts(self) -> dict[str, int]:
        """The games of the index (public, clocked or with a seats' deadline) by status: open, running, finished."""

    @abstractmethod
    def hashes(self, game_id: str) -> list[tuple[int, str, str]]:
        """(seq, prev, hash) of every stored event: the game's hash chain as the database holds it."""

    def load(self, game_id: str, after: int = 0) -> list[tuple[int, Event]]:
        """The game's events with seq > after, in order."""
        return [(seq, decode(loads(body))) for seq, body in self._rows(game_id, after)]

    # -- notifications ----------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[list[tuple[str, int]]], None]) -> None:
        """Call `callback([(game_id, version), …])` after durable appends (from any worker, where supported),
        with everything one commit made durable at once."""
        self._listeners.append(callback)

    def _notify(self, appended: list[tuple[str, int]]) -> None:
        if appended:
            for callback in self._listeners:
                callback(appended)

    @abstractmethod
    def close(self) -> None: ...


Outcome = int | BaseException
"""What a store's batch writer says of one request: its new version, or why it failed (a conflict)."""


class GroupCommitter:
    """One writer thread: takes every waiting append and commits them in one transaction, then settles
    the batch: one wake-up per event loop waiting on it, one notification for everything made durable."""

    def __init__(
        self,
        write_batch: Callable[[list[Append]], list[Outcome]],
        name: str,
        on_commit: Callable[[list[tuple[str, int]]], None] | None = None,
        max_batch: int = 512,
    ) -> None:
        self._on_commit = on_commit
        self._queue: queue.SimpleQueue[Append | None] = queue.SimpleQueue()
        self._write_batch = write_batch
        self._max_batch = max_batch
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._closed = False
        self.batches = 0
        self.appends = 0
        self._thread.start()

    def submit(self, request: Append) -> Future[int]:
        if self._closed:
            request.future.set_exception(StoreError("the store is closed"))
        else:
            self._queue.put(request)
        return request.future

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while len(batch) < self._max_batch:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    stop = True
                    break
                batch.append(nxt)
            try:
                outcomes = self._write_batch(batch)
            except Exception as exc:  # the whole transaction failed: nobody's append is durable
                outcomes = [_failed(exc) for _ in batch]  # one error each: its waiter raises it on its own
            self._settle(batch, outcomes)
            self.batches += 1
            self.appends += len(batch)
            if stop:
                return

    def _settle(self, batch: list[Append], outcomes: list[Outcome]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[int], Outcome]]] = {}
        for request, outcome in zip(batch, outcomes, strict=True):
            if request.waiter is not None:
                by_loop.setdefault(request.waiter.get_loop(), []).append((request.waiter, outcome))
            elif isinstance(outcome, BaseException):
                request.future.set_exception(outcome)
            else:
                request.future.set_result(outcome)
        for loop, waiters in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
                loop.call_soon_threadsafe(_resolve, waiters)
        if self._on_commit is not None:
            durable = [(r.game_id, o) for r, o in zip(batch, outcomes, strict=True) if isinstance(o, int)]
            self._on_commit(durable)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._queue.put(None)
            self._thread.join(timeout=10)


def _failed(exc: Exception) -> StoreError:
    """Why an append failed with its batch (a full disk, the database gone): the caller answers 503, retry later."""
    error = StoreError(f"commit failed: {exc}")
    error.__cause__ = exc
    return error


def _resolve(waiters: list[tuple[asyncio.Future[int], Outcome]]) -> None:
    """On the waiters' own loop: settle every future of a batch."""
    for waiter, outcome in waiters:
        if waiter.done():
            continue
        if isinstance(outcome, BaseException):
            waiter.set_exception(outcome)
        else:
            waiter.set_result(outcome)
