"""Bots named by a file's path, `path/to/bot.py:NAME`, wherever a bot is named (`tournament --bots`, `simulate
--bots`, `bot run`: the last in tests/test_bot_harness.py), from any directory; `MODULE:NAME` as before."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from loveletter.play.harness import load, short_name
from loveletter.play.simulate import Config, SimulationError
from loveletter.play.tournament import short_names
from tests.cli import SCRIPT, loveletter

COUNTER = '''
from helper import last  # a module beside the bot file: its folder is importable, as with python path/to/bot.py


class Bot:
    """Plays its last legal move; counts its decisions."""

    def __init__(self):
        self.decisions = 0

    def choose(self, game):
        self.decisions += 1
        return last(game.legal_moves)
'''


@pytest.fixture
def bots(tmp_path: Path) -> Path:
    folder = tmp_path / "my bots"
    folder.mkdir()
    (folder / "counter.py").write_text(COUNTER)
    (folder / "helper.py").write_text("def last(moves):\n    return moves[-1]\n")
    return folder


def run_in(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=False)


def test_a_tournament_takes_a_bot_file_by_its_absolute_path(bots: Path) -> None:
    spec = f"{bots / 'counter.py'}:Bot"
    ran = loveletter("tournament", "--bots", f"heuristic,{spec}", "--players", "2", "--games", "4", "--json")
    assert ran.returncode == 0, ran.stderr
    rows = {r["bot"]: r for r in json.loads(ran.stdout)["ratings"]}
    assert rows[spec]["name"] == "counter:Bot" and rows[spec]["seat_games"] == 4
    assert rows[spec]["crashes"] == rows[spec]["timeouts"] == rows[spec]["refused_moves"] == 0


def test_simulate_takes_a_bot_file_by_a_path_relative_to_where_it_runs(bots: Path, tmp_path: Path) -> None:
    ran = run_in(tmp_path, "simulate", "--bots", "my bots/counter.py:Bot,random", "--players", "2", "--games", "6",
                 "--json")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    figures = json.loads(ran.stdout)
    by_bot = {b["bot"]: b for b in figures["win_rate"]["by_bot"]}
    assert figures["bots"] == ["my bots/counter.py:Bot", "random"] and figures["games"] == 6
    assert set(by_bot) == {"my bots/counter.py:Bot", "random"}


def test_simulate_takes_a_bot_module_too_and_names_both_forms_when_it_knows_neither() -> None:
    ran = loveletter("simulate", "--bots", "examples.bots.first:choose,random", "--players", "2", "--games", "3")
    assert ran.returncode == 0, ran.stderr
    unknown = loveletter("simulate", "--bots", "nobody,random", "--players", "2", "--games", "3")
    assert unknown.returncode == 2
    assert "unknown bot 'nobody' (known: random, heuristic" in unknown.stderr
    assert "MODULE:NAME, path/to/bot.py:NAME" in unknown.stderr


def test_a_simulation_names_no_bot_of_its_own_unless_the_command_line_allows_it() -> None:
    """The HTTP API builds the same `Config` without `own_bots`: a request can never make the server load code."""
    refused = Config("2019", 2, 1, 1, ("examples.bots.first:choose", "random"))
    with pytest.raises(SimulationError) as refusal:
        refused.check()
    assert refusal.value.text.en == "unknown bot 'examples.bots.first:choose' (known: random, heuristic, expert)"
    Config("2019", 2, 1, 1, ("examples.bots.first:choose", "random"), own_bots=True).check()


def test_a_bot_file_that_fails_stops_the_simulation_with_its_traceback(tmp_path: Path) -> None:
    (tmp_path / "boom.py").write_text("def choose(game):\n    raise KeyError('nope')\n")
    ran = run_in(tmp_path, "simulate", "--bots", "boom.py:choose,random", "--players", "2", "--games", "2")
    assert ran.returncode == 2
    assert "the bot boom.py:choose failed: KeyError: 'nope'" in ran.stderr and 'boom.py", line 2' in ran.stderr
    missing = run_in(tmp_path, "simulate", "--bots", "gone.py:choose,random", "--players", "2", "--games", "2")
    assert missing.returncode == 2 and "cannot load the bot gone.py:choose: no bot file gone.py" in missing.stderr


def test_two_bot_files_of_one_name_stay_apart_and_are_named_by_their_stem(tmp_path: Path) -> None:
    for side, move in (("a", 0), ("b", -1)):
        (tmp_path / side).mkdir()
        (tmp_path / side / "bot.py").write_text(f"def choose(game):\n    return game.legal_moves[{move}]\n")
    first, second = load(f"{tmp_path / 'a' / 'bot.py'}:choose"), load(f"{tmp_path / 'b' / 'bot.py'}:choose")
    assert first is not second and first.__module__ != second.__module__  # type: ignore[union-attr]
    assert (
        short_name("x/y/careful.py:Bot") == "careful:Bot" and short_name("examples.bots.careful:Bot") == "careful:Bot"
    )
    # Two that would read alike are shown whole.
    assert short_names(["a/bot.py:choose", "b/bot.py:choose", "heuristic"]) == [
        "a/bot.py:choose", "b/bot.py:choose", "heuristic",
    ]  # fmt: skip
