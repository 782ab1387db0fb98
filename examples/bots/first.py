"""The smallest bot that plays a whole game: it plays the first legal move the referee lists.

loveletter bot run examples.bots.first:choose --server http://127.0.0.1:8000 --join-open --name First
"""

from loveletter.client import Game, LegalMove


def choose(game: Game) -> LegalMove:
    return game.legal_moves[0]
