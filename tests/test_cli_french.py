"""The command line in French: every error it can print, its help pages and its reports, with no English left.

Every `fail(...)` of the command line (every module of cli/) is listed by reading the code, and each must be reached
by one of the cases below: a new error without a French test fails here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.cli import ROOT, loveletter
from tests.french import not_french

READER = str(ROOT / "examples" / "reader-question.json")
NAMES = ["Claire", "Thibault", "Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]
COMMANDS = [
    "simulate",
    "demo",
    "replay",
    "explain",
    "show",
    "audit",
    "serve",
    "situation",
    "analyse",
    "bot",
    "tournament",
    "ratings",
    "solve",
    "backup",
    "verify-store",
]
IDS = [
    "princess",
    "classic",
    "heuristic",
    "random",
    "genius",
    "frobnicate",
    "loveletter",
    "love",
    "letter",
    "resign",
    "before",
    "after",
    "verify",
    "store",
    *COMMANDS,
]


@pytest.fixture(scope="module")
def two_games(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "two.jsonl"
    assert loveletter("simulate", "--games", "2", "--players", "2", "--log", str(path)).returncode == 0
    return path


def error_cases(tmp: Path, two_games: Path) -> list[tuple[str, ...]]:
    bad_key = tmp / "key.txt"
    bad_key.write_text("not a key\n")
    bad_transcript = tmp / "bad.json"
    bad_transcript.write_text('{"format": "loveletter-transcript", "version": 1, "players": "Ann"}')
    not_json = tmp / "not.json"
    not_json.write_text('{"format": "loveletter-situation",')
    return [
        ("simulate", "--bots", "heuristic,random"),
        ("simulate", "--ruleset", "2020"),
        ("simulate", "--ruleset", "2012", "--players", "6"),
        ("simulate", "--bots", "heuristic,random,random,genius"),
        ("simulate", "--players", "four"),
        ("simulate", "--games", "0"),
        ("simulate", "--frobnicate"),
        ("simulate", "--games"),
        ("simulate", "--games", "2", "--log", str(tmp / "missing" / "x.jsonl")),
        ("simulate", "--option", "nope"),
        ("simulate", "--option", "tie_2012=maybe"),
        ("simulate", "--json", "--csv"),
        ("simulate", "--plot", str(tmp / "chart.gif")),
        ("simulate", "--games", "2", "--plot", str(tmp / "missing" / "chart.png")),
        ("demo", "--players", "9"),
        ("replay",),
        ("replay", str(tmp / "nowhere.jsonl")),
        ("replay", READER, "--emit-log", str(tmp / "missing" / "x.jsonl")),
        ("replay", READER, "extra"),
        ("explain", READER, "--at", "5", "--move", "{nope"),
        ("explain", READER, "--at", "5", "--move", "[1]"),
        ("explain", READER, "--at", "5", "--move", '{"card": "joker"}'),
        ("explain", READER, "--at", "5", "--move", '{"player": "Zoé"}'),
        ("explain", READER, "--at", "99", "--move", "{}"),
        ("explain", READER, "--move", "{}"),
        ("explain", READER, "--nearest", "after"),
        ("explain", READER, "--at", "round 3, Thibault's second turn", "--move", "{}"),
        ("explain", READER, "--at", "soon", "--move", "{}"),
        ("explain", str(two_games), "--at", "3", "--move", "{}"),
        ("explain", str(tmp / "nowhere.json"), "--at", "3", "--move", "{}"),
        ("show", READER, "--seat", "Zoé"),
        ("show", READER, "--at", "0"),
        ("show", READER, "--all"),
        ("show", READER, "--pov", "Zoé"),
        ("show", str(two_games)),
        ("show", str(two_games), "--game", "3"),
        ("analyse", READER, "--seat", "Zoé"),
        ("analyse", str(two_games)),
        ("analyse", str(two_games), "--game", "1", "--budget", "0"),
        ("backup", str(tmp / "copy.db"), "--database-url", "postgresql://nobody@127.0.0.1:1/none"),
        ("backup", str(tmp / "copy.db"), "--database-url", f"sqlite:///{tmp / 'no-such.db'}"),
        ("backup", str(two_games), "--database-url", f"sqlite:///{two_games}"),
        ("audit", str(two_games), "--key", str(tmp / "no-such-key")),
        ("audit", str(two_games), "--key", str(bad_key)),
        ("audit", str(two_games), "--jobs", "0"),
        ("audit",),
        ("serve", "--workers", "2", "--database-url", f"sqlite:///{tmp / 'x.db'}"),
        ("serve", "--port", "0"),
        ("serve", "--port", "70000"),
        ("serve", "--database-url", "mysql://localhost/x"),
        ("show", str(bad_transcript)),
        ("situation", str(tmp / "nowhere.json")),
        ("situation", str(not_json)),
        ("situation", str(bad_transcript)),
        ("bot", "run", "no.such.module:bot", "--join-open"),
        ("bot", "run", "examples.bots.first:choose"),
        ("bot", "run", "examples.bots.first:choose", "--join-open", "--server", "http://127.0.0.1:9"),
        ("bot", "run", "examples.bots.first:choose", "--game", "g_x", "--invite", "i", "--wait"),
        ("bot", "run", "examples.bots.first:choose", "--stay", "--join-open"),
        ("tournament", "--bots", "heuristic"),
        ("tournament", "--bots", "heuristic,heuristic"),
        ("tournament", "--bots", "heuristic,no.such.module:bot"),
        ("tournament", "--bots", "heuristic,random", "--ruleset", "2020"),
        ("tournament", "--bots", "heuristic,random", "--players", "9"),
        ("tournament", "--bots", "heuristic,random", "--games", "0"),
        ("tournament", "--bots", "heuristic,random", "--option", "tie_2012=maybe"),
        ("tournament", "--bots", "heuristic,random", "--json", "--csv"),
        ("tournament", "--bots", "heuristic,random", "--server", "http://127.0.0.1:9", "--serve"),
        ("tournament", "--bots", "heuristic,random", "--plot", str(tmp / "chart.gif")),
        ("tournament", "--bots", "heuristic,random", "--games", "1", "--log", str(tmp / "missing" / "x.jsonl")),
        ("tournament", "--bots", "heuristic,random", "--games", "1", "--plot", str(tmp / "missing" / "r.svg")),
        ("tournament", "--bots", "heuristic,random", "--games", "1", "--server", "http://127.0.0.1:9"),
        ("tournament", "--bots", "heuristic,random", "--on-timeout", "never"),
        ("tournament", "--bots", "heuristic,random", "--server", "http://127.0.0.1:9", "--turn-seconds", "0.5"),
        ("tournament", "--bots", "heuristic,random", "--games", "1", "--ratings", str(two_games)),
        ("frobnicate",),
    ]


def french_failures() -> list[str]:
    """The French text of every `fail(en, fr)` in the modules of cli/, cut at its first placeholder."""
    modules = sorted((ROOT / "cli").glob("*.py"))
    assert len(modules) > 5, modules  # the command line's modules, not an empty folder
    found = []
    for node in (node for module in modules for node in ast.walk(ast.parse(module.read_text()))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "fail" and len(node.args) == 2:
            fr = node.args[1]
            if isinstance(fr, ast.JoinedStr):
                first = fr.values[0]
                text = first.value if isinstance(first, ast.Constant) else ""
            else:
                text = fr.value if isinstance(fr, ast.Constant) else ""
            found.append(str(text))
    return found


def test_every_cli_error_is_french_and_every_one_is_reached(tmp_path: Path, two_games: Path) -> None:
    """Each error case once in French (all of them must be); the English of the same error is checked for the first
    case of each command only: the language is one switch of the command line, and running every case twice (two
    seconds of start-up each) was the slowest test of the suite (214 s) while proving nothing the first case does
    not."""
    printed = []
    english_checked: set[tuple[str, ...]] = set()
    for args in error_cases(tmp_path, two_games):
        result = loveletter(*args, "--lang", "fr")
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        if args[0] == "replay" and not result.stderr:  # an unreadable file is the replay report's own verdict
            assert " : illisible — " in result.stdout, (args, result.stdout)
            printed.append(result.stdout.strip())
            continue
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("erreur : "), (args, result.stderr)
        assert "Traceback" not in result.stderr
        assert not_french(lines[0], allowed=NAMES + IDS) == [], (args, lines[0])
        command = tuple(args[:2]) if args[0] == "bot" else (args[0],)
        if command not in english_checked:
            english_checked.add(command)
            english = loveletter(*args, "--lang", "en")
            assert english.stderr.startswith("error: ") and english.returncode == 2, (args, english.stderr)
        printed.append(lines[0])
    everything = "\n".join(printed)
    unreached = [prefix for prefix in french_failures() if prefix.strip() and prefix.strip() not in everything]
    assert unreached == [], "errors of cli/ no French test reaches"


def test_the_language_comes_from_the_environment_when_not_given() -> None:
    french = loveletter("simulate", "--games", "0", env={"LOVELETTER_LANG": "fr"})
    assert french.stderr.startswith("erreur : --games : au moins 1, pas 0")
    locale = loveletter("simulate", "--games", "0", env={"LOVELETTER_LANG": "", "LANG": "fr_FR.UTF-8"})
    assert locale.stderr.startswith("erreur : ")
    given = loveletter("simulate", "--games", "0", "--lang", "en", env={"LOVELETTER_LANG": "fr"})
    assert given.stderr.startswith("error: --games: must be at least 1, not 0")


def _every_command() -> list[tuple[str, ...]]:
    """Every group and command of `loveletter`, by its words on the command line (the top group is `()`)."""
    import click

    from loveletter.cli.main import app

    found: list[tuple[str, ...]] = []

    def walk(cmd: click.Command, path: tuple[str, ...]) -> None:
        found.append(path)
        if isinstance(cmd, click.Group):
            ctx = click.Context(cmd)
            for name in sorted(cmd.list_commands(ctx)):
                sub = cmd.get_command(ctx, name)
                assert sub is not None, name
                walk(sub, (*path, name))

    walk(app, ())
    return found


def test_every_group_and_command_takes_lang() -> None:
    every = _every_command()
    assert {("bot",), ("bot", "run"), ("explain",), ("serve",)} <= set(every)  # the walk reaches the groups
    for path in every:
        result = loveletter(*path, "--lang", "fr", "--help")
        assert result.returncode == 0, (path, result.stderr)
        assert result.stdout.startswith("Utilisation : loveletter"), (path, result.stdout)
        assert "--lang [en|fr]" in result.stdout, (path, result.stdout)


@pytest.mark.parametrize("command", ["", *COMMANDS, "bot run"])
def test_help_pages_are_french(command: str) -> None:
    result = loveletter(*command.split(), "--help", "--lang", "fr")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Utilisation : loveletter")
    # Option names, metavars and the example JSON are not prose: set aside before the check.
    prose = re.sub(r"\b[A-Z][A-Z.]*\b|\{[^}]*\}|sqlite:\S+|postgresql:\S+", " ", result.stdout)
    assert not_french(prose, allowed=[*IDS, "locale", "cœur", "OpenSkill", "run", "Ctrl"]) == []


def test_reports_and_stories_are_french(two_games: Path, tmp_path: Path) -> None:
    one = tmp_path / "one.jsonl"
    assert loveletter("simulate", "--games", "1", "--players", "3", "--log", str(one)).returncode == 0
    outputs = [
        loveletter("replay", READER, "--lang", "fr"),
        loveletter("replay", str(two_games), "--lang", "fr"),
        loveletter("audit", str(two_games), "--lang", "fr"),
        loveletter("explain", READER, "--at", "5", "--move", '{"card": "prince", "target": "Claire"}', "--lang", "fr"),
        loveletter(
            "explain", READER, "--at", "5", "--move", '{"card": "prince", "target": "Thibault"}', "--lang", "fr"
        ),
        loveletter("show", READER, "--lang", "fr"),
        loveletter("show", str(one), "--lang", "fr"),
        loveletter("analyse", str(one), "--budget", "2", "--lang", "fr"),
        loveletter("demo", "--lang", "fr"),
        loveletter("simulate", "--games", "20", "--lang", "fr"),
        loveletter("tournament", "--bots", "heuristic,random", "--games", "8", "--lang", "fr"),
    ]
    for result in outputs:
        assert result.returncode in (0, 1), result.stderr
        text = re.sub(r"\S+\.(?:jsonl|json|txt)\b|RULINGS §\d+", " ", result.stdout)
        assert not_french(text, allowed=NAMES + IDS) == [], result.stdout
