"""Schema versions: a database written before them (tests/old_database/schema3.db, made by the referee of that time
with make_schema3.py; and the same games in a real PostgreSQL built with that time's statements) is upgraded in
place at start-up, keeps every row it had, and every game in it still replays, audits and plays on."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sqlite3
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest

from loveletter.events import migrations
from loveletter.events.log import digest
from loveletter.events.migrations import LATEST, Migration
from loveletter.events.postgres_store import SCHEMA as POSTGRES_BASELINE
from loveletter.events.postgres_store import PostgresStore
from loveletter.events.signing import SigningKey
from loveletter.events.sqlite_store import SqliteStore
from loveletter.events.store import EventStore, StoreError
from loveletter.referee.inputs import Joining
from loveletter.referee.reading import Reader
from loveletter.referee.referee import Referee
from loveletter.replays.audit import Options, audit_bytes
from loveletter.replays.replay import replay
from tests.stores import pg_url  # noqa: F401  (fixture)

OLD = Path(__file__).parent / "old_database" / "schema3.db"
OLD_TABLES = {
    "games": "game_id",
    "events": "game_id, seq",
    "game_index": "game_id",
    "lobby_feed": "id",
    "idempotency": "game_id, key",
}
"""The tables of schema 3, each with the key its rows are compared in."""


def connect(path: str | Path) -> contextlib.closing[sqlite3.Connection]:
    """A connection closed after its block; the committed fixture is opened read-only and immutable, so reading it
    leaves no -wal or -shm file beside it."""
    if Path(path) == OLD:
        return contextlib.closing(sqlite3.connect(f"file:{OLD}?mode=ro&immutable=1", uri=True))
    return contextlib.closing(sqlite3.connect(path))


def sqlite_rows(path: str) -> dict[str, list[tuple[Any, ...]]]:
    with connect(path) as db:
        return {t: [tuple(r) for r in db.execute(f"SELECT * FROM {t} ORDER BY {k}")] for t, k in OLD_TABLES.items()}


@pytest.fixture
def old_copy(tmp_path: Path) -> str:
    path = str(tmp_path / "old.db")
    shutil.copyfile(OLD, path)
    return path


def test_the_fixture_is_a_schema_3_database_with_games_in_every_state() -> None:
    rows = sqlite_rows(str(OLD))
    with connect(OLD) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (3,)
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "schema_versions" not in tables and "accounts" not in tables
    assert len(rows["games"]) == 7 and rows["idempotency"] and rows["lobby_feed"]
    assert {r[2] for r in rows["game_index"]} == {"open", "running", "finished"}


def test_an_old_sqlite_database_is_upgraded_in_place_and_keeps_every_row(old_copy: str) -> None:
    before = sqlite_rows(old_copy)
    store = SqliteStore(old_copy)
    assert store.migrated == [3, 4, 5, 6, 7, 8, 9, 10]
    store.close()
    again = SqliteStore(old_copy)  # the next start finds it up to date
    assert again.migrated == []
    again.close()
    assert sqlite_rows(old_copy) == before
    with connect(old_copy) as db, db:
        assert db.execute("PRAGMA user_version").fetchone() == (LATEST,)
        found = [v for (v,) in db.execute("SELECT version FROM schema_versions ORDER BY version")]
        assert found == [3, 4, 5, 6, 7, 8, 9, 10]
        assert db.execute("SELECT COUNT(*) FROM accounts").fetchone() == (0,)


def test_a_new_sqlite_database_is_built_by_the_same_steps(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "new.db"))
    assert store.migrated == [3, 4, 5, 6, 7, 8, 9, 10]
    store.close()


def check_every_game(store: EventStore, expected_games: int) -> None:
    """Each game of `store`: its exported log audits clean (signature required), replays to the state the referee
    folds, and chains to the very hashes the database holds; the open game takes a player; a new game is made."""
    key = SigningKey.generate()
    referee = Referee(store, signing_key=key)

    async def run() -> None:
        ids = store.game_ids()
        assert len(ids) == expected_games
        for game_id in ids:
            table = await referee._tables.table(game_id)  # the referee's own fold, behind its face
            log = Reader(referee._tables, table, None, admin=True, signing_key=key).log()
            report = audit_bytes(log, game_id, Options(require_signature=True, key=key.public_key))
            assert report.error is None and [g.valid for g in report.games] == [True], report.as_dict()
            assert replay(table.events) == table.state
            event_lines = log.splitlines()[1:-1]
            assert [digest(line) for line in event_lines] == [h for _, _, h in store.hashes(game_id)]
        tables = [await referee._tables.table(g) for g in ids]
        open_game = next(t for t in tables if t.state.open_seats and not t.state.over)
        joined = await referee.join(open_game.game_id, Joining(name="Newcomer"))
        assert joined["token"] and joined["version"] == open_game.version

    asyncio.run(run())


def test_every_game_of_the_upgraded_sqlite_database_replays_audits_and_plays_on(old_copy: str) -> None:
    store = SqliteStore(old_copy)
    try:
        check_every_game(store, 7)
    finally:
        store.close()


def broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A next version whose second statement fails: nothing of the upgrade may stay."""
    bad = Migration(LATEST + 1, "a table, then a mistake", lambda d: "CREATE TABLE halfway (x INTEGER);\nNOT SQL;\n")
    monkeypatch.setattr(migrations, "MIGRATIONS", (*migrations.MIGRATIONS, bad))
    monkeypatch.setattr(migrations, "LATEST", LATEST + 1)


def test_a_failed_sqlite_upgrade_changes_nothing(old_copy: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = sqlite_rows(old_copy)
    broken(monkeypatch)
    with pytest.raises(sqlite3.OperationalError):
        SqliteStore(old_copy)
    with connect(old_copy) as db, db:
        tables = {n for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert db.execute("PRAGMA user_version").fetchone() == (3,)
    assert not tables & {"schema_versions", "accounts", "halfway"}
    assert sqlite_rows(old_copy) == before
    monkeypatch.undo()
    SqliteStore(old_copy).close()  # and the real upgrade still goes through


def test_a_database_from_a_newer_referee_is_refused(old_copy: str) -> None:
    SqliteStore(old_copy).close()
    with connect(old_copy) as db, db:
        db.execute("INSERT INTO schema_versions (version, summary) VALUES (?, 'from the future')", (LATEST + 1,))
    with pytest.raises(StoreError, match=f"schema version {LATEST + 1}, newer than this referee's {LATEST}"):
        SqliteStore(old_copy)


# -- PostgreSQL ------------------------------------------------------------------------------------


@pytest.fixture
def old_postgres(pg_url: str) -> Iterator[str]:  # noqa: F811
    """A database of its own in the session's cluster, holding the fixture's rows in the tables of schema 3 made by
    that time's statements (the baseline script, which the upgrade leaves as it was)."""
    name = "old_" + uuid.uuid4().hex[:12]
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    url = pg_url.rsplit("/", 1)[0] + "/" + name
    rows = sqlite_rows(str(OLD))
    with psycopg.connect(url) as db, db.transaction():
        db.execute(POSTGRES_BASELINE)
        for table, _ in OLD_TABLES.items():
            columns = [c for (c,) in db.execute(f"SELECT column_name FROM information_schema.columns "
                                                f"WHERE table_name = '{table}' ORDER BY ordinal_position")]  # fmt: skip
            marks = ", ".join(["%s"] * len(columns))
            for row in rows[table]:
                db.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", row)
        db.execute("SELECT setval(pg_get_serial_sequence('lobby_feed', 'id'), MAX(id)) FROM lobby_feed")
    yield url
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def postgres_rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    with psycopg.connect(url) as db:
        return {
            t: [tuple(bytes(v) if isinstance(v, memoryview) else v for v in r)
                for r in db.execute(f"SELECT * FROM {t} ORDER BY {k}")]
            for t, k in OLD_TABLES.items()
        }  # fmt: skip


def test_an_old_postgres_database_is_upgraded_in_place_and_every_game_audits(old_postgres: str) -> None:
    before = postgres_rows(old_postgres)
    assert len(before["games"]) == 7
    store = PostgresStore(old_postgres)
    try:
        assert store.migrated == [3, 4, 5, 6, 7, 8, 9, 10]
        assert postgres_rows(old_postgres) == before
        check_every_game(store, 7)
    finally:
        store.close()
    again = PostgresStore(old_postgres, listen=False)
    assert again.migrated == []
    again.close()
    with psycopg.connect(old_postgres) as db:
        found = [v for (v,) in db.execute("SELECT version FROM schema_versions ORDER BY version")]
        assert found == [3, 4, 5, 6, 7, 8, 9, 10]


def test_a_failed_postgres_upgrade_changes_nothing(old_postgres: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = postgres_rows(old_postgres)
    broken(monkeypatch)
    with pytest.raises(psycopg.errors.SyntaxError):
        PostgresStore(old_postgres, listen=False)
    with psycopg.connect(old_postgres) as db:
        found = db.execute("SELECT to_regclass('schema_versions'), to_regclass('accounts'), to_regclass('halfway')")
        assert found.fetchone() == (None, None, None)
    assert postgres_rows(old_postgres) == before


def test_workers_starting_together_upgrade_once(old_postgres: str) -> None:
    """Several workers start on one old database at once: one upgrades it, the others find it up to date."""
    with ThreadPoolExecutor(max_workers=3) as pool:
        stores = list(pool.map(lambda _: PostgresStore(old_postgres, listen=False), range(3)))
    try:
        assert sorted(s.migrated for s in stores) == [[], [], [3, 4, 5, 6, 7, 8, 9, 10]]
    finally:
        for s in stores:
            s.close()
