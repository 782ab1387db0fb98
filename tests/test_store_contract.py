"""One contract, every store: SQLite and a real PostgreSQL are held to the same tests."""

from __future__ import annotations

import itertools
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from loveletter.core.catalogue import Event
from loveletter.core.commands import StartGame
from loveletter.core.decide import decide
from loveletter.core.state import INITIAL
from loveletter.events.log import Header
from loveletter.events.postgres_store import PostgresStore
from loveletter.events.sqlite_store import SqliteStore
from loveletter.events.store import ConflictError, EventStore, Idempotency
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)

EVENTS: list[Event] = list(decide(INITIAL, StartGame("2019", ("Ann", "Bob"))))
Opener = Callable[[], EventStore]


@pytest.fixture(params=["sqlite", "postgres"])
def opener(request: pytest.FixtureRequest) -> Iterator[Opener]:
    opened: list[EventStore] = []
    if request.param == "sqlite":
        path = request.getfixturevalue("sqlite_path")

        def open_one() -> EventStore:
            opened.append(SqliteStore(path))
            return opened[-1]
    else:
        url = request.getfixturevalue("pg_url")

        def open_one() -> EventStore:
            opened.append(PostgresStore(url))
            return opened[-1]

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(opener: Opener) -> EventStore:
    return opener()


def new_id() -> str:
    return "g_" + uuid.uuid4().hex


def test_created_games_load_back_exactly(store: EventStore) -> None:
    gid = new_id()
    assert store.create(gid, {"ruleset": "2019", "seats": [1, 2]}, EVENTS * 3) == 3
    assert store.load(gid) == [(1, EVENTS[0]), (2, EVENTS[0]), (3, EVENTS[0])]
    assert store.load(gid, after=2) == [(3, EVENTS[0])]
    assert store.meta(gid) == {"ruleset": "2019", "seats": [1, 2]}
    assert gid in store.game_ids()
    assert store.meta(new_id()) is None and store.load(new_id()) == []


def test_a_game_id_is_taken_once(store: EventStore) -> None:
    gid = new_id()
    store.create(gid, {}, EVENTS)
    with pytest.raises(ConflictError):
        store.create(gid, {"other": True}, EVENTS)
    assert store.meta(gid) == {} and len(store.load(gid)) == 1


def test_append_at_a_stale_or_future_version_is_a_conflict_never_an_overwrite(store: EventStore) -> None:
    gid = new_id()
    store.create(gid, {}, EVENTS)
    assert store.append(gid, 1, EVENTS * 2) == 3
    for stale in (0, 1, 2, 4, 10):
        with pytest.raises(ConflictError) as err:
            store.append(gid, stale, EVENTS)
        assert err.value.expected == stale
    assert [seq for seq, _ in store.load(gid)] == [1, 2, 3]


def test_two_writers_racing_at_the_same_version_one_wins(store: EventStore) -> None:
    gid = new_id()
    store.create(gid, {}, EVENTS)
    barrier = threading.Barrier(8)

    def race(_: int) -> str:
        barrier.wait()
        try:
            store.append(gid, 1, EVENTS * 2)
            return "won"
        except ConflictError:
            return "conflict"

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(race, range(8)))
    assert outcomes.count("won") == 1 and outcomes.count("conflict") == 7
    assert len(store.load(gid)) == 3


def test_idempotency_records_are_written_with_the_events(store: EventStore) -> None:
    gid = new_id()
    store.create(gid, {}, EVENTS)
    idem = Idempotency("key-1", "abc", 200, b'{"ok":true}')
    store.append(gid, 1, EVENTS, idem)
    assert store.idempotency(gid, "key-1") == idem
    assert store.idempotency(gid, "key-2") is None
    with pytest.raises(ConflictError):  # the same key twice: the second append is refused whole
        store.append(gid, 2, EVENTS, idem)
    assert len(store.load(gid)) == 2


def test_the_database_itself_refuses_to_change_or_delete_events(store: EventStore) -> None:
    gid = new_id()
    store.create(gid, {}, EVENTS)
    statements = ["UPDATE events SET type = 'forged'", "DELETE FROM events"]
    if isinstance(store, SqliteStore):
        conn = sqlite3.connect(store.path, isolation_level=None)
        for sql in statements:
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                conn.execute(sql)
        conn.close()
    else:
        assert isinstance(store, PostgresStore)
        with psycopg.connect(store.url, autocommit=True) as conn:
            for sql in [*statements, "TRUNCATE events CASCADE"]:
                with pytest.raises(psycopg.Error, match="append-only"):
                    conn.execute(sql)
    assert store.load(gid) == [(1, EVENTS[0])]


def test_concurrent_appends_share_commits(store: EventStore) -> None:
    games = [new_id() for _ in range(40)]
    for gid in games:
        store.create(gid, {}, EVENTS)
    committer = store._committer  # type: ignore[attr-defined]
    batches_before, appends_before = committer.batches, committer.appends

    def play(gid: str) -> None:
        version = 1
        for _ in range(10):
            version = store.append(gid, version, EVENTS)

    with ThreadPoolExecutor(40) as pool:
        list(pool.map(play, games))
    appends = committer.appends - appends_before
    batches = committer.batches - batches_before
    assert appends == 400
    assert batches < appends  # group commit: several appends per transaction
    assert all(len(store.load(gid)) == 11 for gid in games)


def test_a_restart_loses_nothing(opener: Opener) -> None:
    first = opener()
    gid = new_id()
    first.create(gid, {"x": 1}, EVENTS)
    first.append(gid, 1, EVENTS, Idempotency("k", "h", 200, b"{}"))
    first.close()
    second = opener()
    assert second.load(gid) == [(1, EVENTS[0]), (2, EVENTS[0])]
    assert second.meta(gid) == {"x": 1} and second.idempotency(gid, "k") is not None


def test_subscribers_hear_of_every_append(opener: Opener) -> None:
    writer = opener()
    heard: list[tuple[str, int]] = []
    writer.subscribe(heard.extend)
    other_heard: list[tuple[str, int]] = []
    if isinstance(writer, PostgresStore):  # another worker's store hears it through LISTEN/NOTIFY
        opener().subscribe(other_heard.extend)
        time.sleep(0.5)
    gid = new_id()
    writer.create(gid, {}, EVENTS)
    writer.append(gid, 1, EVENTS * 2)
    deadline = time.monotonic() + 30  # a bound for a busy machine, not a wait
    while time.monotonic() < deadline and (gid, 3) not in heard + other_heard:
        time.sleep(0.05)
    assert (gid, 3) in heard if isinstance(writer, SqliteStore) else (gid, 3) in heard + other_heard
    if isinstance(writer, PostgresStore):
        while time.monotonic() < deadline and (gid, 3) not in other_heard:
            time.sleep(0.05)
        assert [(gid, 1), (gid, 3)] == [h for h in other_heard if h[0] == gid]


def test_log_chain__the_store_keeps_every_events_hash_chain_as_the_exported_log_has_it(store: EventStore) -> None:
    from loveletter.events.log import game_lines, read_games

    gid = new_id()
    store.create(gid, {}, EVENTS)
    store.append(gid, 1, EVENTS * 2)
    stored = store.hashes(gid)
    assert [seq for seq, _, _ in stored] == [1, 2, 3]
    assert all(a[2] == b[1] for a, b in itertools.pairwise(stored))  # each prev is the hash before it
    header = Header.of(EVENTS[0], gid)  # type: ignore[arg-type]
    (game,) = read_games(list(game_lines([e for _, e in store.load(gid)], header)))
    assert game.entries[0].prev == game.header_hash
    assert [(e.seq, e.prev, e.hash) for e in game.entries] == stored


# -- the game index: the lobby, running deadlines and the lobby's news ---------------------------------------------

FUTURE = 10**15  # creation times beyond any real one: these games come first in the lobby, whatever else is stored


def _index(status: str, created: int, public: bool = True, deadline: int | None = None, news: str | None = None):  # type: ignore[no-untyped-def]
    from loveletter.events.store import GameIndex

    listing = b'{"status":"%s","created":%d}' % (status.encode(), created)
    return GameIndex(public, status, "2019", created, listing, deadline, news)


def test_the_game_index_is_written_with_its_events_and_pages_newest_first(store: EventStore) -> None:
    from loveletter.events.store import Append

    stamp = FUTURE + int(time.time_ns() % 10**9) * 10
    ids = [new_id() for _ in range(5)]
    for k, gid in enumerate(ids):
        store.submit(Append(gid, 0, EVENTS, create={"seats": []}, index=_index("open", stamp + k))).result()
    hidden = new_id()
    store.submit(
        Append(hidden, 0, EVENTS, create={"seats": []}, index=_index("open", stamp + 9, public=False))
    ).result()
    first = store.lobby("open", "2019", None, 2)
    assert [g for _, g, _ in first] == [ids[4], ids[3]]
    rest = store.lobby("open", "2019", first[-1][:2], 3)
    assert [g for _, g, _ in rest] == [ids[2], ids[1], ids[0]]
    # the status moves with an append, in place; a refused append changes nothing
    store.submit(Append(ids[4], 1, EVENTS[:0], index=_index("running", stamp + 4, deadline=stamp))).result()
    with pytest.raises(ConflictError):
        store.submit(Append(ids[3], 0, EVENTS, index=_index("finished", stamp + 3))).result()
    listed = {
        g: status for g, status in ((g, loads_status(listing)) for _, g, listing in store.lobby(None, None, None, 7))
    }
    assert listed[ids[4]] == "running" and listed[ids[3]] == "open" and hidden not in listed
    assert (ids[4], stamp) in store.deadlines()
    store.submit(Append(ids[4], 1, EVENTS[:0], index=_index("running", stamp + 4, deadline=None))).result()
    assert ids[4] not in [g for g, _ in store.deadlines()]


def loads_status(listing: bytes) -> str:
    import orjson

    return str(orjson.loads(listing)["status"])


def test_the_lobby_feed_grows_in_order_with_public_news_only(store: EventStore) -> None:
    from loveletter.events.store import Append

    head = store.lobby_feed_head()
    a, b, private = new_id(), new_id(), new_id()
    store.submit(Append(a, 0, EVENTS, create={"seats": []}, index=_index("open", FUTURE, news="game_opened"))).result()
    store.submit(
        Append(private, 0, EVENTS, create={"seats": []}, index=_index("open", FUTURE, False, news="game_opened"))
    ).result()
    store.submit(
        Append(b, 0, EVENTS, create={"seats": []}, index=_index("running", FUTURE, news="game_started"))
    ).result()
    store.submit(Append(a, 1, EVENTS[:0], index=_index("running", FUTURE, news="game_started"))).result()
    mine = [(g, kind) for _, g, kind, _ in store.lobby_feed(head, 100) if g in (a, b, private)]
    assert mine == [(a, "game_opened"), (b, "game_started"), (a, "game_started")]
    ids = [i for i, *_ in store.lobby_feed(head, 100)]
    assert ids == sorted(ids) and store.lobby_feed_head() >= ids[-1]
