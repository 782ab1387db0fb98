"""The one tally of a simulation's figures (`play.simulate.GameFigures`, `Stats.add`, `play.tally`): a recorded game
read back gives the figures the engine counted while it played it, the totals and their squares add up as worked by
hand, and a simulation's log tallies to the statistics of the run that wrote it."""

from __future__ import annotations

import io

import pytest

from loveletter.core.catalogue import Event
from loveletter.events.log import LogFormatError
from loveletter.play.bots import get_bot
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, GameFigures, SeedKey, Stats, figures, play_game, simulate
from loveletter.play.tally import NoGame, tally_simulation_log


@pytest.mark.parametrize(
    ("ruleset", "players"), [("2019", 2), ("2019", 5), ("2012", 4), ("2019-classic", 3), ("princess-princess", 6)]
)
def test_a_recorded_game_reads_back_as_the_engine_counted_it(ruleset: str, players: int) -> None:
    bots = [get_bot("heuristic" if seat % 2 else "random") for seat in range(players)]
    key = SeedKey(11)
    for game in range(15):
        record: list[Event] = []
        counted = GameFigures()
        winners = play_game(ruleset, bots, key, game, record=record, figures=counted)
        assert figures(record) == counted
        assert counted.winners == winners and counted.events == len(record) and counted.rounds >= 1


def test_totals_and_squares_add_up_as_worked_by_hand() -> None:
    stats = Stats(Config("2019", 2, 2, 1, ("random", "heuristic")), wins_by_seat=[0, 0])
    stats.add(GameFigures(3, 20, 70, (0,), {"round": 3, "spy": 1}, {"baron": 2}))
    stats.add(GameFigures(5, 31, 100, (1,), {"round": 5}, {"baron": 1, "guard": 2}))
    assert (stats.games, stats.rounds, stats.turns, stats.events) == (2, 8, 51, 170)
    assert stats.wins_by_seat == [1, 1]
    assert stats.favors_by_reason == {"round": 8, "spy": 1}
    assert stats.eliminations_by_card == {"baron": 3, "guard": 2}
    # each per-game count squared, then summed over the games: 3² + 5², 20² + 31², …
    assert {k: v for k, v in stats.squares.items() if v} == {
        "rounds": 34,
        "turns": 1361,
        "events": 14900,
        "favor:round": 34,
        "favor:spy": 1,
        "elimination:baron": 5,
        "elimination:guard": 4,
    }


def test_a_simulations_log_tallies_to_the_statistics_of_its_run() -> None:
    config = Config("2019", 3, 30, 4, ("heuristic", "random", "random"))
    log = io.BytesIO()
    ran = statistics(simulate(config, log))
    tallied = tally_simulation_log(log.getvalue())
    counted = statistics(tallied.stats)
    for answer in (ran, counted):
        answer.pop("seconds")
        answer.pop("games_per_second")
    assert counted == ran
    assert sum(tallied.rounds.values()) == 30
    assert sum(n * games for n, games in tallied.rounds.items()) == tallied.stats.rounds


def test_what_is_not_one_simulations_log() -> None:
    two, three = io.BytesIO(), io.BytesIO()
    simulate(Config("2019", 2, 1, 1, ("random", "random")), two)
    simulate(Config("2019", 3, 1, 1, ("random",) * 3), three)
    with pytest.raises(LogFormatError, match="line 1: no game in this log"):
        tally_simulation_log(b"")
    with pytest.raises(NoGame, match="no game in this log"):
        tally_simulation_log(two.getvalue().splitlines(keepends=True)[0])  # a header and no event
    second_header = two.getvalue().count(b"\n") + 1
    with pytest.raises(LogFormatError, match="first game's ruleset and players") as refused:
        tally_simulation_log(two.getvalue() + three.getvalue())
    assert refused.value.line == second_header
