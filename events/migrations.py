"""Schema versions: what each version of the stores' tables adds, and how a store brings the database it opens up to
the newest one at start-up, in the one transaction that also records it.

Each database keeps the versions applied to it in `schema_versions` (version, what it added, when). Databases written
before that table existed are version 3 (`BASELINE`, the tables of `statements._schema`; SQLite's older version 2
lacked only the game index, which the baseline's CREATE … IF NOT EXISTS adds). A migration only adds: tables, columns,
indexes; it never rewrites or drops what is there, so an upgraded database keeps every game as it was written. A
database from a newer referee (a version this code does not know) is refused rather than guessed at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from loveletter.events.statements import Dialect
from loveletter.events.store import StoreError

BASELINE = 3
"""The version of the tables every store wrote before versions were recorded."""


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    summary: str
    script: Callable[[Dialect], str]
    """Its statements in a dialect, separated by semicolons."""


def _accounts(d: Dialect) -> str:
    return f"""
CREATE TABLE accounts (
    account_id  TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL UNIQUE,
    kind        TEXT NOT NULL CHECK (kind IN ('person', 'bot')),
    key_digest  TEXT UNIQUE,
    created     {d.bigint} NOT NULL
);
CREATE TABLE account_games (
    account_id  TEXT NOT NULL REFERENCES accounts(account_id),
    game_id     TEXT NOT NULL REFERENCES games(game_id),
    seat        INTEGER NOT NULL,
    PRIMARY KEY (account_id, game_id, seat)
){d.keyed_only};
CREATE INDEX account_games_game ON account_games (game_id);
"""


def _rated_games(d: Dialect) -> str:
    return f"""
CREATE TABLE rated_games (
    game_id     TEXT PRIMARY KEY REFERENCES games(game_id),
    ruleset     TEXT NOT NULL,
    players     INTEGER NOT NULL,
    created     {d.bigint} NOT NULL
){d.keyed_only};
CREATE INDEX rated_games_ladder ON rated_games (ruleset, players, created, game_id);
"""


def _challenges(d: Dialect) -> str:
    return f"""
CREATE TABLE challenges (
    challenge_id TEXT PRIMARY KEY,
    challenger   TEXT NOT NULL REFERENCES accounts(account_id),
    challenged   TEXT NOT NULL REFERENCES accounts(account_id),
    ruleset      TEXT NOT NULL,
    rated        INTEGER NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'accepted', 'declined')),
    game_id      TEXT,
    created      {d.bigint} NOT NULL
);
CREATE INDEX challenges_challenger ON challenges (challenger, created);
CREATE INDEX challenges_challenged ON challenges (challenged, created);
"""


def _account_events(d: Dialect) -> str:
    return f"""
CREATE TABLE account_events (
    id          {d.growing_key},
    account_id  TEXT NOT NULL REFERENCES accounts(account_id),
    kind        TEXT NOT NULL,
    body        {d.blob} NOT NULL,
    created     {d.bigint} NOT NULL
);
CREATE INDEX account_events_stream ON account_events (account_id, id);
"""


def _seeks(d: Dialect) -> str:
    return f"""
CREATE TABLE seeks (
    seek_id      TEXT PRIMARY KEY,
    account_id   TEXT NOT NULL REFERENCES accounts(account_id),
    ruleset      TEXT NOT NULL,
    players      INTEGER NOT NULL,
    turn_seconds INTEGER,
    rated        INTEGER NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'paired', 'cancelled')),
    game_id      TEXT,
    created      {d.bigint} NOT NULL
);
CREATE INDEX seeks_open ON seeks (status, created);
CREATE INDEX seeks_game ON seeks (game_id);
"""


def _challenge_expiry(d: Dialect) -> str:
    return """
ALTER TABLE challenges ADD COLUMN expired INTEGER;
"""


def _rate_buckets(d: Dialect) -> str:
    return """
CREATE TABLE rate_buckets (
    key      TEXT PRIMARY KEY,
    tokens   DOUBLE PRECISION NOT NULL,
    stamp    DOUBLE PRECISION NOT NULL,
    granted  BOOLEAN NOT NULL
);
CREATE INDEX rate_buckets_stamp ON rate_buckets (stamp);
"""


MIGRATIONS: tuple[Migration, ...] = (
    Migration(4, "accounts (name, kind, hashed key) and the games each account sat at", _accounts),
    Migration(5, "the finished rated games, which the ladder folds", _rated_games),
    Migration(6, "challenges from one account to another", _challenges),
    Migration(7, "each account's event stream (challenges, games started, seeks paired)", _account_events),
    Migration(8, "seeks: the queue that pairs accounts of close ratings", _seeks),
    Migration(9, "challenges: whether an unanswered one was found expired", _challenge_expiry),
    Migration(10, "rate limit buckets every worker shares (used on PostgreSQL)", _rate_buckets),
)
LATEST = MIGRATIONS[-1].version if MIGRATIONS else BASELINE


def versions_table(d: Dialect) -> str:
    return f"""
CREATE TABLE IF NOT EXISTS schema_versions (
    version     INTEGER PRIMARY KEY,
    summary     TEXT NOT NULL,
    applied_at  {d.timestamp}
);
"""


class Database(Protocol):
    """What `upgrade` needs of a connection already inside the transaction: run a script, run one parameterised
    statement."""

    def script(self, sql: str) -> None: ...

    def run(self, sql: str, params: tuple[object, ...]) -> None: ...


def upgrade(db: Database, found: int | None, baseline: str, d: Dialect) -> list[int]:
    """Bring a database at version `found` (None: an empty one) to `LATEST`, inside the caller's transaction, and
    record each version applied; `baseline` is the store's script of the version-3 tables (with its own triggers).
    The versions applied, oldest first (none for a database already up to date)."""
    if found is not None and found > LATEST:
        raise StoreError(
            f"this database has schema version {found}, newer than this referee's {LATEST}: "
            "run the referee that wrote it (or a newer one)"
        )
    record = f"INSERT INTO schema_versions (version, summary) VALUES ({d.mark}, {d.mark})"
    db.script(versions_table(d))
    applied: list[int] = []
    if found is None or found <= BASELINE:
        db.script(baseline)  # CREATE … IF NOT EXISTS: adds what an older database lacks, keeps what it has
        db.run(record, (BASELINE, "games, hash-chained events, game index, lobby feed, idempotency records"))
        applied.append(BASELINE)
        found = BASELINE
    for migration in MIGRATIONS:
        if migration.version > found:
            db.script(migration.script(d))
            db.run(record, (migration.version, migration.summary))
            applied.append(migration.version)
    return applied


def refuse_unversioned(what: str) -> StoreError:
    """A database with tables but no version this referee can tell."""
    return StoreError(f"this database was written by a referee too old to upgrade from ({what}): use a new database")
