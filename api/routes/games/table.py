"""A game: created, read as its caller may see it (the referee's reader for that credential), its events, the state
at any point, and its signed log once it is over."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import NDJSON, answers, seat_links
from loveletter.api.routes.deps import OPTIONAL, AdminScheme, AdminToken, GameId, RefereeDep, SeatToken
from loveletter.api.routes.games.answers import PRIVATE, unchanged, viewer_etag
from loveletter.api.routes.replies import reply
from loveletter.api.schemas import CreateGameIn
from loveletter.client.models import Created, Events, Game

router = APIRouter(tags=["games"])

LOG: dict[str, Any] = {
    "type": "string",
    "description": "JSON lines: the header, every event chained by `prev`, the signature; `x-line` is the schema "
    "of each line (docs/schema/log.schema.json)",
    "x-line": {"$ref": "#/components/schemas/LogLine"},
}
ETAG = {
    "ETag": 'the game\'s version and the viewer, quoted ("12-s1" for seat 1, "12-w" for a spectator): what '
    "If-None-Match takes (If-Match takes it too, or the bare version)"
}
NOT_MODIFIED = {
    304: {
        "description": "Not modified: the game is still at the version If-None-Match names",
        "headers": {"ETag": {"description": ETAG["ETag"], "required": True, "schema": {"type": "string"}}},
    }
}
_LOG_EXAMPLE = (
    '{"format":"loveletter-log","game_id":"g_…","options":{…},"players":["Alice","Bob"],"ruleset":"2019","version":1}\n'
    '{"first_player":0,…,"prev":"be19…","seq":1,"type":"game_started","v":1}\n'
    "…\n"
    '{"algorithm":"ed25519","format":"loveletter-signature","hash":"b63c…","public_key":"2128…","signature":"4813…"}\n'
)


@router.post(
    "/games",
    status_code=201,
    dependencies=[Depends(parse.json_body)],
    openapi_extra=OPTIONAL,
    responses=answers(
        Created,
        403,
        413,
        415,
        422,
        status=201,
        example="create",
        description="Created",
        headers={"Location": "the new game's path, /games/{game_id}"},
        links=seat_links(
            {
                "GetGame": "get_game",
                "PlayMove": "play_move",
                "ListEvents": "list_events",
                "GetState": "get_state",
                "ContributeSeed": "contribute_seed",
                "ResignSeat": "resign_seat",
            }
        )
        | seat_links({"AbortGame": "abort_game"}, "$response.body#/organiser_token"),
    ),
)
async def create_game(
    body: CreateGameIn,
    _admin: AdminScheme,
    referee: RefereeDep,
    authorization: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> Response:
    """Create a game: each named seat's token, each open seat's invite, and the organiser's token. Only an admin
    token may choose the server seed (the token is read only then)."""
    token = parse.bearer(authorization) if body.server_seed is not None else None
    created = await referee.create(body.plain(), token)
    game = created["game_id"]
    for seat in created["seats"]:
        if seat.get("invite"):
            seat["join"] = f"/games/{game}/join?invite={seat['invite']}"
    return reply(created, 201, {"Location": f"/games/{game}"})


@router.get(
    "/games/{game_id}",
    openapi_extra=OPTIONAL,
    responses=answers(Game, 403, 404, example="game", more=NOT_MODIFIED, headers=ETAG),
)
async def get_game(
    game: GameId,
    token: SeatToken,
    referee: RefereeDep,
    if_none_match: Annotated[str | None, Header()] = None,
) -> Response:
    reader = await referee.reader(game, token)
    etag = viewer_etag(reader.version, reader.seat)  # a spectator's version lags by the spectator delay
    if unchanged(if_none_match, etag):
        return Response(status_code=304, headers={"ETag": etag, **PRIVATE})
    return reply(reader.game(), headers={"ETag": etag, **PRIVATE})


@router.get(
    "/games/{game_id}/events", openapi_extra=OPTIONAL, responses=answers(Events, 403, 404, 422, example="events")
)
async def list_events(
    game: GameId, token: SeatToken, referee: RefereeDep, after: Annotated[int, Query(ge=0)] = 0
) -> Response:
    reader = await referee.reader(game, token)
    return reply(reader.events(after), headers=PRIVATE)


LOG_ANSWERS = answers(LOG, 403, 404, media=NDJSON, example=_LOG_EXAMPLE, description="The signed JSONL log")
LOG_ANSWERS[200]["content"]["application/octet-stream"] = {
    "schema": {
        "type": "string",
        "format": "binary",
        "description": "the same JSON lines, for a client that reads "
        "any body it does not parse as a file (a generated client does: its answer is then typed)",
    }
}


@router.get("/games/{game_id}/log", openapi_extra=OPTIONAL, responses=LOG_ANSWERS)
async def get_log(game: GameId, token: AdminToken, referee: RefereeDep) -> Response:
    """The signed log, published when the game is over (an admin may read it at any time)."""
    reader = await referee.reader(game, token, asker="admin")
    return Response(reader.log(), media_type="application/x-ndjson")
