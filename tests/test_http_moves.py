"""The move route's short path (`RefereeApp` answering `POST /games/{id}/moves` itself) answers exactly what
FastAPI's declared route answers: the same status, body and headers for moves, replays and every refusal."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.api.moves import RefereeApp
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.app import create_app
from loveletter.server.settings import Settings
from tests.test_http_games import SCENARIO

PLAYERS = [{"name": "Ann"}, {"name": "Bob"}]
GUARD_MISS = {"type": "play", "card": "guard", "target": "Bob", "guess": "baron"}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[RefereeApp]:
    store = SqliteStore(str(tmp_path / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", key_path=str(tmp_path / "key"), log_level="warning")
    built = create_app(settings, store)
    assert isinstance(built, RefereeApp) and built.moves is not None
    try:
        yield built
    finally:
        store.close()


Answer = tuple[int, dict[str, str], bytes]


class Both:
    """Sends each request twice, once on the short path and once through FastAPI, and returns both answers."""

    def __init__(self, app: RefereeApp) -> None:
        self.app = app
        self.short = app.moves
        self.client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, raise_app_exceptions=False), base_url="http://test"
        )

    async def create(self, **body: Any) -> dict[str, Any]:
        r = await self.client.post("/games", json={"players": PLAYERS, **body})
        assert r.status_code == 201, r.text
        created: dict[str, Any] = r.json()
        return created

    async def post(self, short: bool, path: str, content: bytes, headers: dict[str, str]) -> Answer:
        self.app.moves = self.short if short else None
        try:
            r = await self.client.post(path, content=content, headers=headers)
        finally:
            self.app.moves = self.short
        kept = {k: v for k, v in r.headers.items() if k != "x-request-id"}
        assert "x-request-id" in r.headers or r.status_code == 500  # FastAPI's error middleware answers outside
        return r.status_code, kept, r.content

    async def same(self, path: str, content: bytes, headers: dict[str, str]) -> Answer:
        """A request that changes nothing, answered the same way on both paths."""
        short = await self.post(True, path, content, headers)
        routed = await self.post(False, path, content, headers)
        assert short == routed
        return short


def run(test: Any) -> None:
    asyncio.run(test)


def test_a_move_is_answered_the_same_on_both_paths(app: RefereeApp) -> None:
    async def scenario() -> None:
        both = Both(app)
        games = [await both.create(scenario=SCENARIO, first_player="Ann") for _ in range(2)]
        answers = []
        for short, game in zip((True, False), games, strict=True):
            token = game["seats"][0]["token"]
            headers = {"Authorization": f"Bearer {token}", "If-Match": f'"{game["version"]}"'}
            body = httpx.Request("POST", "/", json=GUARD_MISS).content
            answers.append(await both.post(short, f"/games/{game['game_id']}/moves", body, headers))
        assert answers[0] == answers[1]
        status, headers, _ = answers[0]
        assert status == 200 and headers["content-type"] == "application/json" and headers["etag"].strip('"')

    run(scenario())


def test_replays_and_refusals_are_answered_the_same_on_both_paths(app: RefereeApp) -> None:
    async def scenario() -> None:
        both = Both(app)
        game = await both.create(scenario=SCENARIO, first_player="Ann")
        path = f"/games/{game['game_id']}/moves"
        ann, bob = (f"Bearer {s['token']}" for s in game["seats"])
        move = httpx.Request("POST", "/", json=GUARD_MISS).content
        refusals: list[tuple[str, bytes, dict[str, str], int]] = [
            (path, move, {}, 401),
            (path, move, {"Authorization": "Basic abc"}, 401),
            (path, move, {"Authorization": "Bearer nope"}, 403),
            ("/games/g_missing/moves", move, {"Authorization": ann}, 404),
            (path, b"{not json", {"Authorization": ann}, 400),
            (path, b'{"type": "play", "card": "joker"}', {"Authorization": ann}, 422),
            (path, move, {"Authorization": ann, "If-Match": "twelve"}, 400),
            (path, move, {"Authorization": ann, "If-Match": '"1"'}, 412),
            (path, move, {"Authorization": ann, "Idempotency-Key": "k" * 201}, 400),
            (path, move, {"Authorization": bob}, 409),
            (path, move, {"Authorization": bob, "Accept-Language": "fr"}, 409),
            (path, b'{"type": "play", "card": "princess"}', {"Authorization": ann, "Accept-Language": "fr"}, 422),
            (path, b'{"type": "code", "action_code": 9999}', {"Authorization": ann}, 422),
            # read the way FastAPI reads the declared body: nothing, text, bytes that are not UTF-8, JSON the
            # standard library takes and a faster reader does not, and the order of the checks
            (path, b"", {"Authorization": ann}, 422),
            (path, b'{"type": "code", "action_code": NaN}', {"Authorization": ann}, 422),
            (path, b'{"type": "code", "action_code": 123456789012345678901234567890}', {"Authorization": ann}, 422),
            (path, b'{"type": "\xff"}', {"Authorization": ann}, 400),
            # a valid move read in one step by pydantic's JSON reader (the usual way) is judged as the long way does
            (path, b'{"type": "play", "type": "code", "action_code": 9999}', {"Authorization": ann}, 422),
            (path, b'{"type": "code", "action_code": 9999.0}', {"Authorization": ann}, 422),
            (path, b'{"type": "code", "action_code": "9999"}', {"Authorization": ann}, 422),
            (path, b"\xef\xbb\xbf" + move, {"Authorization": bob}, 409),
            (path, b"{not json", {"Authorization": ann, "Content-Type": "text/plain"}, 415),
            (path, b"{not json", {"Authorization": "Basic abc"}, 400),
            ("/games/g_missing/moves", b"{}", {"Authorization": "Basic abc", "Content-Type": "text/plain"}, 404),
            (path, b"{}", {"Authorization": "Basic abc", "Content-Type": "text/plain"}, 415),
            (path, b"{}", {"Authorization": "Basic abc"}, 401),
        ]
        for where, body, headers, status in refusals:
            answer = await both.same(where, body, headers)
            assert answer[0] == status, (headers, answer)
            assert answer[1]["content-type"] == "application/problem+json"

        keyed = {"Authorization": ann, "Idempotency-Key": "move-1"}
        first = await both.post(True, path, move, keyed)
        assert first[0] == 200 and "etag" in first[1]
        replayed = await both.same(path, move, keyed)
        assert replayed[0] == 200 and replayed[1]["idempotent-replayed"] == "true" and replayed[2] == first[2]
        reused = await both.same(path, b'{"type": "play", "card": "baron", "target": 1}', keyed)
        assert reused[0] == 422 and b"idempotency_key_reused" in reused[2]

    run(scenario())


def test_an_unexpected_failure_is_a_500_problem_on_both_paths(app: RefereeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the disk caught fire")

    async def scenario() -> None:
        both = Both(app)
        game = await both.create()
        monkeypatch.setattr(app.state.referee, "move", broken)
        token = f"Bearer {game['seats'][0]['token']}"
        status, headers, body = await both.same(f"/games/{game['game_id']}/moves", b"{}", {"Authorization": token})
        assert status == 422  # the body is judged before the referee is asked
        status, headers, body = await both.same(
            f"/games/{game['game_id']}/moves", b'{"type": "code", "action_code": 1}', {"Authorization": token}
        )
        assert status == 500 and headers["content-type"] == "application/problem+json"
        assert b"internal_error" in body

    run(scenario())
