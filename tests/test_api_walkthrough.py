"""The game of strangers in docs/api-walkthrough.md is played again here, with curl, against a fresh referee: every
step of the page's generator checks the answer it shows (docs/api_walkthrough.py `strangers`)."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.needs import need
from tests.servers import serve

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_the_strangers_walkthrough_plays_as_the_page_says(tmp_path: Path) -> None:
    need("curl", None if shutil.which("curl") else "curl is not installed")
    spec = importlib.util.spec_from_file_location("api_walkthrough", DOCS / "api_walkthrough.py")
    assert spec is not None and spec.loader is not None
    walkthrough = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(walkthrough)
    store = SqliteStore(str(tmp_path / "walk.db"))
    try:
        with serve(Settings(log_level="warning", create_rate=0, move_rate=0), store) as base:
            lines = walkthrough.strangers(base)
    finally:
        store.close()
    page = (DOCS / "api-walkthrough.md").read_text("utf-8")
    assert "## Strangers at one table" in page
    titles = [line for line in lines if not line.startswith(("$", "{", " ", "}", "```"))]
    for line in titles:  # the page's prose is the generator's, not hand-edited
        if line and not line.startswith("  "):
            assert line in page, line
