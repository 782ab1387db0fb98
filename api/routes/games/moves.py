"""The moves of a seat: `POST /games/{game_id}/moves` and `POST /games/{game_id}/seed`, judged by the referee.

The move route is declared once, here, with its typed body and credential, and answered two ways from that one
declaration: by FastAPI, and by `shortcut`, a plain ASGI handler that `api.moves.RefereeApp` calls for the
declared path before FastAPI's routing, request and response objects (they cost more than judging the move;
docs/performance.md). The shortcut reads the request the way FastAPI reads this declaration — the body decoded
as FastAPI decodes it, then the dependencies in their order, then the body's schema — and both ways answer through
`answer`, so they give the same status, headers and body (tests/test_http_moves.py)."""

from __future__ import annotations

import email.message
import functools
import json
from collections.abc import Callable
from typing import Annotated, Any

import structlog
from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import Response
from pydantic import TypeAdapter, ValidationError
from starlette.datastructures import URL
from starlette.types import ASGIApp, Receive, Scope, Send

from loveletter.api import parse
from loveletter.api.openapi import ETAG, answers
from loveletter.api.problems import (
    PROBLEM_JSON,
    Problem,
    body_unreadable,
    internal_error,
    invalid_request,
    lang_of,
    of_refusal,
    problem_response,
    store_unavailable,
)
from loveletter.api.routes.deps import GameId, RefereeDep, SeatToken
from loveletter.api.routes.games.answers import JSON, answer
from loveletter.api.schemas import MoveIn, SeedIn
from loveletter.client.models import MoveResult
from loveletter.events.codec import dumps
from loveletter.events.store import StoreError
from loveletter.referee.referee import Keeper, Moved, Referee, Refusal

MOVE: TypeAdapter[Any] = TypeAdapter(MoveIn)
JsonBody = Annotated[None, Depends(parse.json_body)]
router = APIRouter(tags=["games"], strict_content_type=False)  # no Content-Type: the body is read as JSON still

_MOVE_EXAMPLES: dict[str, Any] = {
    "guard": {
        "summary": "Guard on Bob, naming the Priest",
        "value": {"type": "play", "card": "guard", "target": "Bob", "guess": "priest"},
    },
    "handmaid": {"summary": "Handmaid (no target)", "value": {"type": "play", "card": "handmaid"}},
    "chancellor": {
        "summary": "Chancellor: keep the Princess, Guard then Spy to the bottom",
        "value": {"type": "return", "keep": "princess", "bottom": ["guard", "spy"]},
    },
    "code": {"summary": "Any move by its action code", "value": {"type": "code", "action_code": 95}},
}


def keeper(lang: str, instance: str | None) -> Keeper:
    """How a move's answer is kept with its Idempotency-Key: a refusal as its problem in the request's language."""

    def keep(said: dict[str, Any] | Refusal) -> tuple[int, bytes]:
        if isinstance(said, Refusal):
            problem = of_refusal(said)
            return problem.status, problem.encode(lang, instance)
        return 200, dumps(said)

    return keep


def media_of(status: int) -> str:
    """The media type of a move's answer: JSON, or problem+json for a refusal (replayed from its first answer)."""
    return PROBLEM_JSON if status >= 400 else JSON


async def judge(
    referee: Referee,
    game_id: str,
    token: str | None,
    body: Any,
    raw: bytes,
    key: str | None,
    if_match: str | None,
    lang: str,
    instance: str,
) -> tuple[int, bytes, dict[str, str]]:
    """Ask the referee to judge a move whose body is valid; the headers are read here, in the declared order."""
    idempotency_key = parse.idempotency_key(key)
    expected = parse.version(if_match, "If-Match")
    keep = keeper(lang, instance) if idempotency_key is not None else None
    result = await referee.move(
        game_id, token, body.plain(), request=raw, expected=expected, key=idempotency_key, keep=keep
    )
    if isinstance(result, Moved):
        structlog.contextvars.bind_contextvars(seq=result.version)
    return answer(result)


@router.post(
    "/games/{game_id}/moves",
    responses=answers(
        MoveResult,
        401,
        403,
        404,
        409,
        412,
        413,
        415,
        422,
        example="move",
        headers={
            "ETag?": ETAG["ETag"],
            "Idempotent-Replayed?": "true when this is the first answer to the same Idempotency-Key, replayed",
        },
    ),
    openapi_extra={"requestBody": {"content": {JSON: {"examples": _MOVE_EXAMPLES}}}},
)
async def play_move(
    game: GameId,
    _json: JsonBody,
    token: SeatToken,
    body: MoveIn,
    request: Request,
    referee: RefereeDep,
    idempotency_key: Annotated[str | None, Header()] = None,
    if_match: Annotated[str | None, Header()] = None,
) -> Response:
    """Submit the seat's move (the seat is the bearer token's). Answers the events as this seat sees them,
    the new view and the seat's legal moves."""
    path, lang = request.url.path, lang_of(request)
    try:  # refusals are answered here: common enough that unwinding through every middleware shows
        raw = await request.body()
        status, content, extra = await judge(referee, game, token, body, raw, idempotency_key, if_match, lang, path)
    except Problem as problem:
        return problem_response(problem, lang, path)
    except Refusal as refusal:
        return problem_response(of_refusal(refusal), lang, path)
    return Response(content, status_code=status, media_type=media_of(status), headers=extra)


@router.post(
    "/games/{game_id}/seed",
    dependencies=[Depends(parse.json_body)],
    responses=answers(MoveResult, 401, 403, 404, 409, 413, 415, 422, example="seed", headers=ETAG),
)
async def contribute_seed(game: GameId, token: SeatToken, body: SeedIn, referee: RefereeDep) -> Response:
    """Add the seat's own 256-bit seed to the shuffles of the rounds dealt after it (once per seat)."""
    result = await referee.move(game, token, body.plain(), request=b"")
    status, content, extra = answer(result)
    return Response(content, status_code=status, media_type=JSON, headers=extra)


# -- the shortcut ------------------------------------------------------------------------------------------

_WANTED = frozenset((b"authorization", b"idempotency-key", b"if-match", b"accept-language", b"content-type"))
_MISSING = object()


def first_headers(raw: Any) -> Callable[[str], str | None]:
    """The headers the move route reads, the first value of each as Starlette's `Headers.get` gives it."""
    found: dict[str, str] = {}
    for name, value in raw:
        if name in _WANTED:
            found.setdefault(name.decode("latin-1"), value.decode("latin-1"))
    return found.get


@functools.lru_cache(maxsize=64)
def _decodes_json(content_type: str) -> bool:
    """Whether FastAPI decodes a body of this Content-Type as JSON before validating it."""
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))


def _decoded(raw: bytes, content_type: str | None) -> Any:
    """The body as FastAPI holds it before validation: JSON if the type says so (or none is given), else bytes."""
    if not raw:
        return _MISSING
    if content_type and not _decodes_json(content_type):
        return raw
    try:  # the standard library's reader, as FastAPI's (orjson would read a 30-digit integer as a float)
        return json.loads(raw)
    except json.JSONDecodeError as exc:
        error = {
            "type": "json_invalid",
            "loc": ("body", exc.pos),
            "msg": "JSON decode error",
            "ctx": {"error": exc.msg},
        }
        raise invalid_request([error], drop="body") from None
    except Exception:
        raise body_unreadable() from None


def _valid_json(raw: bytes, content_type: str | None) -> Any:
    """The move, read and checked in one step by pydantic's own JSON reader when the body is a valid move (most are);
    `_MISSING` otherwise, and the request goes the long way (`_decoded`, then `_validated`), which words every error
    exactly as FastAPI would. On a valid move both ways give the same value."""
    if not raw or (content_type and not _decodes_json(content_type)):
        return _MISSING
    try:
        return MOVE.validate_json(raw)
    except ValueError:  # pydantic's ValidationError, for a body that is not JSON or not a move
        return _MISSING


def _validated(value: Any) -> Any:
    if value is _MISSING:
        raise invalid_request([{"type": "missing", "loc": ("body",), "msg": "Field required"}], drop="body")
    try:
        return MOVE.validate_python(value, from_attributes=True)
    except ValidationError as exc:
        errors = [{**e, "loc": ("body", *e["loc"])} for e in exc.errors(include_url=False)]
        raise invalid_request(errors, drop="body") from None


async def read_body(receive: Receive) -> bytes | None:
    """The whole request body, or None if the client went away first."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def shortcut(referee: Callable[[], Referee]) -> ASGIApp:
    """`play_move` as a plain ASGI app (`scope["path_params"]["game_id"]` names the game)."""

    async def handle(scope: Scope, receive: Receive, send: Send) -> None:
        raw = await read_body(receive)
        if raw is None:
            return
        header = first_headers(scope["headers"])
        lang = parse.accept_language(header("accept-language"))
        try:
            body = _valid_json(raw, header("content-type"))
            value = _decoded(raw, header("content-type")) if body is _MISSING else None
            game = parse.game_id(scope["path_params"]["game_id"])
            parse.json_content_type(header("content-type"))
            token = parse.bearer(header("authorization"))
            if body is _MISSING:
                body = _validated(value)
            status, content, extra = await judge(
                referee(), game, token, body, raw, header("idempotency-key"), header("if-match"), lang, scope["path"]
            )
            media = media_of(status)
        except (Problem, Refusal, StoreError) as exc:
            if isinstance(exc, Refusal):
                problem = of_refusal(exc)
            else:
                problem = exc if isinstance(exc, Problem) else store_unavailable()
            path = URL(scope=scope).path
            status, content, extra, media = problem.status, problem.encode(lang, path), problem.headers, PROBLEM_JSON
        except Exception:
            # What FastAPI's error middleware does: log, answer 500 as problem+json, and let the server see it.
            path = URL(scope=scope).path
            structlog.get_logger().exception("unhandled error", path=path)
            await _respond(send, 500, internal_error().encode(lang, path), {}, PROBLEM_JSON)
            raise
        await _respond(send, status, content, extra, media)

    return handle


async def _respond(send: Send, status: int, body: bytes, extra: dict[str, str], media: str) -> None:
    """The messages Starlette's `Response` would send: extra headers, then content-length and content-type."""
    headers = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in extra.items()]
    headers += [(b"content-length", str(len(body)).encode("latin-1")), (b"content-type", media.encode("latin-1"))]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
