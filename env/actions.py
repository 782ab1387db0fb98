"""The dense action space: every core action code a ruleset and a table size can ever produce, numbered 0…A-1.

Core's action codes (`loveletter.core.legal`) are stable but sparse: plays are 0–879 and a Chancellor's return is
1000 + keep * 121 + …, most of which no game can reach. A learner wants `Discrete(A)` with a mask, so the table
lists, in increasing code order:

- every play of a card of the ruleset: with no target, and with each seat as target (the Guard with each of the
  nine cards it may name, whatever the `guard_unknown` option: the two cards a 2012 game lacks stay masked);
- when the ruleset has the Chancellor, every return: the kept card, then no, one or two cards put back (top to
  bottom), all of them cards of the ruleset.

That is a superset of what `legal_codes` can answer (it builds its codes from the same parts), so every legal move
has an index; indices no position allows are simply never unmasked.
"""

from __future__ import annotations

from itertools import product

import numpy as np
import numpy.typing as npt

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.legal import action_code, from_action_code
from loveletter.core.rulesets import Ruleset

GUESSES: tuple[Card, ...] = tuple(c for c in Card if c is not Card.GUARD)
"""What a Guard may name under either `guard_unknown` option (`miss` allows cards the ruleset lacks)."""


def _plays(ruleset: Ruleset, players: int) -> list[PlayerCommand]:
    moves: list[PlayerCommand] = []
    for card in ruleset.cards:
        moves.append(PlayCard(0, card))
        for target in range(players):
            if card is Card.GUARD:
                moves.extend(PlayCard(0, card, target, guess) for guess in GUESSES)
            else:
                moves.append(PlayCard(0, card, target))
    return moves


def _returns(ruleset: Ruleset) -> list[PlayerCommand]:
    if not ruleset.has(Card.CHANCELLOR):
        return []
    cards = ruleset.cards
    bottoms: list[tuple[Card, ...]] = [(), *((c,) for c in cards), *product(cards, cards)]
    return [ReturnCards(0, keep, bottom) for keep in cards for bottom in bottoms]


class ActionTable:
    """Dense index <-> core action code, for one ruleset and table size."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        codes = sorted({action_code(m) for m in _plays(ruleset, players) + _returns(ruleset)})
        self.codes: tuple[int, ...] = tuple(codes)
        self.index: dict[int, int] = {code: i for i, code in enumerate(codes)}
        self.size = len(codes)
        self._masks: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
        self._commands: dict[int, list[PlayerCommand | None]] = {}  # seat -> command by index, made when first asked

    def command(self, index: int, seat: int) -> PlayerCommand:
        """The command dense action `index` stands for, played by `seat`; `ValueError` outside the table."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside 0…{self.size - 1}")
        made = self._commands.get(seat)
        if made is None:
            made = self._commands[seat] = [None] * self.size
        command = made[index]
        if command is None:
            command = made[index] = from_action_code(self.codes[index], seat)
        return command

    def mask(self, legal: tuple[int, ...]) -> npt.NDArray[np.int8]:
        """A fresh 0/1 vector with a 1 at each legal code's index (remembered per tuple of legal codes)."""
        found = self._masks.get(legal)
        if found is None:
            found = np.zeros(self.size, dtype=np.int8)
            found[[self.index[code] for code in legal]] = 1
            if len(self._masks) >= 1 << 14:
                self._masks.clear()
            self._masks[legal] = found
        return found.copy()

    def indices(self, legal: tuple[int, ...]) -> list[int]:
        """The dense indices of `legal` codes, in the same order."""
        return [self.index[code] for code in legal]
