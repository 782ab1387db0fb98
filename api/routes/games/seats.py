"""A game's seats: taken by invite (or any open seat of a public game), a rematch, a seat that leaves, a game its
organiser stops."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import ETAG, answers
from loveletter.api.routes.deps import GameId, RefereeDep, SeatOrAdminToken, SeatToken
from loveletter.api.routes.games.answers import JSON, answer
from loveletter.api.routes.replies import reply
from loveletter.api.schemas import JoinIn
from loveletter.client.models import Joined, MoveResult, Rematch

router = APIRouter(tags=["lobby"])
LEAVE = answers(MoveResult, 401, 403, 404, 409, 422, headers=ETAG)  # resign and abort answer as a move does


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
