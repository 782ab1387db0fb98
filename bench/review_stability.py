"""Benchmark: how often the review (`loveletter analyse`) gives a decision the same verdict under different seeds,
and how many decisions it marks (issue 36; docs/engine.md, "Reviewing a game").

    nice -n 10 .venv/bin/python bench/review_stability.py [--games 6] [--seats heuristic,heuristic]
        [--budget 200] [--seeds 0,1,2] [--seed 1] [--widen 8] [--z 2] [--show]

Seeded games of 2019 with the given bots in the seats (`play.simulate.play_game`); every decision with more than one
legal move is reviewed as `play.engine.analysis.entry` reviews it, once under each review seed. Three figures:
*at the budget* (every move in `--budget` worlds, as the review was before issue 36 widened it), with the game's mark
alone (the review's verdict then) and with every mark (the game's, the round's, the floor), and *settled* (the
worlds of the moves that may change the verdict doubled while it is in doubt at `--z` standard errors, up to
`--widen` times the budget: the review now, `review.Z` and `review.WIDEN` by default). A decision counts as stable
when every seed gives it the same verdict (no mark being one). Also printed: the share of decisions marked (under the
first seed, settled), the share of reviews still uncertain, the mean worlds the played move was tried in, and the
rollouts played against those of the budget alone. `--show` prints each decision whose settled verdicts differ.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.catalogue import Event
from loveletter.core.legal import action_code, legal_moves
from loveletter.core.views import view
from loveletter.play.bots import BOTS
from loveletter.play.engine import review
from loveletter.play.engine.analysis import dominated
from loveletter.play.engine.review import WIDEN, Trial, decisions, judge, settle
from loveletter.play.simulate import play_game, root_key


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seats", default="heuristic,heuristic", help="the bot of each seat, comma-separated")
    parser.add_argument("--budget", type=int, default=200)
    parser.add_argument("--seeds", default="0,1,2", help="the review seeds compared")
    parser.add_argument("--seed", type=int, default=1, help="the games' seed")
    parser.add_argument("--widen", type=int, default=WIDEN, help="the most worlds, in budgets (review.WIDEN)")
    parser.add_argument("--z", type=float, default=review.Z, help="standard errors of doubt (review.Z)")
    parser.add_argument("--show", action="store_true", help="print each decision whose settled verdicts differ")
    args = parser.parse_args()
    review.Z = args.z
    seats = args.seats.split(",")
    seeds = [int(s) for s in args.seeds.split(",")]
    key = root_key(args.seed)
    kinds = ("game mark at the budget", "all marks at the budget", "settled (the review now)")
    verdicts: dict[str, list[list[str | None]]] = {k: [] for k in kinds}
    worlds: list[int] = []
    cost = [0, 0]  # the rollouts played, and those of every move in the budget's worlds
    uncertain = 0
    differ = said_so = 0  # decisions whose settled verdicts differ; of them, those some review called uncertain
    marked: Counter[str] = Counter()
    start = time.process_time()
    for game in range(args.games):
        record: list[Event] = []
        play_game("2019", [BOTS[name] for name in seats], key, game, record=record)
        for d in decisions(record):
            moves = legal_moves(d.state, d.seat)
            if len(moves) < 2:
                continue
            played = next(i for i, m in enumerate(moves) if action_code(m) == action_code(d.played))
            seen = view(d.state, d.seat)
            floor = "inaccuracy" if dominated(seen, d.played, moves) else None
            rows: dict[str, list[str | None]] = {k: [] for k in kinds}
            said: list[str] = []
            doubt = False
            for n, seed in enumerate(seeds):
                trial = Trial(seen, moves, random.Random(f"{seed}/{d.at}")).more(args.budget)
                first = judge(trial, played, floor)
                rows[kinds[0]].append(first.game_verdict)
                rows[kinds[1]].append(first.verdict)
                settled = settle(trial, played, args.budget, floor, args.widen)
                rows[kinds[2]].append(settled.verdict)
                said.append(
                    f"{settled.verdict} by {settled.by}, game −{settled.drop:.3f} round −{settled.round_drop:.3f}, "
                    f"{settled.worlds} worlds{', uncertain' if settled.uncertain else ''}"
                )
                worlds.append(settled.worlds)
                cost[0] += sum(map(len, trial.game))
                cost[1] += len(moves) * args.budget
                uncertain += settled.uncertain
                doubt = doubt or settled.uncertain
                if n == 0:
                    marked[settled.verdict or "none"] += 1
                    marked[f"by {settled.by}"] += settled.verdict is not None
            for k in kinds:
                verdicts[k].append(rows[k])
            if len(set(rows[kinds[2]])) > 1:
                differ += 1
                said_so += doubt
            if args.show and len(set(rows[kinds[2]])) > 1:
                print(f"game {game}, after event {d.at}, {d.played}:", " | ".join(said))
    total = len(verdicts[kinds[0]])
    cpu = time.process_time() - start
    print(
        f"2019, {len(seats)} seats ({args.seats}), {args.games} games, seed {args.seed}: {total} decisions with a "
        f"choice, each reviewed under seeds {args.seeds} at {args.budget} worlds, up to {args.widen}× at z {args.z} "
        f"({cpu:.0f} s of CPU)"
    )
    for k in kinds:
        same = sum(len(set(row)) == 1 for row in verdicts[k])
        print(f"  same verdict under every seed, {k:26} {same}/{total} = {same / max(total, 1):.1%}")
    flagged = total - marked["none"]
    print(
        f"  marked (seed {seeds[0]}, settled): {flagged}/{total} = {flagged / max(total, 1):.1%} "
        f"(inaccuracy {marked['inaccuracy']}, mistake {marked['mistake']}, blunder {marked['blunder']}; "
        f"by the game {marked['by game']}, by the round {marked['by round']}, a guess that cannot hit "
        f"{marked['by floor']})"
    )
    mean = sum(worlds) / max(len(worlds), 1)
    print(
        f"  still uncertain: {uncertain}/{len(worlds)} = {uncertain / max(len(worlds), 1):.1%} of the reviews; "
        f"mean worlds of the played move {mean:.0f} ({mean / args.budget:.2f}× the budget); rollouts "
        f"{cost[0] / max(cost[1], 1):.2f}× those of the budget alone"
    )
    print(f"  of the {differ} decisions whose settled verdicts differ, {said_so} were called uncertain by a seed")


if __name__ == "__main__":
    main()
