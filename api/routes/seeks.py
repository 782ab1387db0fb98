"""Seeks (docs/accounts.md): an account asks for a game and waits to be paired with accounts of close ratings.
`POST /seeks` with the account's key in the body; `GET /seeks/{id}` for anyone; `DELETE /seeks/{id}` with the
key as a bearer token (a DELETE has no body). Seeks are rate-limited per client address and per account."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import ConfigDict, Field

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.routes.accounts import WRONG_KEY
from loveletter.api.routes.bodies import _Body
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.api.throttle import Throttle
from loveletter.client.account_models import Seek
from loveletter.referee.refusals import seek_not_found

SEEK_ID = re.compile(r"s_[A-Za-z0-9_-]{16}")
router = APIRouter(tags=["accounts"])
LIMIT = Throttle(
    "seeks_rate_limited",
    client=(2.0, 60),  # 60 at once, then two a second
    account=(0.5, 10),  # 10 at once, then one every two seconds
    en="{who} may seek {rate} times a second (up to {burst} at once): wait before seeking again",
    fr="{who} peut lancer des recherches au rythme de {rate} par seconde (jusqu'à {burst} d'un coup) : attendez "
    "avant d'en lancer une autre",
)
"""Seeks one client address, and one account, may send."""


class SeekIn(_Body):
    """`POST /seeks`: the seeking account's key and the game it seeks."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"key": "ak_…", "ruleset": "2019", "players": 2, "rated": True}]},
    )
    key: Annotated[str, Field(min_length=1, max_length=200, description="the seeking account's key")]
    ruleset: str = Field("2019", description="2019, 2019-classic, 2012 or princess-princess")
    players: int = Field(2, ge=2, le=6, description="the table size")
    turn_seconds: int | None = Field(None, ge=5, le=86_400, description="a turn clock (a late seat resigns); none")
    rated: bool = Field(False, description="a rated game (docs/accounts.md)")


EXAMPLE = {"seek_id": "s_0rXyW3zqfK0aBc1d", "account_id": "a_Qm9iIHRoZSBib3Qh", "ruleset": "2019", "players": 2,
           "turn_seconds": None, "rated": True, "rating": 25.0, "status": "open", "game_id": None, "seat": None,
           "created": 1764172800000}  # fmt: skip
NO_SEEK = {404: problem(404, description="No such seek")}
NO_RULESET = {404: problem(404, description="No such ruleset")}
LIMITED = {429: problem(429, description="Too many seeks from this client or this account")}


def seek_id(seek_id: str) -> str:
    if SEEK_ID.fullmatch(seek_id) is None:
        raise seek_not_found(seek_id)
    return seek_id


@router.post(
    "/seeks",
    status_code=201,
    dependencies=[Depends(parse.json_body)],
    responses=answers(
        Seek, 413, 415, 422, status=201, example=EXAMPLE, description="Created", more=NO_RULESET | WRONG_KEY | LIMITED
    ),
)
async def create_seek(body: SeekIn, request: Request, referee: RefereeDep) -> Response:
    """Seek a game: the seek joins the queue and is paired at once if it can be; the account hears of its game on
    its stream (`seek_paired`, `game_started`) and takes its seat by joining with its key."""
    ruleset = parse.ruleset_id(body.ruleset)
    await LIMIT.check(request, body.key)
    made = await referee.seek(body.key, ruleset, body.players, body.turn_seconds, body.rated)
    return reply(made, 201)


@router.get("/seeks/{seek_id}", responses=answers(Seek, example=EXAMPLE, more=NO_SEEK))
async def get_seek(referee: RefereeDep, found: str = Depends(seek_id)) -> Response:
    """A seek and where it stands; once paired, its game and the account's seat."""
    return reply(await referee.seek_status(found))


@router.delete(
    "/seeks/{seek_id}",
    responses=answers(Seek, example={**EXAMPLE, "status": "cancelled"},
                      more=NO_SEEK | WRONG_KEY | {409: problem(409, description="Paired or withdrawn already")}),
)  # fmt: skip
async def delete_seek(request: Request, referee: RefereeDep, found: str = Depends(seek_id)) -> Response:
    """Withdraw an open seek, with the account's key as a bearer token."""
    key = parse.bearer(request.headers.get("authorization"))
    return reply(await referee.cancel_seek(found, key))
