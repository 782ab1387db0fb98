"""Memo tables: values derived from immutable keys (legal moves of a hand, shared event instances, sorted decks),
remembered to save work. `forget_all` empties every one of them, so that a test judges afresh: mutation testing
runs each planted bug in a process forked after the tables were filled, where a remembered answer would hide it."""

from __future__ import annotations

from typing import Any

_TABLES: list[dict[Any, Any]] = []


def table() -> dict[Any, Any]:
    """A new, empty memo table that `forget_all` knows about."""
    memo: dict[Any, Any] = {}
    _TABLES.append(memo)
    return memo


def forget_all() -> None:
    for memo in _TABLES:
        memo.clear()
