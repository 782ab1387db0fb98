"""`show --pov SEAT` tells the game as that seat lived it (the public story and only its own hidden cards);
`show --all` tells every hidden card, and only once the game is over (RULINGS §10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import ROOT, loveletter
from tests.french import not_french

READER = str(ROOT / "examples" / "reader-question.json")


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pov") / "one.jsonl"
    assert loveletter("simulate", "--games", "1", "--players", "3", "--log", str(path)).returncode == 0
    return path


def test_info_views__the_pov_story_shows_that_seat_its_own_cards_only() -> None:
    claire = loveletter("show", READER, "--pov", "Claire")
    assert claire.returncode == 0, claire.stderr
    assert "    (Claire is dealt the Princess)" in claire.stdout
    assert "    (Claire draws the Prince)" in claire.stdout
    assert "Thibault draws" not in claire.stdout and "Thibault is dealt" not in claire.stdout
    thibault = loveletter("show", READER, "--pov", "1", "--lang", "fr")
    assert "    (Thibault reçoit le Garde)" in thibault.stdout and "(Thibault pioche la Servante)" in thibault.stdout
    assert "Claire reçoit" not in thibault.stdout and "Claire pioche" not in thibault.stdout
    assert not_french(thibault.stdout, allowed=["Claire", "Thibault"]) == []


def test_info_views__no_other_seat_s_draw_is_told_in_a_whole_game(finished: Path) -> None:
    for seat in range(3):
        story = loveletter("show", str(finished), "--pov", str(seat)).stdout
        others = [f"(random-{o} draws" for o in range(3) if o != seat]
        assert not any(other in story for other in others), seat
        assert f"(random-{seat} draws" in story or f"(random-{seat} is dealt" in story
        plays = [line for line in loveletter("show", str(finished)).stdout.splitlines() if " plays " in line]
        assert [line for line in story.splitlines() if " plays " in line] == plays  # every public move is told


def test_info_views__all_tells_every_hidden_card_only_after_the_end(finished: Path) -> None:
    everything = loveletter("show", str(finished), "--all")
    assert everything.returncode == 0, everything.stderr
    assert "Dealt: " in everything.stdout and all(f"(random-{s} draws" in everything.stdout for s in range(3))
    early = loveletter("show", READER, "--all")
    assert early.returncode == 2
    assert early.stderr.startswith("error: --all tells every hidden card: only once the game is over")
