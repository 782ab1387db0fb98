"""A referee served the way `loveletter serve` serves it — uvicorn with `api.serve.server_options`: the HTTP protocol
with reading deadlines, the keep-alive timeout, the head size cap — in a background thread, and raw-socket helpers
for the tests of limits and faults."""

from __future__ import annotations

import contextlib
import select
import socket
import time
from collections.abc import Iterator

from loveletter.events.store import EventStore
from loveletter.server.deadlines import protocol_class
from loveletter.server.serve import server_options
from loveletter.server.settings import Settings
from tests.servers import serve


@contextlib.contextmanager
def guarded_serve(settings: Settings, store: EventStore) -> Iterator[str]:
    """`with guarded_serve(settings, store) as base_url:` the referee with every limit of `settings`."""
    with serve(settings, store, **server_options(settings, protocol_class(settings))) as base_url:
        yield base_url


def port_of(base_url: str) -> int:
    return int(base_url.rsplit(":", 1)[1])


def connect(base_url: str, source: str = "127.0.0.1") -> socket.socket:
    """A raw TCP connection to the server, from `source` (any address of 127.0.0.0/8 on Linux)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port_of(base_url)))
    return sock


def closed_by_server(sock: socket.socket, within: float, since: float | None = None) -> float | None:
    """Seconds from `since` (a `time.monotonic()`, by default now) until the server closed `sock` (its answer, if
    any, read and dropped), or None if it is still open `within` seconds after `since`."""
    start = time.monotonic() if since is None else since
    while (left := start + within - time.monotonic()) > 0:
        readable, _, _ = select.select([sock], [], [], left)
        if readable:
            try:
                if not sock.recv(65536):
                    return time.monotonic() - start
            except (ConnectionResetError, BrokenPipeError):
                return time.monotonic() - start
    return None


def read_answer(sock: socket.socket, timeout: float = 10.0) -> tuple[int, dict[str, str], bytes]:
    """One HTTP/1.1 answer with a Content-Length: (status, headers by lower-case name, body)."""
    sock.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError(f"closed before a complete answer: {data!r}")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body[:length]
