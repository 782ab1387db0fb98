"""An account's standing, read-only (docs/accounts.md, "On the web"): `GET /accounts/{id}/history`, its rating after
each of its rated games on each ladder (the account page's chart), its win rate and its head-to-head; and
`POST /accounts/holder`, the account a key belongs to (how the lobby learns whose games "My games" lists from the key
pasted there, sent in a body as every key is). The figures come from `play.ladder`'s fold of the finished rated
games' logs, the very games and order `GET /ladder` folds, so a chart's last point is the account's ladder rating."""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence

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
from loveletter.events.store import EventStore
from loveletter.play.ladder import RatedGame
from loveletter.play.ratings import rate
from loveletter.play.tournament import Outcome

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


def standing(games: Iterable[RatedGame], account: str) -> dict[str, object]:
    """The account's history, win rate and head-to-head from finished rated games: each ladder is rated as
    `play.ladder.standings` rates it (same games, same order, same `rate`), keeping every game's ratings."""
    by_group: dict[tuple[str, int], list[RatedGame]] = {}
    for game in sorted(games, key=lambda g: (g.at, g.game_id)):
        by_group.setdefault(game.group, []).append(game)
    ladders: list[dict[str, object]] = []
    played = won = 0
    met: dict[str, dict[str, object]] = {}
    for (ruleset, players), group in sorted(by_group.items()):
        if not any(s.account == account for g in group for s in g.seats):
            continue
        index: dict[str, int] = {}
        outcomes = []
        for game in group:
            seats = tuple(index.setdefault(s.account, len(index)) for s in game.seats)
            o = game.outcome
            outcomes.append(Outcome(o.game, o.deal, seats, o.winners, o.favors, o.resigned))
        history = rate(outcomes, len(index), keep_history=True).history
        points = []
        for n, game in enumerate(group):
            mine = [i for i, s in enumerate(game.seats) if s.account == account]
            if not mine:
                continue
            mu, sigma = history[n][index[account]]
            points.append({"game_id": game.game_id, "at": game.at, "mu": mu, "sigma": sigma})
            me_won = mine[0] in game.outcome.winners
            played, won = played + 1, won + me_won
            _meet(met, game, mine[0], me_won)
        ladders.append({"ruleset": ruleset, "players": players, "points": points})
    opponents = sorted(met.values(), key=lambda o: (-int(str(o["games"])), str(o["name"]).casefold()))
    return {
        "account_id": account,
        "games": played,
        "wins": won,
        "win_rate": won / played if played else None,
        "ladders": ladders,
        "opponents": opponents,
    }


def _meet(met: dict[str, dict[str, object]], game: RatedGame, me: int, me_won: bool) -> None:
    """Count one game against each other seat of it."""
    for seat, (who, name) in enumerate(zip(game.seats, game.names, strict=True)):
        if seat == me:
            continue
        row = met.setdefault(
            who.account, {"account_id": who.account, "games": 0, "wins": 0, "losses": 0, "name": name, "kind": who.kind}
        )
        they_won = seat in game.outcome.winners
        row.update(name=name, kind=who.kind)  # the latest game's name
        row["games"] = int(str(row["games"])) + 1
        row["wins"] = int(str(row["wins"])) + (me_won and not they_won)
        row["losses"] = int(str(row["losses"])) + (they_won and not me_won)


_READ: weakref.WeakKeyDictionary[EventStore, tuple[tuple[str, ...], list[RatedGame]]] = weakref.WeakKeyDictionary()


def _json(data: object) -> Response:
    return reply(data)


@router.get("/accounts/{account_id}/history", responses=answers(History, example=EXAMPLE, more=NOT_FOUND))
async def account_history(referee: RefereeDep, found: str = Depends(account_id)) -> Response:
    """The account's rating after each of its finished rated games, per ladder (its last point is its ladder
    rating), its win rate, and its head-to-head against every account it met at a rated table."""
    await referee.account(found)  # 404 for an account that does not exist
    games: Sequence[RatedGame] = await referee.rated_games()
    return _json(standing(games, found))


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
