"""One SQLite file serves one referee process. A second `loveletter serve` (or uvicorn worker) on the same file would
answer from its own cache, behind the first one's moves; so it refuses to start, naming the file and pointing to
PostgreSQL for several workers, while the first one keeps serving. Real processes on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from loveletter.events.pgcluster import free_port
from tests.cli import SCRIPT
from tests.servers import ROOT, ServerProcess, client, create_game


def serve_command(database: Path, lang: str) -> subprocess.CompletedProcess[str]:
    """`loveletter serve` on `database`, in `lang`; it must exit by itself (a server that starts fails the test)."""
    env = {**os.environ, "LOVELETTER_LANG": lang, "LOVELETTER_LOG_LEVEL": "warning"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)  # this tree's code
    port = str(free_port())
    try:
        return subprocess.run(
            [str(SCRIPT), "serve", "--database-url", f"sqlite:///{database}", "--port", port],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
            env=env,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"a second `loveletter serve` on {database} started serving: {exc.stderr!r}")


def play_one_move(base_url: str, created: dict[str, Any]) -> int:
    """The seat whose turn it is plays its first legal move: the game's new version."""
    gid = created["game_id"]
    with client(base_url) as c:
        active = c.get(f"/games/{gid}").json()["view"]["active"]
    with client(base_url, created["seats"][active]["token"]) as c:
        game = c.get(f"/games/{gid}").json()
        r = c.post(
            f"/games/{gid}/moves",
            json={"type": "code", "action_code": game["legal_moves"][0]["action_code"]},
            headers={"If-Match": f'"{game["version"]}"'},
        )
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


def test_a_second_server_on_the_same_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    database = tmp_path / "referee.db"
    with ServerProcess(f"sqlite:///{database}") as first:
        created = create_game(first.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
        gid = created["game_id"]
        version = play_one_move(first.url, created)

        second = ServerProcess(f"sqlite:///{database}")  # uvicorn's own command, as a worker manager runs it
        with pytest.raises(RuntimeError, match="exited") as refused:
            second.wait_ready()
        second.stop()
        assert second.proc.returncode not in (0, None)
        message = str(refused.value)
        assert str(database) in message and "PostgreSQL" in message and "in use" in message, message

        english = serve_command(database, "en")
        assert english.returncode != 0
        assert str(database) in english.stderr and "PostgreSQL" in english.stderr, english.stderr
        assert "several workers" in english.stderr and "Traceback" not in english.stderr, english.stderr
        french = serve_command(database, "fr")
        assert french.returncode != 0
        assert str(database) in french.stderr and "PostgreSQL" in french.stderr, french.stderr
        assert "plusieurs processus" in french.stderr and "Traceback" not in french.stderr, french.stderr

        # the first server never noticed: it serves the game at its current version, and moves it on
        with client(first.url) as c:
            assert c.get(f"/games/{gid}").json()["version"] == version
        version = play_one_move(first.url, created)
        assert first.proc.poll() is None

    # once the first one has stopped, the file is free: a new server serves the game as the first one left it
    with ServerProcess(f"sqlite:///{database}") as successor, client(successor.url) as c:
        assert c.get(f"/games/{gid}").json()["version"] == version
