"""A tournament that tells the truth about a bot, in process as over HTTP: a crash or an overrun costs the seat what
the turn clock costs it (RULINGS §12), and the report says so, traceback included."""

from __future__ import annotations

import csv
import io
import json
import time
from collections import Counter
from pathlib import Path
from typing import ClassVar

import pytest
from rich.console import Console

from loveletter.client import Game, LegalMove
from loveletter.play.ratings import Rating, rate, read_ratings, render_csv, render_tables, results, write_ratings
from loveletter.play.tournament import Config, Outcome, run_in_process
from tests.cli import loveletter

HERE = "tests.test_tournament_truth"


class CrashesFromRound2:
    """Plays the first legal move in round 1, then raises at its first decision of any later round."""

    def choose(self, game: Game) -> LegalMove:
        if game.view.round >= 2:
            raise ValueError("round two is beyond me")
        return game.legal_moves[0]


def test_in_process_a_bot_that_crashes_from_round_two_resigns_and_ranks_below_the_heuristic() -> None:
    config = Config(("heuristic", f"{HERE}:CrashesFromRound2", "random"), players=3, games=12, seed=3)
    outcomes = run_in_process(config)
    figures = results(config, outcomes, 1.0)
    rows = {r["bot"]: r for r in figures["ratings"]}
    crasher = rows[f"{HERE}:CrashesFromRound2"]
    # Each game that reached round 2 ends its part there: it crashed once in that game, its clock "ran out" once
    # and the seat resigned (a resigned seat ranks last in its game).
    reached = [o for o in outcomes if o.crashes[o.seats.index(1)]]
    assert len(reached) >= 8 and crasher["crashes"] == len(reached) == crasher["timeouts"]
    assert all(o.resigned[o.seats.index(1)] and o.ranks[o.seats.index(1)] == 3 for o in reached)
    assert crasher["place"] == 3 and rows["heuristic"]["place"] == 1
    assert "ValueError: round two is beyond me" in crasher["first_traceback"]
    assert "in choose" in crasher["first_traceback"]
    assert rows["heuristic"]["crashes"] == rows["heuristic"]["timeouts"] == 0


def test_with_on_timeout_bot_the_heuristic_plays_every_later_decision_of_a_crashed_seat() -> None:
    config = Config(("heuristic", f"{HERE}:CrashesFromRound2"), players=2, games=4, on_timeout="bot")
    outcomes = run_in_process(config)
    for o in outcomes:
        seat = o.seats.index(1)
        assert not o.resigned[seat] and o.winners
        # Crashed at most once per game, as a process dies once; each later decision was the clock's.
        assert o.crashes[seat] <= 1 and (o.timeouts[seat] > 1) == bool(o.crashes[seat])
    assert sum(o.crashes[o.seats.index(1)] for o in outcomes) >= 1


def test_the_command_line_shows_each_crashing_bots_first_traceback_and_count() -> None:
    ran = loveletter("tournament", "--bots", f"heuristic,{HERE}:CrashesFromRound2", "--players", "2", "--games",
                     "4", "--json")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    crashes = {r["name"]: r["crashes"] for r in json.loads(ran.stdout)["ratings"]}
    n = crashes["test_tournament_truth:CrashesFromRound2"]
    assert n >= 1 and f"the bot test_tournament_truth:CrashesFromRound2 crashed in {n} game(s)" in ran.stderr
    assert ran.stderr.count("Traceback (most recent call last)") == 1
    assert "ValueError: round two is beyond me" in ran.stderr
    assert Counter(ran.stderr.split())["crashed"] == 1  # the heuristic never did


class Sleeps:
    """Answers its first decision, then sleeps far beyond any limit."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, game: Game) -> LegalMove:
        self.asked += 1
        if self.asked > 1:
            time.sleep(60)
        return game.legal_moves[0]


def test_in_process_a_sleeping_bot_times_out_resigns_and_the_tournament_goes_on() -> None:
    config = Config(("heuristic", f"{HERE}:Sleeps"), players=2, games=6, turn_seconds=0.2)
    started = time.monotonic()
    outcomes = run_in_process(config)
    assert time.monotonic() - started < 10  # six overruns of 0.2 s at most, not six minutes
    for o in outcomes:
        seat = o.seats.index(1)
        if o.timeouts[seat]:  # it reached its second decision: one timeout, and the seat resigned (last)
            assert o.timeouts[seat] == 1 and o.resigned[seat] and o.winners == (o.seats.index(0),)
        assert o.crashes[seat] == o.refused[seat] == 0
    assert sum(o.timeouts[o.seats.index(1)] for o in outcomes) >= 4


class NodsOff:
    """Dozes 0.8 s at its second decision of each game, then answers at once again."""

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, game: Game) -> LegalMove:
        self.asked += 1
        if self.asked == 2:
            time.sleep(0.8)
        return game.legal_moves[0]


def test_the_command_line_takes_a_fractional_limit_and_with_on_timeout_bot_the_heuristic_steps_in() -> None:
    started = time.monotonic()
    ran = loveletter("tournament", "--bots", f"heuristic,{HERE}:NodsOff", "--players", "2", "--games", "2",
                     "--turn-seconds", "0.5", "--on-timeout", "bot", "--json")  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    rows = {r["name"]: r for r in json.loads(ran.stdout)["ratings"]}
    # Each game, the heuristic played the decision it overran; the seat stayed in the game and the bot, awake
    # again, answered the rest (its next question waited 0.3 s behind the doze, within the limit).
    assert rows["test_tournament_truth:NodsOff"]["timeouts"] == 2 and rows["heuristic"]["timeouts"] == 0
    assert time.monotonic() - started < 15


def test_over_http_the_clock_counts_whole_seconds() -> None:
    ran = loveletter("tournament", "--bots", "heuristic,random", "--server", "http://127.0.0.1:9", "--turn-seconds",
                     "0.5")  # fmt: skip
    assert ran.returncode == 2 and "whole seconds" in ran.stderr


def hand_checked() -> tuple[Config, list[Outcome]]:
    """Three two-seat games of bots a and b, worked by hand: a wins games 0 and 1, b game 2; in game 0, b crashed,
    timed out and resigned."""
    config = Config(("a:x", "b:y"), players=2, games=3)
    games = [
        Outcome(0, 0, (0, 1), winners=(0,), favors=(0, 0), resigned=(False, True), timeouts=[0, 1],
                refused=[0, 0], crashes=[0, 1], hangs=[0, 0], tracebacks=["", "Traceback…"]),
        Outcome(1, 0, (1, 0), winners=(1,), favors=(2, 3), resigned=(False, False)),
        Outcome(2, 1, (0, 1), winners=(1,), favors=(1, 3), resigned=(False, False)),
    ]  # fmt: skip
    for o in games[1:]:
        o.timeouts, o.refused, o.crashes, o.hangs, o.tracebacks = [0, 0], [0, 0], [0, 0], [0, 0], ["", ""]
    return config, games


def test_the_results_say_rating_win_rate_placing_crashes_timeouts_and_the_order() -> None:
    config, games = hand_checked()
    figures = results(config, games, 1.0)
    assert figures["sorted_by"].startswith("ranked by rating (OpenSkill mu), highest first")
    a, b = figures["ratings"]
    assert (a["name"], b["name"]) == ("a:x", "b:y") and (a["place"], b["place"]) == (1, 2)
    assert a["mu"] > b["mu"] and a["low"] < a["mu"] < a["high"]
    assert (a["wins"], a["seat_games"], a["win_rate"]) == (2, 3, 2 / 3)
    assert (b["wins"], b["win_rate"]) == (1, 1 / 3)
    # Places: a was 1st, 1st, 2nd; b 2nd (resigned), 2nd, 1st.
    assert a["average_placing"] == pytest.approx(4 / 3) and b["average_placing"] == pytest.approx(5 / 3)
    assert (a["crashes"], a["timeouts"], b["crashes"], b["timeouts"]) == (0, 0, 1, 1)
    assert b["first_traceback"] == "Traceback…" and a["first_traceback"] is None


def test_csv_and_text_carry_the_same_columns_and_the_sort_line() -> None:
    config, games = hand_checked()
    figures = results(config, games, 1.0)
    rows = list(csv.reader(io.StringIO(render_csv(figures))))
    assert rows[1] == ["sorted_by", "", "", "", "", figures["sorted_by"], "", ""]
    placing = {r[1]: r for r in rows if r[0] == "average_placing"}
    assert placing["a:x"][3:6] == ["4", "3", "1.33333"] and placing["b:y"][3:6] == ["5", "3", "1.66667"]
    assert [r[3] for r in rows if r[0] in ("crashes", "timeouts")] == ["0", "0", "1", "1"]
    console = Console(width=160, record=True, file=io.StringIO())
    for table in render_tables(figures, "en"):
        console.print(table)
    text = console.export_text()
    for head in ("rating (mu)", "95% interval", "win rate", "avg placing", "crashes", "timeouts"):
        assert head in text
    assert "ranked by rating (OpenSkill mu), highest first" in text
    cells = [c.strip() for c in next(x for x in text.splitlines() if " b:y " in x).split("│")]
    assert cells[1:3] == ["2", "b:y"] and cells[5:] == ["33.3%", "1.67", "3", "1", "1", ""]


class Listener:
    """Checks, at every decision, that `game.events` is its seat's view of the log so far — every event once, in
    order, up to the game's version, others' cards hidden — and remembers each Guard miss it was told of ("seat t
    does not hold card g"). A failed check raises: the tournament counts it as a crash."""

    misses: ClassVar[list[tuple[int, str]]] = []
    decisions: ClassVar[list[int]] = []

    def choose(self, game: Game) -> LegalMove:
        events, me = game.events, game.view.seat
        assert [e.seq for e in events] == list(range(1, game.version + 1)), [e.seq for e in events]
        assert events[0].type == "game_started" and events[-1].seq == game.view.version
        for i, e in enumerate(events):
            d = e.data
            if e.type == "round_started":
                assert "hands" not in d and "deck" not in d and isinstance(d["hand"], str), d
            elif e.type == "turn_started":
                assert ("card" in d) == (d["player"] == me), d
            elif e.type == "card_played" and d["card"] == "guard" and d.get("guess"):
                later = events[i + 1 : i + 3]
                if not any(x.type == "player_eliminated" and x.data["player"] == d["target"] for x in later):
                    Listener.misses.append((d["target"], d["guess"]))
        Listener.decisions.append(game.version)
        return game.legal_moves[0]


def test_in_process_a_bot_is_told_its_seats_events_so_far() -> None:
    import importlib

    bot = importlib.import_module(HERE).Listener  # the class `load` finds (pytest may name this module otherwise)
    bot.misses.clear()
    bot.decisions.clear()
    outcomes = run_in_process(Config(("heuristic", f"{HERE}:Listener"), players=2, games=6, seed=2))
    assert all(o.crashes == [0, 0] and o.timeouts == [0, 0] for o in outcomes), [o.tracebacks for o in outcomes]
    assert len(bot.decisions) > 20 and bot.misses  # it was asked, and told of Guard misses it could remember


def test_a_ratings_file_carries_the_ratings_over_as_one_run_of_both_tournaments_would(tmp_path: Path) -> None:
    """Two runs with --ratings FILE rate the bots as one rating pass over the first run's games then the second's;
    a bot the second run does not enter keeps its rating in the file."""
    file = tmp_path / "ratings.json"
    first = ("heuristic", "random", "examples.bots.careful:Bot")
    second = ("heuristic", "random")
    for bots, seed in ((first, 1), (second, 2)):
        ran = loveletter("tournament", "--bots", ",".join(bots), "--games", "8", "--seed", str(seed), "--ratings",
                         str(file), "--json")  # fmt: skip
        assert ran.returncode == 0, ran.stderr
    saved = json.loads(file.read_text())
    assert saved["format"] == "loveletter-ratings/1" and set(saved["ratings"]) == set(first)
    one = run_in_process(Config(first, games=8, seed=1))
    two = run_in_process(Config(second, games=8, seed=2))
    after_one = rate(one, 3, keep_history=False).final
    both = rate(two, 2, keep_history=False, start=after_one[:2]).final
    for name, expected in zip(first, [*both, after_one[2]], strict=True):
        got = saved["ratings"][name]
        assert got["mu"] == pytest.approx(expected.mu, abs=1e-9) and got["sigma"] == pytest.approx(expected.sigma)
    printed = {r["bot"]: r["mu"] for r in json.loads(ran.stdout)["ratings"]}
    assert printed == pytest.approx({b: saved["ratings"][b]["mu"] for b in second})


def test_one_openskill_update_from_a_ratings_file_worked_by_hand() -> None:
    """Two bots start from (30, 5) and (20, 4) and play one two-seat game that the first wins. Plackett–Luce with one
    game of two (beta = 25/6): c² = 5² + 4² + 2·beta², p(winner first) = e^(30/c) / (e^(30/c) + e^(20/c)); the
    winner's mu moves by sigma² / c · (1 − p), the loser's by −sigma² / c · (1 − p)."""
    import math

    beta = 25 / 6
    c = math.sqrt(25 + 16 + 2 * beta**2)
    p = math.exp(30 / c) / (math.exp(30 / c) + math.exp(20 / c))
    game = Outcome(0, 0, (0, 1), winners=(0,), favors=(1, 0), resigned=(False, False))
    won, lost = rate([game], 2, start=[Rating(30, 5), Rating(20, 4)]).final
    assert won.mu == pytest.approx(30 + 25 / c * (1 - p)) and lost.mu == pytest.approx(20 - 16 / c * (1 - p))
    assert read_ratings(write_ratings({"other": Rating(1, 2)}, Config(("a:x", "b:y")), [won, lost])) == {
        "other": Rating(1, 2), "a:x": won, "b:y": lost,
    }  # fmt: skip


def test_a_file_that_is_not_a_ratings_file_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "r.json"
    bad.write_text('{"ratings": []}')
    ran = loveletter("tournament", "--bots", "heuristic,random", "--games", "2", "--ratings", str(bad))
    assert ran.returncode == 2 and "not a ratings file" in ran.stderr
