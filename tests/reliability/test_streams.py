"""An open event stream delivers every event of its game, in order, for as long as it is open, whatever happens to
the referee's cache of folded games: evicted by other games (`cache_games` small), reloaded from the store by the
next move, refreshed after another worker's appends. Real servers on 127.0.0.1, on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest

from loveletter.events.postgres_store import PostgresStore
from loveletter.server.settings import Settings
from tests.servers import (
    ADMIN,
    Server,
    client,
    create_game,
    open_test_store,
    play_game,
    read_sse,
    serve,
)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)

CACHE = 2
"""Games a server keeps folded in memory here: a few games created elsewhere push any game out."""

SILENCE = 8.0
"""Seconds a stream may stay quiet while events are due (below the 15 s keep-alive, so silence is a timeout)."""

UNLIMITED = {"create_rate": 0, "move_rate": 0}
"""Rate limits off: these tests create games and move as fast as they can (settings an older referee ignores)."""

BOTS = [{"name": "Hal", "bot": "random"}, {"name": "Ida", "bot": "random"}]


@pytest.fixture(name="small", scope="module", params=["sqlite", "postgres"])
def small_cache_server(request: pytest.FixtureRequest) -> Iterator[Server]:
    """A server that keeps only `CACHE` games in memory."""
    kind = request.param
    store = open_test_store(kind, request)
    url = "sqlite:///unused.db" if kind == "sqlite" else request.getfixturevalue("pg_url")
    settings = Settings(database_url=url, admin_token=ADMIN, log_level="warning", cache_games=CACHE, **UNLIMITED)
    try:
        with serve(settings, store) as base:
            yield Server(base, kind, store)
    finally:
        store.close()


def churn(base_url: str, games: int = CACHE) -> None:
    """Create (and, all seats being bots, play to the end) more games than the cache holds."""
    for _ in range(games):
        created = create_game(base_url, BOTS)
        assert created["version"] > 1


class SseReader:
    """An open event stream read block by block, each read failing if the stream stays silent `SILENCE` s."""

    def __init__(self, response: httpx.Response) -> None:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"].startswith("text/event-stream")
        self._lines = response.iter_lines()
        self.last = 0

    def next(self) -> dict[str, Any] | None:
        """The next event ({"id", "event", "data"}), or None when the server closed the stream."""
        try:
            return self._next()
        except httpx.ReadTimeout:
            raise AssertionError(f"the stream went silent for {SILENCE} s after seq {self.last}") from None

    def _next(self) -> dict[str, Any] | None:
        block: dict[str, Any] = {}
        for line in self._lines:
            if line.startswith(":"):
                continue
            if not line:
                if block:
                    block["data"] = orjson.loads(block["data"])
                    self.last = int(block["id"])
                    return block
                continue
            name, _, value = line.partition(":")
            block[name] = value.removeprefix(" ")
        return None

    def until(self, version: int, got: list[dict[str, Any]]) -> None:
        while not got or int(got[-1]["id"]) < version:
            event = self.next()
            assert event is not None, f"the stream closed at {got[-1]['id'] if got else 0}, before {version}"
            got.append(event)


def silent_client(base_url: str, token: str | None = None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx.Client(base_url=base_url, headers=headers, timeout=httpx.Timeout(30, read=SILENCE))


def stream_everything(base_urls: list[str], stream_url: str, *, seat: int | None, seed: int) -> None:
    """Play a game on `base_urls` (alternating) while its stream on `stream_url` is open (as `seat`, with its token
    in `Authorization: Bearer`, or as a spectator), pushing the game out of every server's cache after each move:
    the stream must deliver seqs 1..end exactly, each as the caller's /events has it, then close."""
    created = create_game(base_urls[0], [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    gid = created["game_id"]
    token = None if seat is None else created["seats"][seat]["token"]
    got: list[dict[str, Any]] = []

    def evict(seat: int, kind: str, answer: dict[str, Any]) -> None:
        if kind == "move":
            for base in {*base_urls, stream_url}:
                churn(base)
            reader.until(answer["version"], got)  # the stream follows, move after move

    with silent_client(stream_url, token) as c, c.stream("GET", f"/games/{gid}/stream") as r:
        reader = SseReader(r)
        reader.until(created["version"], got)
        churn(stream_url)  # evicted before the first move already
        answers = play_game(base_urls, created, random.Random(seed), observe=evict)
        assert reader.next() is None, "the stream stays open after game_ended"
    final = answers[-1][1]["version"]
    assert [int(m["id"]) for m in got] == list(range(1, final + 1))
    assert [m["data"]["seq"] for m in got] == list(range(1, final + 1))
    assert [m["event"] for m in got[-2:]] == ["game_ended", "seed_revealed"]
    with client(stream_url, token) as caller:
        assert [m["data"] for m in got] == caller.get(f"/games/{gid}/events").json()["events"]
    hands = ["hand" in m["data"] for m in got if m["event"] == "round_started"]
    assert hands and all(hands) if seat is not None else not any(hands)


def test_a_stream_delivers_every_event_while_its_game_is_evicted(small: Server) -> None:
    stream_everything([small.url], small.url, seat=None, seed=1)


def test_a_header_authenticated_stream_delivers_the_seats_view_through_evictions(small: Server) -> None:
    created = create_game(small.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    gid, bob = created["game_id"], created["seats"][1]["token"]
    mine = read_sse(small.url, f"/games/{gid}/stream", bob, limit=2)  # Authorization: Bearer <Bob's token>
    assert mine[1]["event"] == "round_started" and "hand" in mine[1]["data"]  # Bob's own hand: his seat's view
    assert "hand" not in read_sse(small.url, f"/games/{gid}/stream", limit=2)[1]["data"]
    bad = httpx.get(f"{small.url}/games/{gid}/stream", headers={"Authorization": "Bearer not-a-seat"}, timeout=10)
    assert bad.status_code == 403 and bad.json()["code"] == "token_rejected"
    stream_everything([small.url], small.url, seat=1, seed=2)


def test_a_stream_resumes_with_last_event_id_after_the_eviction(small: Server) -> None:
    created = create_game(small.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    gid, bob = created["game_id"], created["seats"][1]["token"]
    got: list[dict[str, Any]] = []
    with silent_client(small.url, bob) as c, c.stream("GET", f"/games/{gid}/stream") as r:
        reader = SseReader(r)
        reader.until(created["version"], got)
    # the connection dropped; the game is played on and evicted meanwhile
    answers: list[Any] = []

    def evict(seat: int, kind: str, answer: dict[str, Any]) -> None:
        if kind == "move":
            churn(small.url)
            answers.append(answer)

    with client(small.url) as spectator:
        assert spectator.get(f"/games/{gid}").json()["version"] == created["version"]
    play_game(small.url, created, random.Random(4), observe=evict, max_moves=5000)
    churn(small.url)
    final = answers[-1]["version"]
    with (
        silent_client(small.url, bob) as c,
        c.stream("GET", f"/games/{gid}/stream", headers={"Last-Event-ID": got[-1]["id"]}) as r,
    ):
        reader = SseReader(r)
        rest: list[dict[str, Any]] = []
        reader.until(final, rest)
        assert reader.next() is None
    assert [int(m["id"]) for m in got + rest] == list(range(1, final + 1))


def test_a_stream_on_one_worker_hears_moves_made_on_another_while_evicted(pg_url: str) -> None:  # noqa: F811
    """Two workers on one PostgreSQL database, each caching `CACHE` games, moves going to each in turn: the
    streaming worker hears of the other's appends by NOTIFY while the game is out of its cache, and refreshes the
    game when it is in."""
    stores = [PostgresStore(pg_url), PostgresStore(pg_url)]
    settings = Settings(database_url=pg_url, admin_token=ADMIN, log_level="warning", cache_games=CACHE, **UNLIMITED)
    try:
        with serve(settings, stores[0]) as streaming, serve(settings, stores[1]) as other:
            stream_everything([other, streaming], streaming, seat=0, seed=5)
    finally:
        for store in stores:
            store.close()
