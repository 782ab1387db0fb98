"""The move route, `POST /games/{game_id}/moves`: judged in one place, answered on a short path.

The route is declared in FastAPI (which documents it, and answers it when the app is mounted under a root
path), but most of a request's cost was FastAPI's own machinery: five middlewares, routing, the request
object and the response class took more CPU than judging and recording the move. `RefereeApp` therefore
answers the route itself, as a plain ASGI handler behind the same `RequestContext` (request id, body limit,
log line), with the same bodies, statuses and headers. Both paths call `answer`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

import structlog
from fastapi import FastAPI
from pydantic import TypeAdapter, ValidationError
from starlette.datastructures import URL
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loveletter.api import parse
from loveletter.api.problems import PROBLEM_JSON, Problem, internal_error, invalid_request, store_unavailable
from loveletter.api.schemas import MoveIn
from loveletter.events.store import StoreError
from loveletter.referee.referee import Referee

MOVE: TypeAdapter[Any] = TypeAdapter(MoveIn)
JSON = "application/json"
MOVES_PATH = re.compile(r"/games/([^/]+)/moves")
"""What Starlette's `/games/{game_id}/moves` matches (a path parameter is anything but a slash)."""

Header = Callable[[str], str | None]
"""A request header by its lower-case name (its first value), or None."""


def parse_body(adapter: TypeAdapter[Any], raw: bytes) -> Any:
    """A request body validated by pydantic; 400 for malformed JSON, 422 naming each field otherwise."""
    try:
        return adapter.validate_json(raw)
    except ValidationError as exc:
        raise invalid_request(exc.errors()) from None


async def answer(
    referee: Referee, game_id: str, raw: bytes, header: Header, instance: str
) -> tuple[int, bytes, dict[str, str]]:
    """Judge one move request: (status, JSON body, extra headers), or a `Problem` saying why not. Every header and
    the game id are read by `api.parse` first; a replayed answer (`Idempotent-Replayed`) may be a refusal, whose
    status is 4xx and whose body is problem+json (see `media_of`)."""
    game = parse.game_id(game_id)
    parse.json_content_type(header("content-type"))
    parsed = parse_body(MOVE, raw)
    key = parse.idempotency_key(header("idempotency-key"))
    status, body, version = await referee.move(
        game,
        parse.bearer(header("authorization")),
        parsed,
        raw_body=raw,
        if_match=parse.version(header("if-match"), "If-Match"),
        idempotency_key=key,
        lang=parse.accept_language(header("accept-language")),
        instance=instance,
    )
    extra = {"ETag": f'"{version}"'} if version >= 0 else {"Idempotent-Replayed": "true"}
    return status, body, extra


def media_of(status: int) -> str:
    """The media type of a move's answer: JSON, or problem+json for a refusal (replayed from its first answer)."""
    return PROBLEM_JSON if status >= 400 else JSON


_WANTED = frozenset((b"authorization", b"idempotency-key", b"if-match", b"accept-language", b"content-type"))


def first_headers(raw: Iterable[tuple[bytes, bytes]]) -> Header:
    """The headers `answer` reads, first value of each as Starlette's `Headers.get` gives it."""
    found: dict[str, str] = {}
    for name, value in raw:
        if name in _WANTED:
            found.setdefault(name.decode("latin-1"), value.decode("latin-1"))
    return found.get


async def read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None if the client went away first."""
    message = await receive()
    if message["type"] != "http.request":
        return None
    body: bytes = message.get("body", b"")
    if not message.get("more_body", False):
        return body
    chunks = [body]
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def move_handler(referee: Referee) -> ASGIApp:
    """The move route as a plain ASGI app; `scope["path_params"]["game_id"]` names the game."""

    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        raw = await read_body(receive)
        if raw is None:
            return
        header = first_headers(scope["headers"])
        try:
            status, body, extra = await answer(referee, scope["path_params"]["game_id"], raw, header, scope["path"])
            media = media_of(status)
        except (Problem, StoreError) as exc:
            problem = exc if isinstance(exc, Problem) else store_unavailable()
            lang = parse.accept_language(header("accept-language"))
            path = URL(scope=scope).path
            status, body, extra, media = problem.status, problem.encode(lang, path), problem.headers, PROBLEM_JSON
        except Exception:
            # What FastAPI's error middleware does: log, answer 500 as problem+json, and let the server see it.
            path = URL(scope=scope).path
            structlog.get_logger().exception("unhandled error", path=path)
            lang = parse.accept_language(header("accept-language"))
            await _respond(send, 500, internal_error().encode(lang, path), {}, PROBLEM_JSON)
            raise
        await _respond(send, status, body, extra, media)

    return handle


async def _respond(send: Send, status: int, body: bytes, extra: dict[str, str], media: str) -> None:
    """The messages Starlette's `Response` would send: extra headers, then content-length and content-type."""
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in extra.items()]
    headers += [(b"content-length", str(len(body)).encode("latin-1")), (b"content-type", media.encode("latin-1"))]
    start: Message = {"type": "http.response.start", "status": status, "headers": headers}
    await send(start)
    await send({"type": "http.response.body", "body": body})


class RefereeApp(FastAPI):
    """FastAPI, with `POST /games/{game_id}/moves` answered by `moves` (set by `create_app`) before any of
    FastAPI's own middleware runs. Under a root path every request takes FastAPI's way."""

    moves: ASGIApp | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.moves is not None
            and scope["type"] == "http"
            and scope["method"] == "POST"
            and not scope.get("root_path")
            and (match := MOVES_PATH.fullmatch(scope["path"])) is not None
        ):
            scope["app"] = self
            scope["path_params"] = {"game_id": match[1]}
            scope["route_path"] = "/games/{game_id}/moves"
            await self.moves(scope, receive, send)
            return
        await super().__call__(scope, receive, send)
