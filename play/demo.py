"""The game `loveletter demo` shows: one seeded game between heuristic bots, with the names the demonstration gives
its seats. The command line tells it turn by turn with the omniscient narrator of `replays.narrative` (every draw and
every private look shown)."""

from __future__ import annotations

from loveletter.core.catalogue import Event
from loveletter.play.bots import get_bot
from loveletter.play.simulate import play_game, root_key

DEMO_NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")


def play_demo(ruleset: str = "2019", players: int = 4, seed: int = 1) -> list[Event]:
    """The events of one game between heuristic bots (game 0 of simulation `seed`)."""
    bots = [get_bot("heuristic")] * players
    record: list[Event] = []
    play_game(ruleset, bots, root_key(seed), 0, record=record)
    return record
