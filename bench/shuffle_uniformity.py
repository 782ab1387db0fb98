"""Is the shuffle uniform? Chi-square tests over many decks shuffled by `core.chance.SeedStream`.

    .venv/bin/python bench/shuffle_uniformity.py --decks 1000000 --jobs 4

Each deck is the 21-card 2019 deck in card-id order (`Ruleset.deck`), shuffled from its own independent 256-bit seed
(`secrets.token_bytes(32)`) exactly as a round is dealt. Two tests:

- card kind by position: a 21 × 10 table of how often each kind lands at each position, against the expected
  N · copies / 21. Both margins are fixed (every position holds one card per deck, every kind has its copies), so the
  Pearson statistic has (21 - 1) · (10 - 1) = 180 degrees of freedom;
- the order of the cards: which two cards (by identity, not kind) lie on top of the deck, in order, and which two lie
  at its bottom. A uniform shuffle makes each of the 21 · 20 = 420 ordered pairs equally likely, one pair per deck
  and table, so each table is a plain goodness-of-fit test with 419 degrees of freedom. The position test cannot
  see an ordering bias — a fixed order, rotated by a random amount, puts every kind at every position equally
  often — but this one can;
- the random first player: right after each shuffle, from the same stream, `below(m)` for m cycling over 2…6 (as a
  deal draws among m candidates); one table per m, m - 1 degrees of freedom.

The p-value is P(χ²_df ≥ statistic) = Q(df/2, statistic/2), the regularized upper incomplete gamma function,
computed here without scipy (series for x < a + 1, Lentz's continued fraction otherwise, as in Numerical Recipes
§6.2); the Wilson–Hilferty normal approximation is printed beside it as a cross-check.
"""

from __future__ import annotations

import argparse
import math
import os
import secrets
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from loveletter.core.cards import Card
from loveletter.core.chance import SeedStream
from loveletter.core.rulesets import RULESETS

DECK = RULESETS["2019"].deck
KINDS = [card for card in Card if card in DECK]
KIND_OF = [KINDS.index(card) for card in DECK]  # deck position (card-id order) -> kind index
CANDIDATES = (2, 3, 4, 5, 6)


Counts = tuple[list[list[int]], dict[int, list[int]], list[int], list[int]]


def count(decks: int, shuffle: Callable[[SeedStream, list[int]], list[int]] | None = None) -> Counts:
    """Shuffle `decks` decks of card indices: counts[position][kind], first-player draws by candidate count, and
    the ordered pairs of cards on top and at the bottom (index first * 21 + second). `shuffle` replaces the real
    shuffle, for the tests that check a biased one is caught."""
    size = len(DECK)
    counts = [[0] * len(KINDS) for _ in range(size)]
    firsts = {m: [0] * m for m in CANDIDATES}
    top, bottom = [0] * size * size, [0] * size * size
    indices = list(range(size))
    for n in range(decks):
        stream = SeedStream(secrets.token_bytes(32))
        order = stream.shuffled(indices) if shuffle is None else shuffle(stream, indices)
        for position, index in enumerate(order):
            counts[position][KIND_OF[index]] += 1
        top[order[0] * size + order[1]] += 1
        bottom[order[-2] * size + order[-1]] += 1
        m = CANDIDATES[n % len(CANDIDATES)]
        firsts[m][stream.below(m)] += 1
    return counts, firsts, top, bottom


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a)."""
    if x <= 0:
        return 1.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P(a, x)
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_prefix))
    tiny = 1e-300  # continued fraction for Q(a, x) (modified Lentz)
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return math.exp(log_prefix) * h


def p_value(statistic: float, df: int) -> float:
    return gamma_q(df / 2, statistic / 2)


def wilson_hilferty(statistic: float, df: int) -> float:
    """P(χ²_df ≥ statistic) by the Wilson–Hilferty cube-root normal approximation."""
    z = ((statistic / df) ** (1 / 3) - (1 - 2 / (9 * df))) / math.sqrt(2 / (9 * df))
    return 0.5 * math.erfc(z / math.sqrt(2))


def chi_square_positions(counts: list[list[int]], decks: int) -> tuple[float, int]:
    copies = [sum(1 for k in KIND_OF if k == kind) for kind in range(len(KINDS))]
    size = len(DECK)
    statistic = 0.0
    for row in counts:
        for kind, observed in enumerate(row):
            expected = decks * copies[kind] / size
            statistic += (observed - expected) ** 2 / expected
    return statistic, (size - 1) * (len(KINDS) - 1)


def chi_square_pairs(pairs: list[int]) -> tuple[float, int]:
    """Goodness of fit of ordered pairs of distinct cards (the 420 cells with first != second) to uniform."""
    size = len(DECK)
    cells = [pairs[a * size + b] for a in range(size) for b in range(size) if a != b]
    assert sum(pairs) == sum(cells), "a card cannot follow itself"
    return chi_square_uniform(cells)


def chi_square_uniform(observed: list[int]) -> tuple[float, int]:
    total = sum(observed)
    expected = total / len(observed)
    return sum((o - expected) ** 2 / expected for o in observed), len(observed) - 1


def run(decks: int, jobs: int) -> dict[str, tuple[float, int, float]]:
    """Shuffle `decks` decks over `jobs` processes; {test name: (statistic, df, p-value)}."""
    shares = [decks // jobs + (1 if i < decks % jobs else 0) for i in range(jobs)]
    counts = [[0] * len(KINDS) for _ in DECK]
    firsts = {m: [0] * m for m in CANDIDATES}
    top, bottom = [0] * len(DECK) ** 2, [0] * len(DECK) ** 2
    if jobs == 1:
        parts = [count(decks)]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(count, [s for s in shares if s]))
    for part_counts, part_firsts, part_top, part_bottom in parts:
        top = [a + b for a, b in zip(top, part_top, strict=True)]
        bottom = [a + b for a, b in zip(bottom, part_bottom, strict=True)]
        for row, part_row in zip(counts, part_counts, strict=True):
            for kind, value in enumerate(part_row):
                row[kind] += value
        for m, values in part_firsts.items():
            firsts[m] = [a + b for a, b in zip(firsts[m], values, strict=True)]
    results: dict[str, tuple[float, int, float]] = {}
    statistic, df = chi_square_positions(counts, decks)
    results["card kind by position"] = (statistic, df, p_value(statistic, df))
    for name, pairs in (("ordered pair on top", top), ("ordered pair at bottom", bottom)):
        statistic, df = chi_square_pairs(pairs)
        results[name] = (statistic, df, p_value(statistic, df))
    for m in CANDIDATES:
        statistic, df = chi_square_uniform(firsts[m])
        results[f"first player among {m}"] = (statistic, df, p_value(statistic, df))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1_000_000, help="how many decks to shuffle")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes")
    args = parser.parse_args()
    started = time.perf_counter()
    results = run(args.decks, max(1, args.jobs))
    elapsed = time.perf_counter() - started
    print(f"{args.decks:,} decks of the 2019 deck ({len(DECK)} cards), {args.jobs} processes, {elapsed:.1f} s")
    print(f"{'test':<26} {'chi-square':>12} {'df':>4} {'p-value':>10} {'p (Wilson-Hilferty)':>20}")
    for name, (statistic, df, p) in results.items():
        print(f"{name:<26} {statistic:>12.2f} {df:>4} {p:>10.4f} {wilson_hilferty(statistic, df):>20.4f}")


if __name__ == "__main__":
    main()
