"""The embedded SQLite event store: WAL, durable commits (synchronous=FULL) unless told otherwise.

One process serves a database file (several workers need PostgreSQL): the writer thread remembers each
game's last seq, so checking the expected version costs no query, and the referee answers reads from the
games it has cached. The (game_id, seq) key still refuses any duplicate, whatever the writer believes.
A second store on the same file would serve stale states, so a store holds an exclusive lock on a file beside
the database (`<database>.lock`, `flock`) for its lifetime, and another store on the file refuses to open
(`DatabaseInUse`); the lock goes with the process, however it ends.

At start-up the store brings an older database up to the newest schema version in one transaction
(`events.migrations`); before schema versions, `PRAGMA user_version` said the version, and it still follows it.
"""

from __future__ import annotations

import fcntl
import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from loveletter.events.accounts import AccountStatements, NameTaken
from loveletter.events.codec import dumps, loads
from loveletter.events.migrations import LATEST, refuse_unversioned, upgrade
from loveletter.events.statements import Dialect, Statements, index_row
from loveletter.events.store import (
    Append,
    BatchRows,
    ConflictError,
    EventStore,
    GroupCommitter,
    Idempotency,
    StoreError,
)

SQL = Statements(
    Dialect(
        mark="?",
        blob="BLOB",
        bigint="INTEGER",
        timestamp="TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
        growing_key="INTEGER PRIMARY KEY AUTOINCREMENT",
        keyed_only=" WITHOUT ROWID",
    )
)
SCHEMA = (
    SQL.schema
    + """
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
"""
)

SYNCHRONOUS = {"full": "FULL", "normal": "NORMAL"}


class DatabaseInUse(StoreError):
    """Another store (another process, as a rule) serves this SQLite file."""

    def __init__(self, path: str, holder: str) -> None:
        self.path = os.path.abspath(path)
        self.holder = holder
        by = f" by process {holder}" if holder else ""
        super().__init__(
            f"the SQLite database {self.path} is in use{by}: one SQLite file serves one referee process. "
            "Stop the other one, or give this one its own file; for several workers, use PostgreSQL "
            "(LOVELETTER_DATABASE_URL=postgresql://…)"
        )


def lock_path(path: str) -> str | None:
    """The lock file of the database at `path` (None for a database in memory, which nobody else can open)."""
    if path in ("", ":memory:") or path.startswith("file:"):
        return None
    return os.path.realpath(path) + ".lock"  # one lock file however the database is named


def acquire(path: str) -> int | None:
    """Lock the database at `path` for this store: the lock file's descriptor (None when nothing to lock), or
    `DatabaseInUse` if another store holds it. The lock file keeps the holder's process id, for the message."""
    where = lock_path(path)
    if where is None:
        return None
    fd = os.open(where, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        raise DatabaseInUse(path, holder) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def ensure_free(path: str) -> None:
    """`DatabaseInUse` if a store serves the database at `path` now (for a clear message before starting)."""
    fd = acquire(path)
    if fd is not None:
        os.close(fd)


class SqliteStore(EventStore):
    def __init__(self, path: str, durability: str = "full") -> None:
        super().__init__()
        if durability not in SYNCHRONOUS:
            raise ValueError(f"durability must be one of {', '.join(SYNCHRONOUS)}, not {durability!r}")
        self.path = path
        self._sync = SYNCHRONOUS[durability]
        self._local = threading.local()
        self._lock = acquire(path)  # before anything touches the file
        try:
            self._open()
        except BaseException:
            self._unlock()
            raise

    def _open(self) -> None:
        writer = self._connect()
        self._versions: dict[str, tuple[int, str]] = {}  # last (seq, hash) per game, for the writer thread only
        try:
            with self._transaction(writer):  # the whole upgrade, or nothing of it
                self.migrated = upgrade(_Script(writer), _found_version(writer), SCHEMA, SQL.dialect)
                writer.execute(f"PRAGMA user_version = {LATEST}")  # a referee from before versions refuses the file
        except BaseException:
            writer.close()
            raise
        self._writer = writer
        self._committer = GroupCommitter(self._write_batch, name="sqlite-writer", on_commit=self._notify)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, isolation_level=None, check_same_thread=False, timeout=30, cached_statements=512
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute(f"PRAGMA synchronous={self._sync}")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA busy_timeout=30000")
        conn.execute("PRAGMA temp_store=MEMORY")
        return conn

    def _reader(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    # -- writing ---------------------------------------------------------------------------------

    def submit(self, request: Append) -> Future[int]:
        return self._committer.submit(request)

    def _write_batch(self, batch: list[Append]) -> list[int | BaseException]:
        """Commit a batch in one transaction. The fast path checks every request, then inserts all their rows
        with one statement per table: the sqlite3 module releases the GIL for every statement step, and each
        time the writer must win it back from the event loop, so a statement per row cost a GIL handoff per
        event. If the database refuses a row anyway (a key taken behind our back), the batch is redone with one
        savepoint per request so only the offending request fails."""
        db = self._writer
        try:
            with self._transaction(db):
                rows = _Rows()
                outcomes = [self._checked(db, request, rows) for request in batch]
                rows.insert(db)
                return outcomes
        except sqlite3.IntegrityError:
            return self._write_isolated(db, batch)

    def _write_isolated(self, db: sqlite3.Connection, batch: list[Append]) -> list[int | BaseException]:
        outcomes: list[int | BaseException] = []
        with self._transaction(db):
            for request in batch:
                db.execute("SAVEPOINT one")
                try:
                    rows = _Rows()
                    outcome = self._checked(db, request, rows)
                    rows.insert(db)
                    outcomes.append(outcome)
                    db.execute("RELEASE one")
                except sqlite3.IntegrityError:
                    db.execute("ROLLBACK TO one")
                    db.execute("RELEASE one")
                    self._versions.pop(request.game_id, None)
                    outcomes.append(_conflict(db, request))
        return outcomes

    @contextmanager
    def _transaction(self, db: sqlite3.Connection) -> Iterator[None]:
        """BEGIN IMMEDIATE … COMMIT; on any failure roll back and forget what the writer believed."""
        db.execute("BEGIN IMMEDIATE")
        try:
            yield
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            self._versions.clear()
            raise

    def _checked(self, db: sqlite3.Connection, request: Append, rows: _Rows) -> int | BaseException:
        """Check one request and add its rows to `rows`, or return the conflict it is (nothing added).
        A new game's own row is inserted at once: its events refer to it."""
        if request.create is None:
            last = self._versions.get(request.game_id)
            if last is None:
                row = db.execute(SQL.last_event, (request.game_id,)).fetchone()
                last = (row[0], row[1]) if row else (0, "")
            if last[0] != request.expected:
                self._versions[request.game_id] = last
                return ConflictError(request.game_id, request.expected, last[0])
            prev = last[1]
        else:
            prev = request.genesis()
            db.execute(SQL.insert_game, (request.game_id, dumps(request.create)))
        if request.meta is not None:
            db.execute(SQL.update_meta, (dumps(request.meta), request.game_id))
        if request.index is not None:
            i = request.index
            db.execute(SQL.upsert_index, index_row(request.game_id, i))
            if i.news is not None and i.public:
                db.execute(SQL.insert_news, (request.game_id, i.news, i.listing))
        version, last_hash = rows.add(request, prev)
        self._versions[request.game_id] = (version, last_hash)
        return version

    # -- reading ---------------------------------------------------------------------------------

    def _rows(self, game_id: str, after: int) -> list[tuple[int, bytes]]:
        rows = self._reader().execute(SQL.events_after, (game_id, after))
        return [(seq, bytes(body)) for seq, body in rows]

    def meta(self, game_id: str) -> dict[str, Any] | None:
        row = self._reader().execute(SQL.meta, (game_id,)).fetchone()
        return None if row is None else dict(loads(row[0]))

    def idempotency(self, game_id: str, key: str) -> Idempotency | None:
        row = self._reader().execute(SQL.idempotency, (game_id, key)).fetchone()
        return None if row is None else Idempotency(key, row[0], row[1], bytes(row[2]))

    def hashes(self, game_id: str) -> list[tuple[int, str, str]]:
        rows = self._reader().execute(SQL.hashes, (game_id,))
        return [(seq, prev, h) for seq, prev, h in rows]

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._reader().execute(SQL.game_ids)]

    def lobby(
        self, status: str | None, ruleset: str | None, before: tuple[int, str] | None, limit: int
    ) -> list[tuple[int, str, bytes]]:
        sql, params = SQL.lobby(status, ruleset, before, limit)
        return [(c, g, bytes(listing)) for c, g, listing in self._reader().execute(sql, params)]

    def deadlines(self) -> list[tuple[str, int]]:
        rows = self._reader().execute(SQL.deadlines)
        return [(g, d) for g, d in rows]

    def lobby_feed(self, after: int, limit: int) -> list[tuple[int, str, str, bytes]]:
        rows = self._reader().execute(SQL.feed_after, (after, limit))
        return [(i, g, k, bytes(listing)) for i, g, k, listing in rows]

    def lobby_feed_head(self) -> int:
        (head,) = self._reader().execute(SQL.feed_head).fetchone()
        return int(head)

    def game_counts(self) -> dict[str, int]:
        return {status: int(n) for status, n in self._reader().execute(SQL.game_counts)}

    _accounts = AccountStatements("?")

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return list(self._reader().execute(sql, params))

    def _change(self, sql: str, params: tuple[Any, ...]) -> int:
        """One statement, committed on its own (a reader's connection in autocommit: SQLite's lock orders it with the
        writer thread's batches)."""
        try:
            return self._reader().execute(sql, params).rowcount
        except sqlite3.IntegrityError as exc:
            if "name_key" in str(exc):
                raise NameTaken from None
            raise

    def close(self) -> None:
        self._committer.close()
        self._writer.close()
        self._unlock()

    def _unlock(self) -> None:
        fd, self._lock = self._lock, None
        if fd is not None:
            os.close(fd)  # releases the lock


ROWS_PER_STATEMENT = 150
"""Rows per multi-row INSERT: 900 parameters at most, under SQLite's historical limit of 999."""


@lru_cache(maxsize=2 * ROWS_PER_STATEMENT)
def _insert_sql(table: str, columns: str, rows: int) -> str:
    one = "(" + ", ".join("?" * (columns.count(",") + 1)) + ")"
    return f"INSERT INTO {table} ({columns}) VALUES " + ", ".join([one] * rows)


class _Rows(BatchRows):
    """A batch's rows, written with one multi-row INSERT per table (per 150 rows)."""

    __slots__ = ()

    def insert(self, db: sqlite3.Connection) -> None:
        _insert(db, "events", "game_id, seq, type, body, prev, hash", self.events)
        _insert(db, "idempotency", "game_id, key, request_hash, status, response", self.idempotency)
        for row in self.accounts:
            db.execute(SqliteStore._accounts.insert_seat, row)
        for rated in self.rated:
            db.execute(SqliteStore._accounts.insert_rated, rated)


def _insert(db: sqlite3.Connection, table: str, columns: str, rows: Sequence[tuple[Any, ...]]) -> None:
    for start in range(0, len(rows), ROWS_PER_STATEMENT):
        chunk = rows[start : start + ROWS_PER_STATEMENT]
        db.execute(_insert_sql(table, columns, len(chunk)), [value for row in chunk for value in row])


class _Script:
    """A connection as `migrations.upgrade` drives it: scripts run statement by statement, since `executescript`
    would commit the transaction the upgrade runs in first."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def script(self, sql: str) -> None:
        pending = ""
        for line in sql.splitlines(keepends=True):
            pending += line
            if sqlite3.complete_statement(pending):  # knows a trigger's body, semicolons and all
                self.db.execute(pending)
                pending = ""
        if pending.strip():
            raise ValueError(f"an incomplete statement ends the script: {pending!r}")

    def run(self, sql: str, params: tuple[object, ...]) -> None:
        self.db.execute(sql, params)


def _found_version(db: sqlite3.Connection) -> int | None:
    """The schema version of the database (None: it has no tables yet). Before `schema_versions`, SQLite's
    `user_version` said it: 3, or 2 (3 without the game index)."""
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_versions" in tables:
        (version,) = db.execute("SELECT MAX(version) FROM schema_versions").fetchone()
        return None if version is None else int(version)
    if "events" not in tables:
        return None
    (version,) = db.execute("PRAGMA user_version").fetchone()
    if version not in (2, 3):
        raise refuse_unversioned(f"SQLite schema {version}")
    return int(version)


def _conflict(db: sqlite3.Connection, request: Append) -> ConflictError:
    (current,) = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?", (request.game_id,)).fetchone()
    return ConflictError(request.game_id, request.expected, current)
