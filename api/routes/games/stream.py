"""A game's events as server-sent events, as the caller may see them (the referee's reader for that credential:
a spectator as far as the game's spectator delay lets them), then each new one until the game is over."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import StreamingResponse

from loveletter.api import parse, sse
from loveletter.api.event_schemas import REF
from loveletter.api.openapi import SSE, answers, stream_schema
from loveletter.api.routes.deps import OPTIONAL, GameId, RefereeDep, SeatToken
from loveletter.core.catalogue import EVENT_TYPES

router = APIRouter(tags=["games"])
PAGE = "^[A-Za-z0-9_-]{1,40}$"
"""A seat page's own random id (`page=`, the web page's alone, so not in the schema): the seat's other pages are
told apart from it (the referee's presence)."""

GAME_STREAM = stream_schema(
    {kind: f"{REF}{cls.__name__}Event" for kind, cls in EVENT_TYPES.items()},
    "the game's events as the caller may see them, `id:` the event's seq; the stream ends with the game",
)


@router.get(
    "/games/{game_id}/stream",
    openapi_extra=OPTIONAL,
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
    reader = await referee.reader(game, bearer or parse.token(token))
    resumed = parse.version(last_event_id, "Last-Event-ID")
    return sse.stream(reader.follow(resumed if resumed is not None else after or 0, page), request)
