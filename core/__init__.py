"""The pure rules engine: cards, rulesets, state, decide/evolve, legal moves and views. No I/O."""
