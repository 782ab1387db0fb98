"""Who a key is (`GET /account`), and an account's event stream over server-sent events (docs/accounts.md):
challenges received, accepted or declined, games started, seeks paired. Only the account reads them, by its key sent
as `Authorization: Bearer ak_…` (a GET has no body; the referee logs no header). The stream is resumable like the
game streams: `id:` is the event's id, and a reader that comes back with `Last-Event-ID` (or `?after=`) gets every
event after it, from the store, on any worker."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Request
from fastapi.responses import Response, StreamingResponse

from loveletter.api import parse, sse
from loveletter.api.openapi import SSE, answers, ref, stream_schema
from loveletter.api.routes.accounts import Account, account_id
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.client.account_models import AccountEvent
from loveletter.referee.referee import ACCOUNT_EVENT_KINDS

router = APIRouter(tags=["accounts"])
ACCOUNT_EXAMPLE = {"account_id": "a_Qm9iIHRoZSBib3Qh", "name": "Robo", "kind": "bot", "created": 1764172800000,
                   "active": True, "games": [], "ratings": []}  # fmt: skip
ACCOUNT_STREAM = stream_schema(
    dict.fromkeys(ACCOUNT_EVENT_KINDS, ref(AccountEvent)["$ref"]),
    "the account's events, `id:` the event's id (resume with `Last-Event-ID`); each `data:` is a JSON object",
)


@router.get("/account", responses=answers(Account, 403, example=ACCOUNT_EXAMPLE))
async def whoami(request: Request, referee: RefereeDep) -> Response:
    """The account whose key is sent as a bearer token, as `GET /accounts/{id}` shows it (a bot given only its key
    learns its id here)."""
    return reply(await referee.account_of_key(parse.bearer(request.headers.get("authorization"))))


@router.get(
    "/accounts/{account_id}/stream",
    responses=answers(ACCOUNT_STREAM, 403, 404, 422, media=SSE, example="stream"),
)
async def stream_account(
    request: Request,
    referee: RefereeDep,
    found: str = Depends(account_id),
    after: Annotated[int | None, Query(ge=0, description="the events after this id (default 0: all of them)")] = None,
    last_event_id: Annotated[str | None, Header()] = None,
) -> StreamingResponse:
    """The account's events as server-sent events, oldest first, then each new one as it comes; sent with the
    account's key as a bearer token."""
    resumed = parse.version(last_event_id, "Last-Event-ID")
    cursor = resumed if resumed is not None else after or 0
    events = await referee.account_events(found, parse.bearer(request.headers.get("authorization")), cursor)
    return sse.stream(events, request)
