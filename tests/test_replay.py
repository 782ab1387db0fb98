"""Replay re-judges every logged decision: clean logs verify, every kind of edit is caught with its rule."""

from __future__ import annotations

import dataclasses
import io
import random

import pytest

from loveletter.core.catalogue import CardPlayed, Event, FavorGained, GameStarted, PlayerEliminated, TurnStarted
from loveletter.core.chance import deal
from loveletter.core.commands import StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL, GameState
from loveletter.events.log import LogFormatError, read_games, write_game
from loveletter.replays.replay import ReplayError, check, replay


def random_game(seed: int, ruleset: str = "2019", players: int = 3) -> tuple[list[Event], GameState]:
    rng = random.Random(seed)
    state, log = INITIAL, []
    command = StartGame(ruleset, tuple(f"p{i}" for i in range(players)))
    while True:
        events = decide(state, command)
        log.extend(events)
        state = fold(events, state)
        if state.over:
            return log, state
        if state.phase == "deal":
            command = deal(state, rng.randbytes(32))
        else:
            command = rng.choice(legal_moves(state, state.active))


def as_lines(events: list[Event]) -> list[bytes]:
    buf = io.BytesIO()
    write_game(buf, events)
    return buf.getvalue().splitlines()


@pytest.mark.parametrize("ruleset,players", [("2019", 4), ("2019-classic", 2), ("2012", 3), ("princess-princess", 6)])
def test_a_clean_log_verifies_and_replays_to_the_live_state(ruleset: str, players: int) -> None:
    log, live = random_game(7, ruleset, players)
    (game,) = read_games(as_lines(log))
    assert replay(game) == live
    assert check(game).ok


def test_log_consistent__an_invented_favor_is_caught_with_its_rule() -> None:
    log, _ = random_game(1)
    i = next(i for i, e in enumerate(log) if isinstance(e, FavorGained) and e.reason == "round")
    log[i] = dataclasses.replace(log[i], player=(log[i].player + 1) % 3)  # type: ignore[arg-type]
    with pytest.raises(ReplayError) as err:
        replay(log)
    problem = err.value.problem
    assert problem.rule_id == "favor.round"
    assert problem.seq == i + 1
    assert problem.expected is not None and problem.found is not None and problem.expected != problem.found


def test_log_consistent__a_wrong_draw_is_caught() -> None:
    log, _ = random_game(2)
    i = next(i for i, e in enumerate(log) if isinstance(e, TurnStarted) and i > 5)
    other = next(c for c in ("guard", "priest", "baron") if c != log[i].card.value)  # type: ignore[union-attr]
    log[i] = dataclasses.replace(log[i], card=other)  # type: ignore[arg-type]
    result = check(log)
    assert not result.ok and result.problems[0].seq == i + 1 and result.problems[0].rule_id == "turn.order"


def test_log_consistent__an_illegal_play_names_the_rule_it_breaks() -> None:
    log, _ = random_game(3)
    i = next(i for i, e in enumerate(log) if isinstance(e, CardPlayed))
    log[i] = dataclasses.replace(log[i], player=(log[i].player + 1) % 3)  # type: ignore[arg-type]
    problem = check(log).problems[0]
    assert (problem.rule_id, problem.code, problem.seq) == ("turn.order", "not_your_turn", i + 1)


def test_log_consistent__a_removed_elimination_is_caught() -> None:
    log, _ = random_game(4)
    i = next(i for i, e in enumerate(log) if isinstance(e, PlayerEliminated))
    del log[i]
    assert not check(log).ok


def test_log_sequence__a_gap_in_seq_is_reported_with_its_line() -> None:
    log, _ = random_game(5)
    lines = as_lines(log)
    del lines[10]  # header is line 1, so this drops seq 10
    (game,) = read_games(lines)
    problem = check(game).problems[0]
    assert problem.rule_id == "log.sequence"
    assert problem.line == 11 and problem.seq == 11 and problem.expected == "10"


def test_log_sequence__a_log_must_start_with_game_started() -> None:
    log, _ = random_game(6)
    problem = check(log[1:]).problems[0]
    assert problem.rule_id in ("log.sequence", "setup.ruleset")


def test_lenient_replay_reports_every_problem_and_goes_on() -> None:
    log, _ = random_game(8)
    favors = [i for i, e in enumerate(log) if isinstance(e, FavorGained) and e.reason == "round"]
    for i in favors[:2]:
        log[i] = dataclasses.replace(log[i], player=(log[i].player + 1) % 3)  # type: ignore[arg-type]
    strict = check(log)
    lenient = check(log, lenient=True)
    assert len(strict.problems) == 1
    assert len(lenient.problems) >= 2
    assert [p.seq for p in lenient.problems[:2]] == [favors[0] + 1, favors[1] + 1]


def test_a_prefix_cut_inside_a_move_is_not_an_error() -> None:
    log, _ = random_game(9)
    i = next(i for i, e in enumerate(log) if isinstance(e, CardPlayed) and i > 10)
    result = check(log[: i + 1])
    assert result.ok and not result.complete and result.state == fold(log[: i + 1])


def test_header_must_agree_with_game_started() -> None:
    log, _ = random_game(10)
    lines = as_lines(log)
    lines[0] = lines[0].replace(b'"2019"', b'"2012"')
    (game,) = read_games(lines)
    assert check(game).problems[0].code == "header_mismatch"


@pytest.mark.parametrize(
    "line,reason",
    [
        (b'{"seq":1,"type":"game_started"', "invalid JSON"),
        (b'{"seq":1,"type":"joker_played","v":1}', "unknown event type"),
        (b'{"seq":1,"type":"card_played","v":1,"player":0,"card":"joker"}', "card"),
        (b'{"seq":1,"type":"card_played","v":9,"player":0,"card":"guard"}', "version"),
        (b'{"type":"card_played","v":1,"player":0,"card":"guard"}', "seq"),
        (b"[1,2,3]", "JSON object"),
    ],
)
def test_unreadable_lines_name_their_line(line: bytes, reason: str) -> None:
    header = b'{"format":"loveletter-log","version":1,"ruleset":"2019","players":["a","b"],"options":{}}'
    with pytest.raises(LogFormatError) as err:
        list(read_games([header, line]))
    assert err.value.line == 2 and reason in str(err.value)


def test_a_file_with_several_games_reads_them_all() -> None:
    a, _ = random_game(11)
    b, _ = random_game(12, "2012", 2)
    games = list(read_games(as_lines(a) + as_lines(b)))
    assert [g.header.ruleset for g in games] == ["2019", "2012"]
    assert all(check(g).ok for g in games)
    assert isinstance(games[1].entries[0].event, GameStarted)
