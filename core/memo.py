"""Memo tables: values derived from immutable keys (legal moves of a hand, shared event instances, sorted decks),
remembered to save work. `forget_all` empties every one of them, so that a test judges afresh: mutation testing
runs each planted bug in a process forked after the tables were filled, where a remembered answer would hide it."""

from __future__ import annotations

from typing import Any, Callable, TypeVar

_TABLES: list[dict[Any, Any]] = []
E = TypeVar("E")


def table() -> dict[Any, Any]:
    """A new, empty memo table that `forget_all` knows about."""
    memo: dict[Any, Any] = {}
    _TABLES.append(memo)
    return memo


def forget_all() -> None:
    for memo in _TABLES:
        memo.clear()


_SHARED: dict[tuple[Any, ...], Any] = table()


def shared(cls: Callable[..., E], *fields: Any) -> E:
    """`cls(*fields)`, one instance per distinct value: events are immutable, so sharing them is safe (callers only
    share events whose fields are ints, strings, `Card`s and tuples of them, never a bool where an int goes), and a
    frozen dataclass costs a Python-level `__setattr__` per field to build."""
    key = (cls, *fields)
    found: E | None = _SHARED.get(key)
    if found is None:
        found = cls(*fields)
        if len(_SHARED) < 1 << 16:
            _SHARED[key] = found
    return found
