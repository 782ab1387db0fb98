"""One game's outcome as the ratings read it, apart from the tournament that plays it: the referee's ladder rates
its accounts' games with it and must not import the tournament's HTTP harness to do so."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class Outcome:
    """What the ratings and the report need of one game: per seat, the bot, its rank (1 is best; winners first,
    then by favors, a seat that left the game last) and what went wrong."""

    game: int
    deal: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    favors: tuple[int, ...]
    resigned: tuple[bool, ...]
    aborted: bool = False
    timeouts: list[int] = field(default_factory=list)
    refused: list[int] = field(default_factory=list)
    crashes: list[int] = field(default_factory=list)
    hangs: list[int] = field(default_factory=list)
    tracebacks: list[str] = field(default_factory=list)
    """Per seat, the traceback of the bot's crash in this game ("" if it did not crash)."""

    @property
    def ranks(self) -> tuple[int, ...]:
        keys = [
            (0 if gone else 1, 1 if s in self.winners else 0, f)
            for s, (f, gone) in enumerate(zip(self.favors, self.resigned, strict=True))
        ]
        return tuple(1 + sum(other > mine for other in keys) for mine in keys)
