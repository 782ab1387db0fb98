"""structlog setup: JSON lines when not on a terminal, pretty output on one; request context via contextvars."""

from __future__ import annotations

import logging
import random
import sys
import time
from typing import Any

import orjson
import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = structlog.get_logger()
_ids = random.Random()  # seeded from the OS once; uuid4 would read os.urandom, releasing the GIL, per request


def new_request_id() -> str:
    """16 hex digits: unique enough to find a request's log lines, and secret from nobody."""
    return f"{_ids.getrandbits(64):016x}"


def configure(log_format: str = "auto", level: str = "info") -> None:
    pretty = log_format == "console" or (log_format == "auto" and sys.stderr.isatty())
    renderer: structlog.types.Processor = (
        structlog.dev.ConsoleRenderer() if pretty else structlog.processors.JSONRenderer(serializer=orjson.dumps)
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=(
            structlog.PrintLoggerFactory(sys.stderr) if pretty else structlog.BytesLoggerFactory(sys.stderr.buffer)
        ),
        cache_logger_on_first_use=True,
    )


class RequestContext:
    """Pure ASGI middleware: a request id, a body size limit, and one canonical log line per command.

    (Starlette's BaseHTTPMiddleware spawns a task per request; this costs nothing of the sort.)
    """

    def __init__(self, app: ASGIApp, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    def limit_for(self, scope: Scope) -> int:
        """The body limit of this request: a route may raise it in `app.state.body_limits` (path -> bytes)."""
        limits = getattr(getattr(scope.get("app"), "state", None), "body_limits", None)
        if limits:
            return int(limits.get(scope["path"], self.max_body))
        return self.max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        request_id = headers.get(b"x-request-id", b"").decode("latin-1")[:64] or new_request_id()
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        length = headers.get(b"content-length")
        max_body = self.limit_for(scope)
        if length is not None and (not length.isdigit() or int(length) > max_body):
            await _too_large(send, max_body, request_id)
            return
        start = time.perf_counter()
        status = 500
        app_receive = receive
        if length is None and scope["method"] in ("POST", "PUT", "PATCH"):
            # A body without Content-Length is read here, so an oversized one is refused the same way on
            # every route (inside FastAPI's own body parsing it would surface as a 400).
            chunks: list[bytes] = []
            size = 0
            more = True
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    return
                chunks.append(message.get("body", b""))
                size += len(chunks[-1])
                more = message.get("more_body", False)
                if size > max_body:
                    await _too_large(send, max_body, request_id)
                    return
            buffered: list[Message] = [{"type": "http.request", "body": b"".join(chunks), "more_body": False}]

            async def replay_receive() -> Message:
                return buffered.pop() if buffered else await receive()

            app_receive = replay_receive

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        await self.app(scope, app_receive, send_with_id)
        if scope["method"] != "GET" or status >= 400:
            log.info(
                "request",
                method=scope["method"],
                path=scope["path"],
                status=status,
                ms=round((time.perf_counter() - start) * 1000, 2),
            )


async def _too_large(send: Send, limit: int, request_id: str) -> None:
    body: dict[str, Any] = {
        "type": "https://loveletter-referee.example/problems/too_large",
        "title": "Request too large",
        "status": 413,
        "detail": f"bodies are limited to {limit} bytes",
        "code": "too_large",
    }
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [(b"content-type", b"application/problem+json"), (b"x-request-id", request_id.encode())],
        }
    )
    await send({"type": "http.response.body", "body": orjson.dumps(body)})
