"""The pure rules engine: cards, rulesets, the rules and their texts, the event catalogue and commands, state,
decide/evolve, legal moves, chance's moves and views. No I/O."""
