"""Server-sent event streams: a game's events as the caller may see them (a spectator: as far as the game's
spectator delay lets them, `referee.tables.seen_by`), and the lobby's news.

A stream holds a game's id, never its `Table`: the cache may evict the game and a later request rebuild it from
the store, so each round reads the game afresh (`Referee.current`), woken by the game's watch. Each event is framed
once per viewer (kept with the table) and a wake-up's events go out as one chunk; an idle stream waits on its watch
alone, which the referee's one ticker pokes every `stream_keep_alive` seconds for a keep-alive."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse

from loveletter.api import parse
from loveletter.api.event_schemas import REF
from loveletter.api.openapi import SSE, answers, ref, stream_schema
from loveletter.api.routes.deps import OPTIONAL, GameId, RefereeDep, SeatToken
from loveletter.client.models import LobbyGame
from loveletter.core.catalogue import EVENT_TYPES
from loveletter.events.codec import dumps
from loveletter.events.store import StoreError
from loveletter.referee.referee import Referee
from loveletter.referee.tables import Table, events_json, seen_by

router = APIRouter()
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
PAGE = "^[A-Za-z0-9_-]{1,40}$"
"""A seat page's own random id (`page=`, the web page's alone, so not in the schema): the seat's other pages are
told apart from it (`Presence.elsewhere`)."""
LOBBY_PAGE = 500
"""News read from the store at once by a lobby stream."""

LOBBY_STREAM = stream_schema(
    dict.fromkeys(("game_opened", "seat_filled", "game_started", "game_finished"), ref(LobbyGame)["$ref"]),
    "the lobby's news, `id:` the news id; each `data:` is the game's public facts",
)
GAME_STREAM = stream_schema(
    {kind: f"{REF}{cls.__name__}Event" for kind, cls in EVENT_TYPES.items()},
    "the game's events as the caller may see them, `id:` the event's seq; the stream ends with the game",
)

# JSON leaves U+0085, U+2028 and U+2029 unescaped, and some line readers (httpx's, under httpx-sse) end a line at
# each: a player named with one would cut an event's `data:` in two for them. Escaped, the JSON means the same.
_LINE_ENDS = ((b"\xc2\x85", b"\\u0085"), (b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


def sse_frame(ident: int, kind: str, data: bytes) -> bytes:
    """One server-sent event whose `data:` stays on one line for every line reader."""
    for raw, escaped in _LINE_ENDS:
        if raw in data:
            data = data.replace(raw, escaped)
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (ident, kind.encode(), data)


def frames(table: Table, seat: int | None, after: int, upto: int) -> bytes:
    """The events after seq `after` up to seq `upto` as `seat` sees them, as frames in one chunk (each framed
    once per viewer)."""
    done: list[bytes] = table.rendered.setdefault(seat, [])
    if len(done) < upto:
        for item in events_json(table.events[len(done) : upto], len(done) + 1, seat):
            done.append(sse_frame(item["seq"], item["type"], dumps(item)))
    return b"".join(done[after:upto])


@router.get(
    "/games/{game_id}/stream",
    openapi_extra=OPTIONAL,
    tags=["games"],
    responses=answers(GAME_STREAM, 403, 404, 422, media=SSE, example="stream"),
)
async def stream_game(
    game: GameId,
    bearer: SeatToken,
    request: Request,
    referee: RefereeDep,
    after: Annotated[int | None, Query(ge=0)] = None,
    token: Annotated[
        str | None,
        Query(
            description="seat token, only for a browser's EventSource, which cannot send headers; any other "
            "client sends Authorization: Bearer <token>"
        ),
    ] = None,
    last_event_id: Annotated[str | None, Header()] = None,
    page: Annotated[str | None, Query(pattern=PAGE, include_in_schema=False)] = None,
) -> StreamingResponse:
    table = await referee.table(game)
    seat = referee.seat_for(table, bearer or parse.token(token), required=False)
    resumed = parse.version(last_event_id, "Last-Event-ID")
    cursor = resumed if resumed is not None else after or 0
    stream = _game(referee, table.game_id, seat, cursor, request, page)
    return StreamingResponse(stream, media_type=SSE, headers=HEADERS)


async def _game(
    referee: Referee, game_id: str, seat: int | None, cursor: int, request: Request, page: str | None
) -> AsyncIterator[bytes]:
    """The game's events after `cursor`, then each new one as it is appended, until the game is over."""
    loop = asyncio.get_running_loop()
    written = loop.time()
    keep_alive = referee.clocks.timing.keep_alive
    with referee.watching(game_id) as watch, referee.presence.hold(game_id, seat, page):
        while True:
            waiter = watch.changed  # taken before reading: an append made meanwhile wakes the wait below
            table = await referee.current(game_id, watch)
            shown = seen_by(table, seat)  # a spectator's lags by the game's spectator delay until it is over
            if cursor < shown:
                chunk = frames(table, seat, cursor, shown)
                cursor = shown
                written = loop.time()
                yield chunk
            elif loop.time() - written >= keep_alive * 0.9:  # the ticker's poke on an idle stream
                if await request.is_disconnected():
                    return
                written = loop.time()
                yield b": keep-alive\n\n"
            if table.state.over:
                return
            del table  # a stream keeps no evicted game alive
            await waiter.wait()


@router.get("/lobby/stream", tags=["lobby"], responses=answers(LOBBY_STREAM, 422, media=SSE))
async def stream_lobby(
    request: Request,
    referee: RefereeDep,
    after: Annotated[int | None, Query(ge=0, description="replay the news after this id (0: all)")] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    """The lobby's news as server-sent events — `game_opened`, `seat_filled`, `game_started`, `game_finished` —
    each with the game's public facts; `id:` is the news id (resume with `Last-Event-ID`). Without a cursor the
    stream starts with the next news."""
    resumed = parse.version(last_event_id, "Last-Event-ID")
    cursor = resumed if resumed is not None else after
    if cursor is None:
        cursor = await asyncio.to_thread(referee.store.lobby_feed_head)
    return StreamingResponse(_lobby(referee, cursor, request), media_type=SSE, headers=HEADERS)


async def _lobby(referee: Referee, cursor: int, request: Request) -> AsyncIterator[bytes]:
    """The lobby's news after `cursor`, then each new item as the feed grows (woken by this worker's commits and,
    on PostgreSQL, by every worker's)."""
    tables = referee.tables
    tables.lobby_streams += 1
    loop = asyncio.get_running_loop()
    written = loop.time()
    keep_alive = referee.clocks.timing.keep_alive
    try:
        while True:
            news = tables.lobby_news  # taken before reading: news written meanwhile wakes the wait below
            try:
                rows = await asyncio.to_thread(referee.store.lobby_feed, cursor, LOBBY_PAGE)
            except StoreError:  # the store closed under the stream (the worker stopping) or out of reach
                return  # ended cleanly: the client resumes from its last id where a store answers
            for item, game_id, kind, listing in rows:
                data = b'{"game_id":"' + game_id.encode() + b'",' + listing[1:]
                yield sse_frame(item, kind, data)
                cursor = item
                written = loop.time()
            if len(rows) == LOBBY_PAGE:
                continue
            await news.wait()  # woken by news, or by the referee's ticker every `stream_keep_alive` seconds
            if loop.time() - written >= keep_alive * 0.9:
                if await request.is_disconnected():
                    return
                written = loop.time()
                yield b": keep-alive\n\n"
    finally:
        tables.lobby_streams -= 1
