"""The client's calls for accounts (docs/accounts.md), described as `calls` describes the games' (a `Plan` or a
`Feed`, no I/O): the account's event stream, seeks, challenges. Every call takes the account's key itself, apart
from the client's token (a seat's), so one client serves a bot's account and all of its seats' games."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from httpx_sse import ServerSentEvent

from loveletter.client.account_models import Accepted, AccountEvent, AccountInfo, Challenge, Seek
from loveletter.client.calls import Caller, Feed, Plan, Request, answer, read
from loveletter.client.models import Joined


def _bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def whoami(caller: Caller, key: str) -> Plan[AccountInfo]:
    """The account of `key`: its id, name, kind, games and ratings."""
    response = yield from answer(caller, Request("GET", "/account", safe=True, headers=_bearer(key)))
    return AccountInfo.of(response.json())


def account_events(caller: Caller, account_id: str, key: str, after: int = 0) -> Feed[AccountEvent]:
    """The account's events after id `after` (0: all of them), live and without end: challenges received, accepted
    or declined, games started, seeks paired. A dropped connection is reopened with `Last-Event-ID`."""

    def parse(sse: ServerSentEvent) -> tuple[int, Callable[[], AccountEvent]]:
        ident = int(sse.id)
        return ident, lambda: AccountEvent.of({**sse.json(), "id": ident})

    return Feed(caller, f"/accounts/{account_id}/stream", after, parse, ends=False, extra=_bearer(key))


def seek(
    caller: Caller,
    key: str,
    *,
    ruleset: str = "2019",
    players: int = 2,
    turn_seconds: int | None = None,
    rated: bool = False,
) -> Plan[Seek]:
    """Seek a game; the seek as it stands (`paired` at once if it could be). The account hears of its game on its
    stream and takes its seat with `join(…, account_key=key)`."""
    body: dict[str, Any] = {"key": key, "ruleset": ruleset, "players": players, "rated": rated}
    if turn_seconds is not None:
        body["turn_seconds"] = turn_seconds
    response = yield from answer(caller, Request("POST", "/seeks", safe=False, json=body))
    return Seek.of(response.json())


def get_seek(caller: Caller, seek_id: str) -> Plan[Seek]:
    """A seek and where it stands; once paired, its game and the account's seat."""
    return Seek.of((yield from read(caller, Request("GET", f"/seeks/{seek_id}", safe=True))).json())


def cancel_seek(caller: Caller, seek_id: str, key: str) -> Plan[Seek]:
    """Withdraw an open seek."""
    request = Request("DELETE", f"/seeks/{seek_id}", safe=False, headers=_bearer(key))
    return Seek.of((yield from answer(caller, request)).json())


def challenge(caller: Caller, key: str, to: str, *, ruleset: str = "2019", rated: bool = False) -> Plan[Challenge]:
    """Challenge an account (by id or name) to a two-seat game."""
    body = {"key": key, "to": to, "ruleset": ruleset, "rated": rated}
    return Challenge.of((yield from answer(caller, Request("POST", "/challenges", safe=False, json=body))).json())


def get_challenge(caller: Caller, challenge_id: str) -> Plan[Challenge]:
    """A challenge and where it stands."""
    return Challenge.of((yield from read(caller, Request("GET", f"/challenges/{challenge_id}", safe=True))).json())


def accept(caller: Caller, challenge_id: str, key: str) -> Plan[Accepted]:
    """Accept a challenge made to the account: the game, and this account's seat with its token."""
    request = Request("POST", f"/challenges/{challenge_id}/accept", safe=False, json={"key": key})
    return Accepted.of((yield from answer(caller, request)).json())


def decline(caller: Caller, challenge_id: str, key: str) -> Plan[Challenge]:
    """Decline a challenge made to the account."""
    request = Request("POST", f"/challenges/{challenge_id}/decline", safe=False, json={"key": key})
    return Challenge.of((yield from answer(caller, request)).json())


def join_as(caller: Caller, game_id: str, key: str, name: str = "-") -> Plan[Joined]:
    """Take the seat a game keeps for the account (a paired seek, an accepted challenge), or a rated game's open
    seat, with the account's key: the seat plays under the account's name (`name` is not used)."""
    body = {"name": name, "account_key": key}
    return Joined.of(
        (yield from answer(caller, Request("POST", f"/games/{game_id}/join", safe=False, json=body))).json()
    )
