"""The small values events hold (a shuffle's algorithm and seed, a seat's account, a seat's built-in bot): kept apart
from `core.catalogue`, which imports them, so that the catalogue holds the events alone."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import ConfigDict

_STRICT = ConfigDict(extra="forbid", frozen=True)

AccountKind = Literal["person", "bot"]


@dataclass(frozen=True, slots=True)
class Shuffle:
    """How a round's deck order was made: an algorithm id and its 256-bit seed (hex)."""

    __pydantic_config__ = _STRICT

    algorithm: str
    seed: str


@dataclass(frozen=True, slots=True)
class SeatAccount:
    """The account that took a seat: its public id, and whether a person or a bot plays it (docs/accounts.md)."""

    __pydantic_config__ = _STRICT

    account: str
    kind: AccountKind


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A built-in bot the referee plays a seat with, and how much it searches: `rollouts` a decision (None for a bot
    that does not search). Written in the log so that a game says what strength sat at it (docs/engine.md)."""

    __pydantic_config__ = _STRICT

    name: str
    rollouts: int | None = None
