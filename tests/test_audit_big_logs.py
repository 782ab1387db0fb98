"""Issue 12, item 11: `loveletter audit` on big logs reads them in pieces, says the verdict first, lists only what
needs reading (the invalid games; every game with --per-game), has a JSON summary, and counts its progress in games.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

import loveletter.replays.audit as audit_module
from loveletter.replays.audit import Options, audit_bytes, audit_file, plan_file
from tests.cli import loveletter
from tests.french import not_french

GAMES = 8


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A clean log of 8 games, and the same with one line of its third game edited."""
    folder = tmp_path_factory.mktemp("big")
    clean = folder / "clean.jsonl"
    assert loveletter("simulate", "--games", str(GAMES), "--players", "3", "--log", str(clean)).returncode == 0
    data = clean.read_bytes()
    third = [i for i, line in enumerate(data.splitlines()) if line.startswith(b'{"format"')][2]
    lines = data.splitlines()
    lines[third + 11] = lines[third + 11].replace(b'"seq":11,', b'"seq":12,', 1)
    edited = folder / "edited.jsonl"
    edited.write_bytes(b"\n".join(lines) + b"\n")
    return clean, edited


def test_the_summary_comes_first_and_valid_games_are_listed_only_on_request(logs: tuple[Path, Path]) -> None:
    clean, edited = logs
    quiet = loveletter("audit", str(clean), "--jobs", "2")
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout.splitlines() == [f"{clean}: 8 games, 8 valid, 0 invalid, {_events(clean):,} events, 0 problems"]
    every = loveletter("audit", str(clean), "--per-game", "--jobs", "2")
    lines = every.stdout.splitlines()
    assert lines[0] == quiet.stdout.strip() and len(lines) == 1 + GAMES
    assert [int(re.search(r"\[game (\d+),", line)[1]) for line in lines[1:]] == list(range(1, GAMES + 1))  # type: ignore[index]
    bad = loveletter("audit", str(edited), "--jobs", "2")
    assert bad.returncode == 1
    first, *rest = bad.stdout.splitlines()
    assert first.startswith(f"{edited}: 8 games, 7 valid, 1 invalid")
    assert rest and all("[game 3, sim-1-2]" in line for line in rest if not line.startswith("    "))
    assert "[log.sequence]" in rest[0]


def test_the_json_summary_lists_the_invalid_games_or_every_game(logs: tuple[Path, Path]) -> None:
    clean, edited = logs
    body = orjson.loads(loveletter("audit", str(edited), "--json").stdout)
    assert body["verdict"] == "invalid" and body["listed"] == "invalid"
    assert body["counts"] == {
        "games": 8,
        "valid": 7,
        "invalid": 1,
        "events": _events(edited),
        "problems": 1,
        "signed": 0,
    }
    assert [g["game"] for g in body["games"]] == [3] and body["games"][0]["problems"][0]["rule_id"] == "log.sequence"
    every = orjson.loads(loveletter("audit", str(edited), "--json", "--per-game").stdout)
    held = audit_file(str(edited), Options())
    assert every["games"] == [g.as_dict() for g in held.games] and every["listed"] == "all"
    both = orjson.loads(loveletter("audit", str(clean), str(edited), "--json").stdout)
    assert [f["verdict"] for f in both["files"]] == ["valid", "invalid"]


def test_progress_counts_games_when_asked(logs: tuple[Path, Path]) -> None:
    clean, _ = logs
    silent = loveletter("audit", str(clean))
    assert silent.stderr == ""  # not a terminal, not asked
    english = loveletter("audit", str(clean), "--progress", "--jobs", "1")
    assert re.fullmatch(r"auditing clean\.jsonl: 8/8 games, [\d,]+ games/s, 0 s left\n", english.stderr)
    french = loveletter("audit", str(clean), "--progress", "--lang", "fr")
    assert french.stderr.startswith("audit de clean.jsonl : 8/8 parties, ")
    assert not_french(re.sub(r"\S+\.jsonl", " ", french.stderr + french.stdout), allowed=["s", "min"]) == []  # units


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_pieces_cut_at_games_audit_like_the_whole_file(
    logs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ending: bytes
) -> None:
    _, edited = logs
    data = b"\n\n" + edited.read_bytes().replace(b"\n", ending) + b"\n"
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(audit_module, "BLOCK", 1000)  # games and lines split between blocks
    plan = plan_file(str(path), 20_000)
    lines = data.splitlines()
    for start, stop, first in plan.pieces:
        piece = data[start:stop].splitlines()
        assert piece == lines[first - 1 : first - 1 + len(piece)]
    assert len(plan.pieces) > (1 if ending != b"\r" else 0)
    whole = audit_bytes(data, str(path), Options(lenient=True), jobs=1)
    monkeypatch.setattr(audit_module, "PIECE_BYTES", 20_000)
    for jobs in (1, 2):
        pieces = audit_file(str(path), Options(lenient=True), jobs)
        assert [g.as_dict() for g in pieces.games] == [g.as_dict() for g in whole.games]
        assert pieces.exit_code == whole.exit_code == 1


def test_an_unreadable_piece_stops_the_file_at_its_line(logs: tuple[Path, Path], tmp_path: Path) -> None:
    clean, _ = logs
    lines = clean.read_bytes().splitlines()
    lines[-5] = lines[-5][:40]
    path = tmp_path / "cut.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    result = loveletter("audit", str(path), "--jobs", "2")
    assert result.returncode == 2
    assert result.stdout.startswith(f"{path}: unreadable — line {len(lines) - 4}: ")
    assert orjson.loads(loveletter("audit", str(path), "--json").stdout)["error_line"] == len(lines) - 4


def _events(path: Path) -> int:
    return sum(1 for line in path.read_bytes().splitlines() if not line.startswith(b'{"format"'))
