"""Hostile input: no header, path or body a client can send gets a 5xx, a non-problem 4xx, or a change to a game.

Issue 16, items 1 and 4. Every request here goes over a real socket to a real referee on 127.0.0.1 (SQLite and
PostgreSQL), written byte by byte (`exchange`), so the bytes a client library would refuse to send (a NUL, a byte
above 0x7F in a header, a malformed Content-Length) really reach the server. First the failures reproduced before
the fix, each as its own test; then the loose input that was accepted (a boolean seat, a move in text/plain, a
malformed Content-Length, a refusal retried with its Idempotency-Key); last, a Hypothesis search that sends
arbitrary bytes in every header the referee reads and in every path parameter of every route of the app.

uvicorn's HTTP parser (httptools, or h11) refuses by itself, before the application, a request that is not HTTP:
a control character (but a tab) or DEL in a header value, a Content-Length that is not digits (or above
2**64 - 1), a raw byte above 0x7F in the path. The referee's protocol (`server.deadlines.Deadlines`) answers that
refusal as a 400 problem too; such a request never reaches the application. `uvicorn_refuses` predicts exactly
which, and the search checks both ways.
"""

from __future__ import annotations

import contextlib
import re
import socket
import urllib.parse
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from starlette.routing import Route

from loveletter.api.problems import RULE_TITLES, TITLES, TYPE_BASE
from loveletter.events.sqlite_store import SqliteStore
from loveletter.events.store import EventStore
from loveletter.server.app import create_app
from loveletter.server.settings import Settings
from tests.reliability.guarded import guarded_serve
from tests.servers import ADMIN, COUNTESS_DEAL, create_game, open_test_store
from tests.stores import pg_url  # noqa: F401  (fixture)

NAMES = ("Alice", "Bob")
DEAL = COUNTESS_DEAL
COUNTESS = b'{"type": "play", "card": "countess"}'
HANDMAID = b'{"type": "play", "card": "handmaid"}'
PRINCE = b'{"type": "play", "card": "prince", "target": "Bob"}'
JSON = (b"Content-Type", b"application/json")


def parser_refusal(reply: Reply) -> bool:
    """The answer to bytes uvicorn's parser refuses before the app: a 400 problem saying the request is no HTTP."""
    if reply.status != 400 or reply.headers.get("content-type") != "application/problem+json":
        return False
    body = orjson.loads(reply.body)
    return body["code"] == "invalid_request" and "not valid HTTP/1.1" in body["detail"] and "detail_fr" in body


# -- a raw HTTP/1.1 client ----------------------------------------------------------------------------------------


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    """Lower-case names, Latin-1 values (the last of each name)."""
    body: bytes

    @property
    def media(self) -> str:
        return self.headers.get("content-type", "")

    def problem(self) -> dict[str, Any]:
        """The problem+json body, checked for its RFC 9457 members and a code the referee knows."""
        assert self.media == "application/problem+json", (self.status, self.headers, self.body[:300])
        body: dict[str, Any] = orjson.loads(self.body)
        assert body["status"] == self.status and body["type"] == TYPE_BASE + body["code"], body
        assert body["code"] in TITLES or "rule_id" in body, body
        if "rule_id" in body:
            assert body["title"] in {t(lang) for t in RULE_TITLES.values() for lang in ("en", "fr")}, body
        return body


KEEP = object()
"""`exchange(length=KEEP)`: send the body's own Content-Length (or none for a GET without a body)."""


def exchange(
    url: str,
    method: str,
    target: bytes | str,
    headers: Sequence[tuple[bytes, bytes]] = (),
    body: bytes = b"",
    length: Any = KEEP,
    timeout: float = 20,
) -> Reply:
    """Send one request exactly as written (`Connection: close`) and read the answer. `length` is the
    Content-Length's raw value (None: no such header). An event stream's answer is read up to its head."""
    host, port = url.removeprefix("http://").split(":")
    target = target.encode("latin-1") if isinstance(target, str) else target
    lines = [b"%s %s HTTP/1.1" % (method.encode(), target), b"Host: %s:%s" % (host.encode(), port.encode())]
    lines.append(b"Connection: close")
    lines += [name + b": " + value for name, value in headers]
    if length is KEEP:
        length = str(len(body)).encode() if body or method in ("POST", "PUT", "PATCH") else None
    if length is not None:
        lines.append(b"Content-Length: " + length)
    raw = b"\r\n".join(lines) + b"\r\n\r\n" + body
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # answered before the body was all sent
            sock.sendall(raw)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            assert chunk, f"the server closed the connection without an answer: {data!r}"
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        status_line, *header_lines = head.split(b"\r\n")
        status = int(status_line.split(b" ")[1])
        answer_headers = {}
        for line in header_lines:
            name, _, value = line.partition(b":")
            answer_headers[name.strip().lower().decode("latin-1")] = value.strip().decode("latin-1")
        if answer_headers.get("content-type", "").startswith("text/event-stream"):
            return Reply(status, answer_headers, b"")
        while True:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:
                break
            if not chunk:
                break
            rest += chunk
    if answer_headers.get("transfer-encoding") == "chunked":
        rest = _dechunk(rest)
    elif "content-length" in answer_headers:
        rest = rest[: int(answer_headers["content-length"])]
    return Reply(status, answer_headers, rest)


def _dechunk(data: bytes) -> bytes:
    out = b""
    while data:
        size_line, _, data = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, data = out + data[:size], data[size + 2 :]
    return out


# -- servers and games ------------------------------------------------------------------------------------------


@dataclass
class Game:
    """A two-seat game where Alice (seat 0) must play the Countess and Bob (seat 1) waits."""

    id: str
    alice: str
    bob: str
    version: int


@dataclass
class Hostile:
    url: str
    kind: str
    store: EventStore
    games: list[Game] = field(default_factory=list)

    def new_game(self) -> Game:
        created = create_game(self.url, [{"name": n} for n in NAMES], first_player="Alice", scenario={"deals": [DEAL]})
        alice, bob = (seat["token"] for seat in created["seats"])
        return Game(created["game_id"], alice, bob, created["version"])

    def log(self, game: Game) -> list[tuple[int, str, str]]:
        """The game's log as the store holds it: (seq, prev, hash) of every event."""
        return self.store.hashes(game.id)


# Rate limits (api/limits.py, where they exist) would answer the search's requests with 429 problems: allowed,
# but they would hide the deeper checks; settings a referee does not know are ignored (extra="ignore").
NO_LIMITS = {"create_rate": 0, "move_rate": 0, "max_in_flight": 0}


@pytest.fixture(name="hostile", scope="module", params=["sqlite", "postgres"])
def hostile_fixture(request: pytest.FixtureRequest) -> Iterator[Hostile]:
    """A threaded referee per store for the module, with an admin token and no rate limits."""
    kind = request.param
    store = open_test_store(kind, request)
    url = "sqlite:///unused.db" if kind == "sqlite" else request.getfixturevalue("pg_url")
    settings_ = Settings(database_url=url, admin_token=ADMIN, log_level="critical", **NO_LIMITS)
    try:
        with guarded_serve(settings_, store) as base:  # served as `loveletter serve` serves it
            yield Hostile(base, kind, store)
    finally:
        store.close()


def bearer(token: str) -> tuple[bytes, bytes]:
    return (b"Authorization", b"Bearer " + token.encode())


# -- item 1: 5xx from header and path bytes, as reproduced --------------------------------------------------------


@pytest.mark.parametrize("route", ["log", "state"])
def test_a_latin1_bearer_token_is_a_401_where_an_admin_token_is_configured(hostile: Hostile, route: str) -> None:
    """`café` in Latin-1 reached `secrets.compare_digest(str, str)`, which raises on non-ASCII text: 500."""
    game = hostile.new_game()
    before = hostile.log(game)
    reply = exchange(hostile.url, "GET", f"/games/{game.id}/{route}", [(b"Authorization", b"Bearer caf\xe9")])
    assert reply.status == 401 and reply.problem()["code"] == "token_required"
    assert hostile.log(game) == before


def test_a_superscript_digit_in_if_match_is_a_400(hostile: Hostile) -> None:
    """ "²" (0xB2) passed `str.isdigit` and then failed `int`: 500."""
    game = hostile.new_game()
    before = hostile.log(game)
    for value in (b'"\xb2"', b"\xb2", b'W/"1\xb2"'):
        headers = [bearer(game.alice), JSON, (b"If-Match", value)]
        reply = exchange(hostile.url, "POST", f"/games/{game.id}/moves", headers, COUNTESS)
        assert reply.status == 400 and reply.problem()["code"] == "invalid_header", value
    assert hostile.log(game) == before


def test_a_superscript_digit_in_last_event_id_is_a_400(hostile: Hostile) -> None:
    """The stream read Last-Event-ID with the same `isdigit`/`int` pair: 500."""
    game = hostile.new_game()
    reply = exchange(hostile.url, "GET", f"/games/{game.id}/stream", [(b"Last-Event-ID", b"\xb2")])
    assert reply.status == 400 and reply.problem()["code"] == "invalid_header"
    resumed = exchange(hostile.url, "GET", f"/games/{game.id}/stream", [(b"Last-Event-ID", b"3")])
    assert resumed.status == 200 and resumed.media.startswith("text/event-stream")


def test_a_nul_in_a_game_id_is_a_404_that_never_reaches_the_store(
    hostile: Hostile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL refuses a NUL in a query parameter: `/games/%00` was a 500 there. A game id is checked against
    the form the referee issues before any lookup."""
    asked: list[str] = []
    real_meta = hostile.store.meta

    def meta(game_id: str) -> Any:
        asked.append(game_id)
        return real_meta(game_id)

    monkeypatch.setattr(hostile.store, "meta", meta)
    game = hostile.new_game()
    for bad in ("%00", "g_%00", f"{game.id}%00", "g_%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00%00", "%C3%A9"):
        for method, suffix, body in [
            ("GET", "", b""),
            ("GET", "/events", b""),
            ("GET", "/stream", b""),
            ("GET", "/log", b""),
            ("GET", "/state", b""),
            ("POST", "/moves", COUNTESS),
            ("POST", "/seed", b'{"seed": "' + b"ab" * 32 + b'"}'),
        ]:
            headers = [bearer(game.alice), JSON] if method == "POST" else []
            reply = exchange(hostile.url, method, f"/games/{bad}{suffix}", headers, body)
            assert reply.status == 404 and reply.problem()["code"] == "game_not_found", (bad, suffix, reply)
    assert asked == []


# -- item 4: loose input that was accepted ------------------------------------------------------------------------


def test_a_boolean_is_not_a_seat_nor_a_number(hostile: Hostile) -> None:
    """`"target": true` was taken as seat 1, `"action_code": true` as code 1, `"95"` and `95.0` as 95."""
    game = hostile.new_game()
    before = hostile.log(game)
    for body, name in [
        ({"type": "play", "card": "prince", "target": True}, "play.target.int"),
        ({"type": "play", "card": "guard", "target": False, "guess": "priest"}, "play.target.int"),
        ({"type": "code", "action_code": True}, "code.action_code"),
        ({"type": "code", "action_code": "95"}, "code.action_code"),
        ({"type": "code", "action_code": 95.0}, "code.action_code"),
    ]:
        reply = exchange(hostile.url, "POST", f"/games/{game.id}/moves", [bearer(game.alice), JSON], orjson.dumps(body))
        problem = reply.problem()
        assert reply.status == 422 and problem["code"] == "invalid_request", (body, problem)
        assert name in [e["field"] for e in problem["errors"]], (body, problem)
    assert hostile.log(game) == before
    for create in (
        {"players": [{"name": "A"}, {"name": "B"}], "first_player": True},
        {"players": [{"name": "A"}, {"name": "B"}], "scenario": {"deals": [{**DEAL, "first_player": True}]}},
    ):
        reply = exchange(hostile.url, "POST", "/games", [JSON], orjson.dumps(create))
        assert reply.status == 422 and reply.problem()["code"] == "invalid_request", create


@pytest.mark.parametrize(
    "media",
    [
        b"text/plain",
        b"application/xml",
        b"application/x-www-form-urlencoded",
        b"text/json",
        b"application/json; charset=latin-1",
        b"application/jsonx",
        b"json",
        b"",
    ],
)
def test_a_json_body_of_another_media_type_is_a_415(hostile: Hostile, media: bytes) -> None:
    """A move sent as text/plain or application/xml was judged and recorded; every JSON-body route answers 415."""
    game = hostile.new_game()
    before = hostile.log(game)
    typed = (b"Content-Type", media)
    for path, headers, body in [
        (f"/games/{game.id}/moves", [bearer(game.alice), typed], COUNTESS),
        (f"/games/{game.id}/seed", [bearer(game.alice), typed], b'{"seed": "' + b"ab" * 32 + b'"}'),
        ("/games", [typed], b'{"players": [{"name": "A"}, {"name": "B"}]}'),
        ("/rulings", [typed], b'{"log": "", "at": 1, "move": {}}'),
    ]:
        reply = exchange(hostile.url, "POST", path, headers, body)
        assert reply.status == 415 and reply.problem()["code"] == "unsupported_media_type", (path, media, reply)
    assert hostile.log(game) == before


@pytest.mark.parametrize(
    "media", [b"application/json", b"Application/JSON; charset=UTF-8", b"application/vnd.loveletter+json", None]
)
def test_a_json_body_is_judged_as_json_or_without_a_content_type(hostile: Hostile, media: bytes | None) -> None:
    """JSON, any `application/*+json`, and no Content-Type at all (the body is read as JSON all the same)."""
    game = hostile.new_game()
    typed = [(b"Content-Type", media)] if media is not None else []
    reply = exchange(hostile.url, "POST", f"/games/{game.id}/moves", [bearer(game.alice), *typed], COUNTESS)
    assert reply.status == 200, reply
    assert len(hostile.log(game)) > game.version


def raw_asgi(app: Any, method: str, path: str, headers: list[tuple[bytes, bytes]], body: bytes) -> Reply:
    """One request straight into the ASGI app (as a server whose parser lets anything through would pass it)."""
    import asyncio

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [(b"host", b"test"), *headers],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    answer = {k.decode("latin-1"): v.decode("latin-1") for k, v in start["headers"]}
    return Reply(
        start["status"], answer, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    )


@pytest.mark.parametrize("length", [b"abc", b"-1", b"1,1", b"\xc2\xb2", b"\xb2", b"0x10", b"", b"1 2"])
def test_a_malformed_content_length_is_a_400_problem_from_the_referee(tmp_path: Path, length: bytes) -> None:
    """What the referee controls: `RequestContext` reads Content-Length with `parse.content_length` and answers a
    malformed one with a 400 problem (it answered 413, "too large", before), on the move's short path and on every
    FastAPI route alike. uvicorn's parser refuses these first (next test); another server may not."""
    store = SqliteStore(str(tmp_path / "referee.db"))
    try:
        app = create_app(Settings(database_url="sqlite:///unused.db", key_path=str(tmp_path / "key")), store)
        for path in ("/games/g_AAAAAAAAAAAAAAAA/moves", "/games", "/rulings"):
            headers = [(b"content-type", b"application/json"), (b"content-length", length), (b"accept-language", b"fr")]
            reply = raw_asgi(app, "POST", path, headers, COUNTESS)
            assert reply.status == 400, (path, reply)
            problem = reply.problem()
            assert problem["code"] == "invalid_header" and "Content-Length" in problem["detail"], problem
            assert problem["title"] == TITLES["invalid_header"].fr
            assert reply.headers["content-length"] == str(len(reply.body)) and reply.headers["x-request-id"]
        huge = raw_asgi(app, "POST", "/games", [(b"content-length", b"9" * 40)], b"")
        assert huge.status == 413 and huge.problem()["code"] == "too_large"
    finally:
        store.close()


@pytest.mark.parametrize("length", [b"abc", b"-1", b"1,1", b"\xb2", b"+5", b"99999999999999999999"])
def test_uvicorn_refuses_a_malformed_content_length_itself(hostile: Hostile, length: bytes) -> None:
    """uvicorn's parser refuses these before the application sees the request: the referee's protocol answers the
    refusal as a 400 problem (never uvicorn's plain text), and nothing is judged or recorded."""
    game = hostile.new_game()
    before = hostile.log(game)
    reply = exchange(hostile.url, "POST", f"/games/{game.id}/moves", [bearer(game.alice), JSON], COUNTESS, length)
    assert parser_refusal(reply), reply
    assert hostile.log(game) == before


def move(hostile: Hostile, game: Game, token: str, body: bytes, *more: tuple[bytes, bytes]) -> Reply:
    return exchange(hostile.url, "POST", f"/games/{game.id}/moves", [bearer(token), JSON, *more], body)


def test_a_refusal_retried_with_its_idempotency_key_is_replayed(hostile: Hostile) -> None:
    """Bob moves out of turn with a key (409); Alice moves; Bob's retry with the same key and body was judged
    afresh and recorded. Now the first answer, a judgment of the move, is replayed and nothing is recorded."""
    game = hostile.new_game()
    key = (b"Idempotency-Key", b"bob-1")
    first = move(hostile, game, game.bob, HANDMAID, key, (b"Accept-Language", b"fr"))
    assert first.status == 409 and first.problem()["code"] == "not_your_turn"
    assert "idempotent-replayed" not in first.headers
    assert move(hostile, game, game.alice, COUNTESS).status == 200
    after_alice = hostile.log(game)
    retry = move(hostile, game, game.bob, HANDMAID, key)  # now Bob's turn: judged afresh it would be recorded
    assert retry.status == 409 and retry.headers["idempotent-replayed"] == "true"
    assert retry.body == first.body  # byte for byte, in the language it was first answered in
    assert retry.problem()["title"] == RULE_TITLES["out_of_turn"].fr
    assert hostile.log(game) == after_alice
    other = move(hostile, game, game.bob, b'{"type": "play", "card": "guard", "target": 0, "guess": "spy"}', key)
    assert other.status == 422 and other.problem()["code"] == "idempotency_key_reused"
    fresh = move(hostile, game, game.bob, HANDMAID, (b"Idempotency-Key", b"bob-2"))
    assert fresh.status == 200 and "idempotent-replayed" not in fresh.headers


def test_a_rules_refusal_is_replayed_and_a_legal_retry_needs_a_new_key(hostile: Hostile) -> None:
    game = hostile.new_game()
    before = hostile.log(game)
    key = (b"Idempotency-Key", b"alice-prince")
    first = move(hostile, game, game.alice, PRINCE, key)
    assert first.status == 422 and first.problem()["rule_id"] == "countess.forced"
    again = move(hostile, game, game.alice, PRINCE, key)
    assert again.status == 422 and again.headers["idempotent-replayed"] == "true" and again.body == first.body
    assert hostile.log(game) == before
    assert move(hostile, game, game.alice, COUNTESS, key).problem()["code"] == "idempotency_key_reused"
    assert move(hostile, game, game.alice, COUNTESS, (b"Idempotency-Key", b"alice-countess")).status == 200


def test_a_request_refused_before_it_was_judged_keeps_nothing_with_its_key(hostile: Hostile) -> None:
    """A malformed body, a bad header, a missing or wrong token, a stale If-Match, an unknown game: the retry with
    the same key, corrected, is judged."""
    game = hostile.new_game()
    key = (b"Idempotency-Key", b"k")
    url = f"/games/{game.id}/moves"
    refusals = [
        (exchange(hostile.url, "POST", url, [bearer(game.alice), JSON, key], b'{"type": "play", "card": '), 400),
        (
            exchange(hostile.url, "POST", url, [bearer(game.alice), (b"Content-Type", b"text/plain"), key], COUNTESS),
            415,
        ),
        (move(hostile, game, game.alice, COUNTESS, key, (b"If-Match", b"soon")), 400),
        (exchange(hostile.url, "POST", url, [JSON, key], COUNTESS), 401),
        (move(hostile, game, "not-a-seat-token", COUNTESS, key), 403),
        (
            exchange(hostile.url, "POST", "/games/g_AAAAAAAAAAAAAAAA/moves", [bearer(game.alice), JSON, key], COUNTESS),
            404,
        ),
        (move(hostile, game, game.alice, COUNTESS, key, (b"If-Match", b'"1"')), 412),
    ]
    for reply, status in refusals:
        assert reply.status == status and "idempotent-replayed" not in reply.headers, (status, reply)
        reply.problem()
    assert len(hostile.log(game)) == game.version
    judged = move(hostile, game, game.alice, COUNTESS, key, (b"If-Match", f'"{game.version}"'.encode()))
    assert judged.status == 200 and "idempotent-replayed" not in judged.headers, judged
    replayed = move(hostile, game, game.alice, COUNTESS, key)
    assert replayed.status == 200 and replayed.headers["idempotent-replayed"] == "true"
    assert replayed.body == judged.body


# -- the search: arbitrary bytes in every header the referee reads and every path parameter -----------------------

HEADERS = (
    b"Authorization",
    b"If-Match",
    b"If-None-Match",
    b"Idempotency-Key",
    b"Last-Event-ID",
    b"Accept-Language",
    b"Content-Type",
    b"Content-Length",
    b"X-Request-ID",
)
PARAM = re.compile(r"{(\w+)(?::\w+)?}")
CTL = frozenset(range(0x20)) - {0x09} | {0x7F}
"""Bytes uvicorn's parser refuses in a header value (CR and LF are never drawn: they end the line)."""


def app_routes() -> list[tuple[str, str]]:
    """(method, path template) of every route of the app, as `create_app` builds it: a new route is searched too."""
    import tempfile

    from fastapi.routing import iter_route_contexts

    folder = tempfile.mkdtemp(prefix="loveletter-routes-")
    store = SqliteStore(f"{folder}/routes.db")
    try:
        app = create_app(Settings(database_url="sqlite:///unused.db", key_path=f"{folder}/key"), store)
        found = [  # the routes of the routers the app includes too (FastAPI keeps those behind their router)
            (method, route.path)
            for route in iter_route_contexts(app.routes)
            if isinstance(route.original_route, Route)
            for method in sorted(route.methods or ())
            if method != "HEAD"
        ]
    finally:
        store.close()
    return found


ROUTES = app_routes()
GROUPS = {
    "game": [r for r in ROUTES if "{game_id}" in r[1]],
    "other parameters": [r for r in ROUTES if PARAM.search(r[1]) and "{game_id}" not in r[1]],
    "no parameter": [r for r in ROUTES if not PARAM.search(r[1])],
}


def test_the_search_covers_every_route() -> None:
    assert sorted(r for group in GROUPS.values() for r in group) == sorted(ROUTES)
    assert ("POST", "/games/{game_id}/moves") in GROUPS["game"] and GROUPS["other parameters"]


BYTE = st.integers(0, 255).filter(lambda b: b not in (0x0A, 0x0D))
ANY_BYTES = st.lists(BYTE, max_size=40).map(bytes)
"""Any bytes but CR and LF (which end a header line): NUL, control characters, DEL, 0x80-0xFF."""
FIELD_BYTE = st.one_of(st.integers(0x20, 0x7E), st.integers(0x80, 0xFF), st.just(0x09))
FIELD_BYTES = st.lists(FIELD_BYTE, max_size=40).map(bytes)
"""What a header value may hold for uvicorn's parser to let it through to the application."""
TEXT_BYTES = st.text(st.characters(exclude_categories=("Cc", "Cs")), max_size=20).map(str.encode)
"""Unicode text as UTF-8 (bytes above 0x7F the way a client library would send them)."""


def good(name: bytes, game: Game) -> bytes:
    """A well-formed value, for the headers a request holds but the search leaves alone."""
    return {
        b"Authorization": b"Bearer " + game.bob.encode(),
        b"If-Match": b'"%d"' % game.version,
        b"If-None-Match": b'"1"',
        b"Idempotency-Key": b"search-key",
        b"Last-Event-ID": b"1",
        b"Accept-Language": b"fr",
        b"X-Request-ID": b"search-1",
    }[name]


def typical(name: bytes, game: Game) -> list[bytes]:
    """Values close to the edge of each header's form."""
    bob, admin = game.bob.encode(), ADMIN.encode()
    return {
        b"Authorization": [
            b"Bearer " + bob,
            b"bearer  " + bob,
            b"Bearer " + admin,
            b"Bearer caf\xe9",
            b"Bearer " + bob + b"\xe9",
            b"Bearer",
            b"Basic dXNlcjpwdw==",
            b"Bearer \x00",
        ],
        b"If-Match": [b'"%d"' % game.version, b'W/"1"', b'"\xb2"', b"*", b"7", b'"' + b"9" * 30 + b'"', b'"-1"'],
        b"If-None-Match": [b'"%d"' % game.version, b'"1", W/"2"', b"*", b'"\xb2"', b",", b'"1",,'],
        b"Idempotency-Key": [b"k", b"k" * 200, b"k" * 201, b"caf\xe9", b" ", b"a b"],
        b"Last-Event-ID": [b"1", b"0", b"\xb2", b"-1", b'"3"', b"9" * 40],
        b"Accept-Language": [b"fr", b"fr-FR,fr;q=0.9,en;q=0.5", b"en;q=\xb2, fr;q=nan", b"*", b"fr;q=1e999"],
        b"Content-Type": [
            b"application/json",
            b"application/json; charset=utf-8",
            b"text/plain",
            b"application/xml",
            b"application/x-ndjson",
            b"application/vnd.x+json; charset=\xe9",
            b"/",
            b"application/json;",
        ],
        b"Content-Length": [b"0", b"5", b"99999999", b"18446744073709551615", b"abc", b"-1", b"1,1", b" 7\t"],
        b"X-Request-ID": [b"abc", b"\xe9t\xe9", b"x" * 65, b"a b", b"id-1"],
    }[name]


def hostile_value(name: bytes, game: Game, arbitrary: st.SearchStrategy[bytes]) -> st.SearchStrategy[bytes]:
    known = st.sampled_from(typical(name, game))
    return st.one_of(known, arbitrary, TEXT_BYTES, st.tuples(known, arbitrary).map(b"".join))


def path_value(name: str, game: Game) -> st.SearchStrategy[str]:
    """A path parameter, percent-encoded byte by byte (so NUL, `/`, `%` and bytes above 0x7F arrive as such)."""
    real = {"game_id": [game.id, "g_AAAAAAAAAAAAAAAA", game.id + "x", "g_nope"], "ruleset_id": ["2019", "x"]}
    known = real.get(name, ["x"])
    raw = st.one_of(ANY_BYTES, TEXT_BYTES).map(lambda b: urllib.parse.quote(b, safe=""))
    return st.one_of(st.just(known[0]), st.just(known[0]), st.sampled_from(known), raw)


BODIES = {
    ("POST", "/games"): (b"application/json", b'{"players": [{"name": "A"}, {"name": "B"}]}'),
    ("POST", "/games/{game_id}/moves"): (b"application/json", HANDMAID),  # Bob's, out of turn: judged, refused
    ("POST", "/games/{game_id}/seed"): (b"application/json", b'{"seed": "' + b"cd" * 32 + b'"}'),
    ("POST", "/rulings"): (b"application/json", b'{"log": "", "at": 1, "move": {}}'),
    ("POST", "/audits"): (b"application/x-ndjson", b""),
}


def uvicorn_refuses(headers: Sequence[tuple[bytes, bytes]]) -> bool | None:
    """Whether uvicorn's parser refuses these headers before the application (None: it may, or may not)."""
    for name, value in headers:
        if CTL & set(value):
            return True
        if name == b"Content-Length":
            digits = value.strip(b" \t")
            if not digits or not digits.isdigit():
                return True
            if len(digits) >= 20:
                return None if int(digits) < 2**64 else True
    return False


@dataclass
class Request:
    method: str
    route: str
    target: str
    headers: list[tuple[bytes, bytes]]
    body: bytes
    length: Any


@st.composite
def requests(draw: st.DrawFn, group: str, game: Game) -> Request:
    """A request to a route of `group`: its path parameters drawn, some headers well-formed and up to three hostile
    (in one request of eight, with bytes uvicorn's parser refuses; else most requests would stop there)."""
    method, template = draw(st.sampled_from(GROUPS[group]))
    target = PARAM.sub(lambda m: draw(path_value(m[1], game)), template)
    media, body = BODIES.get((method, template), (None, b""))
    present = draw(st.lists(st.sampled_from(HEADERS), unique=True, max_size=len(HEADERS)))
    if b"Authorization" not in present and draw(st.integers(0, 3)):  # most requests carry a token
        present.append(b"Authorization")
    hostile = draw(st.lists(st.sampled_from(present), unique=True, max_size=3)) if present else []
    arbitrary = ANY_BYTES if draw(st.integers(0, 7)) == 0 else FIELD_BYTES
    headers = []
    for name in present:
        if name in hostile and name != b"Content-Length":
            headers.append((name, draw(hostile_value(name, game, arbitrary))))
        elif name not in (b"Content-Type", b"Content-Length"):
            headers.append((name, good(name, game)))
    if media is not None and b"Content-Type" not in hostile:
        headers.append((b"Content-Type", media))
    length: Any = KEEP
    if b"Content-Length" in hostile:
        length = draw(hostile_value(b"Content-Length", game, arbitrary))
        digits = length.strip(b" \t")
        if digits.isdigit() and int(digits) <= 65536:  # a body of exactly that length (else: refused as too large)
            body = body[: int(digits)].ljust(int(digits), b" ")
    return Request(method, template, target, headers, body, length)


def check(hostile: Hostile, game: Game, request: Request) -> None:
    before = hostile.log(game)
    sent_headers = [*request.headers] + ([(b"Content-Length", request.length)] if request.length is not KEEP else [])
    reply = exchange(hostile.url, request.method, request.target, request.headers, request.body, request.length)
    said = f"{request.method} {request.target} {sent_headers} -> {reply.status} {reply.headers} {reply.body[:300]!r}"
    refused = uvicorn_refuses(sent_headers)
    if refused or (refused is None and parser_refusal(reply)):
        assert parser_refusal(reply), said
    else:
        assert reply.status < 500 and not parser_refusal(reply), said
        if reply.status >= 400:
            reply.problem()
        sent_id = dict(request.headers).get(b"X-Request-ID")
        if sent_id is not None and re.fullmatch(rb"[!-~]{1,64}", sent_id):
            assert reply.headers.get("x-request-id") == sent_id.decode(), said
        else:
            assert re.fullmatch(r"[!-~]{1,64}", reply.headers.get("x-request-id", "")), said
    if reply.status >= 400:
        assert hostile.log(game) == before, f"a refused request changed the game's log: {said}"
    else:
        game.version = len(hostile.log(game))  # Bob's seed may be recorded once: a good If-Match follows it
    code = orjson.loads(reply.body).get("code") if reply.media == "application/problem+json" else None
    event(f"{request.method} {request.route} -> {reply.status} {code or ''}")


@pytest.fixture(scope="module")
def searched(hostile: Hostile) -> Game:
    """The game the search aims at (Alice to move: every move the search may judge is Bob's, out of turn)."""
    return hostile.new_game()


SEARCH = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@settings(SEARCH, max_examples=250)
@given(data=st.data())
def test_no_header_or_path_bytes_get_a_5xx_on_a_game_route(hostile: Hostile, searched: Game, data: Any) -> None:
    check(hostile, searched, data.draw(requests("game", searched), label="request"))


@pytest.mark.parametrize("group", ["other parameters", "no parameter"])
@settings(SEARCH, max_examples=150)
@given(data=st.data())
def test_no_header_or_path_bytes_get_a_5xx_on_another_route(
    hostile: Hostile, searched: Game, group: str, data: st.DataObject
) -> None:
    check(hostile, searched, data.draw(requests(group, searched), label="request"))
