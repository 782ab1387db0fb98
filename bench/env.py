"""Benchmark: the PettingZoo environment's random-policy rollouts beside the raw engine's, in the same run.

    .venv/bin/python bench/env.py [--games 300] [--repeat 3] [--configs 2019:2,2019:4,2019:6,2012:4]

For each ruleset and table size, two loops play `--games` whole games with a uniformly random policy, best of
`--repeat` runs, on one core:

- engine: what `loveletter simulate` does for one decision: `legal_move_tuple`, a random pick, `decide`, then
  `apply_all` on the game's one transient state; chance moves by `core.chance.chance_move` (the deals, the seed
  revealed at the end). No view.
- environment: the PettingZoo loop `for agent in env.agent_iter(): obs, ... = env.last(); env.step(action)`, the
  action drawn uniformly from the mask's ones (`np.flatnonzero`). Each step builds the seat's view, encodes it,
  builds the mask, maps the dense action to a command, then does the engine's work. Steps after the game's end
  (one per agent, `step(None)`) are counted as steps but not as decisions.

The overhead is the environment's time per decision over the engine's (the issue's budget: at most 4×).

CPU time on a shared machine moves with the other jobs; instructions do not. `--loop engine|env|none` runs one loop
once (none: only the imports), to be counted by valgrind (docs/performance.md has the commands):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/env.py --loop env --games 40 \
        --configs 2019:6
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.chance import chance_move, commitment
from loveletter.core.commands import Command, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.legal import legal_move_tuple
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_PLAY
from loveletter.env import raw_env


def engine_games(ruleset: str, players: int, games: int, seed: int) -> tuple[float, int]:
    """(seconds, decisions) for `games` random games on core alone."""
    rng = random.Random(seed)
    names = tuple(f"player_{i}" for i in range(players))
    decisions = 0
    start = time.process_time()
    for game in range(games):
        server_seed = random.Random(seed * 1_000_003 + game).randbytes(32)
        state = INITIAL.thaw()
        command: Command = StartGame(ruleset, names, {}, seed_commitment=commitment(server_seed))
        while True:
            apply_all(state, decide(state, command))
            phase = state.phase
            if phase in (PHASE_PLAY, PHASE_CHANCELLOR):
                moves = legal_move_tuple(state, state.active)
                command = moves[int(rng.random() * len(moves))]
                decisions += 1
            else:
                chance = chance_move(state, server_seed)  # the next deal, the seed revealed, or None: the end
                if chance is None:
                    break
                command = chance
    return time.process_time() - start, decisions


def env_games(ruleset: str, players: int, games: int, seed: int) -> tuple[float, int, int]:
    """(seconds, steps, decisions) for `games` random games through the environment."""
    rng = random.Random(seed)
    env = raw_env(ruleset=ruleset, players=players)
    steps = decisions = 0
    start = time.process_time()
    env.reset(seed=seed)
    for game in range(games):
        if game:
            env.reset()
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                legal = observation["action_mask"].nonzero()[0]
                env.step(int(legal[int(rng.random() * len(legal))]))
                decisions += 1
            steps += 1
    return time.process_time() - start, steps, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--configs", default="2019:2,2019:4,2019:6,2012:4")
    parser.add_argument(
        "--loop",
        choices=("engine", "env", "none"),
        help="run one loop once and print its decisions (for an instruction count under valgrind; none: imports only)",
    )
    args = parser.parse_args()
    for config in args.configs.split(","):
        ruleset, players = config.rsplit(":", 1)
        n = int(players)
        if args.loop:
            made = (
                engine_games(ruleset, n, args.games, 7)[1]
                if args.loop == "engine"
                else env_games(ruleset, n, args.games, 7)[2]
                if args.loop == "env"
                else 0
            )
            print(f"{args.loop}: {ruleset} {n} players, {args.games:,} games, {made:,} decisions")
            continue
        runs = [
            (engine_games(ruleset, n, args.games, 7), env_games(ruleset, n, args.games, 7)) for _ in range(args.repeat)
        ]
        engine = min(run[0] for run in runs)  # in turn, so that a busy moment of the machine hits both
        env = min(run[1] for run in runs)
        engine_us = engine[0] / engine[1] * 1e6
        env_us = env[0] / env[2] * 1e6
        print(
            f"env: {ruleset} {n} players, random policy: {env[1] / env[0]:,.0f} steps/s, {env[2] / env[0]:,.0f} "
            f"decisions/s ({env_us:.1f} µs per decision); engine: {engine[1] / engine[0]:,.0f} decisions/s "
            f"({engine_us:.1f} µs); overhead {env_us / engine_us:.2f}x the engine "
            f"(best of {args.repeat} x {args.games:,} games)"
        )


if __name__ == "__main__":
    main()
