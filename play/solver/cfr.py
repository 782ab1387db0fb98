"""CFR+ on a written tree: counterfactual regret minimization with regrets kept non-negative and a linear average.

Tammelin (2014) and Bowling, Burch, Johanson and Tammelin (2015, "Heads-up limit hold'em poker is solved"): each
iteration walks the whole tree once for each seat in turn (alternating updates). At a seat's information set the
current strategy is regret matching on the accumulated regrets; the walk returns each move's counterfactual value
(weighted by the chance and the other seat's probability of reaching the node), the regrets grow by each move's
advantage over the current strategy and are then floored at zero. The strategy that converges to an equilibrium is
the average of the current ones, weighted by the seat's own probability of reaching the set and by the iteration's
number. Everything is deterministic: the same tree and number of iterations give the same strategy, bit for bit.
"""

from __future__ import annotations

from loveletter.play.solver.tree import CHANCE, TERMINAL, Tree

Strategy = list[list[float]]
"""For each information set of a tree, in order, the probability of each of its moves."""


class CFRPlus:
    """The solver's state: the regrets and the weighted sums of the strategies played, per information set."""

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.iterations = 0
        self.regrets: Strategy = [[0.0] * len(s.moves) for s in tree.infosets]
        self.sums: Strategy = [[0.0] * len(s.moves) for s in tree.infosets]

    def current(self) -> Strategy:
        """Regret matching: each move in proportion to its positive regret (uniform when none is positive)."""
        return [_matched(r) for r in self.regrets]

    def average(self) -> Strategy:
        """The average strategy: the one whose exploitability goes to zero."""
        return [_normalised(s) for s in self.sums]

    def iterate(self, count: int = 1) -> None:
        for _ in range(count):
            self.iterations += 1
            for seat in (0, 1):
                self._update(seat)

    def _update(self, seat: int) -> None:
        tree = self.tree
        kind, children, probs, value, infoset = tree.kind, tree.children, tree.probs, tree.value, tree.infoset
        owner = [s.seat for s in tree.infosets]
        sigma = self.current()
        gained: dict[int, list[float]] = {}
        flip = seat == 1

        def walk(node: int, theirs: float) -> float:
            """The node's value to `seat`; `theirs` is the chance and the other seat's probability of reaching it
            (a subtree it cannot reach is not walked: it changes no regret)."""
            k = kind[node]
            if k == TERMINAL:
                return 1.0 - value[node] if flip else value[node]
            kids = children[node]
            if k == CHANCE:
                total = 0.0
                for child, p in zip(kids, probs[node], strict=True):
                    total += p * walk(child, theirs * p)
                return total
            number = infoset[node]
            s = sigma[number]
            if owner[number] != seat:
                total = 0.0
                for a, child in enumerate(kids):
                    if s[a] > 0.0:
                        total += s[a] * walk(child, theirs * s[a])
                return total
            values = [walk(child, theirs) for child in kids]
            here = sum(p * v for p, v in zip(s, values, strict=True))
            g = gained.get(number)
            if g is None:
                g = gained[number] = [0.0] * len(kids)
            for a, v in enumerate(values):
                g[a] += theirs * (v - here)
            return here

        walk(0, 1.0)
        for number, g in gained.items():
            r = self.regrets[number]
            for a, delta in enumerate(g):
                r[a] = max(r[a] + delta, 0.0)
        # The average: each set's strategy weighted by the seat's own probability of reaching it (the product of its
        # own earlier moves, the same at every node of the set) and by the iteration's number.
        weight = float(self.iterations)
        mine = [1.0] * len(tree.infosets)
        for number, info in enumerate(tree.infosets):  # an earlier decision of the seat has a smaller number
            if info.seat != seat:
                continue
            if info.after is not None:
                before, a = info.after
                mine[number] = mine[before] * sigma[before][a]
            reach = weight * mine[number]
            if reach > 0.0:
                acc = self.sums[number]
                for a, p in enumerate(sigma[number]):
                    acc[a] += reach * p


def _matched(regrets: list[float]) -> list[float]:
    total = sum(r for r in regrets if r > 0.0)
    if total <= 0.0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / total if r > 0.0 else 0.0 for r in regrets]


def _normalised(sums: list[float]) -> list[float]:
    total = sum(sums)
    if total <= 0.0:
        return [1.0 / len(sums)] * len(sums)
    return [s / total for s in sums]
