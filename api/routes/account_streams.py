"""Who a key is (`GET /account`), and an account's event stream over server-sent events (docs/accounts.md):
challenges received, accepted or declined, games started, seeks paired. Only the account reads them, by its key sent
as `Authorization: Bearer ak_…` (a GET has no body; the referee logs no header). The stream is resumable like the
game streams: `id:` is the event's id, and a reader that comes back with `Last-Event-ID` (or `?after=`) gets every
event after it, from the store, on any worker."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response, StreamingResponse

from loveletter.api import parse
from loveletter.api.openapi import SSE, answers, ref, stream_schema
from loveletter.api.routes.accounts import Account, account_id, accounts
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.api.routes.streams import HEADERS, sse_frame
from loveletter.client.account_models import AccountEvent
from loveletter.events.store import StoreError
from loveletter.referee.account_events import KINDS, POLL, AccountFeed, feed_of
from loveletter.referee.accounts import key_rejected
from loveletter.referee.referee import Referee

router = APIRouter(tags=["accounts"])
ACCOUNT_EXAMPLE = {"account_id": "a_Qm9iIHRoZSBib3Qh", "name": "Robo", "kind": "bot", "created": 1764172800000,
                   "active": True, "games": [], "ratings": []}  # fmt: skip
PAGE = 200
"""Events read from the store at once."""
ACCOUNT_STREAM = stream_schema(
    dict.fromkeys(KINDS, ref(AccountEvent)["$ref"]),
    "the account's events, `id:` the event's id (resume with `Last-Event-ID`); each `data:` is a JSON object",
)


@router.get("/account", responses=answers(Account, 403, example=ACCOUNT_EXAMPLE))
async def whoami(request: Request, referee: RefereeDep) -> Response:
    """The account whose key is sent as a bearer token, as `GET /accounts/{id}` shows it (a bot given only its key
    learns its id here)."""
    holder = await accounts(referee).holder(parse.bearer(request.headers.get("authorization")))
    return reply(await accounts(referee).public(holder.account_id))


@router.get(
    "/accounts/{account_id}/stream",
    responses=answers(ACCOUNT_STREAM, 403, 404, 422, media=SSE, example="stream"),
)
async def stream_account(
    request: Request,
    referee: RefereeDep,
    found: str = Depends(account_id),
    after: Annotated[int | None, Query(ge=0, description="the events after this id (default 0: all of them)")] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    """The account's events as server-sent events, oldest first, then each new one as it comes; sent with the
    account's key as a bearer token."""
    holder = await accounts(referee).holder(parse.bearer(request.headers.get("authorization")))
    if holder.account_id != found:
        raise key_rejected()
    resumed = parse.version(last_event_id, "Last-Event-ID")
    cursor = resumed if resumed is not None else after or 0
    return StreamingResponse(_events(referee, found, cursor, request), media_type=SSE, headers=HEADERS)


async def _events(referee: Referee, account: str, cursor: int, request: Request) -> AsyncIterator[bytes]:
    """The account's events after `cursor`, then each new one: woken by this worker's writes, and looking at the
    store every `POLL` seconds for another worker's."""
    feed: AccountFeed = feed_of(referee)
    loop = asyncio.get_running_loop()
    written = loop.time()
    keep_alive = referee.clocks.timing.keep_alive
    while True:
        news = feed.news()  # taken before reading: an event written meanwhile wakes the wait below
        try:
            rows = await asyncio.to_thread(referee.store.account_events, account, cursor, PAGE)
        except StoreError:  # the store closed under the stream (the worker stopping) or out of reach
            return  # ended cleanly: the client resumes from its last id where a store answers
        if rows:
            yield b"".join(sse_frame(ident, kind, body) for ident, kind, body in rows)
            cursor = rows[-1][0]
            written = loop.time()
            if len(rows) == PAGE:
                continue
        with suppress(TimeoutError):
            await asyncio.wait_for(news.wait(), POLL)
        if loop.time() - written >= keep_alive * 0.9:
            if await request.is_disconnected():
                return
            written = loop.time()
            yield b": keep-alive\n\n"
