"""`replay --lenient` on a transcript reports every problem: each refused decision is skipped (and the report says
so), the rest of its round is not judged but its names are still read, and judging resumes at the next round."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from loveletter.replays.transcript import expand
from tests.cli import ROOT, loveletter
from tests.french import not_french

READER_QUESTION = json.loads((ROOT / "examples" / "reader-question.json").read_text())
NAMES = ["Claire", "Thibault", "Joker", "Prinse"]


def three_problems() -> dict[str, Any]:
    """Round 1: Claire's Prince aimed at the protected Thibault. Round 2: Claire's Guard names a Joker, then
    Thibault plays a card written with a typo (in a turn that can no longer be judged)."""
    doc = copy.deepcopy(READER_QUESTION)
    doc["rounds"][0]["turns"][1]["target"] = "Thibault"
    second = copy.deepcopy(doc["rounds"][0])
    second["deal"]["hands"] = {"Claire": "guard", "Thibault": "princess"}
    second["first_player"] = "Claire"
    second["turns"] = [
        {"player": "Claire", "play": "guard", "target": "Thibault", "guess": "Joker"},
        {"player": "Thibault", "play": "Prinse", "target": "Claire"},
    ]
    doc["rounds"].append(second)
    return doc


def test_strict_expansion_stops_at_the_first_problem() -> None:
    out = expand(three_problems())
    assert [p.rule_id for p in out.problems] == ["target.protected"]


def test_lenient_expansion_reports_every_problem_and_what_it_skipped() -> None:
    out = expand(three_problems(), lenient=True)
    found = [(p.rule_id, p.where) for p in out.problems]
    assert found == [
        ("target.protected", "$.rounds[0].turns[1]"),
        ("guard.guess", "$.rounds[1].turns[0].guess"),
        ("turn.play-from-hand", "$.rounds[1].turns[1].play"),
    ]
    assert out.skipped[0].en == "this decision is skipped"
    assert out.skipped[1].en.startswith("this decision is skipped, and the rest of round 2 (1 turn) is not judged")
    assert out.skipped[2].en == "this turn is not judged"
    assert len(out.events) == 5  # the emitted log is the legal prefix: up to Claire drawing the Prince


def test_cli_lenient_text_and_json_in_both_languages(tmp_path: Path) -> None:
    path = tmp_path / "three.json"
    path.write_text(json.dumps(three_problems()))
    strict = loveletter("replay", str(path))
    assert strict.returncode == 1 and strict.stdout.count("violation at") == 1
    english = loveletter("replay", str(path), "--lenient")
    assert english.returncode == 1, english.stderr
    assert english.stdout.count("violation at") == 3
    assert "    → this decision is skipped, and the rest of round 2 (1 turn) is not judged" in english.stdout
    french = loveletter("replay", str(path), "--lenient", "--lang", "fr")
    assert french.stdout.count("infraction dans") == 3
    assert "    → cette décision est ignorée, et la suite de la manche 2 (1 tour) n'est pas jugée" in french.stdout
    for line in french.stdout.splitlines():
        assert not_french(line.split("]", 1)[-1], allowed=NAMES) == [], line
    report = json.loads(loveletter("replay", str(path), "--lenient", "--json", "--lang", "fr").stdout)
    problems = report["games"][0]["problems"]
    assert [p["rule_id"] for p in problems] == ["target.protected", "guard.guess", "turn.play-from-hand"]
    assert problems[2]["skipped"] == "ce tour n'est pas jugé"
