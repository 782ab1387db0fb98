"""The built-in bots by name — `random`, `heuristic` (`play.policies`) and `expert` (`play.engine`) — as every
place that seats one names them: simulations, tournaments, the referee's bot seats, the environment.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from loveletter.core.catalogue import SeatBot
from loveletter.core.commands import PlayerCommand
from loveletter.core.views import View
from loveletter.play.policies import (
    BlindPolicy,
    CodePolicy,
    Policy,
    choose_heuristic,
    choose_random,
    choose_random_blind,
    choose_random_code,
)

__all__ = ["BOTS", "STAND_IN", "Bot", "Policy", "get_bot", "seat_bot"]


@dataclass(frozen=True, slots=True)
class Bot:
    """A named policy. `uses_view` says whether `choose` reads the view at all; `blind`, when given, is
    the same policy without the view argument (the simulator then builds no view), and `choose_code`
    the same policy over action codes."""

    name: str
    choose: Policy
    uses_view: bool = True
    blind: BlindPolicy | None = None
    choose_code: CodePolicy | None = None


def choose_expert(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """The expert's decision (`play.engine.policy`), its engine imported at the first decision: a referee that seats
    no expert (or thinks in its worker processes) never loads it."""
    from loveletter.play.engine.policy import choose_expert as expert

    return expert(view, moves, rng)


BOTS: dict[str, Bot] = {
    "random": Bot("random", choose_random, uses_view=False, blind=choose_random_blind, choose_code=choose_random_code),
    "heuristic": Bot("heuristic", choose_heuristic),
    "expert": Bot("expert", choose_expert),
}


STAND_IN = "expert"
"""Who decides for a seat whose turn clock ran out in a game with `on_timeout: bot` (RULINGS §12): the referee's
stand-in and the in-process tournament's are this one bot, so a timeout weighs the same in both."""


def seat_bot(name: str, players: int) -> SeatBot:
    """How a game's log names the built-in bot `name` at a table of `players`: with its search, for the expert (its
    fixed budget there, `play.engine.search.default_budget`)."""
    get_bot(name)
    if name != "expert":
        return SeatBot(name)
    from loveletter.play.engine.search import default_budget

    return SeatBot(name, default_budget(players).iterations)


def get_bot(name: str) -> Bot:
    """A bot by name; `KeyError` naming the known ones."""
    try:
        return BOTS[name]
    except KeyError:
        raise KeyError(f"unknown bot {name!r} (known: {', '.join(BOTS)})") from None
