"""Deadlines for reading a request, kept by the HTTP protocol itself (uvicorn's, subclassed).

Reading a request happens before any ASGI code runs, so these deadlines cannot live in a middleware (`api.limits`
holds the limits that can). uvicorn closes a kept-alive connection idle for `timeout_keep_alive`, but a connection
that never sends anything, or sends its request head or body a byte at a time (slowloris), stays open: every byte
resets that timer. Here (`GuardedHttpToolsProtocol`, `GuardedH11Protocol`: uvicorn's own, plus deadlines) a
request's head must be complete within `header_timeout` of the connection opening (or of its first byte, on a
kept-alive connection), its body within `body_timeout` of the head, and the head may not exceed `max_header_bytes`
(431). What uvicorn's parser refuses as no HTTP at all is answered as a 400 problem, never as plain text.
"""

from __future__ import annotations

import asyncio
import functools
from typing import Any

import orjson

from loveletter.api.limits import TALLY
from loveletter.api.problems import PROBLEM_JSON, Problem, fr_int, language
from loveletter.core.lang import Text
from loveletter.server.settings import Settings


class Deadlines:
    """uvicorn's HTTP protocol (h11 or httptools), plus deadlines for reading each request and a cap on its head.

    The head (request line and headers) must be complete within `header_timeout` seconds of the connection opening,
    or of the first byte of a later request on a kept-alive connection (between requests uvicorn's own
    `timeout_keep_alive` applies); the body within `body_timeout` seconds of the head. A connection that misses a
    deadline is closed (the request, if one was started, sees a disconnect). A head larger than `max_header_bytes`
    is answered 431 and the connection closed. The values are the class's, read from the environment's settings
    (LOVELETTER_*) unless a subclass sets them (`protocol_class`)."""

    header_timeout: float | None = None
    body_timeout: float | None = None
    max_header_bytes: int | None = None

    # provided by uvicorn's protocol class
    cycle: Any
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)  # type: ignore[misc]
        if self.header_timeout is None:
            _load_defaults(type(self))
        self._head_timer: asyncio.TimerHandle | None = None
        self._body_timer: asyncio.TimerHandle | None = None
        self._body_cycle: Any = None
        self._head_bytes = 0
        self._arm_head()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's parser refused bytes that are not HTTP/1.1 before the app saw them (a control character in a
        header, a Content-Length that is no number…): answered as a problem too, never plain text. The headers
        could not be read, so neither could Accept-Language: the detail says it in both languages."""
        problem = Problem(
            400,
            "invalid_request",
            Text(
                f"the request is not valid HTTP/1.1 ({msg.rstrip('.')}); nothing was judged or recorded",
                "la requête n'est pas du HTTP/1.1 valide ; rien n'a été jugé ni enregistré",
            ),
        )
        self._answer_and_close(
            b"400 Bad Request", orjson.dumps({**problem.body("en"), "detail_fr": problem.body("fr")["detail"]})
        )

    def _answer_and_close(self, status_line: bytes, body: bytes) -> None:
        """A problem written straight to the connection, which is then closed (uvicorn's state is past saving)."""
        self.transport.write(
            b"HTTP/1.1 " + status_line + b"\r\ncontent-type: " + PROBLEM_JSON.encode() + b"\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n" + body
        )
        self.transport.close()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # type: ignore[misc]
        if self._waiting_for_head():
            self._head_bytes += len(data)
            limit = self.max_header_bytes
            if limit and self._head_bytes > limit and not self.transport.is_closing():
                self._too_large(limit)
                return
            self._arm_head()
        else:
            self._head_bytes = 0
            self._cancel_head()
        self._watch_body()

    def on_response_complete(self) -> None:
        super().on_response_complete()  # type: ignore[misc]
        self._cancel_head()  # until the next request's first byte: uvicorn's keep-alive timeout
        self._head_bytes = 0
        self._watch_body()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head()
        self._cancel_body()
        super().connection_lost(exc)  # type: ignore[misc]

    # -- the two deadlines ------------------------------------------------------------------------------------

    def _waiting_for_head(self) -> bool:
        cycle = self.cycle
        return cycle is None or bool(cycle.response_complete)

    def _arm_head(self) -> None:
        if self._head_timer is None and self.header_timeout:
            self._head_timer = self.loop.call_later(self.header_timeout, self._head_late)

    def _cancel_head(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_late(self) -> None:
        self._head_timer = None
        if self._waiting_for_head() and not self.transport.is_closing():
            TALLY.note("header_timeout")
            self.transport.close()

    def _watch_body(self) -> None:
        cycle = self.cycle
        reading = cycle is not None and cycle.more_body and not cycle.response_complete and not cycle.disconnected
        if not reading:
            self._cancel_body()
        elif self._body_cycle is not cycle and self.body_timeout:
            self._cancel_body()
            self._body_cycle = cycle
            self._body_timer = self.loop.call_later(self.body_timeout, self._body_late)

    def _cancel_body(self) -> None:
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None
        self._body_cycle = None

    def _body_late(self) -> None:
        cycle, self._body_timer = self._body_cycle, None
        self._body_cycle = None
        if cycle is self.cycle and cycle.more_body and not cycle.response_complete and not self.transport.is_closing():
            TALLY.note("body_timeout")
            self.transport.close()

    def _too_large(self, limit: int) -> None:
        TALLY.note("header_too_large")
        headers = getattr(self, "headers", None) or []  # httptools keeps the headers parsed so far
        lang = language(next((v.decode("latin-1") for k, v in headers if k == b"accept-language"), ""))
        problem = Problem(
            431,
            "too_large",
            Text(
                f"request headers are limited to {limit} bytes",
                f"les en-têtes d'une requête sont limités à {fr_int(limit)} octets",
            ),
        )
        self._cancel_head()
        self._answer_and_close(b"431 Request Header Fields Too Large", problem.encode(lang))


def _load_defaults(cls: type[Deadlines]) -> None:
    settings = _env_settings()
    cls.header_timeout = settings.header_timeout
    cls.body_timeout = settings.body_timeout
    cls.max_header_bytes = settings.max_header_bytes


@functools.cache
def _env_settings() -> Settings:
    return Settings()


def _base_protocols() -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    from uvicorn.protocols.http.h11_impl import H11Protocol

    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # httptools missing: uvicorn's "auto" would pick h11 too
        return H11Protocol, H11Protocol
    return HttpToolsProtocol, H11Protocol


_HTTPTOOLS, _H11 = _base_protocols()


class GuardedHttpToolsProtocol(Deadlines, _HTTPTOOLS):  # type: ignore[misc, valid-type]
    """uvicorn's httptools protocol with the referee's reading deadlines (h11's when httptools is missing)."""


class GuardedH11Protocol(Deadlines, _H11):  # type: ignore[misc, valid-type]
    """uvicorn's h11 protocol with the referee's reading deadlines."""


HTTP_PROTOCOL = "loveletter.server.deadlines:GuardedHttpToolsProtocol"
"""What `loveletter serve` gives uvicorn as its `http` protocol (by name: worker processes import it)."""


def protocol_class(settings: Settings, base: type[Deadlines] = GuardedHttpToolsProtocol) -> type[asyncio.Protocol]:
    """A protocol class with `settings`' deadlines, for a server run in this process (tests)."""
    values = {
        "header_timeout": settings.header_timeout,
        "body_timeout": settings.body_timeout,
        "max_header_bytes": settings.max_header_bytes,
    }
    return type(base.__name__, (base,), values)
