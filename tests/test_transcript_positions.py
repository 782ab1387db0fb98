"""A transcript may stop at any decision point, where the argument stopped: `replay` says where the game stands
and whose decision is pending ("round 1, Thibault's first turn: Thibault is to keep one card…"), and `explain`
there, without a move, lists every legal way to make that decision."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from loveletter.replays.transcript import expand
from tests.cli import loveletter
from tests.french import not_french

NAMES = ["Claire", "Thibault"]
STOPPED: dict[str, Any] = {
    "format": "loveletter-transcript",
    "version": 1,
    "ruleset": "2019",
    "players": ["Claire", "Thibault"],
    "rounds": [
        {
            "deal": {
                "set_aside": "king",
                "face_up": ["guard", "guard", "priest"],
                "hands": {"Claire": "princess", "Thibault": "guard"},
                "deck": [
                    "chancellor",
                    "prince",
                    "baron",
                    "guard",
                    "spy",
                    "handmaid",
                    "countess",
                    "handmaid",
                    "prince",
                    "guard",
                    "spy",
                    "chancellor",
                    "priest",
                    "baron",
                    "guard",
                ],
            },
            "first_player": "Thibault",
            "turns": [{"player": "Thibault", "play": "chancellor", "note": "the argument starts here"}],
        }
    ],
}


def _file(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_chancellor_pending__a_transcript_may_stop_before_the_chancellor_decision(tmp_path: Path) -> None:
    path = _file(tmp_path, STOPPED)
    english = loveletter("replay", path)
    assert english.returncode == 0, english.stdout + english.stderr
    assert english.stdout.strip().endswith(
        "verified — 5 events, game not finished: round 1, Thibault's first turn: Thibault is to keep one card and "
        "put the other 2 cards on the bottom of the deck (the Chancellor)"
    )
    french = loveletter("replay", path, "--lang", "fr")
    assert "manche 1, premier tour de Thibault : Thibault doit garder une carte et placer les 2 autres" in french.stdout
    assert not_french(french.stdout.split("]", 1)[1], allowed=NAMES) == []
    report = json.loads(loveletter("replay", path, "--json").stdout)
    assert report["games"][0]["position"] == {
        "round": 1,
        "phase": "chancellor",
        "player": "Thibault",
        "turn": 1,
        "text": english.stdout.split("game not finished: ")[1].strip(),
    }


def test_chancellor_return__explain_lists_every_legal_completion_there(tmp_path: Path) -> None:
    path = _file(tmp_path, STOPPED)
    result = loveletter("explain", path, "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["at"], answer["phase"], answer["player"]) == (5, "chancellor", "Thibault")
    completions = {(m["keep"], tuple(m["bottom"])) for m in answer["legal_moves"]}
    assert len(completions) == 6 and ("baron", ("guard", "prince")) in completions
    text = loveletter("explain", path, "--lang", "fr")
    assert "garder Baron, remettre Garde, Prince sous la pioche" in text.stdout
    assert not_french(text.stdout, allowed=NAMES) == []


def test_turn_order__explain_at_an_earlier_point_names_the_player_to_move(tmp_path: Path) -> None:
    result = loveletter("explain", _file(tmp_path, STOPPED), "--at", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("round 1, Thibault's first turn: Thibault is to play a card (after event 3)")
    assert "- Chancellor" in result.stdout and "- Guard on Claire naming Princess" in result.stdout


def test_chancellor_pending__a_turn_written_after_the_missing_decision_is_refused() -> None:
    doc = copy.deepcopy(STOPPED)
    doc["rounds"][0]["turns"].append({"player": "Claire", "play": "prince", "target": "Claire"})
    out = expand(doc)
    assert out.problem is not None and out.problem.rule_id == "chancellor.pending"
    assert out.problem.where == "$.rounds[0].turns[1]"


def test_chancellor_return__returned_cards_without_the_kept_one_are_a_violation() -> None:
    doc = copy.deepcopy(STOPPED)
    doc["rounds"][0]["turns"][0]["bottom"] = ["prince", "baron"]
    out = expand(doc)
    assert out.problem is not None and out.problem.rule_id == "chancellor.return"
    assert out.problem.where == "$.rounds[0].turns[0].keep"
