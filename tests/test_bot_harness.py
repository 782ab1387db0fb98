"""`loveletter bot run`: a bot written as a function or a class (examples/bots/) joins a game over HTTP — from the
lobby or by invite — and plays its seat to the end, its every move judged by the referee like anyone's."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from loveletter.api.settings import Settings
from loveletter.client import Client
from loveletter.events.sqlite_store import SqliteStore
from tests.cli import loveletter
from tests.servers import ADMIN, admin_log, log_events, serve


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("bots") / "referee.db"))
    try:
        with serve(Settings(admin_token=ADMIN, log_level="warning", create_rate=0, move_rate=0), store) as url:
            yield url
    finally:
        store.close()


def test_a_function_bot_takes_the_lobbys_open_seat_and_plays_the_game_out(base: str) -> None:
    with Client(base) as c:
        created = c.create_game([{"name": "House", "bot": "heuristic"}, {"open": True}], public=True)
    game_id = created.game_id
    ran = loveletter("bot", "run", "examples.bots.first:choose", "--server", base, "--join-open", "--name", "First")
    assert ran.returncode == 0, ran.stderr
    assert f"game {game_id} over" in ran.stdout
    events = log_events(admin_log(base, game_id))
    assert events[-1].TYPE == "seed_revealed" and any(e.TYPE == "game_ended" for e in events)
    played = [e for e in events if e.TYPE == "card_played" and e.player == 1]
    assert played, "the bot's seat never played"


def test_a_class_bot_joins_by_invite_while_a_person_plays_the_other_seat(base: str) -> None:
    with Client(base) as c:
        created = c.create_game([{"name": "Ann"}, {"open": True}])
    game_id, ann = created.game_id, created.seats[0].token
    invite = created.seats[1].invite
    assert ann is not None and invite is not None
    out: dict[str, object] = {}
    args = ("bot", "run", "examples.bots.careful:Careful", "--server", base, "--game", game_id, "--invite", invite)
    runner = threading.Thread(target=lambda: out.update(result=loveletter(*args, "--name", "Careful")))
    runner.start()
    with Client(base, ann) as me:  # Ann plays the first legal move whenever it is her turn, until the game ends
        for _ in range(5000):
            game = me.game(game_id)
            if game.over:
                break
            if game.your_turn:
                move = game.legal_moves[0]
                me.play(game_id, move)
    runner.join(60)
    result = out["result"]
    assert result.returncode == 0, result.stderr  # type: ignore[attr-defined]
    events = log_events(admin_log(base, game_id))
    careful = [e for e in events if e.TYPE == "card_played" and e.player == 1]
    assert careful and all(e.card.value != "princess" for e in careful)  # the careful bot never plays the Princess


def test_bot_run_refuses_a_bot_it_cannot_load_in_both_languages(tmp_path: Path) -> None:
    en = loveletter("bot", "run", "no.such.module:bot", "--join-open", "--lang", "en")
    fr = loveletter("bot", "run", "no.such.module:bot", "--join-open", "--lang", "fr")
    assert en.returncode == 2 and "cannot load the bot" in en.stderr
    assert fr.returncode == 2 and "impossible de charger le robot" in fr.stderr


def test_bot_run_says_in_french_when_no_public_game_has_an_open_seat(base: str) -> None:
    with Client(base) as c:
        assert not list(c.lobby(status="open")), "an earlier test left a public game open"
    ran = loveletter("bot", "run", "examples.bots.first:choose", "--server", base, "--join-open", "--lang", "fr")
    assert ran.returncode == 2 and "aucune partie publique n'a de siège ouvert" in ran.stderr
