"""Issue 12, item 5: a dispute that starts mid-round from a described position, judged over every way the unseen
cards can lie. Each chance below is worked out by hand from the 2019 deck (21 cards) and the cards the position
shows; the referee's answer must match it exactly (fractions, not estimates)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from loveletter.replays.situations import SituationError, judge
from tests.cli import loveletter


def situation(hands: dict[str, Any], front: dict[str, list[str]], deck_size: int, turns: list[dict[str, Any]]) -> dict:
    return {
        "format": "loveletter-situation",
        "version": 1,
        "ruleset": "2019",
        "players": ["Ann", "Bob", "Cid"],
        "position": {"to_play": "Ann", "hands": hands, "front": front, "deck_size": deck_size},
        "turns": turns,
    }


GUARD_ON_BOB = situation(
    {"Ann": ["guard", "prince"]},
    {"Bob": ["priest"], "Cid": ["baron"]},
    14,  # 21 less the 4 cards shown = 17 unseen, for Bob's hand, Cid's hand, the set-aside card and 14 in the deck
    [{"player": "Ann", "play": "guard", "target": "Bob", "guess": "priest"}],
)


def chance_of(result: Any, words: str) -> Fraction:
    return sum((c.chance for c in result.cases if any(words in line.en for line in c.story)), Fraction(0))


def test_a_guard_hits_as_often_as_the_unseen_copies_of_its_guess() -> None:
    result = judge(GUARD_ON_BOB)
    assert sum(result.unseen.values()) == 17 and result.unseen["priest"] == 1  # two Priests, one in Bob's discards
    assert chance_of(result, "hit!") == Fraction(1, 17)
    assert chance_of(result, "miss.") == Fraction(16, 17)
    assert sum(c.chance for c in result.cases) == 1 and result.complete


def test_a_baron_loses_only_to_the_higher_cards_nobody_has_seen() -> None:
    doc = situation(
        {"Ann": ["baron", "king"]},
        {"Bob": ["priest"], "Cid": ["guard"]},
        14,
        [{"player": "Ann", "play": "baron", "target": "Bob"}],
    )
    result = judge(doc)
    # Ann keeps the King (7): only the Countess (8) and the Princess (9) beat it, one copy each among 17 unseen
    assert chance_of(result, "Ann is out of the round") == Fraction(2, 17)
    assert chance_of(result, "Bob is out of the round") == Fraction(15, 17)


def test_a_refused_turn_is_refused_in_every_case_with_its_rule() -> None:
    doc = situation(
        {"Ann": ["guard", "prince"]}, {}, 16, [{"player": "Ann", "play": "guard", "target": "Bob", "guess": "guard"}]
    )
    (case,) = judge(doc).cases
    assert case.chance == 1 and case.refused is not None and case.refused[0] == "guard.guess"


@pytest.mark.parametrize(
    "position",
    [
        {"deck_size": 15},  # one card too many for the places
        {"front": {"Bob": ["prince", "prince"], "Cid": ["prince"]}, "deck_size": 13},  # three Princes of two
        {"hands": {"Ann": ["guard"]}, "deck_size": 15},  # the player to play holds two cards
    ],
)
def test_position_possible_refuses_a_position_no_deal_leads_to(position: dict[str, Any]) -> None:
    doc = situation({"Ann": ["guard", "prince"]}, {}, 16, [])
    doc["position"].update(position)
    with pytest.raises(SituationError) as caught:
        judge(doc)
    assert caught.value.rule_id == "position.possible"


def test_the_command_answers_in_english_french_and_json(tmp_path: Path) -> None:
    path = tmp_path / "guard.json"
    path.write_text(json.dumps(GUARD_ON_BOB))
    en = loveletter("situation", str(path), "--lang", "en")
    assert en.returncode == 0 and "1/17 (5.9%)" in en.stdout and "hit!" in en.stdout
    fr = loveletter("situation", str(path), "--lang", "fr")
    assert fr.returncode == 0 and "1/17 (5,9 %)" in fr.stdout and "touché !" in fr.stdout
    answer = json.loads(loveletter("situation", str(path), "--json").stdout)
    assert answer["possible"] and sum(Fraction(c["chance_fraction"]) for c in answer["cases"]) == 1
    impossible = dict(GUARD_ON_BOB, position={**GUARD_ON_BOB["position"], "deck_size": 3})
    path.write_text(json.dumps(impossible))
    refused = loveletter("situation", str(path), "--json")
    assert refused.returncode == 1 and json.loads(refused.stdout)["rule_id"] == "position.possible"
