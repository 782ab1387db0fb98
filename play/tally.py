"""A simulation's log counted again (`POST /simulations/tally`): the figures `loveletter simulate --log` gave when it
played the games, read back from the events it wrote. Each game is read into the engine's own `GameFigures` and
added up by the one tally, `Stats.add`, so a log and the run that wrote it give the same statistics."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from loveletter.core.catalogue import GameStarted
from loveletter.core.lang import BilingualError, Text
from loveletter.events.log import LogFormatError, read_games
from loveletter.play.simulate import Config, Stats, figures


class NoGame(BilingualError):
    """A log that holds no game at all."""


@dataclass(frozen=True, slots=True)
class Tallied:
    """A log's totals, and its games by their number of rounds."""

    stats: Stats
    rounds: Counter[int]


def tally_simulation_log(data: bytes) -> Tallied:
    """The totals of the games of a simulation's log (each seat's bot is its player's name without the `-N` that
    `loveletter simulate` adds). `LogFormatError` for a line that cannot be read or a game that is not of the same
    simulation as the first (another ruleset or other players); `NoGame` for a log without a game."""
    games = list(read_games(data.splitlines()))
    first = games[0].events[0] if games and games[0].events else None
    if not isinstance(first, GameStarted):
        raise NoGame(Text("no game in this log", "ce journal ne contient aucune partie"))
    bots = tuple(name.rsplit("-", 1)[0] for name in first.players)
    named = games[0].header.game_id or ""  # "sim-SEED-GAME" when `loveletter simulate` wrote it
    seed = named.split("-")[1] if named.startswith("sim-") else "0"
    options = tuple(sorted(first.options.items()))
    config = Config(str(first.ruleset), len(bots), len(games), int(seed) if seed.isdigit() else 0, bots, options)
    stats = Stats(config, wins_by_seat=[0] * len(bots))
    rounds: Counter[int] = Counter()
    for game in games:
        started = game.events[0] if game.events else None
        if not isinstance(started, GameStarted) or started.ruleset != first.ruleset or started.players != first.players:
            raise LogFormatError(
                game.header_line,
                Text(
                    "every game of a simulation has the first game's ruleset and players",
                    "chaque partie d'une simulation a les règles et les joueurs de la première",
                ),
            )
        played = figures(game.events)
        stats.add(played)
        rounds[played.rounds] += 1
    return Tallied(stats, rounds)
