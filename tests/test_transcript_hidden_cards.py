"""Issue 12, item 9: the cards a table did not see — the 2-player setup's three removed cards played face down, or
the card set aside — may be written "?" in a transcript. With every other card of the round written, the ruleset's
deck leaves one way to fill them; when it leaves none, the deal is refused under setup.deal at its place."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.catalogue import RoundStarted
from loveletter.replays.transcript import expand

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "reader-question.json"


def reader_question() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(EXAMPLE.read_text("utf-8"))
    return doc


def _deal(doc: dict[str, Any]) -> RoundStarted:
    expanded = expand(doc)
    assert expanded.problem is None, expanded.problem
    return next(e for e in expanded.events if isinstance(e, RoundStarted))


def test_face_down_removed_cards_written_unknown_are_the_ones_the_deck_leaves() -> None:
    doc = reader_question()
    written = _deal(doc)
    hidden = copy.deepcopy(doc)
    hidden["rounds"][0]["deal"]["face_up"] = ["?", "?", "?"]
    inferred = _deal(hidden)
    # the example removed two Guards and a Priest: the 21-card deck less everything else written leaves exactly those
    assert sorted(inferred.face_up) == sorted([Card.GUARD, Card.GUARD, Card.PRIEST]) == sorted(written.face_up)
    assert inferred.set_aside is Card.KING and inferred.deck == written.deck
    assert expand(hidden).events[-1] == expand(doc).events[-1]  # the same game follows: Claire is out


def test_the_set_aside_card_may_be_unknown_too_unless_it_could_be_either_of_two() -> None:
    doc = reader_question()
    doc["rounds"][0]["deal"]["set_aside"] = "?"
    assert _deal(doc).set_aside is Card.KING  # the only card the rest leaves
    doc["rounds"][0]["deal"]["face_up"] = ["guard", "?", "priest"]  # now a Guard and the King are left for two places
    problem = expand(doc).problem
    assert problem is not None and (problem.rule_id, problem.where) == ("setup.deal", "$.rounds[0].deal.set_aside")


def test_unknown_cards_the_deck_cannot_account_for_are_a_wrong_deal() -> None:
    doc = reader_question()
    deal = doc["rounds"][0]["deal"]
    deal["face_up"] = ["?", "?", "?"]
    deal["deck"] = [*deal["deck"], "princess"]  # a second Princess: no 2019 deck holds it
    problem = expand(doc).problem
    assert problem is not None
    assert (problem.rule_id, problem.code) == ("setup.deal", "invalid_deal")
    assert problem.where == "$.rounds[0].deal" and "?" in problem.en and "?" in problem.fr
