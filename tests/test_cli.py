"""The `loveletter` command line, run as a real process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli import loveletter

ROOT = Path(__file__).resolve().parent.parent


def summary_of(help_page: str) -> list[str]:
    """What the group's help lists after its name: "Love Letter referee: serve, replay, …" → ["serve", "replay", …]."""
    paragraph = " ".join(help_page.split("\n\n")[1].split()).replace("- ", "-")  # a name wrapped at its hyphen
    return paragraph.split(" : " if " : " in paragraph else ": ", 1)[1].removesuffix(".").split(", ")


def test_the_help_summary_names_every_command() -> None:
    import click

    from loveletter.cli.main import app

    commands = sorted(app.list_commands(click.Context(app)))  # the group itself says which commands it has
    assert {"bot", "situation", "tournament"} <= set(commands)
    english = loveletter("--help", "--lang", "en")
    assert english.returncode == 0, english.stderr
    assert sorted(summary_of(english.stdout)) == commands
    french = loveletter("--help", "--lang", "fr")  # French names each one by what it does: one item per command
    assert french.returncode == 0, french.stderr
    assert len(summary_of(french.stdout)) == len(commands)


def test_simulate_prints_the_summary_table() -> None:
    result = loveletter("simulate", "--games", "40", "--seed", "3", "--bots", "heuristic,random,random,random")
    assert result.returncode == 0, result.stderr
    for figure in (
        "games/s",
        "rounds per game",
        "turns per game",
        "win rate, seat 0 (heuristic)",
        "win rate, bot random",
        "favors: round won",
        "favors: Spy",
        "eliminations: Guard",
    ):
        assert figure in result.stdout  # fmt: skip
    assert "Amira" not in result.stdout  # the 2019 game has no Amira & Sadie favor
    assert "Traceback" not in result.stderr


def test_the_summary_names_the_favors_of_its_ruleset_in_french() -> None:
    result = loveletter("simulate", "--games", "40", "--ruleset", "princess-princess", "--lang", "fr")
    assert result.returncode == 0, result.stderr
    assert "faveurs : Amira & Sadie" in result.stdout and "faveurs : manche gagnée" in result.stdout
    assert "parties de princess-princess, 4 joueurs, graine 1" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "heuristic,random"), "2 bots given for 4 players"),
        (("--ruleset", "2020"), "unknown ruleset '2020'"),
        (("--ruleset", "2012", "--players", "6", "--bots", "random,random,random,random,random,random"), "2 to 4"),
        (("--bots", "heuristic,random,random,genius"), "unknown bot 'genius'"),
        (("--players", "four"), "--players"),
        (("--games", "0"), "at least 1"),
        (("--frobnicate",), "no such option: --frobnicate"),
    ],
)
def test_bad_options_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    result = loveletter("simulate", "--games", "5", *args) if "--games" not in args else loveletter("simulate", *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and message in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


def test_same_seed_gives_byte_identical_log_files(tmp_path: Path) -> None:
    paths = [tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"]
    for path, seed in zip(paths, ("7", "7", "8"), strict=True):
        result = loveletter("simulate", "--games", "30", "--seed", seed, "--players", "3", "--log", str(path))
        assert result.returncode == 0, result.stderr
    a, b, c = (p.read_bytes() for p in paths)
    assert a == b
    assert a != c
    assert a.count(b'"format":"loveletter-log"') == 30


def test_unwritable_log_is_a_one_line_error(tmp_path: Path) -> None:
    result = loveletter("simulate", "--games", "2", "--log", str(tmp_path / "missing" / "x.jsonl"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("error: cannot write")


def test_demo_tells_a_game() -> None:
    result = loveletter("demo")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("Game 2019: Ann, Bob, Cleo, Dan.")
    assert "Round 1:" in out and " plays the " in out and "Game over: " in out
    assert " draws the " in out  # the demo's narrator sees every card
    assert loveletter("demo").stdout == out  # seeded: the same game every time
