"""Transcripts of games played elsewhere expand into our log, or stop at the first illegal decision."""

from __future__ import annotations

import copy
import json
import subprocess
from pathlib import Path

import pytest

from loveletter.core.catalogue import HandDiscarded, PlayerEliminated, RoundEnded
from loveletter.events.log import read_games
from loveletter.replays.replay import check
from loveletter.replays.transcript import TranscriptFormatError, expand, parse_card
from tests.cli import loveletter

ROOT = Path(__file__).resolve().parents[1]
READER_QUESTION = json.loads((ROOT / "examples" / "reader-question.json").read_text())


def test_target_none__the_reader_question_of_seed_001_ends_with_claire_out() -> None:
    out = expand(READER_QUESTION)
    assert out.ok
    assert isinstance(out.events[-4], HandDiscarded) and out.events[-4].card.value == "princess"
    assert isinstance(out.events[-3], PlayerEliminated) and out.events[-3].player == 0
    ended = out.events[-2]
    assert isinstance(ended, RoundEnded) and ended.winners == (1,) and ended.reason == "last-standing"
    assert out.state.favors == (0, 1)


def test_target_protected__aiming_the_prince_at_the_protected_opponent_is_refused() -> None:
    doc = copy.deepcopy(READER_QUESTION)
    doc["rounds"][0]["turns"][1]["target"] = "Thibault"
    out = expand(doc)
    assert out.problem is not None and out.problem.rule_id == "target.protected"
    assert out.problem.where == "$.rounds[0].turns[1]"


def test_the_expanded_log_verifies_as_a_log() -> None:
    out = expand(READER_QUESTION)
    from loveletter.events.log import game_lines

    (game,) = read_games(list(game_lines(out.events)))
    assert check(game).ok and game.entries[0].event.scenario  # type: ignore[union-attr]


def test_cards_may_be_written_by_id_english_or_french_name() -> None:
    assert parse_card("Prêtre", "x").value == "priest"
    assert parse_card("pretre", "x").value == "priest"
    assert parse_card("Countess", "x").value == "countess"
    assert parse_card("Ogre", "x").value == "princess"
    with pytest.raises(TranscriptFormatError):
        parse_card("Joker", "$.x")


@pytest.mark.parametrize(
    "mutate,where",
    [
        (lambda d: d.pop("players"), "$.players"),
        (lambda d: d["rounds"][0]["deal"]["hands"].pop("Claire"), "$.rounds[0].deal.hands"),
        (lambda d: d["rounds"][0]["turns"][0].pop("play"), "$.rounds[0].turns[0].play"),
        (lambda d: d["rounds"][0]["turns"][0].update(tagret="Claire"), "$.rounds[0].turns[0]"),
    ],
)
def test_unreadable_transcripts_say_where(mutate, where: str) -> None:  # type: ignore[no-untyped-def]
    doc = copy.deepcopy(READER_QUESTION)
    mutate(doc)
    with pytest.raises(TranscriptFormatError) as err:
        expand(doc)
    assert err.value.where == where


def test_setup_deal__a_deal_that_is_not_the_deck_is_refused() -> None:
    doc = copy.deepcopy(READER_QUESTION)
    doc["rounds"][0]["deal"]["deck"][0] = "princess"
    out = expand(doc)
    assert out.problem is not None and out.problem.rule_id == "setup.deal"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return loveletter(*args)


def test_cli_replay_of_the_transcript_says_verified_and_exits_0() -> None:
    proc = run_cli("replay", str(ROOT / "examples" / "reader-question.json"))
    assert proc.returncode == 0, proc.stderr
    assert "verified" in proc.stdout


def test_cli_replay_reports_the_violation_in_french_and_exits_1(tmp_path: Path) -> None:
    doc = copy.deepcopy(READER_QUESTION)
    doc["rounds"][0]["turns"][1]["target"] = "Thibault"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    proc = run_cli("replay", str(path), "--lang", "fr")
    assert proc.returncode == 1
    assert "target.protected" in proc.stdout and "la Servante protège Thibault" in proc.stdout


@pytest.mark.parametrize(
    "content",
    [b"", b"not json at all\n", b'{"format":"loveletter-log","version":1}\n{"seq":1\n', b"\xff\xfe\x00garbage"],
)
def test_cli_replay_of_unreadable_input_exits_2_without_traceback(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    proc = run_cli("replay", str(path))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr + proc.stdout
    assert len((proc.stdout + proc.stderr).strip().splitlines()) == 1


def test_cli_replay_json_report(tmp_path: Path) -> None:
    proc = run_cli("replay", str(ROOT / "examples" / "reader-question.json"), "--json")
    report = json.loads(proc.stdout)
    assert report["verdict"] == "verified" and report["games"][0]["events"] == 10
