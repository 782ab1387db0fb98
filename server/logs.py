"""structlog setup: JSON lines when not on a terminal, pretty output on one; request context via contextvars."""

from __future__ import annotations

import asyncio
import atexit
import logging
import random
import sys
import threading
import time
from collections.abc import Callable
from typing import Any, BinaryIO

import orjson
import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from loveletter.api import parse
from loveletter.api.problems import Problem, fr_int, send_problem
from loveletter.core.lang import Text

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
        logger_factory=(structlog.PrintLoggerFactory(sys.stderr) if pretty else LoopBatchedLines.of(sys.stderr.buffer)),
        cache_logger_on_first_use=True,
    )


class LoopBatchedLines:
    """A structlog logger (and its own factory) writing byte lines to a file, once per event-loop iteration.

    Every write is a system call that releases the GIL, and on a busy server the store's writer thread took it
    each time: getting it back cost more than rendering the line (measured: written line by line, the request
    log cost about 80 us of server CPU per move). A line logged on a running event loop waits in its thread's
    buffer, which a callback the loop runs next writes in one go; anywhere else a line is written at once,
    after whatever that thread still had buffered. Lines still buffered at exit are written then.
    """

    def __init__(self, file: BinaryIO) -> None:
        self._file = file
        self._lock = threading.Lock()
        self._local = threading.local()
        self._buffers: list[list[bytes]] = []  # every thread's buffer, for `flush`
        atexit.register(self.flush)

    @classmethod
    def of(cls, file: BinaryIO) -> LoopBatchedLines:
        """One instance per file, however often logging is configured."""
        made = _BATCHED.get(id(file))
        if made is None or made._file is not file:
            made = _BATCHED[id(file)] = cls(file)
        return made

    def __call__(self, *args: Any) -> LoopBatchedLines:
        return self

    def msg(self, message: bytes) -> None:
        local = self._local
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._drain(getattr(local, "pending", []), message)
            return
        if getattr(local, "loop", None) is not loop:  # a new loop in this thread: the old one may be closed
            self._drain(getattr(local, "pending", []))
            with self._lock:
                if hasattr(local, "pending"):
                    self._buffers.remove(local.pending)
                local.loop, local.pending = loop, []
                self._buffers.append(local.pending)
        pending: list[bytes] = local.pending
        if not pending:
            loop.call_soon(self._drain, pending)
        pending.append(message)

    log = debug = info = warn = warning = err = error = critical = exception = failure = fatal = msg

    def flush(self) -> None:
        """Write every line still buffered, in any thread."""
        with self._lock:
            buffers = list(self._buffers)
        for pending in buffers:
            self._drain(pending)

    def _drain(self, pending: list[bytes], *more: bytes) -> None:
        """Write the lines in `pending` (removing them), then `more`."""
        with self._lock:
            lines = pending[:]
            del pending[: len(lines)]
            lines += more
            if lines:
                self._file.write(b"\n".join(lines) + b"\n")
                self._file.flush()


_BATCHED: dict[int, LoopBatchedLines] = {}


class RequestContext:
    """Pure ASGI middleware: a request id, a body size limit, and one canonical log line per command.

    (Starlette's BaseHTTPMiddleware spawns a task per request; this costs nothing of the sort.)
    """

    def __init__(
        self,
        app: ASGIApp,
        max_body: int,
        level: str = "info",
        answered: Callable[[str, str | None, int, float], None] | None = None,
    ) -> None:
        """`answered(method, route template or None, status, seconds)` is told of each request (the metrics)."""
        self.app = app
        self.max_body = max_body
        self.level = logging.getLevelName(level.upper())
        self.answered = answered

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
        request_id = parse.request_id(headers.get(b"x-request-id")) or new_request_id()
        structlog.contextvars.clear_contextvars()
        structlog.contextvars.bind_contextvars(request_id=request_id)
        max_body = self.limit_for(scope)
        try:
            length = parse.content_length(headers.get(b"content-length"))
        except Problem as problem:  # when the server's own parser let it through (uvicorn's refuses it first)
            await _refuse(send, problem, request_id, headers)
            return
        if length is not None and length > max_body:
            if headers.get(b"expect", b"").lower() != b"100-continue":  # else the body was never sent: nothing to drain
                await _drain(receive, more=True)
            await _too_large(send, max_body, request_id, headers)
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
                    await _drain(receive, more)
                    await _too_large(send, max_body, request_id, headers)
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
        # One line per answered request; never a header or the query string, where tokens travel.
        template = getattr(scope.get("route"), "path", None) or scope.get("route_path")
        seconds = time.perf_counter() - start
        log.log(
            logging.ERROR if status >= 500 else self.level,
            "request",
            method=scope["method"],
            route=template or scope["path"],
            path=scope["path"],
            status=status,
            ms=round(seconds * 1000, 2),
        )
        if self.answered is not None:
            self.answered(scope["method"], template, status, seconds)


DRAIN_BYTES = 256 * 2**20
DRAIN_SECONDS = 5.0
"""What the referee still reads of a body it refused as too large before it answers and closes: a close with unread
bytes in the socket makes the kernel reset the connection, and the client, still sending, never reads its 413."""


async def _drain(receive: Receive, more: bool) -> None:
    """Read and drop the rest of a refused body, bounded in bytes and in time (a client that goes on past either is
    cut off, as before)."""
    deadline = time.monotonic() + DRAIN_SECONDS
    drained = 0
    while more and drained < DRAIN_BYTES:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        try:
            message = await asyncio.wait_for(receive(), left)
        except TimeoutError:
            return
        if message["type"] != "http.request":
            return
        drained += len(message.get("body", b""))
        more = message.get("more_body", False)


async def _too_large(send: Send, limit: int, request_id: str, headers: dict[bytes, bytes]) -> None:
    problem = Problem(
        413,
        "too_large",
        Text(f"bodies are limited to {limit} bytes", f"le corps d'une requête est limité à {fr_int(limit)} octets"),
    )
    await _refuse(send, problem, request_id, headers, close=True)


async def _refuse(
    send: Send, problem: Problem, request_id: str, headers: dict[bytes, bytes], close: bool = False
) -> None:
    """Answer `problem` before the application sees the request (in the request's language); `close` ends the
    connection after the answer (the rest of the request was not read, or was dropped)."""
    lang = parse.accept_language(headers.get(b"accept-language", b"").decode("latin-1"))
    extra = {"X-Request-ID": request_id} | ({"Connection": "close"} if close else {})
    await send_problem(send, problem, lang, headers=extra)
