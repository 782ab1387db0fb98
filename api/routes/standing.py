"""An account's standing, read-only (docs/accounts.md, "On the web"): `GET /accounts/{id}/history`, its rating after
each of its rated games on each ladder (the account page's chart), its win rate and its head-to-head; and
`POST /accounts/holder`, the account a key belongs to (how the lobby learns whose games "My games" lists from the key
pasted there, sent in a body as every key is). The figures come from `play.ladder`'s fold of the finished rated
games' logs, the very games and order `GET /ladder` folds, so a chart's last point is the account's ladder rating."""

from __future__ import annotations

import orjson
from fastapi import APIRouter, Depends
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.routes.accounts import EXAMPLE as ACCOUNT_EXAMPLE
from loveletter.api.routes.accounts import NOT_FOUND, Account, account_id
from loveletter.api.routes.bodies import AccountKeyIn
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.client.models import Answer

router = APIRouter(tags=["accounts"])


class Point(Answer):
    """The account's rating just after one of its rated games."""

    game_id: str
    at: int
    """When the game began (Unix ms), as its log says: the fold's order."""
    mu: float
    sigma: float


class LadderHistory(Answer):
    """The account's rating over time on one ladder (a ruleset and a table size), oldest game first."""

    ruleset: str
    players: int
    points: list[Point]


class Opponent(Answer):
    """Head-to-head with one account met at a rated table: games together, and the games where only one of the two
    won (`wins`: this account; `losses`: the other); the rest (both or neither won) are neither."""

    account_id: str
    name: str
    kind: str
    games: int
    wins: int
    losses: int


class History(Answer):
    """`GET /accounts/{id}/history`: over the account's finished rated games."""

    account_id: str
    games: int
    wins: int
    """Games the account won (alone or with others)."""
    win_rate: float | None = None
    """wins / games; null before the first rated game."""
    ladders: list[LadderHistory]
    opponents: list[Opponent]


EXAMPLE = {
    "account_id": "a_Qm9iIHRoZSBib3Qh",
    "games": 2,
    "wins": 1,
    "win_rate": 0.5,
    "ladders": [
        {"ruleset": "2019", "players": 2, "points": [
            {"game_id": "g_0rXyW3zqfK0aBc1d", "at": 1764172800000, "mu": 27.6, "sigma": 7.8},
            {"game_id": "g_7hQpL2vNs9kT4eRm", "at": 1764173400000, "mu": 25.4, "sigma": 7.2},
        ]},
    ],
    "opponents": [
        {"account_id": "a_Um9ib3QgbnVtYmVyMg", "name": "Robo", "kind": "bot", "games": 2, "wins": 1, "losses": 1},
    ],
}  # fmt: skip


def _json(data: object) -> Response:
    return reply(data)


@router.get("/accounts/{account_id}/history", responses=answers(History, example=EXAMPLE, more=NOT_FOUND))
async def account_history(referee: RefereeDep, found: str = Depends(account_id)) -> Response:
    """The account's rating after each of its finished rated games, per ladder (its last point is its ladder
    rating), its win rate, and its head-to-head against every account it met at a rated table."""
    return _json(await referee.account_history(found))


@router.post(
    "/accounts/holder",
    dependencies=[Depends(parse.json_body)],
    responses=answers(
        Account,
        413,
        415,
        422,
        example=ACCOUNT_EXAMPLE,
        more={403: problem(403, description="A key that is no account's current key")},
    ),
)
async def key_holder(body: AccountKeyIn, referee: RefereeDep) -> Response:
    """The account whose current key is sent, as `GET /accounts/{id}` shows it: how a page holding only a key
    finds its account. It changes nothing; the key is never written anywhere."""
    return Response(
        orjson.dumps(await referee.account_of_key(body.key)),
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )
