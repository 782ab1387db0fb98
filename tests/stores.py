"""Fixtures for the real stores: a SQLite file per test, and one throwaway PostgreSQL cluster per session.

PostgreSQL is never mocked. Without it the PostgreSQL cases fail, unless skipped by name (tests/needs.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import pytest

from loveletter.events.pgcluster import PostgresUnavailable, TempCluster
from tests.needs import need


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    cluster = TempCluster()
    try:
        url = cluster.start()
    except PostgresUnavailable as exc:
        cluster.stop()
        need("postgres", f"PostgreSQL is not available ({exc})")
    try:
        yield url
    finally:
        cluster.stop()


@pytest.fixture
def sqlite_path(tmp_path: Path) -> str:
    return str(tmp_path / "referee.db")


@contextmanager
def fresh_database(pg_url: str, prefix: str) -> Iterator[str]:
    """A database of its own in the session's cluster, dropped afterwards: no other test's workers, seeks or
    limits share it."""
    name = f"{prefix}_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_url, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    try:
        yield pg_url.rsplit("/", 1)[0] + "/" + name
    finally:
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def own_database(pg_url: str) -> Iterator[str]:
    """`fresh_database` as a fixture."""
    with fresh_database(pg_url, "own") as url:
        yield url
