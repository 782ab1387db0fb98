"""The replay viewer's route (`POST /replays/views`) names a lobby game's joined player as the log does
(`seat_joined`), and takes that name as a point of view, on a real server."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from loveletter.events.log import game_lines
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.joined_game import joined_game_events
from tests.servers import serve


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("viewer") / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", log_level="warning", create_rate=0, move_rate=0)
    try:
        with serve(settings, store) as url:
            yield url
    finally:
        store.close()


def test_the_viewer_names_the_joined_player_and_takes_it_as_a_point_of_view(base: str) -> None:
    log = b"".join(line + b"\n" for line in game_lines(joined_game_events("Alice", "Bob"))).decode()
    answer = httpx.post(f"{base}/replays/views", json={"log": log, "pov": "Bob"}, timeout=60)
    assert answer.status_code == 200, answer.text
    result = answer.json()
    assert result["players"] == ["Alice", "Bob"]
    assert result["positions"][-1]["view"]["seat"] == 1
