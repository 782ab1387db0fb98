"""Benchmark: how many rollouts a second the expert's search plays, at two and four players (issue 36).

    python bench/rollouts.py [--positions 40] [--iterations 400] [--repeat 3] [--seed 1] [--players 2 4]

The positions are the decisions of seeded heuristic games of 2019 (every `--every`-th decision with more than one
legal move, the first `--positions` of them); each is searched with `--iterations` rollouts (`play.engine.search`,
the world sampler of the deciding seat, no reading of the others' plays), and the CPU time of this process spent in
the searches alone is divided into the rollouts they played. The best of `--repeat` passes is printed, for each
table size. The same positions and seeds every run: two trees compared by running this script from each
(docs/performance.md, "The expert's rollouts").
"""

from __future__ import annotations

import argparse
import hashlib
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.chance import deal
from loveletter.core.commands import StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_DEAL, PHASE_PLAY, GameState
from loveletter.core.views import View, view
from loveletter.play.engine import search as engine_search
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.search import Budget, search
from loveletter.play.policies import choose_heuristic


def positions(players: int, count: int, every: int, seed: int) -> list[tuple[View, list[object]]]:
    """`count` decisions (a seat's view and its legal moves) of heuristic games of 2019 at `players` seats."""
    rng = random.Random(seed)
    found: list[tuple[View, list[object]]] = []
    game = 0
    while len(found) < count:
        game += 1
        s: GameState = INITIAL.thaw()
        apply_all(s, decide(s, StartGame("2019", tuple(f"P{i}" for i in range(players)), {}, first_player=0)))
        decisions = 0
        while len(found) < count:
            if s.phase == PHASE_DEAL:
                key = b"rollouts/%d/%d/%d" % (seed, game, s.round)
                apply_all(s, decide(s, deal(s, hashlib.sha256(key).digest())))
                continue
            if s.phase not in (PHASE_PLAY, PHASE_CHANCELLOR):
                break
            seat = s.active
            moves = legal_moves(s, seat)
            seen = view(s, seat)
            if len(moves) > 1:
                decisions += 1
                if decisions % every == 0:
                    found.append((seen, list(moves)))
            apply_all(s, decide(s, choose_heuristic(seen, moves, rng)))
    return found


PLAYED = [0]
"""Rollouts played to the round's end so far (`_count_played`)."""


def _count_played() -> bool:
    """Count the rollouts played to the round's end: a tree whose search shares one rollout among the candidates that
    reach the same state in a world plays fewer than it counts. False for a tree that plays every one."""
    finish = getattr(engine_search, "_finish", None)
    if finish is None:
        return False

    def counted(s: object, rng: object) -> object:
        PLAYED[0] += 1
        return finish(s, rng)

    engine_search._finish = counted
    return True


COUNTING = _count_played()


def search_one(found: list[tuple[View, list[object]]], i: int, iterations: int, seed: int) -> tuple[int, float, int]:
    """Rollouts counted, CPU seconds spent searching position `i` once, and rollouts played to the round's end."""
    seen, moves = found[i]
    sampler = Sampler(seen)
    rng = random.Random(seed * 1000 + i)
    before = PLAYED[0]
    start = time.process_time()
    estimates = search(sampler, moves, rng, Budget(iterations=iterations), moves[0])  # type: ignore[arg-type]
    seconds = time.process_time() - start
    n = sum(e.n for e in estimates)
    return n, seconds, PLAYED[0] - before if COUNTING else n


def forget() -> None:
    """Forget the situations the engine has judged (a tree without that memory has nothing to forget)."""
    getattr(engine_search, "forget", lambda: None)()


def measure(found: list[tuple[View, list[object]]], iterations: int, seed: int) -> tuple[int, float, int]:
    """Rollouts counted, CPU seconds spent searching every position once (in the order of the games, the engine's
    memory of judged situations emptied first, for a tree that kept it from one search to the next), rollouts
    played."""
    forget()
    rollouts, seconds, played = 0, 0.0, 0
    for i in range(len(found)):
        n, t, p = search_one(found, i, iterations, seed)
        rollouts, seconds, played = rollouts + n, seconds + t, played + p
    return rollouts, seconds, played


def _line(n: int, t: float, played: int) -> str:
    shared = f" ({n - played:,} shared with another candidate)" if played != n else ""
    return f"{n:,} rollouts{shared} in {t:.2f} s of CPU: {n / t:,.0f}/s"


def worker(args: argparse.Namespace) -> None:
    """Answer "PLAYERS I" lines with "ROLLOUTS SECONDS" (I = -1 forgets): the other side of `--against`."""
    tables: dict[int, list[tuple[View, list[object]]]] = {}
    for line in sys.stdin:
        players, i = map(int, line.split())
        found = tables.get(players)
        if found is None:
            found = tables[players] = positions(players, args.positions, args.every, args.seed)
        if i < 0:
            forget()
            print("0 0 0", flush=True)
            continue
        n, t, played = search_one(found, i, args.iterations, args.seed)
        print(n, t, played, flush=True)


def against(args: argparse.Namespace) -> None:
    """This tree and the tree at `--against`, position by position in turn, so that both meet the same load."""
    here = Path(__file__).resolve()
    options = [f"--{k}={getattr(args, k)}" for k in ("positions", "iterations", "every", "seed")]
    scripts = {"before": Path(args.against) / "bench" / here.name, "after": here}
    sides = {
        side: subprocess.Popen(
            [sys.executable, str(script), "--worker", *options],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for side, script in scripts.items()
    }

    def ask(side: str, players: int, i: int) -> tuple[int, float, int]:
        proc = sides[side]
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(f"{players} {i}\n")
        proc.stdin.flush()
        n, t, played = proc.stdout.readline().split()
        return int(n), float(t), int(played)

    for players in args.players:
        best = dict.fromkeys(sides, 0.0)
        for r in range(args.repeat):
            totals = {side: (0, 0.0, 0) for side in sides}
            for side in sides:
                ask(side, players, -1)
            for i in range(args.positions):
                for side in sides if i % 2 == 0 else reversed(list(sides)):
                    n, t, played = ask(side, players, i)
                    before_n, before_t, before_played = totals[side]
                    totals[side] = (before_n + n, before_t + t, before_played + played)
            for side, (n, t, played) in totals.items():
                best[side] = max(best[side], n / t)
                print(f"  {players} players, pass {r + 1}, {side}: {_line(n, t, played)}")
        ratio = best["after"] / best["before"]
        print(
            f"{players} players: before {best['before']:,.0f}, after {best['after']:,.0f} rollouts/s: x{ratio:.2f} "
            f"(best of {args.repeat} passes, {args.positions} positions)"
        )
    for proc in sides.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4], help="the table sizes measured")
    parser.add_argument("--against", help="another checkout: measure both, position by position in turn")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    if args.against:
        against(args)
        return
    for players in args.players:
        found = positions(players, args.positions, args.every, args.seed)
        best = 0.0
        for r in range(args.repeat):
            rollouts, seconds, played = measure(found, args.iterations, args.seed)
            best = max(best, rollouts / seconds)
            print(f"  {players} players, pass {r + 1}: {_line(rollouts, seconds, played)}")
        print(f"{players} players: {best:,.0f} rollouts/s (best of {args.repeat} passes, {len(found)} positions)")


if __name__ == "__main__":
    main()
