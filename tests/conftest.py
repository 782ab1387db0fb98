"""Each test judges afresh: the rules core's memo tables are emptied before it (see `loveletter.core.memo`).

The run's summary also says how many tests ran in a real browser and how many against a real PostgreSQL, so a run
that quietly left them out is seen (tests/needs.py: they are never skipped unless asked by name).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from loveletter.core.memo import forget_all

# The tests speak plain HTTP to 127.0.0.1 and nothing else, yet httpx builds a TLS context for every client it makes
# and that context read a whole CA bundle (28 ms a client, a file named by SSL_CERT_FILE or certifi's): the suite
# made thousands of clients, a request's `httpx.get` one each. A folder of CAs is read lazily, when a TLS peer needs
# one, which never happens here; this process and those it starts use one (httpx reads SSL_CERT_DIR).
os.environ.pop("SSL_CERT_FILE", None)
os.environ["SSL_CERT_DIR"] = "/etc/ssl/certs"

BROWSER_FILES = {"test_browser_docs.py"}
_ran: dict[str, int] = {"browser": 0, "postgres": 0}


@pytest.fixture(autouse=True)
def _fresh_memos() -> None:
    forget_all()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: runs in Debian's chromium (skip by name: LOVELETTER_SKIP=browser)")
    config.addinivalue_line("markers", "postgres: runs against a real PostgreSQL (LOVELETTER_SKIP=postgres)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.fspath))
        if "browser" in path.parent.name or path.name in BROWSER_FILES:
            item.add_marker(pytest.mark.browser)
        if "pg_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.postgres)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.passed:
        for kind in _ran:
            if kind in report.keywords:
                _ran[kind] += 1


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(
        f"real parts: {_ran['browser']} passed in Chromium, {_ran['postgres']} passed against PostgreSQL"
    )
