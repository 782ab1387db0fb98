"""The asyncio client: `AsyncClient` is `Client` with every call awaited and every stream an async iterator."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, Literal

import httpx
from httpx_sse import aconnect_sse

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

    # -- plumbing ------------------------------------------------------------------------------------------

    def _headers(self, lang: str | None = None, **extra: str) -> dict[str, str]:
        headers = {"Accept-Language": lang or self.language}
        if self.token is not None:
            headers["Authorization"] = f"Bearer {self.token}"
        headers.update({k.replace("_", "-"): v for k, v in extra.items()})
        return headers

    async def _send(self, method: str, path: str, *, safe: bool, lang: str | None = None, **kw: Any) -> httpx.Response:
        """One request, sent again after a failure that allows it (`_common.retryable`), with backoff."""
        headers = self._headers(lang, **kw.pop("headers", {}))
        for attempt in range(self.retry.attempts + 1):
            try:
                response = await self.http.request(method, path, headers=headers, **kw)
            except httpx.TransportError as exc:
                if attempt == self.retry.attempts or not retryable(None, exc, safe):
                    raise
                await self._sleep(self.retry.delay(attempt))
                continue
            if response.status_code < 400 or attempt == self.retry.attempts or not retryable(response, None, safe):
                return response
            await self._sleep(self.retry.delay(attempt, response.headers.get("retry-after")))
        raise AssertionError("unreachable")

    async def _call(self, method: str, path: str, *, safe: bool, again: bool = False, **kw: Any) -> httpx.Response:
        """`_send`, raising a problem answer; `again`: the request may be repeated for the other language."""
        response = await self._send(method, path, safe=safe, **kw)
        if response.status_code >= 400:
            error = error_from(response, self.language)
            if again and self.both_languages:
                other = other_language(self.language)
                add_language(error, await self._send(method, path, safe=safe, lang=other, **kw), other)
            raise error
        return response

    # -- games -----------------------------------------------------------------------------------------------

    async def create_game(
        self,
        players: list[str | dict[str, Any]],
        *,
        ruleset: str = "2019",
        options: dict[str, str] | None = None,
        public: bool = False,
        turn_seconds: int | None = None,
        on_timeout: Literal["bot", "resign"] | None = None,
        first_player: int | str | None = None,
        **more: Any,
    ) -> Created:
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
        return Created.of((await self._call("POST", "/games", safe=False, json=body)).json())

    async def game(self, game_id: str) -> Game:
        """The caller's view of the game and its legal moves."""
        return Game.of((await self._call("GET", f"/games/{game_id}", safe=True, again=True)).json())

    async def play(
        self,
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
    ) -> MoveResult:
        """Play a move: an action code, a `LegalMove`, or spelled out (`card="guard", target="Bob", guess="priest"`;
        a card by id, name or `Card`). Every retry carries the same Idempotency-Key, so the move is recorded once."""
        body = move_body(move, card=card, target=target, guess=guess, keep=keep, bottom=bottom)
        headers = {"Idempotency-Key": key or new_key()}
        if if_match is None and self.both_languages:
            if_match = (await self.game(game_id)).version  # a refusal at a known version can be asked again harmlessly
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        response = await self._send("POST", f"/games/{game_id}/moves", safe=True, json=body, headers=headers)
        if response.status_code >= 400:
            error = error_from(response, self.language)
            if self.both_languages and if_match is not None:
                other = other_language(self.language)
                # A fresh key: the first key's answer is kept in the language it was first given.
                again = {**headers, "Idempotency-Key": new_key()}
                add_language(error, await self._send("POST", f"/games/{game_id}/moves", safe=True, lang=other,
                                               json=body, headers=again), other)  # fmt: skip
            raise error
        return MoveResult.of(response.json(), response.headers.get("idempotent-replayed") == "true")

    async def resign(self, game_id: str) -> MoveResult:
        """The seat leaves the game."""
        return MoveResult.of((await self._call("POST", f"/games/{game_id}/resign", safe=False)).json())

    async def abort(self, game_id: str) -> MoveResult:
        """The organiser stops the game: nobody wins."""
        return MoveResult.of((await self._call("POST", f"/games/{game_id}/abort", safe=False)).json())

    async def join(self, game_id: str, name: str, *, invite: str | None = None, seed: str | None = None) -> Joined:
        """Take an open seat by its invite, or (no invite) a public game's next open seat."""
        body: dict[str, Any] = {"name": name}
        if invite is not None:
            body["invite"] = invite
        if seed is not None:
            body["seed"] = seed
        return Joined.of((await self._call("POST", f"/games/{game_id}/join", safe=False, json=body)).json())

    async def rematch(self, game_id: str) -> Rematch:
        """The rematch of a finished game; with a seat token, also this player's new seat and token."""
        return Rematch.of((await self._call("POST", f"/games/{game_id}/rematch", safe=False)).json())

    async def events(self, game_id: str, after: int = 0) -> Events:
        """The events after seq `after`, as the caller may see them."""
        return Events.of(
            (await self._call("GET", f"/games/{game_id}/events", safe=True, params={"after": after})).json()
        )

    async def stream(self, game_id: str, after: int = 0) -> AsyncIterator[Event]:
        """The game's events after `after`, live, until the game is over. A dropped connection is reopened with
        `Last-Event-ID` (the last seq received), so no event is lost or repeated."""
        last = after
        attempt = 0
        while True:
            got = 0
            try:
                headers = self._headers(**{"Last-Event-ID": str(last)})
                async with aconnect_sse(self.http, "GET", f"/games/{game_id}/stream", headers=headers) as source:
                    if source.response.status_code >= 400:
                        await source.response.aread()
                        if attempt < self.retry.attempts and retryable(source.response, None, True):
                            raise _Again(source.response.headers.get("retry-after"))
                        raise error_from(source.response, self.language)
                    async for sse in source.aiter_sse():
                        event = Event.of(sse.json())
                        if event.seq <= last:
                            continue  # never again what was already given
                        last, got, attempt = event.seq, got + 1, 0
                        yield event
                if got == 0:
                    return  # a clean end with nothing new: the game is over
                # a clean end after events: the game ended (or the server stopped); a new request tells which
            except (httpx.TransportError, _Again) as exc:
                if attempt >= self.retry.attempts:
                    raise
                await self._sleep(self.retry.delay(attempt, exc.retry_after if isinstance(exc, _Again) else None))
                attempt += 1

    # -- the lobby -----------------------------------------------------------------------------------------

    async def lobby_page(
        self, *, status: str | None = None, ruleset: str | None = None, cursor: str | None = None, limit: int = 20
    ) -> tuple[list[LobbyGame], str | None]:
        """One page of public games, newest first, and the next page's cursor (None on the last page)."""
        params: dict[str, Any] = {"limit": limit}
        for name, value in (("status", status), ("ruleset", ruleset), ("cursor", cursor)):
            if value is not None:
                params[name] = value
        data = (await self._call("GET", "/games", safe=True, again=True, params=params)).json()
        return [LobbyGame.of(g) for g in data["games"]], data.get("next")

    async def lobby(
        self, *, status: str | None = None, ruleset: str | None = None, limit: int = 20
    ) -> AsyncIterator[LobbyGame]:
        """Every public game, newest first, page after page as the iteration needs them."""
        cursor: str | None = None
        while True:
            games, cursor = await self.lobby_page(status=status, ruleset=ruleset, cursor=cursor, limit=limit)
            for game in games:
                yield game
            if cursor is None:
                return

    async def lobby_news(self, after: int | None = None) -> AsyncIterator[LobbyNews]:
        """The lobby's news, live and without end (`after=0` replays all; None starts with the next), resumed with
        `Last-Event-ID` after a dropped connection."""
        last = after
        attempt = 0
        while True:
            try:
                headers = self._headers(**({"Last-Event-ID": str(last)} if last is not None else {}))
                async with aconnect_sse(self.http, "GET", "/lobby/stream", headers=headers) as source:
                    if source.response.status_code >= 400:
                        await source.response.aread()
                        if attempt < self.retry.attempts and retryable(source.response, None, True):
                            raise _Again(source.response.headers.get("retry-after"))
                        raise error_from(source.response, self.language)
                    async for sse in source.aiter_sse():
                        item = int(sse.id)
                        if last is not None and item <= last:
                            continue
                        last, attempt = item, 0
                        yield LobbyNews(item, sse.event, LobbyGame.of(sse.json()))
            except (httpx.TransportError, _Again) as exc:
                if attempt >= self.retry.attempts:
                    raise
                await self._sleep(self.retry.delay(attempt, exc.retry_after if isinstance(exc, _Again) else None))
                attempt += 1
