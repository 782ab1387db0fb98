"""`--game K` on the commands that read one game (`show`, `explain`): a log of several games is read one game at a
time, K counted from 1 as `replay` and `audit` number the games; without it, the refusal names the option."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import ROOT, loveletter

READER = str(ROOT / "examples" / "reader-question.json")


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("logs") / "three.jsonl"
    made = loveletter("simulate", "--games", "3", "--players", "2", "--seed", "5", "--log", str(path))
    assert made.returncode == 0, made.stderr
    return path


def _games(path: Path) -> list[list[dict[str, object]]]:
    """Each game's events, read from the file by hand (the header lines split the games)."""
    games: list[list[dict[str, object]]] = []
    for line in path.read_text().splitlines():
        data = json.loads(line)
        if data.get("format") == "loveletter-log":
            games.append([])
        elif "seq" in data:
            games[-1].append(data)
    return games


def test_a_log_of_several_games_is_refused_with_the_option_named(three: Path) -> None:
    for command in (("show",), ("explain",), ("explain", "--at", "3", "--move", "{}")):
        en = loveletter(*command[:1], str(three), *command[1:])
        assert en.returncode == 2 and en.stderr == (
            f"error: {three} holds 3 games; pick one with --game (1 to 3, as replay numbers them)\n"
        ), en.stderr
        fr = loveletter(*command[:1], str(three), *command[1:], "--lang", "fr")
        assert fr.stderr == (
            f"erreur : {three} contient 3 parties ; choisissez-en une avec --game (de 1 à 3, comme replay les "
            "numérote)\n"
        ), fr.stderr


@pytest.mark.parametrize("k", [1, 2, 3])
def test_game_k_reads_the_kth_game_as_replay_numbers_them(three: Path, k: int) -> None:
    events = _games(three)[k - 1]
    end = loveletter("explain", str(three), "--game", str(k), "--json")
    assert end.returncode == 0, end.stderr
    assert json.loads(end.stdout)["at"] == len(events)  # the end of that game, not of another
    view = json.loads(loveletter("show", str(three), "--game", str(k), "--at", "2").stdout)
    dealt = events[1]
    assert dealt["type"] == "round_started" and view["face_up"] == dealt["face_up"]
    replayed = loveletter("replay", str(three)).stdout.splitlines()[k - 1]
    assert replayed.startswith(f"{three} [log game {k}, ") and f"{len(events)} events" in replayed


def test_game_k_past_the_last_game_names_the_count(three: Path) -> None:
    en = loveletter("show", str(three), "--game", "4")
    assert (
        en.returncode == 2
        and en.stderr == f"error: --game 4: {three} has no game 4; it holds 3, the first being game 1\n"
    )
    fr = loveletter("explain", READER, "--game", "2", "--lang", "fr")
    assert fr.returncode == 2 and fr.stderr == (
        f"erreur : --game 2 : {READER} n'a pas de partie 2 ; il en contient 1, la première étant la partie 1\n"
    )
    zero = loveletter("show", str(three), "--game", "0")
    assert zero.returncode == 2 and zero.stderr.startswith("error: --game: must be at least 1, not 0")


def test_a_single_game_file_reads_the_same_with_or_without_game_1() -> None:
    plain = loveletter("explain", READER, "--at", "5")
    first = loveletter("explain", READER, "--at", "5", "--game", "1")
    assert plain.returncode == first.returncode == 0 and plain.stdout == first.stdout


@pytest.mark.parametrize("command", ["show", "explain"])
def test_the_help_says_how_k_counts(command: str) -> None:
    en = loveletter(command, "--help").stdout
    assert "--game K" in en and "counted from 1" in " ".join(en.split())
    fr = loveletter(command, "--help", "--lang", "fr").stdout
    assert "comptée à partir de 1" in " ".join(fr.split())
