"""Every route of the OpenAPI document, walked on a game in play with a seat's token, a spectator (no token), the
organiser's token and a wrong token, and each answer held against the referee's own reader for that credential: no
route shows more than the reader does. The routes are read from the document itself, so a route added later is
walked without editing this test; one the test does not know is held to the rule every answer must keep (no hand
but the viewer's own, no deck, no set-aside card, no token), and must refuse a wrong token.

A real server on 127.0.0.1 (uvicorn in a thread, SQLite); the reader is asked in process, on the server's loop."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest
import uvicorn

from loveletter.events.pgcluster import free_port
from loveletter.events.sqlite_store import SqliteStore
from loveletter.referee.referee import Reader, Referee, Refusal
from loveletter.server.app import create_app
from loveletter.server.settings import Settings
from tests.servers import ADMIN, STARTUP_SECONDS, _Server, client, create_game, sse_items

WRONG = "not-a-token-of-this-game-0123456789"
HIDDEN = ("hands", "deck", "set_aside", "server_seed", "token", "organiser_token", "invite")
"""Keys no viewer but the admin may find in a game's answers while it is in play (a spectator sees no hand)."""


class Site:
    def __init__(self, url: str, referee: Referee, loop: asyncio.AbstractEventLoop) -> None:
        self.url, self.referee, self.loop = url, referee, loop

    def on_loop(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(30)

    def reader(self, game: str, token: str | None, asker: str = "seat") -> Reader | Refusal:
        try:
            found: Reader = self.on_loop(self.referee.reader(game, token, asker=asker))  # type: ignore[arg-type]
        except Refusal as refused:
            return refused
        return found


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    path = tmp_path_factory.mktemp("walk") / "referee.db"
    store = SqliteStore(str(path))
    settings = Settings(database_url=f"sqlite:///{path}", key_path=str(path.parent / "k"), admin_tokens=ADMIN)
    app = create_app(settings, store)
    port = free_port()
    server = _Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield Site(f"http://127.0.0.1:{port}", app.state.referee, server.servers[0].get_loop())
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


@pytest.fixture(scope="module")
def game(site: Site) -> dict[str, Any]:
    """Three seats, a spectator delay of one move, moves made until a round has ended (its set-aside card shown to
    all) or twelve moves: still in play, the spectator one move behind."""
    created = create_game(site.url, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}], spectator_delay=1)
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(12):
        seen = client(site.url, tokens[0]).get(f"/games/{created['game_id']}").json()
        if seen["view"]["round"] > 1 and len(seen["view"]["seats"][0]["front"]) > 0:
            break  # a round ended and the next has begun
        seat = seen["view"]["active"]
        with client(site.url, tokens[seat]) as c:
            moves = c.get(f"/games/{created['game_id']}").json()["legal_moves"]
            assert (
                c.post(
                    f"/games/{created['game_id']}/moves", json={"type": "code", "action_code": moves[0]["action_code"]}
                ).status_code
                == 200
            )
    return created


def credentials(created: dict[str, Any]) -> dict[str, str | None]:
    return {"seat 0": created["seats"][0]["token"], "seat 2": created["seats"][2]["token"], "spectator": None,
            "organiser": created["organiser_token"], "wrong": WRONG}  # fmt: skip


def routes(site: Site) -> dict[tuple[str, str], bool]:
    """Every route of the served OpenAPI document that names a game: (method, path) -> whether it takes a body."""
    paths = httpx.get(f"{site.url}/openapi.json").json()["paths"]
    return {
        (m.upper(), p): "requestBody" in op for p, ops in paths.items() for m, op in ops.items() if "{game_id}" in p
    }


SECRET_KEYS = (*HIDDEN, "hand", "known_hand")


def facts_in(value: Any) -> list[tuple[str, bytes]]:
    """Every (key, value) an answer shows under a key that may hold a secret, wherever it sits."""
    if isinstance(value, dict):
        found = [(k, orjson.dumps(v)) for k, v in value.items() if k in SECRET_KEYS and v not in (None, [], "")]
        return found + [f for item in value.values() for f in facts_in(item)]
    if isinstance(value, list):
        return [f for item in value for f in facts_in(item)]
    return []


def hidden_in(value: Any, allowed: list[tuple[str, bytes]], where: str = "") -> list[str]:
    """Where an answer shows, under a key that may hold a secret (a hand, the deck, the set-aside card, a token), a
    value its viewer's reader never shows (a set-aside card revealed at a round's end is one a reader shows)."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in SECRET_KEYS and item not in (None, [], "") and (key, orjson.dumps(item)) not in allowed:
                found.append(f"{where}.{key}")
            found += hidden_in(item, allowed, f"{where}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += hidden_in(item, allowed, f"{where}[{i}]")
    return found


def version_of(site: Site, game: dict[str, Any]) -> int:
    seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
    version: int = orjson.loads(httpx.get(f"{site.url}/games/{game['game_id']}/events", headers=seat).content)[
        "version"
    ]
    return version


def expected_stream(reader: Reader) -> list[dict[str, Any]]:
    return [{"id": str(e["seq"]), "event": e["type"], "data": e} for e in reader.events(0)["events"]]


def test_every_game_route_shows_no_more_than_the_readers(site: Site, game: dict[str, Any]) -> None:
    gid = game["game_id"]
    before = version_of(site, game)
    walked = set()
    for (method, template), takes_body in routes(site).items():
        path = template.replace("{game_id}", gid)
        for who, token in credentials(game).items():
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            reader = site.reader(gid, token, "seat_or_admin" if template.endswith("/state") else "seat")
            if method != "GET":
                if not takes_body and who in ("seat 0", "seat 2", "organiser"):
                    continue  # a seat's resignation, the organiser's abort: commands, not reads (their own tests)
                answer = httpx.request(method, site.url + path, headers=headers, json={})
                assert 400 <= answer.status_code < 500, (method, path, who, answer.status_code)
                assert hidden_in(answer.json(), []) == [], (method, path, who)
                walked.add((method, template))
                continue
            if template.endswith("/stream"):
                if isinstance(reader, Refusal):
                    assert httpx.get(site.url + path, headers=headers).status_code in (401, 403)
                else:
                    with httpx.stream("GET", site.url + path, headers=headers, timeout=10) as r:
                        items = sse_items(r)
                        got = [next(items) for _ in range(reader.version)]
                    assert got == expected_stream(reader), (path, who)
                walked.add((method, template))
                continue
            answer = httpx.get(site.url + path, headers=headers)
            body = answer.json() if answer.headers["content-type"].endswith("json") else None
            if isinstance(reader, Refusal) and not template.endswith("/log"):
                assert answer.status_code in (401, 403) and body["code"] == reader.code, (path, who)
            elif template == "/games/{game_id}":
                assert body == reader.game(), who
                assert (
                    answer.headers["etag"] == f'"{reader.version}-{"w" if reader.seat is None else f"s{reader.seat}"}"'
                )
            elif template.endswith("/events"):
                assert body == reader.events(0), who
            elif template.endswith("/state"):
                assert body == site.on_loop(reader.state_at(None)), who
            elif template.endswith("/log"):
                log_reader = site.reader(gid, token, "admin")
                assert isinstance(log_reader, Reader)
                with pytest.raises(Refusal) as refused:
                    log_reader.log()
                assert (answer.status_code, body["code"]) == (403, refused.value.code), who
            else:  # a route this test does not know: held to the rule every answer keeps
                assert who != "wrong" or answer.status_code in (401, 403), (path, who)
            shown = facts_in([reader.game(), reader.events(0)]) if isinstance(reader, Reader) else []
            assert hidden_in(body, shown) == [], (path, who)
            walked.add((method, template))
    assert walked == set(routes(site))
    assert {"/games/{game_id}", "/games/{game_id}/events", "/games/{game_id}/state", "/games/{game_id}/stream"} <= {
        p for _, p in walked
    }
    after = version_of(site, game)
    assert after == before, "a refused request changed the game"


def test_the_readers_differ_where_the_credentials_do(site: Site, game: dict[str, Any]) -> None:
    """The walk above can fail: the readers it holds answers against are not all alike. A spectator is one move
    behind (the spectator delay), each seat sees its own hand and no other, and the leak check finds a hand."""
    gid = game["game_id"]
    seat0, seat2, spectator = (
        site.reader(gid, t) for t in (game["seats"][0]["token"], game["seats"][2]["token"], None)
    )
    assert isinstance(seat0, Reader) and isinstance(seat2, Reader) and isinstance(spectator, Reader)
    assert spectator.version < seat0.version == seat2.version
    assert spectator.game()["view"]["hand"] in (None, [])
    full = site.reader(gid, ADMIN, "seat_or_admin")
    assert isinstance(full, Reader) and full.admin
    state = site.on_loop(full.state_at(None, full=True))["state"]
    for seat, reader in ((0, seat0), (2, seat2)):  # each seat sees its own hand, as the whole state holds it
        assert reader.game()["view"]["hand"] == state["hands"][seat]
    assert {".deck", ".hands"} <= set(hidden_in(state, []))  # what no seat may see: the check finds it
    assert re.fullmatch(r"g_[\w-]+", gid)
