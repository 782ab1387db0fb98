"""Benchmark: complete simulated games between random bots (legal moves + decide + evolve, no I/O).

    .venv/bin/python bench/games.py [--games 2000] [--repeat 3]

Each configuration plays `--games` games through `play.simulate.simulate` (the same loop as
`loveletter simulate`), best of `--repeat` runs, on one core. Also prints the cost of one `decide`
for a legal player command and for a refused one.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.catalogue import Event
from loveletter.core.commands import PlayCard
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.rules import RuleViolation
from loveletter.core.state import GameState
from loveletter.play.bots import get_bot
from loveletter.play.simulate import Config, play_game, root_key, simulate

CONFIGS = [("2019", 2), ("2019", 4), ("2019", 6), ("2012", 2), ("2012", 4)]


def games_per_second(ruleset: str, players: int, games: int, repeat: int) -> tuple[float, float, float, float]:
    """(best games/s by the wall clock, best by this process's CPU time, rounds and turns per game)."""
    best = best_cpu = 0.0
    stats = None
    for _ in range(repeat):
        cpu = time.process_time()
        stats = simulate(Config(ruleset, players, games, 1, ("random",) * players))
        cpu = time.process_time() - cpu
        best = max(best, stats.games / stats.seconds)
        best_cpu = max(best_cpu, stats.games / cpu)
    assert stats is not None
    return best, best_cpu, stats.rounds / stats.games, stats.turns / stats.games


def decide_costs(games: int = 200) -> tuple[float, float, int]:
    """Mean µs of `decide` per player command, legal (as played) and refused (wrong seat)."""
    pairs: list[tuple[GameState, PlayCard]] = []
    for game in range(games):
        record: list[Event] = []
        play_game("2019", [get_bot("random")] * 4, root_key(7), game, record=record)
        state = fold(record[:3])
        for i, e in enumerate(record[3:], start=3):
            if type(e).__name__ == "CardPlayed":
                state = fold(record[:i])
                pairs.append((state, PlayCard(e.player, e.card, e.target, e.guess)))  # type: ignore[union-attr]
            if len(pairs) >= 20000:
                break
    start = time.perf_counter()
    for state, cmd in pairs:
        decide(state, cmd)
    legal = (time.perf_counter() - start) / len(pairs) * 1e6
    refused = 0
    start = time.perf_counter()
    for state, cmd in pairs:
        wrong = PlayCard((cmd.player + 1) % 4, cmd.card, cmd.target, cmd.guess)
        try:
            decide(state, wrong)
        except RuleViolation:
            refused += 1
    bad = (time.perf_counter() - start) / len(pairs) * 1e6
    return legal, bad, len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for ruleset, players in CONFIGS:
        rate, cpu, rounds, turns = games_per_second(ruleset, players, args.games, args.repeat)
        print(
            f"games: {ruleset} {players} players, random bots: {rate:,.0f} games/s ({cpu:,.0f} by CPU time; "
            f"{rounds:.2f} rounds, {turns:.1f} turns per game; best of {args.repeat} x {args.games:,} games)"
        )
    legal, refused, n = decide_costs()
    print(f"decide: {legal:.2f} µs per legal player command, {refused:.2f} µs per refused one ({n:,} commands)")


if __name__ == "__main__":
    main()
