"""The asyncio client: `AsyncClient` is `Client` with every call awaited and every stream an async iterator.

Its calls are those of `loveletter.client.calls`, each carried out by awaiting every request."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar, cast

import httpx
from httpx_sse import aconnect_sse

from loveletter.client import account_calls, calls
from loveletter.client._common import RetryPolicy, _Again
from loveletter.client.calls import Caller, Feed, Pages, Plan, Request

P = ParamSpec("P")
T = TypeVar("T")


def _answer(
    described: Callable[Concatenate[Caller, P], Plan[T]],
) -> Callable[Concatenate[AsyncClient, P], Coroutine[Any, Any, T]]:
    """The asyncio method of a described call: a coroutine of its answer."""

    async def method(self: AsyncClient, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._run(described(self, *args, **kwargs))

    calls.dress(method, described, "AsyncClient", "{}")
    return method


def _pages(
    described: Callable[Concatenate[Caller, P], Pages[T]],
) -> Callable[Concatenate[AsyncClient, P], AsyncIterator[T]]:
    """The asyncio method of a paged list: an async iterator that asks for each page when it is reached."""

    async def method(self: AsyncClient, /, *args: P.args, **kwargs: P.kwargs) -> AsyncIterator[T]:
        page = described(self, *args, **kwargs)
        cursor: str | None = None
        while True:
            items, cursor = await self._run(page(cursor))
            for item in items:
                yield item
            if cursor is None:
                return

    calls.dress(method, described, "AsyncClient", "AsyncIterator[{}]")
    return method


def _feed(
    described: Callable[Concatenate[Caller, P], Feed[T]],
) -> Callable[Concatenate[AsyncClient, P], AsyncIterator[T]]:
    """The asyncio method of a live stream: an async iterator of its items, the stream opened again after a dropped
    connection or a refusal for now, until it is over."""

    async def method(self: AsyncClient, /, *args: P.args, **kwargs: P.kwargs) -> AsyncIterator[T]:
        feed = described(self, *args, **kwargs)
        while True:
            try:
                async with aconnect_sse(self.http, "GET", feed.path, headers=feed.headers()) as source:
                    if source.response.status_code >= 400:
                        await source.response.aread()
                        raise feed.refusal(source.response)
                    async for sse in source.aiter_sse():
                        item = feed.accept(sse)
                        if item is not None:
                            yield item
                if feed.over():
                    return
            except (httpx.TransportError, _Again) as exc:
                pause = feed.pause(exc)
                if pause is None:
                    raise
                await self._sleep(pause)

    calls.dress(method, described, "AsyncClient", "AsyncIterator[{}]")
    return method


class AsyncClient:
    """An asyncio referee client, as one seat (with `token`) or as anyone (without).

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
        transport: httpx.AsyncBaseTransport | None = None,
        http: httpx.AsyncClient | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.base_url = base_url
        self.token = token
        self.language = language
        self.both_languages = both_languages
        self.retry = retry or RetryPolicy()
        self._sleep = sleep
        self._owned = http is None
        self.http = http or httpx.AsyncClient(base_url=base_url, timeout=timeout, transport=transport)

    def seat(self, token: str) -> AsyncClient:
        """The same connection pool and settings, acting as the seat (or organiser) of `token`."""
        return AsyncClient(
            self.base_url,
            token,
            language=self.language,
            both_languages=self.both_languages,
            retry=self.retry,
            http=self.http,
            sleep=self._sleep,
        )

    async def close(self) -> None:
        if self._owned:
            await self.http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

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

    async def _send(self, request: Request) -> httpx.Response:
        """One request, sent again after a failure that allows it (`RetryPolicy.pause`)."""
        headers = calls.headers_of(self, request.lang, request.headers)
        for attempt in range(self.retry.attempts + 1):
            try:
                response = await self.http.request(
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
            await self._sleep(pause)
        raise AssertionError("unreachable: the last attempt never pauses")

    async def _run(self, plan: Plan[T]) -> T:
        """A described call carried out: each request it asks sent, each answer given back, until it answers."""
        request = next(plan)
        while True:
            response = await self._send(request)
            try:
                request = plan.send(response)
            except StopIteration as done:
                return cast(T, done.value)
