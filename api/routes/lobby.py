"""The lobby: public games listed and taken, rematches, and seats that leave or games their organiser stops."""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Depends, Query
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import ETAG, answers
from loveletter.api.routes.deps import GameId, RefereeDep, SeatOrAdminToken, SeatToken
from loveletter.api.routes.moves import answer
from loveletter.api.routes.replies import reply
from loveletter.api.schemas import JoinIn
from loveletter.client.models import Joined, LobbyPage, MoveResult, Rematch

JSON = "application/json"
router = APIRouter(tags=["lobby"])
LEAVE = answers(MoveResult, 401, 403, 404, 409, 422, headers=ETAG)  # resign and abort answer as a move does


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
    rows = await asyncio.to_thread(referee.store.lobby, status, chosen, before, limit + 1)
    games = [{"game_id": game, **orjson.loads(listing)} for _, game, listing in rows[:limit]]
    more = len(rows) > limit
    page = {"games": games, "next": parse.lobby_cursor_of(*rows[limit - 1][:2]) if more else None}
    return reply(page)


@router.post(
    "/games/{game_id}/join",
    dependencies=[Depends(parse.json_body)],
    responses=answers(Joined, 401, 403, 404, 409, 413, 415, 422),
)
async def join_game(game: GameId, body: JoinIn, referee: RefereeDep) -> Response:
    """Take an open seat, by invite (or any open seat of a public game): answers that seat's own token."""
    return reply(await referee.join(game, body.plain()))


@router.post("/games/{game_id}/rematch", responses=answers(Rematch, 401, 403, 404, 409))
async def rematch_game(game: GameId, token: SeatToken, referee: RefereeDep) -> Response:
    """The rematch of a finished game: same players, seats rotated by one. With a seat token, also that player's
    seat (and token) in the rematch; each player calls it with their own token."""
    return reply(await referee.rematch(game, token))


@router.post("/games/{game_id}/resign", responses=LEAVE)
async def resign_seat(game: GameId, token: SeatToken, referee: RefereeDep) -> Response:
    """The seat of the bearer token leaves the game ([Rulings §12](/rulings#s12))."""
    _, content, headers = answer(await referee.resign(game, token))
    return Response(content, media_type=JSON, headers=headers)


@router.post("/games/{game_id}/abort", responses=LEAVE)
async def abort_game(game: GameId, token: SeatOrAdminToken, referee: RefereeDep) -> Response:
    """The organiser (or an admin) stops the game: nobody wins ([Rulings §12](/rulings#s12))."""
    _, content, headers = answer(await referee.abort(game, token))
    return Response(content, media_type=JSON, headers=headers)
