"""The classic table disputes of docs/disputes.md: each is a transcript in examples/disputes/ that is replayed here,
and whose verdict and rule id are checked — an illegal move by the violation it is refused with, a legal one by the
rule a ruling cites for it, an outcome (a favor, a showdown) by the round's recorded result."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from loveletter.core.catalogue import CardDrawn, CardPlayed, ChancellorDrew, Event, PlayerEliminated
from loveletter.replays.outcomes import round_outcomes
from loveletter.replays.rulings import explain
from loveletter.replays.transcript import Expansion, expand
from tests.cli import ROOT

DISPUTES = ROOT / "examples" / "disputes"
PAGE = (ROOT / "docs" / "disputes.md").read_text()

Check = Callable[[Expansion, list[dict[str, Any]]], bool]


def _after_last_play(events: list[Event]) -> list[Event]:
    last = max(i for i, e in enumerate(events) if isinstance(e, CardPlayed))
    return events[last + 1 :]


def nobody_out(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    return not any(isinstance(e, PlayerEliminated) for e in _after_last_play(x.events))


def player_out_by_own_baron(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    out = rounds[-1]["eliminations"][-1]
    return out["cause"] == "baron" and out["player"] == out["by"]


def king_loses_in_2012(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    return rounds[-1]["eliminations"][-1]["cards"] == ["king"]


def princess_discarded(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    out = rounds[-1]["eliminations"][-1]
    return out["cause"] == "princess" and out["princess"] == "discarded"


def princess_played(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    return rounds[-1]["eliminations"][-1]["princess"] == "played"


def drew_one(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    return [len(e.cards) for e in x.events if isinstance(e, ChancellorDrew)][-1] == 1


def drew_none_and_deck_out(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    after = _after_last_play(x.events)
    return not any(isinstance(e, ChancellorDrew) for e in after) and rounds[-1]["end"] == "deck-out"


def drew_set_aside(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    return any(isinstance(e, CardDrawn) and e.source == "set-aside" for e in _after_last_play(x.events))


def favors(reason: str, count: int) -> Check:
    return lambda x, rounds: sum(f["reason"] == reason for f in rounds[-1]["favors"]) == count


def why(reason: str, winners: int) -> Check:
    return lambda x, rounds: rounds[-1]["why"] == reason and len(rounds[-1]["winners"]) == winners


def always(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    return True


def chancellor_pending(x: Expansion, rounds: list[dict[str, Any]]) -> bool:
    return x.state.phase == "chancellor"


# (file, verdict, rule id, what else must hold); "illegal": refused with the rule; "legal": the ruling on the last
# play cites the rule; "outcome": the transcript is verified and the rule decides the round's result.
CASES: list[tuple[str, str, str, Check]] = [
    ("prince-on-yourself-holding-the-princess", "legal", "target.none", princess_discarded),
    ("prince-on-protected-player", "illegal", "target.protected", always),
    ("prince-on-princess-holder", "legal", "prince.effect", princess_discarded),
    ("prince-draws-the-set-aside-card", "legal", "prince.effect", drew_set_aside),
    ("princess-played", "legal", "princess.eliminated", princess_played),
    ("baron-tie", "legal", "baron.effect", nobody_out),
    ("baron-loses-its-player", "legal", "baron.effect", player_out_by_own_baron),
    ("baron-2012-king-against-countess", "legal", "baron.effect", king_loses_in_2012),
    ("guard-names-guard", "illegal", "guard.guess", always),
    ("typo-in-the-guess", "illegal", "guard.guess", always),
    ("guard-names-chancellor-in-classic", "illegal", "guard.guess-in-ruleset", always),
    ("guard-names-spy-in-2012", "illegal", "guard.guess-in-ruleset", always),
    ("guard-without-target", "illegal", "target.required", always),
    ("guard-at-protected-player", "illegal", "target.protected", always),
    ("guard-everyone-protected", "legal", "target.none", always),
    ("handmaid-protection-ends", "legal", "guard.effect", always),
    ("king-on-protected-player", "illegal", "target.protected", always),
    ("king-everyone-protected", "legal", "target.none", always),
    ("priest-on-yourself", "illegal", "target.other", always),
    ("target-out-of-the-round", "illegal", "target.eliminated", always),
    ("countess-with-king", "illegal", "countess.forced", always),
    ("countess-with-prince", "illegal", "countess.forced", always),
    ("countess-played-freely", "legal", "countess.forced", always),
    ("chancellor-one-card-left", "legal", "chancellor.effect", drew_one),
    ("chancellor-empty-deck", "legal", "chancellor.effect", drew_none_and_deck_out),
    ("chancellor-pending", "outcome", "chancellor.pending", chancellor_pending),
    ("play-out-of-turn", "illegal", "turn.order", always),
    ("card-not-in-hand", "illegal", "turn.play-from-hand", always),
    ("spy-favor-two-spies", "outcome", "favor.spy", favors("spy", 1)),
    ("spy-favor-blocked", "outcome", "favor.spy", favors("spy", 0)),
    ("spy-favor-out-player-does-not-block", "outcome", "favor.spy", favors("spy", 1)),
    ("deck-out-highest-card", "outcome", "round.deck-out", why("highest-card", 1)),
    ("deck-out-tie-2019", "outcome", "round.tie", why("tie", 2)),
    ("2012-tie-discard-sums", "outcome", "round.tie", why("discard-sum", 1)),
    ("tie-2012-still-tied", "outcome", "round.tie", why("tie", 0)),
    ("amira-sadie-favor", "outcome", "favor.amira-sadie", favors("amira-sadie", 2)),
    ("amira-sadie-one-player-both", "outcome", "favor.amira-sadie", favors("amira-sadie", 0)),
]


def test_every_dispute_file_is_a_case_and_the_page_has_them_all() -> None:
    files = sorted(p.stem for p in DISPUTES.glob("*.json"))
    assert files == sorted(name for name, *_ in CASES)
    assert len(files) >= 30
    rulesets = {json.loads((DISPUTES / f"{f}.json").read_text()).get("ruleset", "2019") for f in files}
    assert rulesets == {"2019", "2019-classic", "2012", "princess-princess"}


@pytest.mark.parametrize(("name", "verdict", "rule_id", "check"), CASES, ids=[c[0] for c in CASES])
def test_dispute(name: str, verdict: str, rule_id: str, check: Check) -> None:
    doc = json.loads((DISPUTES / f"{name}.json").read_text())
    expansion = expand(doc)
    if verdict == "illegal":
        assert expansion.problem is not None and expansion.problem.rule_id == rule_id, expansion.problem
        assert expansion.problem.where == f"$.rounds[0].turns[{len(doc['rounds'][0]['turns']) - 1}]" or (
            expansion.problem.where or ""
        ).startswith(f"$.rounds[0].turns[{len(doc['rounds'][0]['turns']) - 1}].")
    else:
        assert expansion.ok, expansion.problem
    if verdict == "legal":
        last = doc["rounds"][0]["turns"][-1]
        move = {"player": last["player"], "card": last["play"]}
        move.update({k: last[k] for k in ("target", "guess") if k in last})
        at = max(i for i, e in enumerate(expansion.events) if isinstance(e, CardPlayed))
        for lang in ("en", "fr"):
            ruling = explain(expansion.events, at, move, lang)
            assert ruling.legal and ruling.rule_id == rule_id, ruling.message
    assert check(expansion, round_outcomes(expansion.events))
    section = PAGE.split(f"`examples/disputes/{name}.json` ·")
    assert len(section) == 2, f"docs/disputes.md must cite examples/disputes/{name}.json once"
    assert f"`{rule_id}`" in section[0].rsplit("\n## ", 1)[-1] + section[1].split("\n## ", 1)[0]


def test_every_answer_is_given_in_english_and_in_french() -> None:
    from tests.french import not_french

    sections = PAGE.split("\n## ")[1:]
    assert len(sections) == len(CASES)
    for section in sections:
        answers = [line for line in section.splitlines() if line.startswith("- **Answer.** ")]
        french = [line.removeprefix("- **Réponse.** ") for line in section.splitlines() if "**Réponse.**" in line]
        assert len(answers) == 1 and len(french) == 1, section
        assert not_french(french[0], allowed=["RULINGS", "replay", "explain"]) == [], french[0]
