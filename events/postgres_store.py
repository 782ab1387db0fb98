"""The PostgreSQL event store (psycopg 3), for several workers or machines.

Same contract as SQLite. The database refuses UPDATE, DELETE and TRUNCATE on events by trigger.
Every commit NOTIFYs `loveletter_events` with "game_id:version", so a worker learns of appends made
by the others (live streams across workers). At start-up one worker at a time (an advisory lock) brings an older
database up to the newest schema version, in one transaction (`events.migrations`).
"""

from __future__ import annotations

import random
import threading
from concurrent.futures import Future
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool, PoolTimeout

from loveletter.events.accounts import AccountStatements, NameTaken
from loveletter.events.codec import dumps, loads
from loveletter.events.migrations import refuse_unversioned, upgrade
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

CHANNEL = "loveletter_events"
READ_TIMEOUT = 3.0
"""Seconds a read waits for a pooled connection before it is a `StoreError` (the database down or restarting)."""

SQL = Statements(
    Dialect(
        mark="%s",
        blob="BYTEA",
        bigint="BIGINT",
        timestamp="TIMESTAMPTZ NOT NULL DEFAULT now()",
        growing_key="BIGSERIAL PRIMARY KEY",
    )
)
SCHEMA = (
    SQL.schema
    + """
CREATE OR REPLACE FUNCTION loveletter_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'events are append-only';
END $$;
DO $$ BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'events_append_only') THEN
        CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION loveletter_refuse_change();
        CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
            FOR EACH STATEMENT EXECUTE FUNCTION loveletter_refuse_change();
    END IF;
END $$;
"""
)


def _appended(payload: str) -> tuple[str, int]:
    """(game_id, version) from a notification's "game_id:version"."""
    game_id, _, version = payload.rpartition(":")
    return game_id, int(version)


class _Script:
    """A connection as `migrations.upgrade` drives it (PostgreSQL runs a whole script in the open transaction)."""

    def __init__(self, db: psycopg.Connection[Any]) -> None:
        self.db = db

    def script(self, sql: str) -> None:
        self.db.execute(sql)  # no parameters: sent as one simple query, every statement of it

    def run(self, sql: str, params: tuple[object, ...]) -> None:
        self.db.execute(sql, params)


def _found_version(db: psycopg.Connection[Any]) -> int | None:
    """The schema version of the database (None: no tables yet). Before `schema_versions`, a database with the hash
    chain (the `events.hash` column) was version 3; one without it is too old to upgrade."""
    row = db.execute("SELECT to_regclass('schema_versions') IS NOT NULL, to_regclass('events') IS NOT NULL").fetchone()
    versioned, has_events = bool(row and row[0]), bool(row and row[1])
    if versioned:
        found = db.execute("SELECT MAX(version) FROM schema_versions").fetchone()
        return None if found is None or found[0] is None else int(found[0])
    if not has_events:
        return None
    chained = db.execute(
        "SELECT 1 FROM information_schema.columns WHERE table_name = 'events' AND column_name = 'hash'"
    ).fetchone()
    if chained is None:
        raise refuse_unversioned("no hash chain")
    return 3


class _Rows(BatchRows):
    """A batch's rows: one INSERT per table, each column sent as an array."""

    __slots__ = ()

    def insert(self, db: psycopg.Connection[Any]) -> None:
        if self.events:
            db.execute(
                "INSERT INTO events (game_id, seq, type, body, prev, hash) "
                "SELECT * FROM unnest(%s::text[], %s::int[], %s::text[], %s::bytea[], %s::text[], %s::text[])",
                [list(column) for column in zip(*self.events, strict=True)],
            )
        if self.idempotency:
            db.execute(
                "INSERT INTO idempotency (game_id, key, request_hash, status, response) "
                "SELECT * FROM unnest(%s::text[], %s::text[], %s::text[], %s::int[], %s::bytea[])",
                [list(column) for column in zip(*self.idempotency, strict=True)],
            )
        if self.accounts:
            db.execute(
                "INSERT INTO account_games (account_id, game_id, seat) "
                "SELECT * FROM unnest(%s::text[], %s::text[], %s::int[]) ON CONFLICT DO NOTHING",
                [list(column) for column in zip(*self.accounts, strict=True)],
            )
        for rated in self.rated:
            db.execute(PostgresStore._accounts.insert_rated, rated)


# One statement takes a token, atomically for every worker: the row is locked while it is refilled (on the database's
# clock, so hosts whose clocks differ agree) and a token taken if one is there.
_AVAILABLE = "LEAST(%s, b.tokens + (EXTRACT(EPOCH FROM now()) - b.stamp) * %s)"
_TAKE = (
    "INSERT INTO rate_buckets AS b (key, tokens, stamp, granted) VALUES (%s, %s - 1, EXTRACT(EPOCH FROM now()), TRUE) "
    f"ON CONFLICT (key) DO UPDATE SET tokens = {_AVAILABLE} - CASE WHEN {_AVAILABLE} >= 1 THEN 1 ELSE 0 END, "
    f"granted = {_AVAILABLE} >= 1, stamp = EXTRACT(EPOCH FROM now()) RETURNING tokens, granted"
)
_SWEEP = "DELETE FROM rate_buckets WHERE stamp < EXTRACT(EPOCH FROM now()) - 3600"
SWEEP_EVERY = 0.001


class PostgresStore(EventStore):
    shared = True

    def __init__(self, url: str, *, listen: bool = True, pool_size: int = 8) -> None:
        super().__init__()
        self.url = url
        with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(7140)")  # several workers may start at once: one upgrades
            self.migrated = upgrade(_Script(conn), _found_version(conn), SCHEMA, SQL.dialect)
        self._writer = psycopg.connect(url)
        self._versions: dict[str, tuple[int, str]] = {}  # last (seq, hash) written per game, writer thread only
        # A read waits at most READ_TIMEOUT for a connection: with the database down, a 503 soon, not a hang.
        self._pool = ConnectionPool(
            url, min_size=1, max_size=pool_size, open=True, timeout=READ_TIMEOUT, kwargs={"autocommit": True}
        )
        self._committer = GroupCommitter(self._write_batch, name="postgres-writer")
        self._stop = threading.Event()
        self._listener: threading.Thread | None = None
        if listen:
            self._listener = threading.Thread(target=self._listen, name="postgres-listener", daemon=True)
            self._listener.start()

    # -- writing ---------------------------------------------------------------------------------

    def submit(self, request: Append) -> Future[int]:
        return self._committer.submit(request)

    def _write_batch(self, batch: list[Append]) -> list[int | BaseException]:
        """Commit a batch in one transaction, with a few round trips for the whole batch: the last (seq, hash)
        of the games the writer does not already know, the game rows of new games, all events in one INSERT,
        the idempotency records in another, and every notification in one SELECT. (A statement, a savepoint and
        a notification per request cost most of a worker's CPU.) If the database refuses a row anyway (another
        worker appended first), the batch is redone with a savepoint and a query per request, so only the
        requests that conflict fail."""
        if self._writer.closed or self._writer.broken:  # lost with the last batch: the database may be back
            self._writer = psycopg.connect(self.url)  # (or not: this batch fails with it, and the next one tries)
        try:
            try:
                return self._write_together(batch)
            except (errors.UniqueViolation, errors.ForeignKeyViolation):
                self._versions.clear()
                return self._write_isolated(batch)
        except psycopg.OperationalError:
            self._versions.clear()
            self._writer = psycopg.connect(self.url)  # reconnect for the next batch; this one failed whole
            raise
        except BaseException:
            self._versions.clear()
            raise

    def _write_together(self, batch: list[Append]) -> list[int | BaseException]:
        db = self._writer
        with db.transaction():
            stale = [
                r.game_id for r in batch if r.create is None and self._versions.get(r.game_id, (-1,))[0] != r.expected
            ]
            if stale:
                for game_id, seq, last_hash in db.execute(
                    "SELECT DISTINCT ON (game_id) game_id, seq, hash FROM events WHERE game_id = ANY(%s) "
                    "ORDER BY game_id, seq DESC",
                    (stale,),
                ):
                    self._versions[game_id] = (seq, last_hash)
                for game_id in stale:
                    self._versions.setdefault(game_id, (0, ""))
            rows = _Rows()
            outcomes = [self._checked(db, request, rows) for request in batch]
            rows.insert(db)
            self._announce(db, batch, outcomes)
        return outcomes

    def _write_isolated(self, batch: list[Append]) -> list[int | BaseException]:
        db = self._writer
        outcomes: list[int | BaseException] = []
        with db.transaction():
            for request in batch:
                try:
                    with db.transaction():  # a savepoint: one conflict does not undo the others
                        if request.create is None:
                            row = db.execute(SQL.last_event, (request.game_id,)).fetchone()
                            self._versions[request.game_id] = (row[0], row[1]) if row else (0, "")
                        rows = _Rows()
                        outcome = self._checked(db, request, rows)
                        rows.insert(db)
                        outcomes.append(outcome)
                except errors.UniqueViolation:
                    self._versions.pop(request.game_id, None)
                    outcomes.append(ConflictError(request.game_id, request.expected, None))
            self._announce(db, batch, outcomes)
        return outcomes

    def _checked(self, db: psycopg.Connection[Any], request: Append, rows: _Rows) -> int | BaseException:
        """Check one request against the last (seq, hash) the writer knows of its game and add its rows, or
        return the conflict it is. The key (game_id, seq) still refuses a row another worker wrote first."""
        if request.create is None:
            current, prev = self._versions.get(request.game_id, (0, ""))
            if current != request.expected:
                return ConflictError(request.game_id, request.expected, current)
        else:
            db.execute(SQL.insert_game, (request.game_id, dumps(request.create)))
            prev = request.genesis()
        if request.meta is not None:
            db.execute(SQL.update_meta, (dumps(request.meta), request.game_id))
        if request.index is not None:
            i = request.index
            db.execute(SQL.upsert_index, index_row(request.game_id, i))
            if i.news is not None and i.public:
                # Workers write the feed one transaction at a time, so its ids become visible in order and a reader
                # past id N never misses a smaller id committed later.
                db.execute("SELECT pg_advisory_xact_lock(7141)")
                db.execute(SQL.insert_news, (request.game_id, i.news, i.listing))
        version, last_hash = rows.add(request, prev)
        self._versions[request.game_id] = (version, last_hash)
        return version

    @staticmethod
    def _announce(db: psycopg.Connection[Any], batch: list[Append], outcomes: list[int | BaseException]) -> None:
        notes = [f"{r.game_id}:{o}" for r, o in zip(batch, outcomes, strict=True) if not isinstance(o, BaseException)]
        if notes:
            db.execute("SELECT pg_notify(%s, note) FROM unnest(%s::text[]) AS note", (CHANNEL, notes))

    # -- reading ---------------------------------------------------------------------------------

    def _read(self, sql: str, params: tuple[Any, ...], one: bool = False) -> Any:
        """Run a query on a pooled connection: its rows (or first row). After a connection the database dropped (it
        restarted), every idle connection of the pool is checked — several may be dead at once — and the query is
        tried once more; the database out of reach is a `StoreError`."""
        for attempt in (1, 2):
            try:
                with self._pool.connection() as conn:
                    cursor = conn.execute(sql, params)
                    return cursor.fetchone() if one else cursor.fetchall()
            except PoolTimeout as exc:
                raise StoreError(f"the database is out of reach: {exc}") from exc
            except psycopg.OperationalError as exc:
                if attempt == 2:
                    raise StoreError(f"read failed: {exc}") from exc
                self._pool.check()  # drops the other connections the restart broke, so the retry gets a live one
        raise AssertionError("unreachable")

    def _rows(self, game_id: str, after: int) -> list[tuple[int, bytes]]:
        rows = self._read(SQL.events_after, (game_id, after))
        return [(seq, bytes(body)) for seq, body in rows]

    def meta(self, game_id: str) -> dict[str, Any] | None:
        row = self._read(SQL.meta, (game_id,), one=True)
        return None if row is None else dict(loads(bytes(row[0])))

    def idempotency(self, game_id: str, key: str) -> Idempotency | None:
        row = self._read(SQL.idempotency, (game_id, key), one=True)
        return None if row is None else Idempotency(key, row[0], row[1], bytes(row[2]))

    def hashes(self, game_id: str) -> list[tuple[int, str, str]]:
        rows = self._read(SQL.hashes, (game_id,))
        return [(seq, prev, h) for seq, prev, h in rows]

    def game_ids(self) -> list[str]:
        return [r[0] for r in self._read(SQL.game_ids, ())]

    def lobby(
        self, status: str | None, ruleset: str | None, before: tuple[int, str] | None, limit: int
    ) -> list[tuple[int, str, bytes]]:
        sql, params = SQL.lobby(status, ruleset, before, limit)
        return [(c, g, bytes(listing)) for c, g, listing in self._read(sql, params)]

    def deadlines(self) -> list[tuple[str, int]]:
        rows = self._read(SQL.deadlines, ())
        return [(g, d) for g, d in rows]

    def lobby_feed(self, after: int, limit: int) -> list[tuple[int, str, str, bytes]]:
        rows = self._read(SQL.feed_after, (after, limit))
        return [(i, g, k, bytes(listing)) for i, g, k, listing in rows]

    def lobby_feed_head(self) -> int:
        row = self._read(SQL.feed_head, (), one=True)
        return int(row[0])

    def take_token(self, key: str, rate: float, burst: float) -> float:
        """Take one token from the bucket `key` (`burst` tokens at most, refilled at `rate` a second, on the
        database's clock), for every worker and host at once: 0.0 if granted, else the seconds until a token is
        there. (SQLite serves one process, which keeps its buckets in memory: it has no such method.)"""
        tokens, granted = self._read(_TAKE, (key, burst, burst, rate, burst, rate, burst, rate), one=True)
        if random.random() < SWEEP_EVERY:  # buckets idle an hour are full again for every limit: forget them
            self._change(_SWEEP, ())
        return 0.0 if granted else (1.0 - float(tokens)) / rate

    def game_counts(self) -> dict[str, int]:
        return {status: int(n) for status, n in self._read(SQL.game_counts, ())}

    _accounts = AccountStatements("%s")

    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        return list(self._read(sql, params))

    def _change(self, sql: str, params: tuple[Any, ...]) -> int:
        """One statement on a pooled connection in autocommit: its own transaction."""
        try:
            with self._pool.connection() as conn:
                return conn.execute(sql, params).rowcount
        except errors.UniqueViolation as exc:
            if exc.diag.constraint_name == "accounts_name_key_key":
                raise NameTaken from None
            raise
        except (PoolTimeout, psycopg.OperationalError) as exc:
            raise StoreError(f"the database is out of reach: {exc}") from exc

    # -- notifications across workers --------------------------------------------------------------

    def _listen(self) -> None:
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    while not self._stop.is_set():
                        # Wait for a notification, then take every other one already arrived: subscribers hear
                        # them in one call (the referee wakes its event loop once, not once per append).
                        notes = list(conn.notifies(timeout=0.5, stop_after=1))
                        if notes:
                            notes += conn.notifies(timeout=0)
                        self._notify([_appended(note.payload) for note in notes])
            except psycopg.OperationalError:
                if self._stop.wait(1.0):
                    return

    def close(self) -> None:
        self._stop.set()
        self._committer.close()
        if self._listener is not None:
            self._listener.join(timeout=5)
        self._pool.close()
        self._writer.close()
