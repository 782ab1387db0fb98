"""What the referee's start leaves for later (issue 34): the app's import loads neither the HTTP client's libraries,
the templates' engine nor the expert's engine, and the `loveletter` command imports only the command it runs. Each
was a tenth of a second or more of every start; bench/startup.py measures the start itself (docs/performance.md).
Then `/readyz`, which says when the store and the engine are ready."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.servers import serve

LATER = ("httpx", "jinja2", "loveletter.play.engine.policy", "loveletter.play.tournament")


def imported_by(code: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_the_apps_import_leaves_the_client_the_templates_and_the_engine_for_later() -> None:
    loaded = imported_by("import loveletter.server.app")
    assert "loveletter.api.routes.games" in loaded  # the probe sees the app's own modules
    assert loaded.isdisjoint(LATER), sorted(loaded & set(LATER))
    assert not [m for m in loaded if m.startswith("loveletter.play.engine")]  # not a module of the engine


def test_the_command_line_imports_only_the_command_it_runs() -> None:
    loaded = imported_by("import loveletter.cli.main")
    assert "click" in loaded
    assert not any(
        m.startswith(("loveletter.cli.analyse", "loveletter.cli.tournament", "loveletter.play")) for m in loaded
    )
    assert "loveletter.server.app" not in loaded


def test_a_lazily_loaded_name_is_the_same_object_as_its_home() -> None:
    from loveletter import client
    from loveletter.client.sync import Client

    assert client.Client is Client
    for name in client.__all__:  # every public name resolves
        assert getattr(client, name).__name__ == name


def test_readyz_says_the_store_answers_and_the_engine_waits_for_its_first_decision(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "referee.db"))
    with serve(Settings(log_level="critical"), store) as url:
        health = httpx.get(url + "/healthz")
        ready = httpx.get(url + "/readyz")
        assert health.status_code == 200 and ready.status_code == 200
        said = ready.json()
        assert said["ready"] is True
        assert said["store"]["kind"] == "SqliteStore" and said["store"]["ready"] is True and said["store"]["ms"] >= 0
        assert said["engine"] == {"workers": 2, "state": "idle", "urgent_waiting": 0, "background_waiting": 0}
    store.close()
