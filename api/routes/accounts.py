"""Accounts: created with a name and a kind (the answer holds the account's key, once), read by anyone, and their key
rotated or revoked by the key itself (docs/accounts.md); creation is rate-limited per client address. Keys travel in
request bodies, which no log line of the referee writes, and come back only in the answers that make a key; those
answers are never stored by a cache."""

from __future__ import annotations

import re

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.routes.bodies import AccountIn, AccountKeyIn
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.api.throttle import Throttle
from loveletter.client.models import Answer
from loveletter.referee.refusals import account_not_found

NO_STORE = {"Cache-Control": "no-store"}
ACCOUNT_ID = re.compile(r"a_[A-Za-z0-9_-]{16}")
router = APIRouter(tags=["accounts"])
LIMIT = Throttle(
    "accounts_rate_limited",
    client=(0.2, 30),  # 30 at once, then one every five seconds
    account=None,  # a new account sends no key
    en="{who} may create {rate} accounts a second (up to {burst} at once): wait before creating another",
    fr="{who} peut créer des comptes au rythme de {rate} par seconde (jusqu'à {burst} d'un coup) : attendez avant "
    "d'en créer un autre",
)
"""Accounts one client address may create."""


class AccountCreated(Answer):
    """`POST /accounts`: the new account's public id, name (as stored) and kind, and its key, shown only here."""

    account_id: str
    name: str
    kind: str
    key: str


class AccountKey(Answer):
    """`POST /accounts/{id}/key`: the account's new key, shown only here; the one sent no longer works."""

    account_id: str
    key: str


class AccountRating(Answer):
    """The account's place on one ladder (`GET /ladder`)."""

    ruleset: str
    players: int
    rank: int
    mu: float
    sigma: float
    games: int


class Account(Answer):
    """`GET /accounts/{id}`: what anyone may read of an account."""

    account_id: str
    name: str
    kind: str
    created: int
    active: bool
    """False once its key is revoked: the account keeps its name and games, and acts no more."""
    games: list[str]
    ratings: list[AccountRating]


EXAMPLE = {
    "account_id": "a_Qm9iIHRoZSBib3Qh",
    "name": "Zoé",
    "kind": "person",
    "created": 1764172800000,
    "active": True,
    "games": ["g_0rXyW3zqfK0aBc1d"],
    "ratings": [],
}
NOT_FOUND = {404: problem(404, description="No such account")}
WRONG_KEY = {403: problem(403, description="A key that is not the account's current key")}


def account_id(account_id: str) -> str:
    """The path's account id: one the referee could have issued, or 404 without asking the store."""
    if ACCOUNT_ID.fullmatch(account_id) is None:
        raise account_not_found(account_id)
    return account_id


@router.post(
    "/accounts",
    status_code=201,
    dependencies=[Depends(parse.json_body)],
    responses=answers(
        AccountCreated,
        409,
        413,
        415,
        422,
        status=201,
        example={**{k: EXAMPLE[k] for k in ("account_id", "name", "kind")}, "key": "ak_…"},
        description="Created",
        headers={"Location": "the account's path, /accounts/{account_id}"},
        more={
            409: problem(409, description="The name is taken (compared ignoring case and Unicode forms)"),
            429: problem(429, description="Too many accounts created from this client"),
        },
    ),
)
async def create_account(body: AccountIn, request: Request, referee: RefereeDep) -> Response:
    """A new account: its public id, and its key (keep it: it is shown here only). The name is unique ignoring case
    and Unicode forms; control, format and invisible characters are refused, each with the rule it breaks."""
    await LIMIT.check(request)
    made = await referee.create_account(body.name, body.kind)
    return reply(made, 201, {"Location": f"/accounts/{made['account_id']}", **NO_STORE})


@router.get("/accounts/{account_id}", responses=answers(Account, example=EXAMPLE, more=NOT_FOUND))
async def get_account(referee: RefereeDep, found: str = Depends(account_id)) -> Response:
    """An account: its name, kind, whether its key still works, the games it sat at and its ratings."""
    return reply(await referee.account(found), headers={"Vary": "Accept"})  # a browser gets the account page here


@router.post(
    "/accounts/{account_id}/key",
    dependencies=[Depends(parse.json_body)],
    responses=answers(
        AccountKey,
        413,
        415,
        422,
        example={"account_id": EXAMPLE["account_id"], "key": "ak_…"},
        more=NOT_FOUND | WRONG_KEY,
    ),
)
async def rotate_key(body: AccountKeyIn, referee: RefereeDep, found: str = Depends(account_id)) -> Response:
    """A new key for the account, sent with its current key, which stops working at once."""
    return reply(await referee.rotate_key(found, body.key), headers=NO_STORE)


@router.post(
    "/accounts/{account_id}/key/revoke",
    dependencies=[Depends(parse.json_body)],
    responses=answers(Account, 413, 415, 422, example={**EXAMPLE, "active": False}, more=NOT_FOUND | WRONG_KEY),
)
async def revoke_key(body: AccountKeyIn, referee: RefereeDep, found: str = Depends(account_id)) -> Response:
    """Revoke the account's key (sent as the proof): no key works for the account any more, and none replaces it.
    The account keeps its name, games and ratings."""
    await referee.revoke_key(found, body.key)
    return reply(await referee.account(found))
