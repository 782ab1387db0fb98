"""`loveletter explain` at a point where nobody decides (inside a move, after the end): it says so, names the nearest
points before and after where a player decides (who, after which event), and judges there when asked
(`--nearest before|after`), in English, French and JSON. The nearest points are checked against a model read from
the log's own lines: a player decides just before each `card_played` and `chancellor_returned`."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from loveletter.core.catalogue import Event
from loveletter.events.log import game_lines
from loveletter.replays.position import nearest_decisions
from tests.cli import ROOT, loveletter
from tests.joined_game import joined_game_events

EVENTS = joined_game_events("Alice", "Bob", first_player=0, pick=-1)  # Alice and Bob, as in the README's tour


def decisions(events: list[Event]) -> dict[int, str]:
    """The model: after which events a player decides, and who (the player of the decision that follows)."""
    names = ("Alice", "Bob")
    return {
        seq: names[event.player]  # type: ignore[attr-defined]
        for seq, event in enumerate(events)  # events[seq] is event seq + 1: the one just after point `seq`
        if event.TYPE in ("card_played", "chancellor_returned")
    }


MODEL = decisions(EVENTS)


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("tour") / "game.jsonl"
    path.write_bytes(b"".join(line + b"\n" for line in game_lines(EVENTS)))
    return path


def test_the_fixture_has_event_41_inside_a_move_and_a_chancellor_decision_at_42() -> None:
    assert [e.TYPE for e in EVENTS[39:43]] == ["turn_started", "card_played", "chancellor_drew", "chancellor_returned"]
    assert 41 not in MODEL and MODEL[40] == MODEL[42] == "Bob"


def test_the_nearest_decisions_of_every_point_are_those_of_the_model() -> None:
    for at in range(1, len(EVENTS) + 1):
        before, after = nearest_decisions(EVENTS, at)
        want_before = max((seq for seq in MODEL if seq < at), default=None)
        want_after = min((seq for seq in MODEL if seq > at), default=None)
        assert (None if before is None else before.at) == want_before, at
        assert (None if after is None else after.at) == want_after, at
        for found in (before, after):
            if found is not None:
                assert found.where.player == MODEL[found.at] and found.where.legal_moves, at


def test_inside_a_move_explain_names_the_nearest_decisions(log: Path) -> None:
    en = loveletter("explain", str(log), "--at", "41")
    assert en.returncode == 0, en.stderr
    assert en.stdout.splitlines() == [
        "round 2, Bob's second turn: in the middle of a move (after event 41)",
        "  nobody decides here; the nearest decisions:",
        "    before — after event 40: round 2, Bob's second turn: Bob is to play a card",
        "    after — after event 42: round 2, Bob's second turn: Bob is to keep one card and put the other 2 "
        "cards on the bottom of the deck (the Chancellor)",
        "  judge at one with --nearest before or --nearest after",
    ]
    fr = loveletter("explain", str(log), "--at", "41", "--lang", "fr")
    assert fr.stdout.splitlines() == [
        "manche 2, deuxième tour de Bob : au milieu d'un coup (après l'événement 41)",
        "  personne ne décide ici ; les décisions les plus proches :",
        "    avant — après l'événement 40 : manche 2, deuxième tour de Bob : Bob doit jouer une carte",
        "    après — après l'événement 42 : manche 2, deuxième tour de Bob : Bob doit garder une carte et placer "
        "les 2 autres sous la pioche (le Chancelier)",
        "  jugez à l'une d'elles avec --nearest before ou --nearest after",
    ]


def test_inside_a_move_the_json_has_no_legal_move_and_the_nearest_decisions(log: Path) -> None:
    answer = json.loads(loveletter("explain", str(log), "--at", "41", "--json").stdout)
    assert answer["at"] == 41 and answer["decides"] is False and answer["legal_moves"] == []
    nearest = answer["nearest"]
    assert (nearest["before"]["at"], nearest["before"]["player"], nearest["before"]["phase"]) == (40, "Bob", "play")
    assert (nearest["after"]["at"], nearest["after"]["player"], nearest["after"]["phase"]) == (
        42,
        "Bob",
        "chancellor",
    )
    there = json.loads(loveletter("explain", str(log), "--at", "42", "--json").stdout)
    assert there["decides"] is True and there["nearest"] is None and len(there["legal_moves"]) == 6


def readme_explain() -> list[str]:
    """The README tour's `explain` line, as a user copies it."""
    line = next(line for line in (ROOT / "README.md").read_text().splitlines() if line.startswith("loveletter explain"))
    return shlex.split(line.split("#")[0])[1:]


def test_the_readmes_explain_line_inside_a_move_names_the_nearest_decisions_and_the_option(log: Path) -> None:
    args = [str(log) if arg == "game.jsonl" else arg for arg in readme_explain()]
    assert args[args.index("--at") + 1] == "41", args
    result = loveletter(*args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        "error: --move: nobody is to move here, after event 41 (round 2, Bob's second turn: in the middle of a "
        "move); the nearest decisions: before: after event 40 (round 2, Bob's second turn), after: after event 42 "
        "(round 2, Bob's second turn); judge at one with --nearest before or --nearest after\n"
    )
    fr = loveletter(*args, "--lang", "fr")
    assert fr.stderr.startswith("erreur : --move : personne n'a la main ici, après l'événement 41 (manche 2, ")
    assert "avant : après l'événement 40" in fr.stderr and fr.stderr.endswith("--nearest after\n")


@pytest.mark.parametrize(("side", "at"), [("before", 40), ("after", 42)])
def test_nearest_judges_the_move_at_the_nearest_decision(log: Path, side: str, at: int) -> None:
    move = '{"card": "prince", "target": "Bob"}'
    text = loveletter("explain", str(log), "--at", "41", "--nearest", side, "--move", move)
    first, second = text.stdout.splitlines()[:2]
    assert first == (
        "nobody decides after event 41 (round 2, Bob's second turn: in the middle of a move): judged at the "
        f"nearest decision {side} it, after event {at}"
    )
    assert re.match(rf"(IL)?LEGAL — Bob, after event {at} \(round 2, Bob's second turn\): ", second), second
    ruling = json.loads(
        loveletter("explain", str(log), "--at", "41", "--nearest", side, "--move", move, "--json").stdout
    )
    assert (ruling["at"], ruling["asked_at"], ruling["mover"]) == (at, 41, "Bob")
    if side == "after":  # the Chancellor is pending there: no card may be played first
        assert text.returncode == 1 and ruling["rule_id"] == "chancellor.pending"
    pending = json.loads(loveletter("explain", str(log), "--at", "41", "--nearest", side, "--json").stdout)
    assert (pending["at"], pending["asked_at"], pending["decides"]) == (at, 41, True) and pending["legal_moves"]


def test_after_the_end_only_the_decision_before_is_named(log: Path) -> None:
    last = max(MODEL)
    end = loveletter("explain", str(log), "--move", "{}")
    assert end.returncode == 2 and end.stderr.startswith("error: --move: nobody is to move here, after event ")
    assert f"before: after event {last} (" in end.stderr and "after: none" in end.stderr
    none = loveletter("explain", str(log), "--nearest", "after", "--lang", "fr")
    assert none.returncode == 2 and none.stderr == (
        f"erreur : --nearest after : personne ne décide après l'événement {len(EVENTS)} (la partie est terminée)\n"
    )
    before = json.loads(loveletter("explain", str(log), "--nearest", "before", "--json").stdout)
    assert before["at"] == last and before["player"] == MODEL[last]


def test_where_a_player_decides_nearest_changes_nothing(log: Path) -> None:
    plain = loveletter("explain", str(log), "--at", "40")
    assert plain.stdout.startswith("round 2, Bob's second turn: Bob is to play a card (after event 40)")
    assert loveletter("explain", str(log), "--at", "40", "--nearest", "after").stdout == plain.stdout
