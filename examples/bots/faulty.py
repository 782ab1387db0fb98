"""Bots that misbehave on purpose, to see a tournament over HTTP cope: the turn clock plays (or resigns) for them,
and the report counts what each did.

    loveletter tournament --bots heuristic,examples.bots.faulty:Crash,examples.bots.faulty:Hang --serve --turn-seconds 1
"""

import time

from loveletter.client import Game, LegalMove

HANDMAID = 352  # the action code of playing the Handmaid (docs/bots.md)
GUARD_ALONE = 88  # the Guard played with nobody to choose


class Crash:
    """Plays the first legal move twice, then raises: its process ends with the game still going."""

    def __init__(self) -> None:
        self.moves = 0

    def choose(self, game: Game) -> LegalMove:
        self.moves += 1
        if self.moves > 2:
            raise RuntimeError("this bot crashes on its third move")
        return game.legal_moves[0]


class Hang:
    """Never answers: its clock runs out at every decision."""

    def choose(self, game: Game) -> LegalMove:
        time.sleep(3600)
        return game.legal_moves[0]


def illegal(game: Game) -> int:
    """Plays a card it does not hold (the referee refuses it, naming the rule)."""
    return GUARD_ALONE if "handmaid" in game.view.hand else HANDMAID
