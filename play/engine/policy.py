"""The `expert` bot: a policy like the built-in ones (`choose(view, moves, rng)`), thinking by determinized search.

It reads the seat's `View` only, so it plays from what the seat knows, wherever a built-in bot plays (simulations,
tournaments, the referee's bot seats, `loveletter bot run expert`). Randomness comes from the `rng` it is given and
nothing else: the same view, moves and seed give the same move. The built-in spends a fixed number of rollouts
(`search.default_budget`: 200 a decision for each other seat); `expert_policy(Budget(seconds=0.1))` makes one that
thinks for a time instead.

Before the search, two kinds of move are left out when another remains, so that the budget is spent on real
choices: discarding the Princess (playing her, or a Prince on oneself while holding her), which puts the seat out
of the round at once; and Guard guesses that cannot hit (a card the seat has seen every copy of, or not the hand it
knows the target holds) when a guess that can hit the same target remains. Then the others' plays are read
(`belief`): their hidden hands are dealt by how well each card explains what they played, and a Guard names only the
card its target most likely holds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, PlayerCommand
from loveletter.core.rulesets import get_ruleset
from loveletter.core.views import View
from loveletter.play.engine.belief import can_hit, hand_odds, leanings
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.search import Budget, Estimate, default_budget, search
from loveletter.play.policies import Policy, choose_heuristic


def candidates(view: View, moves: Sequence[PlayerCommand]) -> list[PlayerCommand]:
    """The moves worth searching: all of them, less the Princess's discards when another move remains, and less the
    Guard guesses that cannot hit when one that can remains against the same target."""
    kept = [m for m in moves if not _discards_princess(view, m)]
    return _hopeful_guesses(view, kept) if kept else list(moves)


def _discards_princess(view: View, move: PlayerCommand) -> bool:
    if not isinstance(move, PlayCard):
        return False
    return move.card is Card.PRINCESS or (
        move.card is Card.PRINCE and move.target == view.seat and Card.PRINCESS in view.hand
    )


def _hopeful_guesses(view: View, moves: Sequence[PlayerCommand]) -> list[PlayerCommand]:
    out: list[PlayerCommand] = []
    hopeless: dict[int, PlayerCommand] = {}
    hopeful: set[int] = set()
    for move in moves:
        if not (isinstance(move, PlayCard) and move.card is Card.GUARD and move.target is not None):
            out.append(move)
            continue
        if move.guess is not None and can_hit(view, move.target, move.guess):
            hopeful.add(move.target)
            out.append(move)
        else:
            hopeless.setdefault(move.target, move)
    for target, move in hopeless.items():
        if target not in hopeful:
            out.append(move)
    return out


def likeliest_guesses(
    view: View, moves: Sequence[PlayerCommand], leaning: dict[int, dict[Card, float]]
) -> list[PlayerCommand]:
    """Against each target, only the Guard guess of the card it most likely holds (`belief.hand_odds`, with the
    target's leaning if it has one; a tie to the higher card): in the model a Guard's other guesses at the same
    target do no better, so the budget goes to the choices that differ."""
    guards: dict[int, list[PlayCard]] = {}
    for m in moves:
        if isinstance(m, PlayCard) and m.card is Card.GUARD and m.target is not None:
            guards.setdefault(m.target, []).append(m)
    if not any(len(g) > 1 for g in guards.values()):
        return list(moves)
    values = dict(get_ruleset(view.ruleset).values)
    best: set[PlayCard] = set()
    for target, guesses in guards.items():
        odds = hand_odds(view, target, leaning.get(target))
        best.add(max(guesses, key=lambda m: (round(odds.get(m.guess, 0.0), 9), values[m.guess])))  # type: ignore[arg-type,index]
    guessing = {m for g in guards.values() for m in g}
    return [m for m in moves if m in best or m not in guessing]


def analyse(
    view: View, moves: Sequence[PlayerCommand], rng: random.Random, budget: Budget, infer: bool = True
) -> list[Estimate]:
    """Every searched move with its estimated share of the game, best first (a single move is not searched). With
    `infer`, the others' hidden hands are dealt by what their plays say (`belief`) and a Guard names only the
    likeliest card at each target."""
    prior = choose_heuristic(view, moves, random.Random(rng.getrandbits(64)))
    searched = candidates(view, moves)
    if len(searched) == 1:
        return [Estimate(searched[0])]
    sampler = Sampler(view)
    if infer:
        odds = leanings(view, sampler.sample(random.Random(rng.getrandbits(64))))
        sampler = sampler.leaning(odds)
        searched = likeliest_guesses(view, searched, odds)
        if len(searched) == 1:
            return [Estimate(searched[0])]
    return search(sampler, searched, random.Random(rng.getrandbits(64)), budget, prior)


def expert_policy(budget: Budget, infer: bool = True) -> Policy:
    """The expert with a budget of its own (benchmarks, the thinking-time curve)."""

    def choose(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
        if len(moves) == 1:
            return moves[0]
        return analyse(view, moves, rng, budget, infer)[0].move

    choose.__doc__ = f"The expert's move with {budget}."
    return choose


def choose_expert(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """The built-in expert: `search.default_budget` for the table's size (200 rollouts a decision at two players,
    600 at four), the budget `play.bots.seat_bot` writes in the log of a game it plays."""
    if len(moves) == 1:
        return moves[0]
    return analyse(view, moves, rng, default_budget(len(view.seats)))[0].move
