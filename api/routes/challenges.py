"""Challenges between accounts: made with the challenger's key, accepted or declined with the challenged account's key,
read by anyone (docs/accounts.md); making one is rate-limited per client address and per account. Accepting answers
the new game and the acceptor's seat token; the challenger reads the accepted challenge's game and takes the seat
kept for it with `POST /games/{id}/join` and its key."""

from __future__ import annotations

import re

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.routes.accounts import NOT_FOUND, WRONG_KEY, account_id
from loveletter.api.routes.bodies import AccountKeyIn, ChallengeIn
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.api.throttle import Throttle
from loveletter.client.account_models import Accepted, Challenge, ChallengeList
from loveletter.referee.refusals import challenge_not_found

CHALLENGE_ID = re.compile(r"c_[A-Za-z0-9_-]{16}")
router = APIRouter(tags=["accounts"])
LIMIT = Throttle(
    "challenges_rate_limited",
    client=(2.0, 60),  # 60 at once, then two a second
    account=(0.5, 10),  # 10 at once, then one every two seconds
    en="{who} may challenge {rate} times a second (up to {burst} at once): wait before challenging again",
    fr="{who} peut lancer des défis au rythme de {rate} par seconde (jusqu'à {burst} d'un coup) : attendez avant "
    "d'en lancer un autre",
)
"""Challenges one client address, and one account, may make."""


PARTY = {"account_id": "a_Qm9iIHRoZSBib3Qh", "name": "Robo", "kind": "bot"}
EXAMPLE = {
    "challenge_id": "c_0rXyW3zqfK0aBc1d",
    "challenger": PARTY,
    "challenged": {"account_id": "a_WmXpIHRoZSBib3Qh", "name": "Zoé", "kind": "person"},
    "ruleset": "2019",
    "players": 2,
    "rated": True,
    "status": "open",
    "game_id": None,
    "created": 1764172800000,
}
CLOSED = {409: problem(409, description="The challenge was already accepted or declined")}
NO_CHALLENGE = {404: problem(404, description="No such challenge")}


def challenge_id(challenge_id: str) -> str:
    """The path's challenge id: one the referee could have issued, or 404 without asking the store."""
    if CHALLENGE_ID.fullmatch(challenge_id) is None:
        raise challenge_not_found(challenge_id)
    return challenge_id


@router.post(
    "/challenges",
    status_code=201,
    dependencies=[Depends(parse.json_body)],
    responses=answers(
        Challenge, 413, 415, 422, status=201, example=EXAMPLE, description="Created",
        more=NOT_FOUND | WRONG_KEY | {429: problem(429, description="Too many challenges from this client or account")},
    ),
)  # fmt: skip
async def create_challenge(body: ChallengeIn, request: Request, referee: RefereeDep) -> Response:
    """Challenge an account (by id or name) to a two-seat game, rated or not; sent with the challenger's key."""
    ruleset = parse.ruleset_id(body.ruleset)
    await LIMIT.check(request, body.key)
    return reply(await referee.challenge(body.key, body.to, ruleset, body.rated), 201)


@router.get("/challenges/{challenge_id}", responses=answers(Challenge, example=EXAMPLE, more=NO_CHALLENGE))
async def get_challenge(referee: RefereeDep, found: str = Depends(challenge_id)) -> Response:
    """A challenge and where it stands; once accepted, its game (the challenger joins it with its key)."""
    return reply(await referee.challenge_status(found))


@router.post(
    "/challenges/{challenge_id}/accept",
    dependencies=[Depends(parse.json_body)],
    responses=answers(
        Accepted, 413, 415, 422,
        example={"challenge_id": EXAMPLE["challenge_id"], "game_id": "g_0rXyW3zqfK0aBc1d", "seat": 1, "name": "Zoé",
                 "token": "…", "version": 1},
        more=NO_CHALLENGE | WRONG_KEY | CLOSED,
    ),
)  # fmt: skip
async def accept_challenge(body: AccountKeyIn, referee: RefereeDep, found: str = Depends(challenge_id)) -> Response:
    """Accept a challenge made to the account of the key: the game is created, with this seat's token; the other
    seat is kept for the challenger."""
    return reply(await referee.accept_challenge(found, body.key))


@router.post(
    "/challenges/{challenge_id}/decline",
    dependencies=[Depends(parse.json_body)],
    responses=answers(
        Challenge, 413, 415, 422, example={**EXAMPLE, "status": "declined"}, more=NO_CHALLENGE | WRONG_KEY | CLOSED
    ),
)
async def decline_challenge(body: AccountKeyIn, referee: RefereeDep, found: str = Depends(challenge_id)) -> Response:
    """Decline a challenge made to the account of the key."""
    return reply(await referee.decline_challenge(found, body.key))


@router.get(
    "/accounts/{account_id}/challenges",
    responses=answers(ChallengeList, example={"challenges": [EXAMPLE]}, more=NOT_FOUND),
)
async def list_challenges(referee: RefereeDep, found: str = Depends(account_id)) -> Response:
    """The account's open challenges, made or received, oldest first (a bot polls it to answer challenges)."""
    return reply({"challenges": await referee.challenges_of(found)})
