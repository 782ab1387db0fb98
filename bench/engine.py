"""Benchmark: how strong the `expert` bot is, on duplicate deals with the seats rotated (docs/engine.md).

    nice -n 10 .venv/bin/python bench/engine.py [--games 400] [--ms 100 | --iterations 200] [--seed 1]
        [--match two,four,random,quarter] [--uniform]

Each match is a tournament played in process by `play.tournament.play_in_process`: games come in deal sets, one
per rotation of the seats, every game of a set dealt from the same server seed (so each bot holds every hand of
the deal), the schedule's seeds derived from `--seed`. The expert thinks `--ms` milliseconds of this process's CPU
time a decision (or `--iterations` rollouts), whatever else the machine is doing. Matches:

- `two`: 2019, two players, expert against heuristic;
- `four`: 2019, four players, expert against three heuristic (25% is par);
- `random`: 2019, two players, expert against random;
- `quarter`: 2019, two players, expert against itself at a quarter of the budget.

For each: the expert's wins (a shared win counts), its rate with a 95% Wilson interval, its decisions per second of
CPU time (decisions with a single legal move are not searched, not counted) and its rollouts per decision.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.catalogue import Event
from loveletter.core.commands import PlayerCommand
from loveletter.core.views import View
from loveletter.play.bots import Bot, Policy, get_bot
from loveletter.play.engine.policy import analyse
from loveletter.play.engine.search import Budget
from loveletter.play.report import wilson
from loveletter.play.tournament import Config, Seating, play_in_process, tournament_key


@dataclass
class Thinking:
    """What one expert spent: searched decisions, their CPU seconds and rollouts."""

    decisions: int = 0
    seconds: float = 0.0
    rollouts: int = 0


def timed_expert(budget: Budget, thinking: Thinking, infer: bool = True) -> Policy:
    """The expert (as `play.engine.policy.expert_policy` makes it), counting what it spends."""

    def choose(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
        if len(moves) == 1:
            return moves[0]
        start = time.process_time()
        ranked = analyse(view, moves, rng, budget, infer)
        thinking.seconds += time.process_time() - start
        thinking.decisions += 1
        thinking.rollouts += sum(e.n for e in ranked)
        return ranked[0].move

    return choose


def match(
    name: str,
    players: int,
    opponents: str,
    budget: Budget,
    games: int,
    seed: int,
    progress: int = 0,
    infer: bool = True,
) -> None:
    """Play `games` games (rounded up to whole deal sets) of the expert (entrant 0) against `opponents` and print
    the figures (and a running count every `progress` games, if given)."""
    thinking = Thinking()
    entrants: list[Bot] = [Bot("expert", timed_expert(budget, thinking, infer))]
    if opponents == "quarter":
        quarter = Budget(max(1, budget.iterations // 4), None if budget.seconds is None else budget.seconds / 4)
        entrants.append(Bot("expert-quarter", timed_expert(quarter, Thinking(), infer)))
    else:
        entrants.append(get_bot(opponents))
    config = Config(tuple(e.name for e in entrants), players, "2019", games, seed)
    key = tournament_key(seed)
    lineup = (0,) + (1,) * (players - 1)
    sets = -(-games // players)
    wins = shared = opponent_wins = played = 0
    record: list[Event] = []
    start = time.perf_counter()
    for deal in range(sets):
        for turn in range(players):
            seats = tuple(lineup[(s - turn) % players] for s in range(players))
            record.clear()
            outcome = play_in_process(config, Seating(played, deal, seats), entrants, key, record)
            played += 1
            mine = seats.index(0)
            if mine in outcome.winners:
                wins += 1
                shared += len(outcome.winners) > 1
            opponent_wins += any(w != mine for w in outcome.winners)
        if progress and played % progress < players:
            print(f"  … {played} games: expert won {wins} ({wins / played:.1%})", flush=True)
    elapsed = time.perf_counter() - start
    low, high = wilson(wins, played)
    budget_text = f"{budget.seconds * 1000:g} ms CPU" if budget.seconds is not None else f"{budget.iterations} rollouts"
    worlds = "" if infer else ", uniform"
    print(
        f"{name}: 2019, {players} players, expert ({budget_text} a decision{worlds}) against {opponents}, seed {seed}"
    )
    print(
        f"  expert won {wins} of {played} games ({shared} shared): {wins / played:.1%}, "
        f"95% Wilson interval {low:.1%} to {high:.1%} (par {1 / players:.0%}); "
        f"the {'others' if players > 2 else 'opponent'} won {opponent_wins}"
    )
    per = thinking.decisions / thinking.seconds if thinking.seconds else 0.0
    print(
        f"  {thinking.decisions:,} searched decisions: {per:.1f} decisions/s of CPU, "
        f"{thinking.rollouts / max(1, thinking.decisions):.0f} rollouts a decision, "
        f"{thinking.rollouts / max(thinking.seconds, 1e-9):,.0f} rollouts/s; {elapsed:.0f} s wall",
        flush=True,
    )


MATCHES = {"two": (2, "heuristic"), "four": (4, "heuristic"), "random": (2, "random"), "quarter": (2, "quarter")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--ms", type=float, default=100.0, help="CPU milliseconds a decision")
    parser.add_argument("--iterations", type=int, help="rollouts a decision, instead of --ms (deterministic)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--match", default="two,four,random", help=f"some of {','.join(MATCHES)}")
    parser.add_argument("--progress", type=int, default=0, help="print a running count every N games")
    parser.add_argument(
        "--uniform", action="store_true", help="the expert without inference (uniform worlds, every Guard guess)"
    )
    args = parser.parse_args()
    budget = Budget(iterations=args.iterations) if args.iterations else Budget(seconds=args.ms / 1000)
    for name in args.match.split(","):
        players, opponents = MATCHES[name]
        match(name, players, opponents, budget, args.games, args.seed, args.progress, not args.uniform)


if __name__ == "__main__":
    main()
