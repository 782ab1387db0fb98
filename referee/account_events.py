"""Each account's event stream: what an account must hear of without asking (a challenge received, accepted or
declined, a game started for it, a seek paired), kept in the store (`account_events`, schema version 7) so that a
reader that reconnects, to this worker or another, resumes after the last id it saw and loses nothing.

An event is written once, in the store, before anything announces it; this worker's streams are woken at once, and
every stream also looks at the store every `POLL` seconds, which is how an event written by another worker (on
PostgreSQL) reaches it. The ids only grow, so they are the streams' `Last-Event-ID`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from loveletter.events.codec import dumps
from loveletter.events.store import EventStore

KINDS = ("challenge_received", "challenge_accepted", "challenge_declined", "game_started", "seek_paired")
"""The kinds of account events (docs/accounts.md says what each carries)."""
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


def feed_of(referee: Any) -> AccountFeed:
    """The referee's account feed, made the first time it is asked for (the referee knows nothing of it)."""
    found: AccountFeed | None = getattr(referee, "_account_feed", None)
    if found is None:
        found = AccountFeed(referee.store, referee.clock)
        referee._account_feed = found
    return found
