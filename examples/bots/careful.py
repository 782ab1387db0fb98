"""A readable bot with a little sense: it never plays the Princess, plays the Handmaid when it can, and otherwise
guesses with the Guard the card it has seen least of (the view's `unseen` counts, which are what this seat may know).

    loveletter bot run examples.bots.careful:Careful --server http://127.0.0.1:8000 --game ID --invite CODE
"""

from loveletter.client import Game, LegalMove


class Careful:
    def choose(self, game: Game) -> LegalMove:
        moves = [m for m in game.legal_moves if m.card != "princess"] or list(game.legal_moves)
        for move in moves:
            if move.card == "handmaid":
                return move
        unseen = game.view.unseen
        guards = [m for m in moves if m.card == "guard" and m.guess is not None]
        if guards and unseen:
            return max(guards, key=lambda m: unseen.get(m.guess or "", 0))
        return moves[0]


Bot = Careful  # the name `loveletter tournament --bots examples.bots.careful:Bot` gives it
