"""Each account's event stream: what an account must hear of without asking (a challenge received, accepted or
declined, a game started for it, a seek paired), kept in the store (`account_events`, schema version 7) so that a
reader that reconnects, to this worker or another, resumes after the last id it saw and loses nothing.

An event is written once, in the store, before anything announces it; this worker's streams are woken at once, and
every stream also looks at the store every `POLL` seconds, which is how an event written by another worker (on
PostgreSQL) reaches it. The ids only grow, so they are the streams' `Last-Event-ID`.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable
from contextlib import suppress
from typing import Any

from loveletter.events.codec import dumps
from loveletter.events.store import EventStore, StoreError
from loveletter.referee.clocks import Idle

KINDS = (
    "challenge_received",
    "challenge_accepted",
    "challenge_declined",
    "challenge_expired",
    "game_started",
    "game_unfilled",
    "seek_paired",
)
"""The kinds of account events (docs/accounts.md says what each carries)."""
PAGE = 200
"""Events read from the store at once by an account stream."""
POLL = 1.0
"""Seconds between two looks at the store by an idle account stream (an event another worker wrote)."""


class AccountFeed:
    """Writes account events and wakes this worker's account streams; one per referee."""

    def __init__(self, store: EventStore, now: Callable[[], int]) -> None:
        self.store = store
        self.now = now
        self._news: asyncio.Event | None = None

    def news(self) -> asyncio.Event:
        """The event the next write sets (take it before reading the store, then wait on it)."""
        if self._news is None:
            self._news = asyncio.Event()
        return self._news

    async def post(self, account_id: str, kind: str, data: dict[str, Any]) -> None:
        """Append one event to the account's stream and wake the streams that wait."""
        assert kind in KINDS, kind
        body = dumps({"type": kind, **data, "at": self.now()})
        await asyncio.to_thread(self.store.add_account_event, account_id, kind, body, self.now())
        news, self._news = self._news, None
        if news is not None:
            news.set()

    async def follow(
        self, account_id: str, cursor: int, keep_alive: float
    ) -> AsyncGenerator[list[tuple[int, str, bytes]] | None, None]:
        """The account's events after `cursor`, then each new one: woken by this worker's writes, and looking at the
        store every `POLL` seconds for another worker's; None when idle for a keep-alive. Ends quietly when the
        store closes under it (the worker stopping): the client resumes from its last id where a store answers."""
        idle = Idle(keep_alive)
        while True:
            news = self.news()  # taken before reading: an event written meanwhile wakes the wait below
            try:
                rows = await asyncio.to_thread(self.store.account_events, account_id, cursor, PAGE)
            except StoreError:
                return
            if rows:
                yield list(rows)
                cursor = rows[-1][0]
                idle.sent()
                if len(rows) == PAGE:
                    continue
            with suppress(TimeoutError):
                await asyncio.wait_for(news.wait(), POLL)
            if idle.due():
                yield None
