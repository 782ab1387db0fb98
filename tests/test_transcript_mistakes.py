"""A player's mistake written in a transcript (a Guard guess that is no card, a target who is nobody at the table, a
card name with a typo) is the very move a table disputes: it is judged as a violation at its place, with a rule id,
in English and French, and the nearest valid name. Only a file that is not a transcript at all is unreadable."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from loveletter.replays.transcript import expand
from tests.cli import ROOT, loveletter
from tests.french import not_french

READER_QUESTION = json.loads((ROOT / "examples" / "reader-question.json").read_text())
NAMES = ["Claire", "Thibault", "Joker", "Thibaut", "Prinse", "Servnte", "Clair"]


def _turn(t: int, **fields: Any) -> Callable[[dict[str, Any]], None]:
    return lambda doc: doc["rounds"][0]["turns"][t].update(fields)


def _guard_turn(doc: dict[str, Any]) -> None:
    """Thibault plays the Guard he was dealt (he also holds the Handmaid he drew), naming a card."""
    doc["rounds"][0]["turns"][0] = {"player": "Thibault", "play": "guard", "target": "Claire", "guess": "Joker"}
    del doc["rounds"][0]["turns"][1]


MISTAKES = [
    # (what the table wrote, where, rule id, code, suggestion in the English message or None)
    (_guard_turn, "$.rounds[0].turns[0].guess", "guard.guess", "unknown_card", None),
    (_turn(1, target="Thibaut"), "$.rounds[0].turns[1].target", "target.required", "unknown_player", "Thibault"),
    (_turn(1, target="Nobody"), "$.rounds[0].turns[1].target", "target.required", "unknown_player", None),
    (_turn(1, play="Prinse"), "$.rounds[0].turns[1].play", "turn.play-from-hand", "unknown_card", "Prince"),
    (_turn(0, play="Servnte"), "$.rounds[0].turns[0].play", "turn.play-from-hand", "unknown_card", "Servante"),
    (_turn(1, player="Clair"), "$.rounds[0].turns[1].player", "turn.order", "unknown_player", "Claire"),
    (
        lambda d: d["rounds"][0]["deal"].update(set_aside="Kign"),
        "$.rounds[0].deal.set_aside",
        "setup.deal",
        "unknown_card",
        "King",
    ),
    (lambda d: d.update(first_player="Zoé"), "$.first_player", "setup.first-player", "unknown_player", None),
]


@pytest.mark.parametrize("mutate,where,rule_id,code,near", MISTAKES)
def test_a_mistaken_name_is_a_violation_at_its_place(
    mutate: Callable[[dict[str, Any]], None], where: str, rule_id: str, code: str, near: str | None
) -> None:
    doc = copy.deepcopy(READER_QUESTION)
    mutate(doc)
    out = expand(doc)  # no TranscriptFormatError: the file is a transcript
    assert out.problem is not None
    assert (out.problem.where, out.problem.rule_id, out.problem.code) == (where, rule_id, code)
    if near is not None:
        assert f"did you mean {near}" in out.problem.en.replace("'", "")
        assert f"vouliez-vous dire « {near} »" in out.problem.fr or f"vouliez-vous dire {near}" in out.problem.fr
    assert not_french(out.problem.fr, allowed=NAMES) == [], out.problem.fr


def test_the_guard_naming_a_joker_is_judged_by_the_cli_in_both_languages(tmp_path: Path) -> None:
    doc = copy.deepcopy(READER_QUESTION)
    _guard_turn(doc)
    path = tmp_path / "joker.json"
    path.write_text(json.dumps(doc))
    english = loveletter("replay", str(path), "--lang", "en")
    assert english.returncode == 1, english.stdout + english.stderr
    assert "violation at $.rounds[0].turns[0].guess (round 1, Thibault's first turn): [guard.guess]" in english.stdout
    assert "'Joker' is not a card" in english.stdout
    french = loveletter("replay", str(path), "--lang", "fr")
    assert french.returncode == 1
    assert "[guard.guess] « Joker » n'est pas une carte" in french.stdout
    report = json.loads(loveletter("replay", str(path), "--json").stdout)
    assert report["verdict"] == "violation"
    (problem,) = report["games"][0]["problems"]
    assert (problem["rule_id"], problem["code"], problem["where"]) == (
        "guard.guess",
        "unknown_card",
        "$.rounds[0].turns[0].guess",
    )


def test_a_file_that_is_not_a_transcript_at_all_stays_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "shape.json"
    path.write_text(json.dumps({"format": "loveletter-transcript", "players": "Claire"}))
    result = loveletter("replay", str(path))
    assert result.returncode == 2 and "unreadable" in result.stdout


def test_an_unknown_turn_field_suggests_the_nearest_one(tmp_path: Path) -> None:
    doc = copy.deepcopy(READER_QUESTION)
    doc["rounds"][0]["turns"][1]["tagret"] = doc["rounds"][0]["turns"][1].pop("target")
    path = tmp_path / "field.json"
    path.write_text(json.dumps(doc))
    result = loveletter("replay", str(path), "--lang", "fr")
    assert result.returncode == 2 and "vouliez-vous dire « target » ?" in result.stdout
