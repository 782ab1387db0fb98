"""The dense action space: core's action codes (`loveletter.core.legal`) numbered 0…A-1 for one ruleset and table.

Plays come first: every play of a card of the ruleset with no target, and of a card that chooses a player with
each seat as target (the Guard with each of the nine cards it may name), in increasing code order. That is a
superset of what `legal_codes` can answer for a play (it builds its codes from the same parts), so every legal
play has its own index.

Then, when the ruleset has the Chancellor, its returns, two indices per card kind: keep that kind and put the rest
of the hand under the deck in ascending card order (by `CARD_ORDER`: the earlier kind on top), or in descending
order. Which cards are "the rest" is the hand's business, so a return's command is read from the hand when it is
played; a learner sees 2 × kinds cells instead of the thousand-odd codes core numbers returns with. With a single
card to return, or two of the same kind, only the ascending index is legal: both orders would be one move.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from loveletter.core.cards import CARD_INDEX, TARGETS_ANY, TARGETS_OTHER, Card
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.legal import RETURN_BASE, action_code, from_action_code
from loveletter.core.rulesets import Ruleset

GUESSES: tuple[Card, ...] = tuple(c for c in Card if c is not Card.GUARD)
"""What a Guard may name under either `guard_unknown` option (`miss` allows cards the ruleset lacks)."""


def _plays(ruleset: Ruleset, players: int) -> list[PlayerCommand]:
    moves: list[PlayerCommand] = []
    for card in ruleset.cards:
        moves.append(PlayCard(0, card))  # also a targeting card's play when nobody may be chosen
        if card in TARGETS_OTHER or card in TARGETS_ANY:
            for target in range(players):
                if card is Card.GUARD:
                    moves.extend(PlayCard(0, card, target, guess) for guess in GUESSES)
                else:
                    moves.append(PlayCard(0, card, target))
    return moves


def descending(bottom: tuple[Card, ...]) -> bool:
    """Whether two returned cards go under the deck with the later kind of `CARD_ORDER` on top."""
    return len(bottom) == 2 and CARD_INDEX[bottom[0]] > CARD_INDEX[bottom[1]]


class ActionTable:
    """Dense index <-> core command, for one ruleset and table size."""

    def __init__(self, ruleset: Ruleset, players: int) -> None:
        self.play_codes: tuple[int, ...] = tuple(sorted({action_code(m) for m in _plays(ruleset, players)}))
        self.keeps: tuple[Card, ...] = ruleset.cards if ruleset.has(Card.CHANCELLOR) else ()
        self.size = len(self.play_codes) + 2 * len(self.keeps)
        self._play_index = {code: i for i, code in enumerate(self.play_codes)}
        self._keep_index = {card: len(self.play_codes) + 2 * i for i, card in enumerate(self.keeps)}
        self._masks: dict[tuple[int, ...], npt.NDArray[np.int8]] = {}
        self.plays: tuple[tuple[PlayerCommand, ...], ...] = tuple(
            tuple(from_action_code(code, seat) for code in self.play_codes) for seat in range(players)
        )
        """`plays[seat][index]`: the play command of a play index (the environment's fast path)."""

    def index(self, command: PlayerCommand) -> int:
        """The dense index of a command (of any seat)."""
        if isinstance(command, PlayCard):
            return self._play_index[action_code(command)]
        return self._keep_index[command.keep] + descending(command.bottom)

    def index_of_code(self, code: int) -> int:
        """The dense index of a core action code."""
        if code < RETURN_BASE:
            return self._play_index[code]
        return self.index(from_action_code(code, 0))

    def is_return(self, index: int) -> bool:
        return index >= len(self.play_codes)

    def is_descending(self, index: int) -> bool:
        """Whether a return index asks for the descending order."""
        return (index - len(self.play_codes)) % 2 == 1

    def command(self, index: int, seat: int, hand: tuple[Card, ...]) -> PlayerCommand:
        """The command dense action `index` stands for, played by `seat` holding `hand`; `ValueError` outside the
        table. A return keeps its card and puts the rest of `hand` under the deck in the index's order."""
        if not 0 <= index < self.size:
            raise ValueError(f"action {index} is outside 0…{self.size - 1}")
        plays = len(self.play_codes)
        if index < plays:
            return self.plays[seat][index]
        keep = self.keeps[(index - plays) // 2]
        rest = list(hand)
        if keep in rest:
            rest.remove(keep)
        rest.sort(key=CARD_INDEX.__getitem__, reverse=bool((index - plays) % 2))
        return ReturnCards(seat, keep, tuple(rest))

    def mask(self, legal: tuple[int, ...]) -> npt.NDArray[np.int8]:
        """A 0/1 vector with a 1 at each legal code's index. It is remembered per tuple of legal codes and shared,
        so it is read-only: copy it to change it."""
        found = self._masks.get(legal)
        if found is None:
            found = np.zeros(self.size, dtype=np.int8)
            found[[self.index_of_code(code) for code in legal]] = 1
            found.flags.writeable = False
            if len(self._masks) >= 1 << 14:
                self._masks.clear()
            self._masks[legal] = found
        return found

    def indices(self, legal: tuple[int, ...]) -> list[int]:
        """The dense indices of `legal` codes, in the same order."""
        return [self.index_of_code(code) for code in legal]
