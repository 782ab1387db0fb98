"""`replays.one_game`: the one reader of "a game from a log or a transcript", for the command line (`explain`,
`show`) and HTTP (`POST /rulings`, `POST /replays/views`). Expected values come from the log reader and the
transcript expander themselves, read apart."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import orjson
import pytest

from loveletter.core.lang import Text
from loveletter.events.log import read_games
from loveletter.play.simulate import Config, simulate
from loveletter.replays.one_game import NO_SUCH_GAME, SEVERAL, THE_LOG, NotOneGame, one_game
from loveletter.replays.transcript import expand
from tests.cli import loveletter

ROOT = Path(__file__).resolve().parent.parent
READER = ROOT / "examples" / "reader-question.json"


def simulated(games: int) -> bytes:
    out = io.BytesIO()
    simulate(Config("2019", 2, games, 4, ("random", "random")), out)
    return out.getvalue()


def test_a_log_of_one_game_gives_its_entries_as_text_or_bytes() -> None:
    data = simulated(1)
    (game,) = read_games(data.splitlines())
    assert one_game(data) == one_game(data.decode()) == game.entries
    assert [e.seq for e in one_game(data)] == list(range(1, len(game.entries) + 1))


def test_a_transcript_gives_the_events_it_expands_to_as_an_object_or_as_text() -> None:
    text = READER.read_bytes()
    events = expand(orjson.loads(text)).events
    assert one_game(orjson.loads(text)) == one_game(text) == one_game(text.decode()) == list(events)
    assert len(events) == 10


def refusal(source: Any, called: Text | str = THE_LOG) -> NotOneGame:
    with pytest.raises(NotOneGame) as caught:
        one_game(source, called)
    return caught.value


def test_a_log_of_two_games_is_refused_naming_the_source_and_the_count() -> None:
    error = refusal(simulated(2), "games.jsonl")
    assert error.message("en") == "games.jsonl holds 2 games; one game is read at a time"
    assert error.message("fr") == "games.jsonl contient 2 parties ; une seule partie est lue à la fois"
    assert refusal(simulated(2)).message("fr").startswith("le journal contient 2 parties")
    assert error.kind == "value_error"


def test_a_game_without_events_and_an_empty_log_are_refused() -> None:
    header = simulated(1).splitlines()[0]
    assert refusal(header).message("en") == "the game has no event"
    assert refusal(b"").message("en") == "line 1: no game in this log (it has no header line)"  # the log reader's


def test_what_is_no_log_says_why_with_the_pydantic_kind_it_amounts_to() -> None:
    not_json = refusal('{"format": "loveletter-transcript", ')
    assert not_json.kind == "json_invalid" and not_json.message("en").startswith("the transcript is not JSON")
    assert not_json.message("fr").startswith("la transcription n'est pas du JSON valide (ligne 1")
    for value in (12, [1, 2], {"format": "something else"}):
        wrong = refusal(value)
        assert wrong.kind == "string_type", value
        assert wrong.message("en") == "a JSONL log as text, or a transcript object"
    bad = refusal({"format": "loveletter-transcript", "players": "nobody"})
    assert bad.message("en").startswith("transcript ") and bad.message("fr").startswith("transcription ")
    garbage = refusal("this is not a log")
    assert garbage.message("en").startswith("line 1: ") and garbage.kind == "value_error"


def test_the_command_line_refuses_a_log_of_two_games_in_one_line(tmp_path: Path) -> None:
    log = tmp_path / "two.jsonl"
    log.write_bytes(simulated(2))
    for command in (("show", str(log)), ("explain", str(log), "--at", "3")):
        result = loveletter(*command)
        assert result.returncode == 2, result.stdout
        assert result.stderr.strip().splitlines() == [
            f"error: {log} holds 2 games; pick one with --game (1 to 2, as replay numbers them)"
        ]


def test_a_game_is_picked_from_a_log_of_several_counting_from_one() -> None:
    three = simulated(3)
    games = list(read_games(three.splitlines()))
    assert one_game(three, "x", game=2) == list(games[1].entries)
    assert one_game(three, "x", game=1) == list(games[0].entries)
    with pytest.raises(NotOneGame) as missing:
        one_game(three, "x", game=4)
    assert missing.value.reason == NO_SUCH_GAME and missing.value.games == 3
    assert missing.value.message("en") == "x has no game 4; it holds 3, the first being game 1"
    with pytest.raises(NotOneGame) as several:
        one_game(three, "x")
    assert several.value.reason == SEVERAL and several.value.kind == "value_error"
