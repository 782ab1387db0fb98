"""The request log of a real worker process: one canonical JSON line per command, carrying the request id the
client was answered with, and the game, seat and version it concerned."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tests.servers import ServerProcess, client, create_game


def _lines(stderr: bytes) -> list[dict[str, Any]]:
    out = []
    for raw in stderr.splitlines():
        try:
            line = orjson.loads(raw)
        except orjson.JSONDecodeError:
            continue  # uvicorn's own start-up lines
        if isinstance(line, dict):
            out.append(line)
    return out


def test_each_command_logs_one_line_with_its_request_id_game_seat_and_seq(tmp_path: Path) -> None:
    worker = ServerProcess(f"sqlite:///{tmp_path / 'referee.db'}", log_format="json", log_level="info")
    answers = []
    with worker:
        created = create_game(worker.url, [{"name": "Ann"}, {"name": "Bob"}], first_player=0)
        gid, token = created["game_id"], created["seats"][0]["token"]
        with client(worker.url, token) as c:
            legal = c.get(f"/games/{gid}").json()["legal_moves"]
            played = c.post(f"/games/{gid}/moves", json={"type": "code", "action_code": legal[0]["action_code"]})
            assert played.status_code == 200
            answers.append(("played", played))
            refused = c.post(f"/games/{gid}/moves", json={"type": "code", "action_code": legal[0]["action_code"]})
            assert refused.status_code in (409, 422)
            answers.append(("refused", refused))
            reread = c.get(f"/games/{gid}")  # a read is not a command: no line
            assert reread.status_code == 200
        worker.proc.terminate()
        _, stderr = worker.proc.communicate(timeout=10)
    lines = _lines(stderr)
    requests = [line for line in lines if line.get("event") == "request"]
    moves = [line for line in requests if line.get("path") == f"/games/{gid}/moves"]
    assert len(moves) == 2, requests
    assert not [line for line in requests if line.get("method") == "GET" and line.get("status", 0) < 400]
    for (kind, answer), line in zip(answers, moves, strict=True):
        assert line["request_id"] == answer.headers["x-request-id"]
        assert line["game_id"] == gid and line["seat"] == 0 and line["status"] == answer.status_code
        assert line["level"] == "info" and line["method"] == "POST" and "timestamp" in line and line["ms"] >= 0
        if kind == "played":
            assert line["seq"] == int(answer.headers["etag"].strip('"'))
    creation = [line for line in lines if line.get("event") == "game created"]
    assert len(creation) == 1 and creation[0]["game_id"] == gid and creation[0]["seats"] == 2
