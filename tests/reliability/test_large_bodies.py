"""A large body always gets its 413 (issue 23): 10 MB and 100 MB, with a Content-Length or chunked, each sent whole
by a client that reads the answer only afterwards, twenty times in a row. Before, the server answered and closed
while the client was still sending, and the kernel reset the connection under the client about half the time; now
the rest of the body is read and dropped (bounded in bytes and time) before the answer and the close."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.reliability.guarded import connect, guarded_serve, read_answer

MB = 2**20
BLOCK = b"x" * MB
TIMES = 20


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(Path(tmp_path_factory.mktemp("large")) / "referee.db"))
    try:
        with guarded_serve(Settings(log_level="warning", create_rate=0, move_rate=0), store) as url:
            yield url
    finally:
        store.close()


def send_whole(base: str, size: int, chunked: bool) -> tuple[int, dict[str, str], bytes]:
    """POST /games with a body of `size` bytes, every byte sent before the answer is read."""
    sock = connect(base)
    try:
        head = b"POST /games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
        head += b"Transfer-Encoding: chunked\r\n\r\n" if chunked else b"Content-Length: %d\r\n\r\n" % size
        sock.sendall(head)
        left = size
        while left:
            piece = BLOCK[: min(left, MB)]
            sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            left -= len(piece)
        if chunked:
            sock.sendall(b"0\r\n\r\n")
        return read_answer(sock, timeout=30)
    finally:
        sock.close()


@pytest.mark.parametrize("size", [10 * MB, 100 * MB], ids=["10MB", "100MB"])
@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_large_body_gets_its_413_every_time(base: str, size: int, chunked: bool) -> None:
    answers = []
    for _ in range(TIMES):
        try:
            status, headers, body = send_whole(base, size, chunked)
        except (TimeoutError, ConnectionResetError, BrokenPipeError) as exc:  # what the client saw before
            answers.append(type(exc).__name__)
            continue
        assert headers.get("connection") == "close"
        answers.append(f"{status} {orjson.loads(body)['code']}")
    assert answers == ["413 too_large"] * TIMES
