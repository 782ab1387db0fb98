"""The referee's limits on a real server on 127.0.0.1 (served as `loveletter serve` serves it): rate limits (429 with
Retry-After), the in-flight cap (503 at once, `/healthz` exempt), the stream caps, and the reading deadlines that
close idle and slowloris connections, checked with raw sockets.

Before these limits, 5,000 games created in 15 s from one client were all accepted, requests queued without bound
(256 connections: move p99 1.3–1.6 s, `/healthz` 0.5 s) and idle or slowloris connections stayed open for good.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.api.problems import TITLES, TYPE_BASE
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.reliability.guarded import closed_by_server, connect, guarded_serve, read_answer

TWO = [{"name": "Ann"}, {"name": "Bob"}]

LIMITS = {
    "create_rate": 0.5,
    "create_burst": 3,
    "move_rate": 0.5,
    "move_burst": 4,
    "max_streams": 3,
    "max_streams_per_client": 2,
    "keep_alive_timeout": 0.6,
    "header_timeout": 0.8,
    "body_timeout": 0.8,
    "max_header_bytes": 4096,
}


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("limits") / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", log_level="critical", **LIMITS)
    try:
        with guarded_serve(settings, store) as base:
            yield base
    finally:
        store.close()


@pytest.fixture(scope="module")
def busy_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A referee that answers 2 requests at once and never cuts a slow body (the requests held in flight below)."""
    store = SqliteStore(str(tmp_path_factory.mktemp("busy") / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", log_level="critical", max_in_flight=2, body_timeout=0)
    try:
        with guarded_serve(settings, store) as base:
            yield base
    finally:
        store.close()


def client_from(url: str, source: str) -> httpx.Client:
    """An HTTP client whose connections come from `source`, a loopback address of its own (another client)."""
    return httpx.Client(base_url=url, timeout=10, transport=httpx.HTTPTransport(local_address=source))


def assert_problem(r: httpx.Response, status: int, code: str, lang: str = "en") -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"] == "application/problem+json"
    retry = r.headers.get("retry-after", "")
    assert retry.isdigit() and int(retry) >= 1, r.headers
    body: dict[str, Any] = r.json()
    assert body["code"] == code and body["status"] == status and body["type"] == TYPE_BASE + code
    assert body["title"] == TITLES[code](lang)
    return body


# -- rate limits -------------------------------------------------------------------------------------------------


def test_game_creations_are_limited_per_address(url: str) -> None:
    """Creations beyond the burst are refused with 429 and Retry-After; another address is not affected."""
    with client_from(url, "127.0.0.21") as http:
        answers = [http.post("/games", json={"players": TWO}) for _ in range(6)]
        assert [r.status_code for r in answers] == [201] * 3 + [429] * 3
        body = assert_problem(answers[-1], 429, "rate_limited")
        assert "0.5 per second" in body["detail"]
        fr = http.post("/games", json={"players": TWO}, headers={"Accept-Language": "fr"})
        assert_problem(fr, 429, "rate_limited", "fr")
        assert "0,5 par seconde" in fr.json()["detail"]
    with client_from(url, "127.0.0.22") as other:
        assert other.post("/games", json={"players": TWO}).status_code == 201


def test_the_bucket_refills(url: str) -> None:
    with client_from(url, "127.0.0.23") as http:
        statuses = [http.post("/games", json={"players": TWO}).status_code for _ in range(4)]
        assert statuses == [201, 201, 201, 429]
        wait = int(http.post("/games", json={"players": TWO}).headers["retry-after"])
        assert 1 <= wait <= 2
        time.sleep(wait)
        assert http.post("/games", json={"players": TWO}).status_code == 201


def test_moves_are_limited_per_seat_token(url: str) -> None:
    """Each seat token has its own bucket (refusals count too): Bob is limited, Ann is not."""
    with client_from(url, "127.0.0.24") as http:
        created = http.post("/games", json={"players": TWO, "first_player": "Ann"}).json()
        gid = created["game_id"]
        ann, bob = (s["token"] for s in created["seats"])
        out_of_turn = {"type": "play", "card": "guard", "target": 0, "guess": "priest"}
        bobs = [
            http.post(f"/games/{gid}/moves", json=out_of_turn, headers={"Authorization": f"Bearer {bob}"})
            for _ in range(6)
        ]
        assert [r.status_code for r in bobs] == [409] * 4 + [429] * 2
        assert_problem(bobs[-1], 429, "rate_limited")
        seed = http.post(f"/games/{gid}/seed", json={"seed": "ab" * 32}, headers={"Authorization": f"Bearer {bob}"})
        assert_problem(seed, 429, "rate_limited")  # a seed is a move of the seat
        game = http.get(f"/games/{gid}", headers={"Authorization": f"Bearer {ann}"}).json()
        move = game["legal_moves"][0]
        r = http.post(
            f"/games/{gid}/moves",
            json={"type": "code", "action_code": move["action_code"]},
            headers={"Authorization": f"Bearer {ann}"},
        )
        assert r.status_code == 200, r.text


# -- the in-flight cap ---------------------------------------------------------------------------------------


def hold_in_flight(url: str, n: int) -> list[socket.socket]:
    """`n` requests the server has admitted and is answering: each has sent its head but not all of its body."""
    held = []
    for _ in range(n):
        sock = connect(url)
        sock.sendall(
            b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
        )
        held.append(sock)
    return held


def test_beyond_the_in_flight_cap_the_answer_is_503_at_once_and_health_still_answers(busy_url: str) -> None:
    url = busy_url
    with client_from(url, "127.0.0.25") as http:
        assert http.get("/rulesets").status_code == 200
        held = hold_in_flight(url, 2)
        try:
            deadline = time.monotonic() + 15
            while http.get("/rulesets").status_code != 503:  # until the referee has admitted both, however busy
                assert time.monotonic() < deadline, "the held requests were never admitted"
                time.sleep(0.02)
            start = time.monotonic()
            r = http.get("/rulesets", headers={"Accept-Language": "fr"})
            assert time.monotonic() - start < 2.0  # answered, not queued behind requests that never end
            assert_problem(r, 503, "overloaded", "fr")
            move = http.post(
                "/games/g_x/moves", json={"type": "code", "action_code": 1}, headers={"Authorization": "x"}
            )
            assert_problem(move, 503, "overloaded")  # the move route's short path too
            health = [http.get("/healthz") for _ in range(5)]
            assert [h.status_code for h in health] == [200] * 5
            assert all(h.elapsed.total_seconds() < 2.0 for h in health)
        finally:
            for sock in held:
                sock.close()
        deadline = time.monotonic() + 30  # a bound for a busy machine, not a wait
        while http.get("/rulesets").status_code != 200:  # the held requests end as their clients leave
            assert time.monotonic() < deadline, "the in-flight count did not come down"
            time.sleep(0.05)


# -- reading deadlines -----------------------------------------------------------------------------------------


def test_idle_connections_are_closed_after_the_header_timeout(url: str) -> None:
    """Connections that never send a byte are closed once `header_timeout` has passed (before: never)."""
    start = time.monotonic()
    socks = [connect(url) for _ in range(20)]
    try:
        closed = [closed_by_server(s, within=3.0, since=start) for s in socks]
    finally:
        for s in socks:
            s.close()
    timeout = LIMITS["header_timeout"]
    assert all(c is not None and timeout - 0.1 <= c <= timeout + 1.0 for c in closed), closed


def test_slowloris_heads_are_cut_off(url: str) -> None:
    """A head sent a byte at a time is cut off at `header_timeout`, however steadily the bytes come."""
    results: list[float | None] = []

    def dribble() -> None:
        sock = connect(url)
        start = time.monotonic()
        try:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
            for i in range(40):
                sock.sendall(b"X-Slow-%d: 1\r\n" % i)
                time.sleep(0.1)
            results.append(None)
        except OSError:
            results.append(time.monotonic() - start)
        finally:
            sock.close()

    threads = [threading.Thread(target=dribble) for _ in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert len(results) == 10 and all(r is not None and r < LIMITS["header_timeout"] + 1.5 for r in results), results


def test_a_slow_body_is_cut_off(url: str) -> None:
    sock = connect(url)
    try:
        sock.sendall(b"POST /games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n")
        start = time.monotonic()
        for _ in range(30):
            try:
                sock.sendall(b" ")
            except OSError:
                break
            time.sleep(0.1)
        assert time.monotonic() - start < LIMITS["body_timeout"] + 1.5
        assert closed_by_server(sock, within=1.0) is not None
    finally:
        sock.close()


def test_a_kept_alive_connection_is_closed_when_idle_and_served_before(url: str) -> None:
    sock = connect(url)
    try:
        for _ in range(3):  # several requests on one connection, each well within the deadlines
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            status, _, _ = read_answer(sock)
            assert status == 200
            time.sleep(0.3)
        closed = closed_by_server(sock, within=3.0)
        assert closed is not None and closed <= LIMITS["keep_alive_timeout"] + 0.6, closed
    finally:
        sock.close()


def test_an_oversized_head_is_refused_with_431(url: str) -> None:
    sock = connect(url)
    try:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nAccept-Language: fr\r\n")
        status = 0
        try:
            for i in range(20):
                sock.sendall(b"X-Big-%d: %s\r\n" % (i, b"y" * 1000))
                time.sleep(0.01)
        except OSError:
            pass
        status, headers, body = read_answer(sock)
        assert status == 431
        assert headers["content-type"] == "application/problem+json"
        assert b"octets" in body  # in the request's language, as far as its headers were read
        assert closed_by_server(sock, within=2.0) is not None
    finally:
        sock.close()


# -- event streams ---------------------------------------------------------------------------------------------


def open_stream(url: str, path: str, token: str | None = None, source: str = "127.0.0.1") -> socket.socket:
    sock = connect(url, source)
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{auth}\r\n".encode())
    sock.settimeout(5)
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        assert chunk, head
        head += chunk
    assert head.startswith(b"HTTP/1.1 200"), head
    return sock


def test_streams_are_capped_per_token_and_in_all(url: str) -> None:
    with client_from(url, "127.0.0.26") as http:
        created = http.post("/games", json={"players": TWO}).json()
        gid = created["game_id"]
        ann, bob = (s["token"] for s in created["seats"])
        path = f"/games/{gid}/stream"
        mine = [open_stream(url, path, ann), open_stream(url, path, ann)]
        try:
            third = http.get(path, headers={"Authorization": f"Bearer {ann}"})
            assert_problem(third, 429, "too_many_streams")
            by_query = http.get(path, params={"token": ann}, headers={"Accept-Language": "fr"})
            assert_problem(by_query, 429, "too_many_streams", "fr")  # the same token in the query string
            bobs = open_stream(url, path, bob)  # another token: allowed, and the referee now holds 3 streams
            try:
                full = http.get(path, headers={"Authorization": f"Bearer {created['game_id']}"})
                assert_problem(full, 503, "too_many_streams")
            finally:
                bobs.close()
        finally:
            for s in mine:
                s.close()
        deadline = time.monotonic() + 30
        while True:  # closed streams are counted out as the referee sees their clients leave
            try:
                open_stream(url, path, ann).close()
                break
            except AssertionError:
                assert time.monotonic() < deadline, "closed streams were still counted"
                time.sleep(0.1)


def test_limits_can_be_read_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("LOVELETTER_MAX_IN_FLIGHT", "7")
    monkeypatch.setenv("LOVELETTER_HEADER_TIMEOUT", "2.5")
    settings = Settings()
    assert (settings.max_in_flight, settings.header_timeout) == (7, 2.5)
    defaults = Settings.model_fields
    assert defaults["header_timeout"].default == 10.0 and defaults["max_in_flight"].default == 32
