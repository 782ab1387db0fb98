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
            after = played.json()["view"]
            ann_to_play = after["active"] == 0 and after["phase"] == "play"
            # A Guard naming a Guard: out of turn (409; her own Chancellor decision pending is 409 too) unless her
            # move ended the round and she starts the next, where it is refused whatever she was dealt (422: the
            # Guard may not name a Guard, or she holds none). Her first move again was dealt a Guard once, and passed.
            guard_on_guard = {"type": "play", "card": "guard", "target": 1, "guess": "guard"}
            refused = c.post(f"/games/{gid}/moves", json=guard_on_guard)
            assert refused.status_code == (422 if ann_to_play else 409), refused.text
            answers.append(("refused", refused))
            reread = c.get(f"/games/{gid}", params={"token": token})  # a read is logged too, never its token
            assert reread.status_code == 200
            answers.append(("read", reread))
        worker.proc.terminate()
        _, stderr = worker.proc.communicate(timeout=10)
    lines = _lines(stderr)
    requests = [line for line in lines if line.get("event") == "request"]
    moves = [line for line in requests if line.get("path") == f"/games/{gid}/moves"]
    reads = [line for line in requests if line.get("path") == f"/games/{gid}" and line["method"] == "GET"]
    assert len(moves) == 2 and len(reads) >= 2, requests
    assert moves[0]["route"] == "/games/{game_id}/moves" and reads[-1]["route"] == "/games/{game_id}"
    for (kind, answer), line in zip(answers, [*moves, reads[-1]], strict=True):
        assert line["request_id"] == answer.headers["x-request-id"]
        assert line["game_id"] == gid and line["seat"] == 0 and line["status"] == answer.status_code
        assert line["level"] == "info" and "timestamp" in line and line["ms"] >= 0
        assert line["method"] == ("GET" if kind == "read" else "POST")
        if kind == "played":
            assert line["seq"] == int(answer.headers["etag"].strip('"'))
    assert token not in stderr.decode(), "a token reached the log"
    creation = [line for line in lines if line.get("event") == "game created"]
    assert len(creation) == 1 and creation[0]["game_id"] == gid and creation[0]["seats"] == 2


def test_the_request_line_level_is_configurable(tmp_path: Path) -> None:
    """At request_log_level=debug under log_level=info, answered requests leave no line; a 5xx still would."""
    worker = ServerProcess(
        f"sqlite:///{tmp_path / 'referee.db'}", log_format="json", log_level="info", request_log_level="debug"
    )
    with worker:
        created = create_game(worker.url, [{"name": "Ann"}, {"name": "Bob"}], first_player=0)
        with client(worker.url, created["seats"][0]["token"]) as c:
            assert c.get(f"/games/{created['game_id']}").status_code == 200
            assert c.get("/games/nope").status_code == 404
        worker.proc.terminate()
        _, stderr = worker.proc.communicate(timeout=10)
    assert [line for line in _lines(stderr) if line.get("event") == "request"] == []
