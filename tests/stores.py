"""Fixtures for the real stores: a SQLite file per test, and one throwaway PostgreSQL cluster per session.

PostgreSQL is never mocked. Without it the PostgreSQL cases are skipped on a developer machine and
fail under CI=true, where .ci/run installs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from loveletter.events.pgcluster import PostgresUnavailable, TempCluster


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    cluster = TempCluster()
    try:
        url = cluster.start()
    except PostgresUnavailable as exc:
        cluster.stop()
        if os.environ.get("CI") == "true":
            pytest.fail(f"PostgreSQL is required under CI: {exc}")
        pytest.skip(f"PostgreSQL not available: {exc}")
    try:
        yield url
    finally:
        cluster.stop()


@pytest.fixture
def sqlite_path(tmp_path: Path) -> str:
    return str(tmp_path / "referee.db")
