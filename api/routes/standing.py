"""An account's standing, read-only (docs/accounts.md, "On the web"): `GET /accounts/{id}/history`, its rating after
each of its rated games on each ladder (the account page's chart), its win rate and its head-to-head; and
`POST /accounts/holder`, the account a key belongs to (how the lobby learns whose games "My games" lists from the key
pasted there, sent in a body as every key is). The figures come from `play.ladder`'s fold of the finished rated
games' logs, the very games and order `GET /ladder` folds, so a chart's last point is the account's ladder rating."""

from __future__ import annotations

from typing import Annotated, Literal

import orjson
from fastapi import APIRouter, Depends, Query
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
GAMES = 100
"""Games `GET /accounts/{id}/games` lists when the caller does not say how many."""
MOST_GAMES = 500
"""The most games one answer lists (`limit`): each is read from its log unless finished and kept."""


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


class TableMate(Answer):
    """Another seat of the game: its player's name, and its account (null for a seat no account took)."""

    seat: int
    name: str
    account_id: str | None = None
    kind: Literal["person", "bot"] | None = None


class Rating(Answer):
    mu: float
    sigma: float


class RatingChange(Answer):
    """The account's rating on the game's ladder just before the game and just after it (the history's points)."""

    before: Rating
    after: Rating


class PlayedGame(Answer):
    """One game the account sat at, from its point of view."""

    game_id: str
    created: int
    """When the game was created (Unix ms, the referee's clock)."""
    ruleset: str
    players: int
    """Seats at the table."""
    seats: list[int]
    """The account's seats (one, but in an unrated game an account may take two)."""
    rated: bool
    status: Literal["waiting", "playing", "resigned", "won", "lost", "aborted"]
    """waiting: a seat is still open; playing; resigned: the account left, the game goes on without it; won (alone
    or with others) and lost: the game is over; aborted: stopped, nobody won."""
    opponents: list[TableMate]
    """The other seats taken, in seat order."""
    rating: RatingChange | None = None
    """For a finished rated game the ladder counts; null otherwise."""


class AccountGames(Answer):
    """`GET /accounts/{id}/games`: the account's newest games, newest first."""

    account_id: str
    total: int
    """Every game the account sat at; `games` holds the newest `limit` of them."""
    games: list[PlayedGame]


GAMES_EXAMPLE = {
    "account_id": "a_Qm9iIHRoZSBib3Qh",
    "total": 2,
    "games": [
        {"game_id": "g_7hQpL2vNs9kT4eRm", "created": 1764173400000, "ruleset": "2019", "players": 2, "seats": [0],
         "rated": True, "status": "lost",
         "opponents": [{"seat": 1, "name": "Robo", "account_id": "a_Um9ib3QgbnVtYmVyMg", "kind": "bot"}],
         "rating": {"before": {"mu": 27.6, "sigma": 7.8}, "after": {"mu": 25.4, "sigma": 7.2}}},
        {"game_id": "g_0rXyW3zqfK0aBc1d", "created": 1764172800000, "ruleset": "2019", "players": 2, "seats": [1],
         "rated": False, "status": "playing",
         "opponents": [{"seat": 0, "name": "Guest", "account_id": None, "kind": None}], "rating": None},
    ],
}  # fmt: skip


def _json(data: object) -> Response:
    return reply(data)


@router.get("/accounts/{account_id}/history", responses=answers(History, example=EXAMPLE, more=NOT_FOUND))
async def account_history(referee: RefereeDep, found: str = Depends(account_id)) -> Response:
    """The account's rating after each of its finished rated games, per ladder (its last point is its ladder
    rating), its win rate, and its head-to-head against every account it met at a rated table."""
    return _json(await referee.account_history(found))


@router.get("/accounts/{account_id}/games", responses=answers(AccountGames, 422, example=GAMES_EXAMPLE, more=NOT_FOUND))
async def list_account_games(
    referee: RefereeDep,
    found: str = Depends(account_id),
    limit: Annotated[int, Query(ge=1, le=MOST_GAMES, description="how many of the newest games")] = GAMES,
) -> Response:
    """The account's games, newest first (the newest `limit`): when each was created, its ruleset and table size,
    the other seats (with their accounts), whether it is rated, how it stands for this account (waiting, playing,
    resigned, won, lost, aborted) and, for a finished rated game, the account's rating before and after it."""
    return _json(await referee.account_games(found, limit))


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
