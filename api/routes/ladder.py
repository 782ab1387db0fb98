"""The ladder: `GET /ladder?ruleset=2019&players=2`, every account rated at that ruleset and table size, best first,
a page at a time. Its figures are `play.ladder`'s fold of the finished rated games' logs (`referee.ladder`), which
`loveletter ratings` computes again from the downloaded logs (docs/accounts.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers
from loveletter.api.problems import Problem
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.client.models import Answer
from loveletter.core.lang import Text

router = APIRouter(tags=["accounts"])


class Rung(Answer):
    """An account's place on a ladder: its rank (1 is best), OpenSkill rating (mu, sigma) and rated games played."""

    rank: int
    account_id: str
    name: str
    kind: str
    mu: float
    sigma: float
    games: int


class Ladder(Answer):
    """`GET /ladder`: a page of one ladder, best first; `next` is the cursor of the following page."""

    ruleset: str
    players: int
    games: int
    """The finished rated games the ladder folds."""
    ratings: list[Rung]
    next: str | None = None
    """Null on the last page."""


EXAMPLE = {
    "ruleset": "2019",
    "players": 2,
    "games": 10,
    "ratings": [
        {"rank": 1, "account_id": "a_Qm9iIHRoZSBib3Qh", "name": "Robo", "kind": "bot", "mu": 27.9, "sigma": 6.1,
         "games": 10},
    ],
    "next": None,
}  # fmt: skip


def _offset(cursor: str | None) -> int:
    """A ladder cursor (the rank a page starts after, as `GET /ladder` gave it); 400 `invalid_cursor` otherwise."""
    if cursor is None:
        return 0
    if not cursor.isdigit() or len(cursor) > 9:
        raise Problem(
            400,
            "invalid_cursor",
            Text(
                "this cursor is not one the ladder gave: start again without it",
                "ce curseur n'est pas un curseur donné par le classement : recommencez sans lui",
            ),
        )
    return int(cursor)


@router.get("/ladder", responses=answers(Ladder, 404, 422, example=EXAMPLE))
async def get_ladder(
    referee: RefereeDep,
    ruleset: Annotated[str, Query(max_length=40)] = "2019",
    players: Annotated[int, Query(ge=2, le=6)] = 2,
    cursor: Annotated[str | None, Query(max_length=20)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Response:
    """One ladder (a ruleset and a table size), best first: each account's rank, rating and rated games. The
    ratings are a fold of the finished rated games' logs: `loveletter ratings` over those logs gives the same."""
    chosen = parse.ruleset_id(ruleset)
    start = _offset(cursor)
    ladder = await referee.ladder(chosen, players)
    page = [{"rank": start + i + 1, **s.as_dict()} for i, s in enumerate(ladder[start : start + limit])]
    more = start + limit < len(ladder)
    body = {
        "ruleset": chosen,
        "players": players,
        "games": sum(s.games for s in ladder) // players,
        "ratings": page,
        "next": str(start + limit) if more else None,
    }
    return reply(body, headers={"Vary": "Accept"})  # a browser gets the ladder page at this path
