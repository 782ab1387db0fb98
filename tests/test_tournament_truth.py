"""A tournament that tells the truth about a bot, in process as over HTTP: a crash or an overrun costs the seat what
the turn clock costs it (RULINGS §12), and the report says so, traceback included."""

from __future__ import annotations

import json
import time
from collections import Counter

from loveletter.client import Game, LegalMove
from loveletter.play.ratings import results
from loveletter.play.tournament import Config, run_in_process
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
