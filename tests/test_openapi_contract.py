"""The OpenAPI document is a contract clients are generated from (issue 14's first part): every operation has a
short, unique id that says what it does, as a generated client will name its methods."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from loveletter.server.app import create_app
from loveletter.server.settings import Settings


def test_every_operation_has_a_short_unique_verb_first_id(tmp_path: Path) -> None:
    os.environ.setdefault("LOVELETTER_KEY_PATH", os.path.join(tempfile.mkdtemp(), "signing.key"))
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'x.db'}", log_level="error"))
    ids = [op["operationId"] for ops in app.openapi()["paths"].values() for op in ops.values()]
    assert len(ids) == len(set(ids)) >= 20
    for op_id in ids:
        assert re.fullmatch(r"[a-z]+(_[a-z]+){0,2}", op_id), op_id  # create_game, play_move, … not post_move_games_…
    assert {"create_game", "list_games", "join_game", "play_move", "stream_game", "audit_log", "ask_ruling"} <= set(ids)
