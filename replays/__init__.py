"""Replay, audit and rulings: the same decide/evolve, applied to recorded logs."""
