"""Credentials: several admin tokens valid at once (rotation), a tokens file read again when it changes (no
restart), seat tokens on event streams by header, and a token in a stream's query string (for browsers'
EventSource) never written to any log line: the request log, nor uvicorn's access log when it is on. Real
referee processes on 127.0.0.1."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from loveletter.events.pgcluster import free_port
from tests.servers import ROOT, STARTUP_SECONDS, ServerProcess, client, create_game, read_sse


def log_status(base_url: str, game_id: str, token: str) -> int:
    """The status of `GET /games/{id}/log` for a game in progress: 200 for the admin, 403 for anyone else."""
    with client(base_url, token) as c:
        return c.get(f"/games/{game_id}/log").status_code


def new_game(base_url: str) -> str:
    created = create_game(base_url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    game_id: str = created["game_id"]
    return game_id


def test_several_admin_tokens_are_valid_at_once(tmp_path: Path) -> None:
    with ServerProcess(
        f"sqlite:///{tmp_path / 'referee.db'}",
        admin_token="the-old-single-admin-token",
        admin_tokens="first-admin-token-of-two, second-admin-token-of-two",
    ) as worker:
        gid = new_game(worker.url)
        for token in ("the-old-single-admin-token", "first-admin-token-of-two", "second-admin-token-of-two"):
            assert log_status(worker.url, gid, token) == 200, token
        for token in ("first-admin-token-of-two,", "first-admin-token", "not-an-admin-token", "a" * 1000):
            assert log_status(worker.url, gid, token) == 403, token
        with client(worker.url, "second-admin-token-of-two") as admin:  # the admin's other privilege: full states
            state = admin.get(f"/games/{gid}/state", params={"at": 2, "full": "true"})
        assert state.status_code == 200, state.text


def wait_for(base_url: str, game_id: str, token: str, status: int) -> None:
    """The file's change takes effect at once; patience for file systems with coarse timestamps and for a busy
    machine, where one request can take seconds (a bound, not a wait: the status is asked until it is the one)."""
    deadline = time.monotonic() + 30
    while (seen := log_status(base_url, game_id, token)) != status and time.monotonic() < deadline:
        time.sleep(0.05)
    assert seen == status, (token, seen, status)


def test_a_token_added_to_or_removed_from_the_tokens_file_counts_without_a_restart(tmp_path: Path) -> None:
    tokens = tmp_path / "admin-tokens"
    tokens.write_text("# the referee's admin tokens, one a line\n#commented-out-token\ntoken-of-the-first-admin\n")
    with ServerProcess(
        f"sqlite:///{tmp_path / 'referee.db'}", admin_tokens_file=str(tokens), admin_token="fixed-admin-token"
    ) as worker:
        gid = new_game(worker.url)
        pid = worker.proc.pid
        assert log_status(worker.url, gid, "token-of-the-first-admin") == 200
        assert log_status(worker.url, gid, "token-of-the-second-admin") == 403
        assert log_status(worker.url, gid, "#commented-out-token") == 403  # a comment
        assert log_status(worker.url, gid, "commented-out-token") == 403
        assert log_status(worker.url, gid, "fixed-admin-token") == 200  # the variables' tokens count as well

        tokens.write_text("token-of-the-first-admin\n\n  token-of-the-second-admin  \n")  # added
        wait_for(worker.url, gid, "token-of-the-second-admin", 200)
        assert log_status(worker.url, gid, "token-of-the-first-admin") == 200

        tokens.write_text("token-of-the-second-admin\n")  # the first one removed
        wait_for(worker.url, gid, "token-of-the-first-admin", 403)
        assert log_status(worker.url, gid, "token-of-the-second-admin") == 200

        replacement = tmp_path / "admin-tokens.new"  # replaced whole, as an editor or a deployment tool does
        replacement.write_text("token-of-the-third-admin\n")
        replacement.replace(tokens)
        wait_for(worker.url, gid, "token-of-the-third-admin", 200)
        wait_for(worker.url, gid, "token-of-the-second-admin", 403)

        tokens.unlink()  # no file: only the variables' tokens
        wait_for(worker.url, gid, "token-of-the-third-admin", 403)
        assert log_status(worker.url, gid, "fixed-admin-token") == 200
        assert worker.proc.pid == pid and worker.proc.poll() is None  # never restarted


def test_a_query_token_never_reaches_any_log_line(tmp_path: Path) -> None:
    """uvicorn's own command with its access log on (its default), and the referee's request log at info: a seat's
    token sent as `?token=` (as EventSource must) appears in neither, nor does a wrong one, nor the admin's."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("LOVELETTER_")}
    env.update(
        LOVELETTER_DATABASE_URL=f"sqlite:///{tmp_path / 'referee.db'}",
        LOVELETTER_KEY_PATH=str(tmp_path / "signing.key"),
        LOVELETTER_LOG_FORMAT="json",
        LOVELETTER_LOG_LEVEL="info",
        LOVELETTER_REQUEST_LOG_LEVEL="info",
        LOVELETTER_ADMIN_TOKEN="admin-token-that-must-stay-secret",
    )
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    command = [sys.executable, "-m", "uvicorn", "loveletter.server.app:create_app", "--factory"]
    proc = subprocess.Popen(
        [*command, "--host", "127.0.0.1", "--port", str(port), "--log-level", "info"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "the referee did not start"
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        created = create_game(url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
        gid, ann, bob = created["game_id"], created["seats"][0]["token"], created["seats"][1]["token"]
        secrets = [ann, bob, "wrong-token-that-must-stay-secret", "admin-token-that-must-stay-secret"]
        mine = read_sse(url, f"/games/{gid}/stream?token={bob}&after=0", limit=2)
        assert "hand" in mine[1]["data"]  # the query token gave Bob's view
        assert read_sse(url, f"/games/{gid}/stream?after=1&token={ann}", limit=1)[0]["data"]["seq"] == 2
        assert read_sse(url, f"/games/{gid}/stream?%74oken={bob}", limit=1)  # the name percent-encoded
        with client(url) as c:
            wrong = c.get(f"/games/{gid}/stream", params={"token": "wrong-token-that-must-stay-secret"})
            assert wrong.status_code == 403
            assert c.get(f"/games/{gid}", params={"token": ann}).status_code == 200
        with client(url, "admin-token-that-must-stay-secret") as admin:
            assert admin.get(f"/games/{gid}/log").status_code == 200
    finally:
        proc.terminate()
        out, err = proc.communicate(timeout=15)
    logged = (out + err).decode()
    access = [line for line in logged.splitlines() if "/stream" in line and "HTTP/1.1" in line]
    requests = [line for line in logged.splitlines() if '"event":"request"' in line and "/stream" in line]
    assert len(access) >= 4 and len(requests) >= 4, logged  # both logs were on, and saw the streams
    assert all("after=" in line for line in access[:2]), access  # what is not a token is still logged
    for secret in secrets:
        assert secret not in logged, f"a token reached the log: {secret}"
