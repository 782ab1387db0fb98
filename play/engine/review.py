"""The review of a game: every legal move of every decision judged from the deciding seat's view, with the engine's
worlds and rollouts (`loveletter analyse`, docs/engine.md).

Unlike the `expert`'s search, no move is left out and none is dropped early: each legal move is played in the same
`rollouts` worlds (drawn by `Sampler` from the seat's `View`, so a card the seat could not see never counts, the
others' hidden hands leaning by what they played as in the expert: `belief`), each
world with one rollout seed shared by every move (common random numbers), and every seat — this one included — is
then played by the `heuristic` policy from its own view to the end of the round. A move is worth the mean of the
game-value model (`value.end_value`) over its rollouts, and its share of rounds won. A fixed number of rollouts
makes the review deterministic under its seed.

The played move is marked by how much of the chance of winning the game it gave up against the best move:
`INACCURACY`, `MISTAKE` and `BLUNDER` are the thresholds of the drop.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from loveletter.core.catalogue import Event
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.evolve import apply
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_PLAY, GameState
from loveletter.core.views import View
from loveletter.events.log import Entry
from loveletter.play.engine.belief import leanings
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.search import play_out
from loveletter.play.engine.value import end_value
from loveletter.replays.decisions import command_of

INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
"""A played move that gives up at least this much of the chance of winning the game against the best move."""

DEFAULT_ROLLOUTS = 200
"""Rollouts for each legal move of a decision (the expert's whole budget is 200 a decision)."""

OPPONENTS = "heuristic"
"""The model of the other players (and of the seat itself after the move): the built-in bot, from its own view."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move's estimate: its rollouts, its mean chance of winning the game, its share of rounds won."""

    move: PlayerCommand
    rollouts: int
    game: float
    round: float


def review(view: View, moves: Sequence[PlayerCommand], rng: random.Random, rollouts: int) -> list[MoveValue]:
    """Every move of `moves` (in their order) tried in the same `rollouts` worlds sampled from `view`, the others'
    hands dealt by what their plays say (`belief`, as the expert deals them)."""
    uniform = Sampler(view)
    sampler = uniform.leaning(leanings(view, uniform.sample(random.Random(0))))  # any world gives the same odds
    seat = sampler.seat
    game = [0.0] * len(moves)
    won = [0.0] * len(moves)
    for _ in range(rollouts):
        world = sampler.sample(rng)
        seed = rng.getrandbits(64)
        for i, move in enumerate(moves):
            end = play_out(world, move, random.Random(seed))
            game[i] += end_value(end, seat)
            winners = end.round_winners
            if seat in winners:
                won[i] += 1.0 / len(winners)
    n = max(rollouts, 1)
    return [MoveValue(m, rollouts, g / n, w / n) for m, g, w in zip(moves, game, won, strict=True)]


def verdict(drop: float) -> str | None:
    """ "blunder", "mistake", "inaccuracy" for a drop of the game's chance at or over its threshold, else None."""
    for name, threshold in (("blunder", BLUNDER), ("mistake", MISTAKE), ("inaccuracy", INACCURACY)):
        if drop >= threshold - 1e-12:
            return name
    return None


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of a logged game: the state before it (after `at` events), who decides, the move they made."""

    at: int
    state: GameState
    seat: int
    played: PlayerCommand


def decisions(events: Sequence[Event] | Sequence[Entry]) -> Iterator[Decision]:
    """Every player's decision of a game, in order: a card played, or the cards a Chancellor kept and returned."""
    s = INITIAL.thaw()
    for at, item in enumerate(events):
        event = item.event if isinstance(item, Entry) else item
        command = command_of(event)
        deciding = s.phase in (PHASE_PLAY, PHASE_CHANCELLOR)
        if isinstance(command, (PlayCard, ReturnCards)) and deciding and command.player == s.active:
            yield Decision(at, s.thaw().freeze(), command.player, command)  # a copy: `s` folds on
        apply(s, event)
