"""Issue 12, item 12: simulation output people can use — rule options, JSON and CSV statistics with 95% intervals,
charts in PNG or SVG, and no favor row a ruleset does not have."""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import orjson
import pytest

from loveletter.events.log import read_games
from loveletter.play.report import mean_interval, wilson
from tests.cli import loveletter


def test_wilson_intervals_are_the_textbook_ones() -> None:
    # Wilson (1927), as tabulated by Newcombe (1998), table I: 0/10, 1/29, 81/263.
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(1, 29) == pytest.approx((0.0061, 0.1718), abs=1e-4)
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)


def test_a_per_game_mean_has_a_normal_interval() -> None:
    values = [3, 5, 4, 6, 2]
    low, high = mean_interval(sum(values), sum(v * v for v in values), len(values))
    sd = math.sqrt(sum((v - 4) ** 2 for v in values) / 4)
    assert (low, high) == pytest.approx((4 - 1.96 * sd / math.sqrt(5), 4 + 1.96 * sd / math.sqrt(5)), abs=1e-3)
    assert mean_interval(7, 49, 1) == (None, None)


def test_rule_options_reach_every_game(tmp_path: Path) -> None:
    log = tmp_path / "tie.jsonl"
    args = ["--ruleset", "2012", "--players", "3", "--games", "5", "--option", "tie_2012=all"]
    result = loveletter("simulate", *args, "--option", "guard_unknown=miss", "--log", str(log))
    assert result.returncode == 0, result.stderr
    games = list(read_games(log.read_bytes().splitlines()))
    assert len(games) == 5
    assert all(g.header.options == {"tie_2012": "all", "guard_unknown": "miss"} for g in games)
    body = orjson.loads(loveletter("simulate", *args, "--json").stdout)
    assert body["options"] == {"tie_2012": "all", "guard_unknown": "refuse"}
    refused = loveletter("simulate", "--option", "tie_2012=sometimes")
    assert refused.returncode == 2 and "tie_2012 must be one of nobody, all" in refused.stderr


def test_json_statistics_hold_every_figure_with_its_interval() -> None:
    result = loveletter("simulate", "--players", "3", "--games", "60", "--bots", "heuristic,random,random", "--json")
    assert result.returncode == 0, result.stderr
    body = orjson.loads(result.stdout)
    assert body["games"] == 60 and body["confidence"] == 0.95 and body["bots"] == ["heuristic", "random", "random"]
    seats = body["win_rate"]["by_seat"]
    assert [s["seat"] for s in seats] == [0, 1, 2] and sum(s["wins"] for s in seats) >= 60
    for figure in [*seats, *body["win_rate"]["by_bot"]]:
        assert figure["low"] <= figure["rate"] <= figure["high"]
        assert (figure["low"], figure["high"]) == pytest.approx(wilson(figure["wins"], figure["trials"]))
    assert {b["bot"]: b["trials"] for b in body["win_rate"]["by_bot"]} == {"heuristic": 60, "random": 120}
    for figure in [*body["per_game"].values(), *body["favors"], *body["eliminations"]]:
        assert figure["low"] <= figure["per_game"] <= figure["high"]
        assert figure["per_game"] == pytest.approx(figure["count"] / 60)
    assert sum(f["count"] for f in body["favors"]) >= body["per_game"]["rounds"]["count"] - 60  # ties aside


def test_csv_statistics_have_one_row_per_figure() -> None:
    result = loveletter("simulate", "--players", "4", "--games", "40", "--csv")
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert list(rows[0]) == ["section", "name", "count", "trials", "estimate", "low", "high"]
    sections = {r["section"] for r in rows}
    assert sections >= {"per_game", "win_rate_by_seat", "win_rate_by_bot", "favors_per_game", "eliminations_per_game"}
    seats = [r for r in rows if r["section"] == "win_rate_by_seat"]
    assert [r["name"] for r in seats] == [f"{i} (random)" for i in range(4)]
    for r in rows:
        assert float(r["low"]) <= float(r["estimate"]) <= float(r["high"])


@pytest.mark.parametrize(
    ("ruleset", "players", "reasons"),
    [
        ("2019", 2, ["round", "spy"]),
        ("2019-classic", 4, ["round"]),
        ("2012", 3, ["round"]),
        ("princess-princess", 4, ["round", "spy", "amira-sadie"]),
    ],
)
def test_only_the_favors_a_ruleset_has_are_counted(ruleset: str, players: int, reasons: list[str]) -> None:
    args = ("simulate", "--ruleset", ruleset, "--players", str(players), "--games", "30")
    body = orjson.loads(loveletter(*args, "--json").stdout)
    assert [f["reason"] for f in body["favors"]] == reasons
    rows = csv.DictReader(io.StringIO(loveletter(*args, "--csv").stdout))
    assert [r["name"] for r in rows if r["section"] == "favors_per_game"] == reasons
    table = loveletter(*args).stdout
    assert ("Amira & Sadie" in table) == ("amira-sadie" in reasons)


@pytest.mark.parametrize("name", ["chart.png", "chart.svg", "CHART.PNG"])
def test_charts_are_drawn_in_the_format_of_the_file_name(tmp_path: Path, name: str) -> None:
    chart = tmp_path / name
    result = loveletter("simulate", "--ruleset", "princess-princess", "--games", "20", "--plot", str(chart))
    assert result.returncode == 0, result.stderr
    data = chart.read_bytes()
    if name.lower().endswith(".png"):
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
    else:
        assert b"<svg" in data[:2000] and b"Amira &amp; Sadie" in data and b"Win rate by seat" in data
    assert "win rate, seat 0" in result.stdout  # the table is still printed
    refused = loveletter("simulate", "--games", "2", "--plot", str(tmp_path / "chart.jpg"))
    assert refused.returncode == 2 and "must end in .png or .svg" in refused.stderr
