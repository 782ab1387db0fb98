"""Every answer of the referee conforms to its OpenAPI document (issue 14's contract): schemathesis generates
requests for every operation from the document, valid ones and invalid ones, aims half of them at real games
with real tokens (a game being played, a finished one, a lobby game with an open seat), and runs its response
checks — no 5xx, every status documented, the content type declared, the body valid against the declared schema,
the declared headers present.

The document's schemas leave unknown fields allowed (a client built today must read tomorrow's answers); the
tests below also hold every answer to a strict copy that allows only the declared fields, so nothing the
server sends goes undocumented: bodies, each event of a game stream, each lobby news item, each log line."""

from __future__ import annotations

import copy
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import orjson
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from loveletter.api.openapi import stream_payload
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.servers import ADMIN, create_game, serve, sse_items

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
]
EXAMPLES = int(os.environ.get("LOVELETTER_CONFORMANCE_EXAMPLES", "30"))
"""Requests generated per operation, valid and invalid ones (some 40 operations: 30 each is about a minute of the
suite's time; `make fuzz-api` runs the long search)."""
NEVER_ENDS = {("GET", "/lobby/stream")}
"""A stream that stays open for news: its frames are checked by `test_lobby_news_are_declared` instead."""


@schemathesis.serializer("application/x-ndjson")
def _as_text(ctx: Any, value: Any) -> bytes:
    """A log sent to POST /audits is text: generated strings go as UTF-8, anything else as its JSON."""
    return value.encode() if isinstance(value, str) else json.dumps(value).encode()  # any int, not only 64-bit


class Tables:
    """Real games to aim requests at: their ids and the tokens that matter to them."""

    def __init__(self, base: str) -> None:
        playing = create_game(base, [{"name": "Ann"}, {"name": "Bot", "bot": "heuristic"}], public=True)
        finished = create_game(base, [{"name": "Cid"}, {"name": "Bot", "bot": "random"}])
        lobby = create_game(
            base, [{"name": "Dee"}, {"open": True}, {"open": True}], public=True, turn_seconds=600, on_timeout="bot"
        )
        finish(base, finished["game_id"], finished["seats"][0]["token"])
        self.base = base
        self.playing = (playing["game_id"], playing["seats"][0]["token"])
        self.running = [playing["game_id"], lobby["game_id"]]
        self.finished = [finished["game_id"]]
        self.tokens = [
            ADMIN,
            playing["seats"][0]["token"],
            playing["organiser_token"],
            finished["seats"][0]["token"],
            lobby["seats"][0]["token"],
            lobby["organiser_token"],
        ]
        self.invites = [s["invite"] for s in lobby["seats"] if s.get("invite")]
        self.logs = [httpx.get(f"{base}/games/{finished['game_id']}/log").text]


def finish(base: str, game_id: str, token: str) -> None:
    """Play the seat's first legal move until the game is over (its bot opponent answers at once)."""
    with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {token}"}) as seat:
        while not (game := seat.get(f"/games/{game_id}").json())["over"]:
            code = game["legal_moves"][0]["action_code"]
            seat.post(f"/games/{game_id}/moves", json={"type": "code", "action_code": code}).raise_for_status()


@pytest.fixture(scope="module")
def referee() -> Iterator[str]:
    tmp = tempfile.mkdtemp(prefix="loveletter-conformance-")
    path = str(Path(tmp) / "games.db")
    settings = Settings(
        database_url=f"sqlite:///{path}", log_level="error", admin_token=ADMIN, create_rate=0, move_rate=0
    )
    with serve(settings, SqliteStore(path)) as base:
        yield base


@pytest.fixture(scope="module")
def document(referee: str) -> dict[str, Any]:
    return httpx.get(f"{referee}/openapi.json").json()  # type: ignore[no-any-return]


def strict(document: dict[str, Any]) -> dict[str, Any]:
    """A copy of the document in which every object schema allows only the properties it declares."""

    def close(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: close(v) for k, v in node.items()}
            if "properties" in out and "additionalProperties" not in out:
                out["additionalProperties"] = False
            return out
        if isinstance(node, list):
            return [close(v) for v in node]
        return node

    return close(copy.deepcopy(document))  # type: ignore[no-any-return]


def undeclared(closed: dict[str, Any], schema: dict[str, Any], instance: Any) -> list[str]:
    """What in `instance` the strict document's `schema` (a `$ref` into it) does not allow."""
    validator = jsonschema.Draft202012Validator({**closed, **schema})
    return [f"{list(e.absolute_path)}: {e.message[:300]}" for e in validator.iter_errors(instance)]


def declared_schema(document: dict[str, Any], method: str, path: str, status: int, media: str) -> Any:
    responses = document["paths"][path][method.lower()]["responses"]
    return responses[str(status)].get("content", {}).get(media, {}).get("schema")


SHARDS = 4
"""The operations are split in this many tests (by their place in the sorted list), so that the suite's workers
share them: one test of every operation was the suite's slowest (70 s on a busy machine)."""


@pytest.mark.parametrize("shard", range(SHARDS))
def test_every_answer_conforms_to_the_document(referee: str, document: dict[str, Any], shard: int) -> None:
    tables = Tables(referee)
    closed = strict(document)
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=referee)
    failures: list[str] = []
    reached: dict[str, set[int]] = {}
    operations = sorted(
        ((op.method.upper(), op.path), op) for op in (result.ok() for result in schema.get_all_operations())
    )
    assert len(operations) >= 18, [key for key, _ in operations]
    mine = [(key, op) for i, (key, op) in enumerate(operations) if i % SHARDS == shard and key not in NEVER_ENDS]
    for key, operation in mine:
        exercise(operation, key, tables, document, closed, failures, reached)
    assert failures == [], "\n".join(failures[:10])
    # Every operation answered, and the run reached real games, not only 404s: each game route a 2xx at least once.
    assert sorted(reached) == sorted(" ".join(key) for key, _ in mine)
    for route in ("GET /games/{game_id}", "POST /games/{game_id}/moves", "GET /games/{game_id}/events"):
        if route in reached:
            assert any(200 <= s < 300 for s in reached[route]), (route, reached[route])
    games = {"GET /games/{game_id}", "POST /games/{game_id}/moves", "GET /games/{game_id}/events"}
    assert games <= {" ".join(key) for key, _ in operations}  # the three are in some shard


def exercise(
    operation: Any,
    key: tuple[str, str],
    tables: Tables,
    document: dict[str, Any],
    closed: dict[str, Any],
    failures: list[str],
    reached: dict[str, set[int]],
) -> None:
    """Run schemathesis' checks on `EXAMPLES` generated requests to one operation, and the strict schema."""

    @settings(
        max_examples=EXAMPLES, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck)
    )
    @given(
        case=st.one_of(operation.as_strategy(), operation.as_strategy(GenerationMode.NEGATIVE)),
        aim=st.integers(0, 99),
        token=st.sampled_from([None, *tables.tokens]),
        invite=st.sampled_from([None, *tables.invites]),
    )
    def run(case: Any, aim: int, token: str | None, invite: str | None) -> None:
        aim_at_tables(case, key, aim, token, invite, tables)
        try:
            response = case.call_and_validate(checks=CHECKS, timeout=20)
        except (AssertionError, FailureGroup) as exc:
            failures.append(f"{key} {case.path_parameters} {case.headers}: {str(exc)[:1500]}")
            return
        reached.setdefault(" ".join(key), set()).add(response.status_code)
        media = (response.headers.get("content-type") or [""])[0].split(";")[0]
        if media in ("application/json", "application/problem+json") and response.content:
            declared = declared_schema(document, *key, response.status_code, media)
            if declared is not None:
                wrong = undeclared(closed, declared, response.json())
                if wrong:
                    failures.append(f"{key} {response.status_code}: undeclared {wrong[:3]}")

    run()


def aim_at_tables(case: Any, key: tuple[str, str], aim: int, token: str | None, invite: str | None, t: Tables) -> None:
    """Half the cases go to a real game with a real token; a game's stream only to a finished game (a running
    game's stream stays open until it ends)."""
    path = key[1]
    if "game_id" in (case.path_parameters or {}):
        if path.endswith("/stream"):
            case.path_parameters["game_id"] = t.finished[aim % len(t.finished)]
        elif aim < 50:
            games = t.finished if path.endswith(("/log", "/rematch")) and aim < 25 else t.running + t.finished
            case.path_parameters["game_id"] = games[aim % len(games)]
    if token is not None and aim % 4 != 0:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
    if path.endswith("/join") and invite is not None and isinstance(case.body, dict):
        case.body = {**case.body, "invite": invite}
    if path.endswith("/moves") and aim < 30:
        aim_a_legal_move(case, t, aim)
    if path == "/audits" and aim < 50:
        case.body = t.logs[0]
        case.media_type = "application/x-ndjson"


def aim_a_legal_move(case: Any, t: Tables, aim: int) -> None:
    """The seat whose turn it is, with one of its legal moves by action code (while its game lasts)."""
    game_id, token = t.playing
    game = httpx.get(f"{t.base}/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
    if game["over"]:  # the run resigned, aborted or played it to its end: a new one
        created = create_game(t.base, [{"name": "Ann"}, {"name": "Bot", "bot": "heuristic"}])
        game_id, token = t.playing = (created["game_id"], created["seats"][0]["token"])
        game = httpx.get(f"{t.base}/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
    if game["your_turn"]:
        case.path_parameters["game_id"] = game_id
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
        case.body = {"type": "code", "action_code": game["legal_moves"][aim % len(game["legal_moves"])]["action_code"]}


def test_game_stream_events_are_declared(referee: str, document: dict[str, Any]) -> None:
    """Each frame of a game's stream, as a seat and as a spectator, is the declared payload of its kind."""
    closed = strict(document)
    stream = declared_schema(document, "GET", "/games/{game_id}/stream", 200, "text/event-stream")
    created = create_game(referee, [{"name": "Eve"}, {"name": "Bot", "bot": "heuristic"}])
    finish(referee, created["game_id"], created["seats"][0]["token"])
    seen = set()
    for token in (created["seats"][0]["token"], None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        with httpx.stream("GET", f"{referee}/games/{created['game_id']}/stream", headers=headers, timeout=20) as r:
            assert r.headers["content-type"].startswith("text/event-stream")
            for item in sse_items(r):
                data = item["data"]
                assert item["event"] == data["type"] and int(item["id"]) == data["seq"]
                assert undeclared(closed, stream_payload(stream, item["event"]), data) == [], data
                seen.add(item["event"])
    assert {"round_started", "turn_started", "card_played", "round_ended", "game_ended"} <= seen


def test_lobby_news_are_declared(referee: str, document: dict[str, Any]) -> None:
    closed = strict(document)
    stream = declared_schema(document, "GET", "/lobby/stream", 200, "text/event-stream")
    lobby = create_game(referee, [{"name": "Fay"}, {"open": True}], public=True)
    httpx.post(
        f"{referee}/games/{lobby['game_id']}/join", json={"name": "Gus", "invite": lobby["seats"][1]["invite"]}
    ).raise_for_status()
    kinds = set()
    with httpx.stream("GET", f"{referee}/lobby/stream", params={"after": 0}, timeout=20) as r:
        for item in sse_items(r):
            data = item["data"]
            assert undeclared(closed, stream_payload(stream, item["event"]), data) == [], data
            kinds.add(item["event"])
            if data["game_id"] == lobby["game_id"] and item["event"] == "game_started":
                break
    assert {"game_opened", "game_started"} <= kinds


def test_every_log_line_is_a_declared_log_line(referee: str, document: dict[str, Any]) -> None:
    closed = strict(document)
    line_schema = declared_schema(document, "GET", "/games/{game_id}/log", 200, "application/x-ndjson")["x-line"]
    created = create_game(referee, [{"name": "Hal"}, {"name": "Bot", "bot": "heuristic"}])
    finish(referee, created["game_id"], created["seats"][0]["token"])
    lines = httpx.get(f"{referee}/games/{created['game_id']}/log").text.splitlines()
    assert len(lines) > 10
    for line in lines:
        assert undeclared(closed, line_schema, orjson.loads(line)) == [], line


def test_a_strict_copy_refuses_an_undeclared_field(document: dict[str, Any]) -> None:
    """The strict check can fail: a field the document does not declare is named."""
    closed = strict(document)
    answer = {"status": "ok", "store": "SqliteStore", "uptime": 5}
    assert undeclared(closed, {"$ref": "#/components/schemas/Health"}, answer) != []
    assert undeclared(document, {"$ref": "#/components/schemas/Health"}, answer) == []


def test_the_organisers_token_may_not_move_or_seed(referee: str) -> None:
    """Found by the conformance run: a move or a seed sent with the organiser's token (which reads the game as a
    spectator, but holds no seat) failed an assert — a 500. It is a 403 naming the token, and nothing is recorded."""
    created = create_game(referee, [{"name": "Ivy"}, {"name": "Jon"}])
    game = f"{referee}/games/{created['game_id']}"
    organiser = {"Authorization": f"Bearer {created['organiser_token']}"}
    before = httpx.get(f"{game}/events").json()["version"]
    for path, body in (("/moves", {"type": "code", "action_code": 0}), ("/seed", {"seed": "ab" * 32})):
        answer = httpx.post(game + path, json=body, headers=organiser)
        assert answer.status_code == 403, answer.text
        assert answer.headers["content-type"].startswith("application/problem+json")
        assert answer.json()["code"] == "token_rejected"
    assert httpx.get(f"{game}/events").json()["version"] == before


def test_every_example_in_the_document_fits_its_schema(document: dict[str, Any]) -> None:
    """The examples readers copy from (/docs) are answers the schemas accept, with no undeclared field."""
    closed = strict(document)
    checked = 0
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for status, entry in operation["responses"].items():
                for media, content in entry.get("content", {}).items():
                    if "example" in content and media in ("application/json", "application/problem+json"):
                        wrong = undeclared(closed, content["schema"], content["example"])
                        assert wrong == [], (method, path, status, wrong)
                        checked += 1
    assert checked >= 40
