"""The blocking client: `Client(base_url)` for the lobby, `client.seat(token)` for one seat's moves and stream.

Its calls are those of `loveletter.client.calls`, each carried out by blocking on every request."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Concatenate, ParamSpec, TypeVar, cast

import httpx
from httpx_sse import connect_sse

from loveletter.client import account_calls, calls
from loveletter.client._common import RetryPolicy, _Again
from loveletter.client.calls import Caller, Feed, Pages, Plan, Request

P = ParamSpec("P")
T = TypeVar("T")


def _answer(described: Callable[Concatenate[Caller, P], Plan[T]]) -> Callable[Concatenate[Client, P], T]:
    """The blocking method of a described call: its answer."""

    def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self._run(described(self, *args, **kwargs))

    calls.dress(method, described, "Client", "{}")
    return method


def _pages(described: Callable[Concatenate[Caller, P], Pages[T]]) -> Callable[Concatenate[Client, P], Iterator[T]]:
    """The blocking method of a paged list: an iterator that asks for each page when it is reached."""

    def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
        page = described(self, *args, **kwargs)
        cursor: str | None = None
        while True:
            items, cursor = self._run(page(cursor))
            yield from items
            if cursor is None:
                return

    calls.dress(method, described, "Client", "Iterator[{}]")
    return method


def _feed(described: Callable[Concatenate[Caller, P], Feed[T]]) -> Callable[Concatenate[Client, P], Iterator[T]]:
    """The blocking method of a live stream: an iterator of its items, the stream opened again after a dropped
    connection or a refusal for now, until it is over."""

    def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> Iterator[T]:
        feed = described(self, *args, **kwargs)
        while True:
            try:
                with connect_sse(self.http, "GET", feed.path, headers=feed.headers()) as source:
                    if source.response.status_code >= 400:
                        source.response.read()
                        raise feed.refusal(source.response)
                    for sse in source.iter_sse():
                        item = feed.accept(sse)
                        if item is not None:
                            yield item
                if feed.over():
                    return
            except (httpx.TransportError, _Again) as exc:
                pause = feed.pause(exc)
                if pause is None:
                    raise
                self._sleep(pause)

    calls.dress(method, described, "Client", "Iterator[{}]")
    return method


class Client:
    """A referee client, as one seat (with `token`) or as anyone (without).

    `language` is sent as Accept-Language (`en` or `fr`); with `both_languages`, a refusal of a read or of a move is
    asked again in the other language when that cannot change anything (see docs/client.md). `sleep` is the pause
    between retries (tests pass a fake one)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        language: str = "en",
        both_languages: bool = False,
        retry: RetryPolicy | None = None,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
        http: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url
        self.token = token
        self.language = language
        self.both_languages = both_languages
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owned = http is None
        self.http = http or httpx.Client(base_url=base_url, timeout=timeout, transport=transport)

    def seat(self, token: str) -> Client:
        """The same connection pool and settings, acting as the seat (or organiser) of `token`."""
        return Client(
            self.base_url,
            token,
            language=self.language,
            both_languages=self.both_languages,
            retry=self.retry,
            http=self.http,
            sleep=self._sleep,
        )

    def close(self) -> None:
        if self._owned:
            self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the calls (loveletter.client.calls) ----------------------------------------------------------------

    create_game = _answer(calls.create_game)
    game = _answer(calls.game)
    play = _answer(calls.play)
    resign = _answer(calls.resign)
    abort = _answer(calls.abort)
    join = _answer(calls.join)
    rematch = _answer(calls.rematch)
    events = _answer(calls.events)
    stream = _feed(calls.stream)
    lobby_page = _answer(calls.lobby_page)
    lobby = _pages(calls.lobby)
    lobby_news = _feed(calls.lobby_news)
    # accounts (loveletter.client.account_calls)
    whoami = _answer(account_calls.whoami)
    account_events = _feed(account_calls.account_events)
    seek = _answer(account_calls.seek)
    get_seek = _answer(account_calls.get_seek)
    cancel_seek = _answer(account_calls.cancel_seek)
    challenge = _answer(account_calls.challenge)
    get_challenge = _answer(account_calls.get_challenge)
    accept = _answer(account_calls.accept)
    decline = _answer(account_calls.decline)
    join_as = _answer(account_calls.join_as)

    # -- carrying them out ----------------------------------------------------------------------------------

    def _send(self, request: Request) -> httpx.Response:
        """One request, sent again after a failure that allows it (`RetryPolicy.pause`)."""
        headers = calls.headers_of(self, request.lang, request.headers)
        for attempt in range(self.retry.attempts + 1):
            try:
                response = self.http.request(
                    request.method, request.path, headers=headers, json=request.json, params=request.params
                )
            except httpx.TransportError as exc:
                pause = self.retry.pause(attempt, None, exc, request.safe)
                if pause is None:
                    raise
            else:
                pause = self.retry.pause(attempt, response, None, request.safe)
                if pause is None:
                    return response
            self._sleep(pause)
        raise AssertionError("unreachable: the last attempt never pauses")

    def _run(self, plan: Plan[T]) -> T:
        """A described call carried out: each request it asks sent, each answer given back, until it answers."""
        request = next(plan)
        while True:
            response = self._send(request)
            try:
                request = plan.send(response)
            except StopIteration as done:
                return cast(T, done.value)
