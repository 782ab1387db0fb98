"""The simulator: same seed, same bytes; its fast path plays exactly the games of the plain public API."""

from __future__ import annotations

import hashlib
import io

import pytest

from loveletter.core.catalogue import Event, FavorGained, GameEnded, RoundEnded, TurnStarted
from loveletter.core.chance import commitment, committed_deal
from loveletter.core.commands import Command, RevealSeed, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import evolve, fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL, PHASE_DEAL, PHASE_OVER
from loveletter.core.views import view
from loveletter.events.log import game_lines, read_games
from loveletter.play.bots import choose_random, get_bot
from loveletter.play.simulate import Config, SeedKey, SimulationError, bot_rng, play_game, simulate
from loveletter.replays.replay import check


def _log(config: Config) -> bytes:
    buffer = io.BytesIO()
    simulate(config, buffer)
    return buffer.getvalue()


def _reference_game(ruleset: str, players: int, seed: int, game: int) -> list[Event]:
    """The slow, obvious loop: frozen states, `fold` per command, `legal_moves` and the random policy."""
    key = SeedKey(seed)
    rng = bot_rng(key, game)
    names = tuple(f"random-{i}" for i in range(players))
    state = INITIAL
    server_seed = key.derive(b"server:%d" % game)
    command: Command = StartGame(ruleset, names, {}, seed_commitment=commitment(server_seed))
    log: list[Event] = []
    while True:
        events = decide(state, command)
        log.extend(events)
        after = state
        for event in events:
            after = evolve(after, event)
        state = fold(events, state)
        assert after == state
        if state.phase == PHASE_OVER:
            if state.server_seed is not None:
                return log
            command = RevealSeed(server_seed.hex())
        elif state.phase == PHASE_DEAL:
            command = committed_deal(state, server_seed)
        else:
            command = choose_random(view(state, state.active), legal_moves(state, state.active), rng)


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [("2019", 2), ("2019", 4), ("2019", 6), ("2012", 2), ("2012", 4), ("2019-classic", 3), ("princess-princess", 5)],
)
def test_fast_path_plays_the_same_games_as_the_plain_api(ruleset: str, players: int) -> None:
    bots = [get_bot("random")] * players
    key = SeedKey(5)
    for game in range(12):
        record: list[Event] = []
        play_game(ruleset, bots, key, game, record=record)
        assert record == _reference_game(ruleset, players, 5, game)
        assert fold(record).phase == PHASE_OVER


def test_same_seed_gives_byte_identical_logs() -> None:
    config = Config("2019", 4, 60, 9, ("heuristic", "random", "random", "random"))
    first, second = _log(config), _log(config)
    assert first == second
    assert hashlib.sha256(first).digest() != hashlib.sha256(_log(Config("2019", 4, 60, 10, config.bots))).digest()


def test_logs_hold_one_header_per_game_and_replay_strictly() -> None:
    data = _log(Config("2012", 3, 25, 4, ("heuristic", "random", "heuristic")))
    games = list(read_games(data.splitlines()))
    assert len(games) == 25
    for number, game in enumerate(games):
        assert game.header.game_id == f"sim-4-{number}"
        result = check(game)
        assert not result.problems
        assert result.state.phase == PHASE_OVER
        assert b"\n".join(game_lines(game.events, game.header)) + b"\n" in data


def test_stats_add_up() -> None:
    config = Config("princess-princess", 4, 80, 2, ("random", "heuristic", "random", "heuristic"))
    stats = simulate(config)
    rounds = turns = favors = 0
    winners = [0] * 4
    key = SeedKey(2)
    bots = [get_bot(b) for b in config.bots]
    for game in range(config.games):
        record: list[Event] = []
        play_game(config.ruleset, bots, key, game, record=record)
        rounds += sum(isinstance(e, RoundEnded) for e in record)
        turns += sum(isinstance(e, TurnStarted) for e in record)
        favors += sum(isinstance(e, FavorGained) for e in record)
        for e in record:
            if isinstance(e, GameEnded):
                for seat in e.winners:
                    winners[seat] += 1
    assert (stats.games, stats.rounds, stats.turns) == (80, rounds, turns)
    assert sum(stats.favors_by_reason.values()) == favors
    assert stats.wins_by_seat == winners
    assert sum(winners) >= stats.games
    assert stats.wins_by_bot()["heuristic"] == (winners[1] + winners[3], 160)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (Config("2020", 4, 1, 1, ("random",) * 4), "unknown ruleset '2020'"),
        (Config("2012", 6, 1, 1, ("random",) * 6), "2 to 4 players, not 6"),
        (Config("2019", 4, 1, 1, ("random",) * 3), "3 bots given for 4 players"),
        (Config("2019", 2, 1, 1, ("random", "clever")), "unknown bot 'clever'"),
        (Config("2019", 2, 0, 1, ("random", "random")), "at least 1"),
    ],
)
def test_bad_configurations_are_refused(config: Config, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        simulate(config)
