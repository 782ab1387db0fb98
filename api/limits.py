"""Limits that keep the referee answering under load or abuse: rate limits, an in-flight cap and stream caps (the
deadlines for reading a request are in `server.deadlines`).

`Limits` is pure ASGI middleware (like `RequestContext`, outside it), wrapped around both FastAPI's stack and the
move route's short path, which share one `Guard` (the counters and buckets):

- **Rate limits** (token buckets): `POST /games` per client address, `POST /games/{id}/moves` and `/seed` per seat
  token (its `Authorization` value; the address without one). Over the limit: 429 `rate_limited` with `Retry-After`.
- **In-flight cap**: beyond `max_in_flight` requests being answered at once, 503 `overloaded` with `Retry-After`,
  at once, before any work. `GET /healthz` and `GET /readyz` are exempt (and never limited), event streams are
  counted apart.
- **Event streams**: at most `max_streams_per_client` open streams per token (per address without one), 429
  `too_many_streams`, and `max_streams` in all, 503 `too_many_streams`.

`api.throttle.Throttle` is the routes' own limit on creating accounts, challenges and seeks, on the same buckets.

Every bucket lives in this process, or, given a `Shared` keeper (the PostgreSQL store), in the store, so that all
the workers and hosts of one referee allow together what one allows: one statement a limited request, keyed by a
digest of the token (never the token). If the store cannot be reached the request goes on (it will meet the store's
own 503 if it needs the store).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import time
from collections.abc import Callable, Hashable
from typing import Protocol, runtime_checkable
from urllib.parse import unquote_plus

import structlog
from starlette.types import ASGIApp, Receive, Scope, Send

from loveletter.api.problems import Problem, fr_int, language, send_problem
from loveletter.core.lang import Text

log = structlog.get_logger()


class LimitSettings(Protocol):
    """The settings the limits read (`server.settings.Settings` has them): declared here, since the HTTP layer
    sits below the server that reads the environment."""

    max_in_flight: int
    max_streams: int
    max_streams_per_client: int
    create_rate: float
    create_burst: int
    move_rate: float
    move_burst: int


@runtime_checkable
class Shared(Protocol):
    """Buckets kept for every worker and host: a store that has them (PostgreSQL's)."""

    def take_token(self, key: str, rate: float, burst: float) -> float: ...


async def take_shared(shared: Shared, key: str, rate: float, burst: float) -> float:
    """One token of the shared bucket `key`: 0.0, or the seconds to wait; 0.0 too if the store cannot answer."""
    try:
        return await asyncio.to_thread(shared.take_token, key, rate, burst)
    except Exception:  # the store out of reach: the limit cannot be kept, the request is not refused for it
        return 0.0


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


OVERLOAD_RETRY_AFTER = 1
"""Seconds a client is asked to wait after a 503 `overloaded` (in-flight cap)."""
STREAMS_RETRY_AFTER = 5
"""Seconds a client is asked to wait after a `too_many_streams` refusal (a stream frees only when it closes)."""


class Buckets:
    """Token buckets by key: `burst` requests at once, refilled at `rate` per second. A bucket that has filled up
    again is the same as none, so buckets are forgotten when there are more than `max_keys` of them."""

    def __init__(self, rate: float, burst: int, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = float(max(burst, 1))
        self.max_keys = max_keys
        self._buckets: dict[Hashable, tuple[float, float]] = {}  # key -> (tokens, when)

    def take(self, key: Hashable, now: float) -> float:
        """Take one token: 0.0 if allowed, else the seconds until a token is there."""
        tokens, when = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self.max_keys:
                self._sweep(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _sweep(self, now: float) -> None:
        full = [k for k, (tokens, when) in self._buckets.items() if tokens + (now - when) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
        if len(self._buckets) > self.max_keys:  # more busy clients than we keep: forget the oldest half
            for key in list(self._buckets)[: len(self._buckets) // 2]:
                del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


class Tally:
    """Counts of refusals and closed connections, logged at most once per `every` seconds (a flood of refusals
    must not become a flood of log lines)."""

    def __init__(self, every: float = 10.0) -> None:
        self.every = every
        self.watchers: list[Callable[[str], None]] = []
        """Told of each refusal by its code (the server's metrics)."""
        self.total: dict[str, int] = {}
        self._pending: dict[str, int] = {}
        self._logged = -math.inf

    def note(self, what: str) -> None:
        for watcher in self.watchers:
            watcher(what)
        self.total[what] = self.total.get(what, 0) + 1
        self._pending[what] = self._pending.get(what, 0) + 1
        now = time.monotonic()
        if now - self._logged >= self.every:
            self._logged = now
            pending, self._pending = self._pending, {}
            log.warning("requests refused or connections closed by the referee's limits", **pending)


TALLY = Tally()
"""This process's refusals and closed connections, by reason."""


class Guard:
    """What the `Limits` middlewares of one app share: the in-flight count, the buckets, the open streams."""

    def __init__(self, settings: LimitSettings) -> None:
        self.max_in_flight = settings.max_in_flight
        self.max_streams = settings.max_streams
        self.max_streams_per_client = settings.max_streams_per_client
        self.creates = Buckets(settings.create_rate, settings.create_burst) if settings.create_rate > 0 else None
        self.moves = Buckets(settings.move_rate, settings.move_burst) if settings.move_rate > 0 else None
        self.in_flight = 0
        self.streams = 0
        self.streams_by_client: dict[Hashable, int] = {}
        self.tally = TALLY
        self.shared: Shared | None = None
        """Where the buckets are kept when every worker shares them (set by the app on PostgreSQL)."""

    async def take(self, buckets: Buckets, key: Hashable, shared_key: str) -> float:
        """One token: from the shared bucket `shared_key` if the buckets are shared, else from `buckets`."""
        if self.shared is not None:
            return await take_shared(self.shared, shared_key, buckets.rate, buckets.burst)
        return buckets.take(key, time.monotonic())


CREATE, MOVE, STREAM = 1, 2, 3


def _kind(method: str, path: str) -> int:
    """CREATE, MOVE (a move or a seed), STREAM, or 0 for any other request."""
    if not path.startswith("/games"):
        return 0
    if path == "/games":
        return CREATE if method == "POST" else 0
    if path.count("/") != 3 or "//" in path:
        return 0
    if method == "POST" and (path.endswith("/moves") or path.endswith("/seed")):
        return MOVE
    if method == "GET" and path.endswith("/stream"):
        return STREAM
    return 0


def _header(scope: Scope, name: bytes) -> bytes | None:
    for key, value in scope["headers"]:
        if key == name:
            return bytes(value)
    return None


def _bearer(scope: Scope) -> str | None:
    """The token of the Authorization header (however it is spaced), or its whole value if it is no Bearer one."""
    value = _header(scope, b"authorization")
    if value is None:
        return None
    scheme, _, rest = value.strip().partition(b" ")
    return (rest.strip() if scheme.lower() == b"bearer" else value).decode("latin-1")


def _address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else ""


def _query_token(scope: Scope) -> str | None:
    query = scope.get("query_string", b"").decode("latin-1")
    for part in query.split("&"):
        name, _, value = part.partition("=")
        if unquote_plus(name) == "token" and value:
            return unquote_plus(value)
    return None


class Limits:
    """Pure ASGI middleware: rate limits, the in-flight cap and the stream caps of `guard`."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app = app
        self.guard = guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        root = scope.get("root_path")
        if root and path.startswith(root):
            path = path[len(root) :]
        if path in ("/healthz", "/readyz"):
            await self.app(scope, receive, send)
            return
        guard = self.guard
        kind = _kind(scope["method"], path)
        if kind == STREAM:
            await self._stream(scope, receive, send)
            return
        if guard.max_in_flight and guard.in_flight >= guard.max_in_flight:
            await _refuse(scope, send, overloaded(guard.max_in_flight), OVERLOAD_RETRY_AFTER)
            return
        wait = 0.0
        if kind == CREATE and guard.creates is not None:
            address = _address(scope)
            wait = await guard.take(guard.creates, address, f"create:{address}")
            if wait:
                await _refuse(scope, send, rate_limited(guard.creates, "create"), wait)
                return
        elif kind == MOVE and guard.moves is not None:
            token = _bearer(scope)
            key = hash(("token", token) if token else ("address", _address(scope)))  # no token kept in memory
            shared_key = f"move:{digest(token)}" if token else f"move:address:{_address(scope)}"
            wait = await guard.take(guard.moves, key, shared_key)
            if wait:
                await _refuse(scope, send, rate_limited(guard.moves, "move"), wait)
                return
        guard.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            guard.in_flight -= 1

    async def _stream(self, scope: Scope, receive: Receive, send: Send) -> None:
        guard = self.guard
        token = _bearer(scope) or _query_token(scope)
        key = hash(("token", token) if token else ("address", _address(scope)))
        if guard.max_streams and guard.streams >= guard.max_streams:
            await _refuse(scope, send, streams_full(guard.max_streams), STREAMS_RETRY_AFTER)
            return
        open_here = guard.streams_by_client.get(key, 0)
        if guard.max_streams_per_client and open_here >= guard.max_streams_per_client:
            await _refuse(scope, send, streams_per_client(guard.max_streams_per_client), STREAMS_RETRY_AFTER)
            return
        guard.streams += 1
        guard.streams_by_client[key] = open_here + 1
        try:
            await self.app(scope, receive, send)
        finally:
            guard.streams -= 1
            left = guard.streams_by_client.get(key, 1) - 1
            if left > 0:
                guard.streams_by_client[key] = left
            else:
                guard.streams_by_client.pop(key, None)


async def _refuse(scope: Scope, send: Send, problem: Problem, retry_after: float) -> None:
    TALLY.note(problem.code if problem.status != 503 else f"{problem.code}_503")
    lang = language((_header(scope, b"accept-language") or b"").decode("latin-1"))
    wait = {"Retry-After": str(max(1, math.ceil(retry_after)))}
    await send_problem(send, problem, lang, scope["path"], wait)


# -- the problems ---------------------------------------------------------------------------------------------


def _per_second(rate: float) -> Text:
    shown = f"{rate:g}"
    return Text(f"{shown} per second", f"{shown.replace('.', ',')} par seconde")


def rate_limited(buckets: Buckets, what: str) -> Problem:
    rate = _per_second(buckets.rate)
    burst = int(buckets.burst)
    if what == "create":
        detail = Text(
            f"this address may create {rate.en} (up to {burst} at once); retry after the time in Retry-After",
            f"cette adresse peut créer {rate.fr} parties (jusqu'à {fr_int(burst)} d'un coup) ; "
            "réessayez après le délai de Retry-After",
        )
    else:
        detail = Text(
            f"this seat may send {rate.en} moves (up to {burst} at once); retry after the time in Retry-After",
            f"ce siège peut envoyer {rate.fr} coups (jusqu'à {fr_int(burst)} d'un coup) ; "
            "réessayez après le délai de Retry-After",
        )
    return Problem(429, "rate_limited", detail)


def overloaded(limit: int) -> Problem:
    return Problem(
        503,
        "overloaded",
        Text(
            f"the referee is answering its maximum of {limit} requests at once; retry after the time in Retry-After",
            f"l'arbitre traite déjà son maximum de {fr_int(limit)} requêtes à la fois ; "
            "réessayez après le délai de Retry-After",
        ),
    )


def streams_per_client(limit: int) -> Problem:
    return Problem(
        429,
        "too_many_streams",
        Text(
            f"at most {limit} event streams may be open per token (per address without one); close one first",
            f"{fr_int(limit)} flux d'événements au plus peuvent être ouverts par jeton (par adresse sans jeton) ; "
            "fermez-en un d'abord",
        ),
    )


def streams_full(limit: int) -> Problem:
    return Problem(
        503,
        "too_many_streams",
        Text(
            f"the referee holds its maximum of {limit} open event streams; retry after the time in Retry-After",
            f"l'arbitre tient déjà son maximum de {fr_int(limit)} flux d'événements ouverts ; "
            "réessayez après le délai de Retry-After",
        ),
    )
