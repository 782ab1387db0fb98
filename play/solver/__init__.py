"""The solver: exact answers on reduced two-player decks (docs/engine.md, "Exact answers on small decks").

`games` names the reduced games (the published N-card games of jackie-scholl/love-letter-AI, rebuilt from the
project's cards); `tree` writes a game's whole tree once through the rules core (`decide`, `fold`, the legal moves)
with its information sets keyed by what each seat saw of the events; `cfr` solves it by CFR+; `exploit` computes a
best response against any strategy by a traversal of the whole tree (the exact exploitability), and turns a
built-in bot into a strategy of the same tree to measure it the same way.
"""
