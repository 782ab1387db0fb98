"""Fixtures for the real stores: a SQLite file per test, and one throwaway PostgreSQL cluster per session.

PostgreSQL is never mocked. Without it the PostgreSQL cases fail, unless skipped by name (tests/needs.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
