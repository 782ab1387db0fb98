"""The client's calls of the referee's HTTP API, each described once and without I/O: its method, path, body, answer
model, whether it may be retried and whether a refusal may be asked again in the other language.

A call is a `Plan`: a generator that yields the `Request`s to send, is sent back each `httpx.Response`, and returns
the typed answer (or raises the referee's refusal). A live stream is a `Feed` and a paged list is `Pages`. The
blocking face (`sync.Client`) and the asyncio face (`aio.AsyncClient`) only carry them out, each its own way, so
what a call means is written here and nowhere else."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Literal, Protocol, TypeVar

import httpx
from httpx_sse import ServerSentEvent

from loveletter.client._common import (
    CardLike,
    RetryPolicy,
    _Again,
    add_language,
    error_from,
    move_body,
    new_key,
    other_language,
    retryable,
)
from loveletter.client.models import (
    Created,
    Event,
    Events,
    Game,
    Joined,
    LegalMove,
    LobbyGame,
    LobbyNews,
    MoveResult,
    Rematch,
)

T = TypeVar("T")


class Caller(Protocol):
    """What a call needs of the client that carries it out: who asks, in which language, how often to retry."""

    token: str | None
    language: str
    both_languages: bool
    retry: RetryPolicy


@dataclass(frozen=True)
class Request:
    """One HTTP request as a call asks it: `safe` if sending it twice cannot record anything twice; `lang` in place
    of the client's language."""

    method: str
    path: str
    safe: bool
    json: Any = None
    params: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    lang: str | None = None


Plan = Generator[Request, httpx.Response, T]
"""A call: yields requests, is sent their answers, returns the typed answer."""

Pages = Callable[[str | None], Plan[tuple[list[T], str | None]]]
"""A paged list: the plan of the page at a cursor (None: the first), giving its items and the next cursor."""


def headers_of(caller: Caller, lang: str | None = None, extra: dict[str, str] | None = None) -> dict[str, str]:
    """The headers of every request: the language (`lang`, or the caller's), the bearer token if any, and `extra`."""
    headers = {"Accept-Language": lang or caller.language}
    if caller.token is not None:
        headers["Authorization"] = f"Bearer {caller.token}"
    headers.update(extra or {})
    return headers


def answer(caller: Caller, request: Request, again: Request | None = None) -> Plan[httpx.Response]:
    """The answer to `request`, or its refusal raised; `again` is the request that may be sent after a refusal to
    read it in the other language too (with `both_languages`), when asking twice cannot change anything."""
    response = yield request
    if response.status_code >= 400:
        error = error_from(response, caller.language)
        if again is not None and caller.both_languages:
            other = other_language(caller.language)
            add_language(error, (yield replace(again, lang=other)), other)
        raise error
    return response


def read(caller: Caller, request: Request) -> Plan[httpx.Response]:
    """`answer`, with the same request asked again in the other language after a refusal: for the reads (a game,
    the lobby) whose refusal cannot change by being asked twice."""
    return answer(caller, request, again=request)


# -- games ----------------------------------------------------------------------------------------------------


def create_game(
    caller: Caller,
    /,  # so that `**more` may hold any name
    players: list[str | dict[str, Any]],
    *,
    ruleset: str = "2019",
    options: dict[str, str] | None = None,
    public: bool = False,
    turn_seconds: int | None = None,
    on_timeout: Literal["bot", "resign"] | None = None,
    first_player: int | str | None = None,
    **more: Any,
) -> Plan[Created]:
    """Create a game. A player is a name, or a seat as the API takes it: `{"name": …}`, `{"name": …, "bot":
    "heuristic"}`, `{"open": True}`."""
    body: dict[str, Any] = {
        "ruleset": ruleset,
        "players": [{"name": p} if isinstance(p, str) else p for p in players],
        "public": public,
        **more,
    }
    if options:
        body["options"] = options
    if turn_seconds is not None:
        body["turn_seconds"] = turn_seconds
        body["on_timeout"] = on_timeout or "bot"
    if first_player is not None:
        body["first_player"] = first_player
    response = yield from answer(caller, Request("POST", "/games", safe=False, json=body))
    return Created.of(response.json())


def game(caller: Caller, game_id: str) -> Plan[Game]:
    """The caller's view of the game and its legal moves."""
    response = yield from read(caller, Request("GET", f"/games/{game_id}", safe=True))
    return Game.of(response.json())


def play(
    caller: Caller,
    game_id: str,
    move: LegalMove | int | dict[str, Any] | None = None,
    *,
    card: CardLike | None = None,
    target: int | str | None = None,
    guess: CardLike | None = None,
    keep: CardLike | None = None,
    bottom: list[CardLike] | None = None,
    if_match: int | None = None,
    key: str | None = None,
) -> Plan[MoveResult]:
    """Play a move: an action code, a `LegalMove`, or spelled out (`card="guard", target="Bob", guess="priest"`;
    a card by id, name or `Card`). Every retry carries the same Idempotency-Key, so the move is recorded once."""
    body = move_body(move, card=card, target=target, guess=guess, keep=keep, bottom=bottom)
    headers = {"Idempotency-Key": key or new_key()}
    if if_match is None and caller.both_languages:
        if_match = (yield from game(caller, game_id)).version  # a refusal at a known version can be asked again
    if if_match is not None:
        headers["If-Match"] = f'"{if_match}"'
    request = Request("POST", f"/games/{game_id}/moves", safe=True, json=body, headers=headers)
    # Asked again under a fresh key: the first key's answer stays in the language it was first given.
    again = None if if_match is None else replace(request, headers={**headers, "Idempotency-Key": new_key()})
    response = yield from answer(caller, request, again)
    return MoveResult.of(response.json(), response.headers.get("idempotent-replayed") == "true")


def resign(caller: Caller, game_id: str) -> Plan[MoveResult]:
    """The seat leaves the game."""
    response = yield from answer(caller, Request("POST", f"/games/{game_id}/resign", safe=False))
    return MoveResult.of(response.json())


def abort(caller: Caller, game_id: str) -> Plan[MoveResult]:
    """The organiser stops the game: nobody wins."""
    response = yield from answer(caller, Request("POST", f"/games/{game_id}/abort", safe=False))
    return MoveResult.of(response.json())


def join(
    caller: Caller, game_id: str, name: str, *, invite: str | None = None, seed: str | None = None
) -> Plan[Joined]:
    """Take an open seat by its invite, or (no invite) a public game's next open seat."""
    body: dict[str, Any] = {"name": name}
    if invite is not None:
        body["invite"] = invite
    if seed is not None:
        body["seed"] = seed
    response = yield from answer(caller, Request("POST", f"/games/{game_id}/join", safe=False, json=body))
    return Joined.of(response.json())


def rematch(caller: Caller, game_id: str) -> Plan[Rematch]:
    """The rematch of a finished game; with a seat token, also this player's new seat and token."""
    response = yield from answer(caller, Request("POST", f"/games/{game_id}/rematch", safe=False))
    return Rematch.of(response.json())


def events(caller: Caller, game_id: str, after: int = 0) -> Plan[Events]:
    """The events after seq `after`, as the caller may see them."""
    response = yield from answer(caller, Request("GET", f"/games/{game_id}/events", safe=True, params={"after": after}))
    return Events.of(response.json())


# -- the lobby ------------------------------------------------------------------------------------------------


def lobby_page(
    caller: Caller, *, status: str | None = None, ruleset: str | None = None, cursor: str | None = None, limit: int = 20
) -> Plan[tuple[list[LobbyGame], str | None]]:
    """One page of public games, newest first, and the next page's cursor (None on the last page)."""
    params: dict[str, Any] = {"limit": limit}
    for name, value in (("status", status), ("ruleset", ruleset), ("cursor", cursor)):
        if value is not None:
            params[name] = value
    data = (yield from read(caller, Request("GET", "/games", safe=True, params=params))).json()
    return [LobbyGame.of(g) for g in data["games"]], data.get("next")


def lobby(
    caller: Caller, *, status: str | None = None, ruleset: str | None = None, limit: int = 20
) -> Pages[LobbyGame]:
    """Every public game, newest first, page after page as the iteration needs them."""
    return lambda cursor: lobby_page(caller, status=status, ruleset=ruleset, cursor=cursor, limit=limit)


# -- live streams ---------------------------------------------------------------------------------------------


class Feed(Generic[T]):
    """A live stream of server-sent events as a state the faces drive: what to open, which items to give, when it
    ends, and when a failure may be retried. A dropped connection is reopened with `Last-Event-ID` (the last id
    given), so no item is lost or repeated. `parse` gives an event's id and how to build its item, built only when
    the event is new; with `ends`, a connection closed with nothing new ends the stream (a game's; the lobby's never
    ends)."""

    def __init__(
        self,
        caller: Caller,
        path: str,
        last: int | None,
        parse: Callable[[ServerSentEvent], tuple[int, Callable[[], T]]],
        *,
        ends: bool,
        extra: dict[str, str] | None = None,
    ) -> None:
        self.caller = caller
        self._extra = extra or {}
        self.path = path
        self.last = last
        self._parse = parse
        self._ends = ends
        self._attempt = 0
        self._got = 0

    def headers(self) -> dict[str, str]:
        """The headers to open (or reopen) the stream with."""
        self._got = 0
        resume = {} if self.last is None else {"Last-Event-ID": str(self.last)}
        return headers_of(self.caller, extra={**self._extra, **resume})

    def refusal(self, response: httpx.Response) -> Exception:
        """What to raise when the stream is refused: `_Again` if it may be opened again after a pause."""
        if self._attempt < self.caller.retry.attempts and retryable(response, None, True):
            return _Again(response.headers.get("retry-after"))
        return error_from(response, self.caller.language)

    def accept(self, sse: ServerSentEvent) -> T | None:
        """The item an event carries, or None if it was already given (then it is not even read). An event without
        data is no event (the SSE rule): httpx-sse 0.4 makes one of every keep-alive after an event with an id."""
        if not sse.data:
            return None
        seq, item = self._parse(sse)
        if self.last is not None and seq <= self.last:
            return None
        self.last, self._got, self._attempt = seq, self._got + 1, 0
        return item()

    def over(self) -> bool:
        """Whether a connection closed cleanly ends the stream: it gave nothing new, so the game is over. (A clean
        end after items may be the game's end or the server stopping; opening again tells which.)"""
        return self._ends and self._got == 0

    def pause(self, failure: BaseException) -> float | None:
        """Seconds to wait before opening the stream again after `failure`, or None to give up."""
        if self._attempt >= self.caller.retry.attempts:
            return None
        delay = self.caller.retry.delay(self._attempt, failure.retry_after if isinstance(failure, _Again) else None)
        self._attempt += 1
        return delay


def stream(caller: Caller, game_id: str, after: int = 0) -> Feed[Event]:
    """The game's events after `after`, live, until the game is over. A dropped connection is reopened with
    `Last-Event-ID` (the last seq received), so no event is lost or repeated."""

    def parse(sse: ServerSentEvent) -> tuple[int, Callable[[], Event]]:
        event = Event.of(sse.json())
        return event.seq, lambda: event

    return Feed(caller, f"/games/{game_id}/stream", after, parse, ends=True)


def lobby_news(caller: Caller, after: int | None = None) -> Feed[LobbyNews]:
    """The lobby's news, live and without end (`after=0` replays all; None starts with the next), resumed with
    `Last-Event-ID` after a dropped connection."""

    def parse(sse: ServerSentEvent) -> tuple[int, Callable[[], LobbyNews]]:
        seq = int(sse.id)
        return seq, lambda: LobbyNews(seq, sse.event, LobbyGame.of(sse.json()))

    return Feed(caller, "/lobby/stream", after, parse, ends=False)


# -- the faces' signatures ------------------------------------------------------------------------------------


def dress(method: Callable[..., Any], described: Callable[..., Any], face: str, returns: str) -> None:
    """Give a face's `method` the name, docstring and signature of the call it carries out, so that `help()` shows
    them: `self` for the caller, and `returns` with the call's answer type in place of `{}` (`"{}"` for a blocking
    answer, `"AsyncIterator[{}]"` for an asyncio stream)."""
    sig = inspect.signature(described)
    caller, *rest = sig.parameters.values()
    declared = str(sig.return_annotation)  # "Plan[Game]", "Feed[Event]", "Pages[LobbyGame]"
    answer_type = declared[declared.index("[") + 1 : -1]
    method.__name__ = described.__name__
    method.__qualname__ = f"{face}.{described.__name__}"
    method.__doc__ = described.__doc__
    method.__signature__ = sig.replace(  # type: ignore[attr-defined]
        parameters=[
            caller.replace(
                name="self", kind=inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=inspect.Parameter.empty
            ),
            *rest,
        ],
        return_annotation=returns.format(answer_type),
    )
