"""The tables and statements both event stores share, written once: SQLite and PostgreSQL run the same SQL but for a
few words, which a store names in its `Dialect`.

What only one database does stays in its store: SQLite's append-only triggers and multi-row inserts, PostgreSQL's
trigger function, array inserts, advisory locks and notifications. The tables themselves, the game index the lobby
and the clocks read, the lobby's feed and every plain read are here, so the two stores cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from loveletter.events.store import GameIndex


@dataclass(frozen=True, slots=True)
class Dialect:
    """The words in which the two databases differ, for the statements below."""

    mark: str
    """A query parameter: `?` (sqlite3) or `%s` (psycopg)."""
    blob: str
    """The type of bytes: BLOB or BYTEA."""
    bigint: str
    """A 64-bit integer column: INTEGER (SQLite's are all 64-bit) or BIGINT."""
    timestamp: str
    """A column that records when its row was written."""
    growing_key: str
    """A primary key that only grows (the lobby feed's ids: a reader past id N has seen every smaller one)."""
    keyed_only: str = ""
    """What follows a table stored by its primary key alone (SQLite's WITHOUT ROWID)."""


class Statements:
    """Every statement both stores run, in one dialect."""

    __slots__ = (
        "deadlines",
        "dialect",
        "events_after",
        "feed_after",
        "feed_head",
        "game_counts",
        "game_ids",
        "hashes",
        "idempotency",
        "insert_game",
        "insert_news",
        "last_event",
        "mark",
        "meta",
        "schema",
        "update_meta",
        "upsert_index",
    )

    def __init__(self, d: Dialect) -> None:
        m = d.mark
        self.mark = m
        self.dialect = d
        self.schema = _schema(d)
        # -- writing (beside the events, in the batch's transaction)
        self.insert_game = f"INSERT INTO games (game_id, meta) VALUES ({m}, {m})"
        self.update_meta = f"UPDATE games SET meta = {m} WHERE game_id = {m}"
        self.upsert_index = (
            "INSERT INTO game_index (game_id, public, status, ruleset, created, listing, deadline) "
            f"VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m}) ON CONFLICT (game_id) DO UPDATE SET status = excluded.status, "
            "listing = excluded.listing, deadline = excluded.deadline"
        )
        self.insert_news = f"INSERT INTO lobby_feed (game_id, kind, listing) VALUES ({m}, {m}, {m})"
        # -- reading
        self.last_event = f"SELECT seq, hash FROM events WHERE game_id = {m} ORDER BY seq DESC LIMIT 1"
        self.events_after = f"SELECT seq, body FROM events WHERE game_id = {m} AND seq > {m} ORDER BY seq"
        self.meta = f"SELECT meta FROM games WHERE game_id = {m}"
        self.idempotency = f"SELECT request_hash, status, response FROM idempotency WHERE game_id = {m} AND key = {m}"
        self.hashes = f"SELECT seq, prev, hash FROM events WHERE game_id = {m} ORDER BY seq"
        self.game_ids = "SELECT game_id FROM games ORDER BY created_at, game_id"
        self.deadlines = "SELECT game_id, deadline FROM game_index WHERE deadline IS NOT NULL"
        self.feed_after = f"SELECT id, game_id, kind, listing FROM lobby_feed WHERE id > {m} ORDER BY id LIMIT {m}"
        self.feed_head = "SELECT COALESCE(MAX(id), 0) FROM lobby_feed"
        self.game_counts = "SELECT status, COUNT(*) FROM game_index GROUP BY status"

    def lobby(
        self, status: str | None, ruleset: str | None, before: tuple[int, str] | None, limit: int
    ) -> tuple[str, tuple[Any, ...]]:
        """The lobby's page query and its parameters (`lobby_query` in this dialect)."""
        return lobby_query(self.mark, status, ruleset, before, limit)


def index_row(game_id: str, index: GameIndex) -> tuple[Any, ...]:
    """The parameters of `upsert_index` for a game's index entry."""
    i = index
    return (game_id, int(i.public), i.status, i.ruleset, i.created, i.listing, i.deadline)


def lobby_query(
    mark: str, status: str | None, ruleset: str | None, before: tuple[int, str] | None, limit: int
) -> tuple[str, tuple[Any, ...]]:
    """The lobby's page query (`mark` being the database's parameter mark): newest first, after the cursor by
    (created, game_id), which the indexes on (public[, status], created, game_id) serve."""
    where: list[str] = ["public = 1"]
    params: list[Any] = []
    if status is not None:
        where.append(f"status = {mark}")
        params.append(status)
    if ruleset is not None:
        where.append(f"ruleset = {mark}")
        params.append(ruleset)
    if before is not None:  # a row value: both databases bound the index scan with it (an OR they only filter by)
        where.append(f"(created, game_id) < ({mark}, {mark})")
        params += [before[0], before[1]]
    sql = (
        f"SELECT created, game_id, listing FROM game_index WHERE {' AND '.join(where)} "
        f"ORDER BY created DESC, game_id DESC LIMIT {mark}"
    )
    return sql, (*params, limit)


def _schema(d: Dialect) -> str:
    """The tables and indexes, created where missing (a store's own triggers come after them)."""
    return f"""
CREATE TABLE IF NOT EXISTS games (
    game_id     TEXT PRIMARY KEY,
    meta        {d.blob} NOT NULL,
    created_at  {d.timestamp}
);
CREATE TABLE IF NOT EXISTS events (
    game_id     TEXT NOT NULL REFERENCES games(game_id),
    seq         INTEGER NOT NULL CHECK (seq >= 1),
    type        TEXT NOT NULL,
    body        {d.blob} NOT NULL,
    prev        TEXT NOT NULL,
    hash        TEXT NOT NULL,
    recorded_at {d.timestamp},
    PRIMARY KEY (game_id, seq)
){d.keyed_only};
CREATE TABLE IF NOT EXISTS game_index (
    game_id     TEXT PRIMARY KEY REFERENCES games(game_id),
    public      INTEGER NOT NULL,
    status      TEXT NOT NULL,
    ruleset     TEXT NOT NULL,
    created     {d.bigint} NOT NULL,
    listing     {d.blob} NOT NULL,
    deadline    {d.bigint}
){d.keyed_only};
CREATE INDEX IF NOT EXISTS game_index_lobby ON game_index (public, created DESC, game_id DESC);
CREATE INDEX IF NOT EXISTS game_index_status ON game_index (public, status, created DESC, game_id DESC);
CREATE INDEX IF NOT EXISTS game_index_deadline ON game_index (deadline) WHERE deadline IS NOT NULL;
CREATE TABLE IF NOT EXISTS lobby_feed (
    id          {d.growing_key},
    game_id     TEXT NOT NULL,
    kind        TEXT NOT NULL,
    listing     {d.blob} NOT NULL
);
CREATE TABLE IF NOT EXISTS idempotency (
    game_id      TEXT NOT NULL,
    key          TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status       INTEGER NOT NULL,
    response     {d.blob} NOT NULL,
    PRIMARY KEY (game_id, key)
){d.keyed_only};
"""
