"""A game: created, read (as its caller may see it), its events, and its signed log once it is over."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import NDJSON, answers, seat_links
from loveletter.api.problems import Problem
from loveletter.api.routes.deps import OPTIONAL, AdminScheme, AdminToken, GameId, RefereeDep, SeatToken
from loveletter.api.routes.replies import reply
from loveletter.api.schemas import CreateGameIn
from loveletter.client.models import Created, Events, Game
from loveletter.core.lang import Text
from loveletter.referee.tables import events_json, seen_by

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


# Every answer that depends on the credential says so: no shared cache may keep it, a browser's cache keys it by
# the Authorization header, and its ETag names the viewer as well as the version, so that one viewer's copy is
# never revalidated (304) with another's tag (issue 24, defect 2).
PRIVATE = {"Cache-Control": "private, no-cache", "Vary": "Authorization"}


def viewer_etag(version: int, seat: int | None) -> str:
    """The ETag of a game as one viewer sees it: `"12-s1"` for seat 1, `"12-w"` for a spectator."""
    return f'"{version}-{"w" if seat is None else f"s{seat}"}"'


def _unchanged(if_none_match: str | None, etag: str) -> bool:
    """Does If-None-Match name this viewer's tag (weak or strong) or `*`? Malformed: 400, as before."""
    if parse.versions(if_none_match, "If-None-Match") is None:
        return False
    assert if_none_match is not None
    tags = [part.strip(parse.OWS).removeprefix("W/") for part in if_none_match.split(",")]
    return "*" in tags or etag in tags


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
    return reply(created, 201, {"Location": f"/games/{created['game_id']}"})


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
    table = await referee.table(game)
    seat = referee.seat_for(table, token, required=False)
    etag = viewer_etag(seen_by(table, seat), seat)  # a spectator's version lags by the spectator delay
    if _unchanged(if_none_match, etag):
        return Response(status_code=304, headers={"ETag": etag, **PRIVATE})
    return reply(referee.game_json(table, seat), headers={"ETag": etag, **PRIVATE})


@router.get(
    "/games/{game_id}/events", openapi_extra=OPTIONAL, responses=answers(Events, 403, 404, 422, example="events")
)
async def list_events(
    game: GameId, token: SeatToken, referee: RefereeDep, after: Annotated[int, Query(ge=0)] = 0
) -> Response:
    table = await referee.table(game)
    seat = referee.seat_for(table, token, required=False)
    shown = seen_by(table, seat)
    body = {"version": shown, "events": events_json(table.events[after:shown], after + 1, seat)}
    return reply(body, headers=PRIVATE)


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
    table = await referee.table(game)
    if not table.state.over and not referee.is_admin(token):
        raise Problem(
            403,
            "game_not_over",
            Text(
                "the full log is published when the game is over",
                "le journal complet est publié quand la partie est terminée",
            ),
        )
    return Response(referee.log_bytes(table), media_type="application/x-ndjson")
