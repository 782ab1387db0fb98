"""Which seats are at the table: a seat is present while an event stream opened with its token is open here."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager


class Presence:
    """Which seats are at the table: a seat is *present* while at least one event stream opened with its token is
    open on this worker (docs/web.md). Spectators' streams count for nobody. With several workers each knows its
    own streams only.

    Each stream may name the page that opened it (a random id the page picks), so that a seat's page can be told
    that the same seat is also open in another page (another device); a stream that names none is a page of its
    own."""

    def __init__(self) -> None:
        self._open: dict[tuple[str, int], Counter[str]] = {}  # (game, seat) -> open streams by page
        self._unnamed = itertools.count()

    @contextmanager
    def hold(self, game_id: str, seat: int | None, page: str | None = None) -> Iterator[None]:
        """`with presence.hold(game, seat, page):` the seat is present (from that page) while the block runs."""
        if seat is None:
            yield
            return
        key = (game_id, seat)
        name = page if page else f"\0{next(self._unnamed)}"  # no page id holds a NUL (the routes ask [A-Za-z0-9_-])
        pages = self._open.setdefault(key, Counter())
        pages[name] += 1
        try:
            yield
        finally:
            pages[name] -= 1
            if not pages[name]:
                del pages[name]
            if not pages and self._open.get(key) is pages:
                del self._open[key]

    def seats(self, game_id: str, count: int) -> list[bool]:
        """For each of the game's `count` seats, whether it is present."""
        return [(game_id, seat) in self._open for seat in range(count)]

    def elsewhere(self, game_id: str, seat: int, page: str | None) -> bool:
        """Whether `seat` has a stream open from a page other than `page`: told to that seat's own page only."""
        return any(name != page for name in self._open.get((game_id, seat), ()))
