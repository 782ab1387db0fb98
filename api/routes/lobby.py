"""The lobby: the public games listed, a page at a time, and their news as server-sent events."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import Response, StreamingResponse

from loveletter.api import parse, sse
from loveletter.api.openapi import SSE, answers, ref, stream_schema
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.client.models import LobbyGame, LobbyPage

router = APIRouter(tags=["lobby"])


@router.get("/games", responses=answers(LobbyPage, 404, 422))
async def list_games(
    referee: RefereeDep,
    status: Annotated[Literal["open", "running", "finished"] | None, Query()] = None,
    ruleset: Annotated[str | None, Query(max_length=40)] = None,
    cursor: Annotated[str | None, Query(max_length=200)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    """Public games, newest first, with public facts only; `next` is the cursor of the following page."""
    before = parse.lobby_cursor(cursor)
    chosen = parse.ruleset_id(ruleset) if ruleset is not None else None
    games, following = await referee.lobby(status, chosen, before, limit)
    return reply({"games": games, "next": parse.lobby_cursor_of(*following) if following is not None else None})


LOBBY_STREAM = stream_schema(
    dict.fromkeys(("game_opened", "seat_filled", "game_started", "game_finished"), ref(LobbyGame)["$ref"]),
    "the lobby's news, `id:` the news id; each `data:` is the game's public facts",
)


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
    return sse.stream(referee.lobby_news(resumed if resumed is not None else after), request)
