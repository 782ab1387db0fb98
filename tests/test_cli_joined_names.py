"""A lobby game's joined player is named by every reader of its log: `replay` (text and JSON), `audit`, `show`
(`--pov`, `--seat`) and positions by turn, as `seat_joined` names them, not with the empty name of creation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loveletter.replays.players import seat_names
from tests.cli import loveletter
from tests.joined_game import joined_game_events, write_joined_game


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_joined_game(tmp_path_factory.mktemp("joined") / "game.jsonl")


def test_the_names_are_those_of_creation_then_of_each_join() -> None:
    events = joined_game_events("Alice", "Bob")
    assert events[0].players == ("Alice", "")  # the log writes the open seat empty at creation
    assert seat_names(events[:1]) == ("Alice", "")
    assert seat_names(events) == ("Alice", "Bob")
    assert seat_names([], ("Ann", "")) == ("Ann", "")


def test_replay_names_the_joined_player_in_text_and_json(log: Path) -> None:
    text = loveletter("replay", str(log))
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith(f"{log} [log game 1, 2019, Alice, Bob]: verified — ")
    french = loveletter("replay", str(log), "--lang", "fr")
    assert french.stdout.startswith(f"{log} [journal, partie 1, 2019, Alice, Bob] : vérifiée — ")
    report = json.loads(loveletter("replay", str(log), "--json").stdout)
    assert report["games"][0]["players"] == ["Alice", "Bob"]


def test_audit_names_the_joined_player(log: Path) -> None:
    listed = json.loads(loveletter("audit", str(log), "--json", "--per-game").stdout)
    assert [g["players"] for g in listed["games"]] == [["Alice", "Bob"]]


def test_show_finds_the_joined_player_by_name(log: Path) -> None:
    story = loveletter("show", str(log), "--pov", "Bob")
    assert story.returncode == 0, story.stderr
    assert "Bob takes seat 1." in story.stdout
    view = loveletter("show", str(log), "--at", "round 1, Bob's first turn", "--seat", "Bob")
    assert view.returncode == 0, view.stderr
    assert json.loads(view.stdout)["seat"] == 1


def test_a_turn_is_found_by_the_joined_players_name(log: Path) -> None:
    where = loveletter("explain", str(log), "--at", "round 1, Bob's first turn")
    assert where.returncode == 0, where.stderr
    assert where.stdout.startswith("round 1, Bob's first turn: Bob is to play a card")
    alice = loveletter("explain", str(log), "--at", "round 1, Alice's second turn")
    assert alice.stdout.startswith("round 1, Alice's second turn: Alice is to play a card")
