"""Positions as people count them: `--at` takes "round 2, Bob's third turn" (or « manche 2, 3e tour de Bob »,
"round 2, turn 5") as well as an event number, and reports say where a problem stands that way."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from loveletter.core.catalogue import RoundStarted, TurnStarted
from loveletter.events.log import read_games
from loveletter.replays.position import PositionError, turn_seq
from loveletter.replays.transcript import expand
from tests.cli import ROOT, loveletter

READER = ROOT / "examples" / "reader-question.json"
EVENTS = expand(json.loads(READER.read_text())).events


@pytest.mark.parametrize(
    "written,seq",
    [
        ("5", 5),
        ("round 1, Claire's first turn", 5),
        ("round 1, Claire's 1st turn", 5),
        ("Round 1, turn 2", 5),
        ("round 1, Thibault's first turn", 3),
        ("manche 1, premier tour de Claire", 5),
        ("manche 1, 1er tour de Thibault", 3),
        ("manche 1, tour 1", 3),
    ],
)
def test_a_turn_written_as_people_say_it_is_found(written: str, seq: int) -> None:
    assert turn_seq(EVENTS, written) == seq


def test_a_turn_the_game_does_not_have_is_said_so_in_both_languages() -> None:
    with pytest.raises(PositionError) as err:
        turn_seq(EVENTS, "round 1, Claire's third turn")
    assert err.value.text.en == "the game has no round 1, Claire's third turn in this file"
    assert err.value.text.fr == "la partie n'a pas de manche 1, troisième tour de Claire dans ce fichier"


def test_later_rounds_and_players_count_from_each_round_start(tmp_path: Path) -> None:
    log = tmp_path / "one.jsonl"
    assert loveletter("simulate", "--games", "1", "--players", "2", "--seed", "3", "--log", str(log)).returncode == 0
    (game,) = read_games(log.read_bytes().splitlines())
    events = [e.event for e in game.entries]
    name = game.header.players[1]
    seq = turn_seq(events, f"round 2, {name}'s second turn")
    event = events[seq - 1]
    assert isinstance(event, TurnStarted) and event.player == 1
    since = events[: seq - 1][::-1]
    start = next(i for i, e in enumerate(since) if isinstance(e, RoundStarted))
    assert since[start].round == 2  # type: ignore[union-attr]
    assert sum(isinstance(e, TurnStarted) and e.player == 1 for e in since[:start]) == 1


def test_explain_and_replay_speak_of_rounds_and_turns(tmp_path: Path) -> None:
    by_turn = loveletter(
        "explain", str(READER), "--at", "round 1, Claire's first turn", "--move", '{"card": "prince", "target": 1}'
    )
    by_seq = loveletter("explain", str(READER), "--at", "5", "--move", '{"card": "prince", "target": 1}')
    assert by_turn.returncode == 1 and by_turn.stdout == by_seq.stdout
    assert by_turn.stdout.startswith("ILLEGAL — Claire, after event 5 (round 1, Claire's first turn): ")
    doc = copy.deepcopy(json.loads(READER.read_text()))
    doc["rounds"][0]["turns"][1]["target"] = "Thibault"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    text = loveletter("replay", str(path), "--lang", "fr").stdout
    assert "infraction dans $.rounds[0].turns[1] (manche 1, premier tour de Claire) : [target.protected]" in text
    report = json.loads(loveletter("replay", str(path), "--json").stdout)
    assert report["games"][0]["problems"][0]["position"] == "round 1, Claire's first turn"


def test_the_deal_before_a_rounds_first_turn_is_named_as_the_deal_not_a_turn_zero(tmp_path: Path) -> None:
    """Between a round's start and its first turn the seat still active is the last round's: no "0th turn"."""
    from loveletter.replays.position import position_at

    log = tmp_path / "one.jsonl"
    assert loveletter("simulate", "--games", "1", "--players", "3", "--seed", "3", "--log", str(log)).returncode == 0
    (game,) = read_games(log.read_bytes().splitlines())
    events = [e.event for e in game.entries]
    second = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 2)
    first_turn = next(i for i in range(second, len(events)) if isinstance(events[i], TurnStarted))
    for at in range(second + 1, first_turn + 1):  # after RoundStarted, through the deal, before TurnStarted
        where = position_at(events, at)
        assert (where.player, where.turn, where.legal_moves) == (None, None, [])
        assert where.text.en == "round 2, at the deal: the cards are being dealt"
        assert where.text.fr == "manche 2, à la donne : les cartes sont distribuées"
    starter = events[first_turn]
    assert isinstance(starter, TurnStarted)
    after = position_at(events, first_turn + 1)
    assert after.turn == 1 and after.player == game.header.players[starter.player]
    assert after.when.en == f"round 2, {after.player}'s first turn"
