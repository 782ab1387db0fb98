"""`replay --json` records each round's outcome as a dispute needs it: eliminations with their cause and whose card
caused them (a Princess played, or discarded to whose Prince), the round's winners and why (last standing, highest
card, 2012 discard sums with the sums, tie), and each favor with its reason."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from loveletter.replays.outcomes import round_outcomes
from loveletter.replays.transcript import expand
from tests.cli import ROOT, loveletter

READER_QUESTION = json.loads((ROOT / "examples" / "reader-question.json").read_text())
TIE_2012 = ROOT / "examples" / "disputes" / "2012-tie-discard-sums.json"


def _rounds(doc: dict[str, Any]) -> list[dict[str, Any]]:
    out = expand(doc)
    assert out.ok, out.problem
    return round_outcomes(out.events)


def test_prince_princess__a_princess_discarded_to_a_prince_says_whose_prince() -> None:
    (one,) = _rounds(READER_QUESTION)
    assert one["eliminations"] == [
        {"player": "Claire", "cause": "princess", "by": "Claire", "cards": [], "princess": "discarded"}
    ]
    assert (one["end"], one["winners"], one["why"]) == ("last-standing", ["Thibault"], "last-standing")
    assert one["favors"] == [{"player": "Thibault", "reason": "round"}]


def test_princess_eliminated__a_princess_played_is_told_apart() -> None:
    doc = copy.deepcopy(READER_QUESTION)
    doc["rounds"][0]["turns"][1] = {"player": "Claire", "play": "princess"}
    (one,) = _rounds(doc)
    assert one["eliminations"][0]["princess"] == "played"
    assert one["eliminations"][0]["cards"] == ["prince"]


def test_round_tie__the_2012_discard_sums_that_broke_a_tie_are_recorded(tmp_path: Path) -> None:
    report = json.loads(loveletter("replay", str(TIE_2012), "--json").stdout)
    (one,) = report["games"][0]["rounds"]
    assert one["end"] == "deck-out" and one["hands"] == {"Alice": "baron", "Bob": "baron"}
    assert (one["why"], one["winners"], one["discard_sums"]) == ("discard-sum", ["Bob"], {"Alice": 13, "Bob": 17})
