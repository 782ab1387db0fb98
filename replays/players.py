"""The players' names as a log gives them: those written when the game was created, each open seat's name once a
`seat_joined` event fills it. The header and `game_started` leave an open seat's name empty (docs/events.md),
so every reader that names the players (the replay report, the audit, `show`, positions by turn) asks here."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from loveletter.core.catalogue import Event, GameStarted, SeatJoined
from loveletter.events.log import Entry


def seat_names(events: Iterable[Event] | Iterable[Entry], written: Sequence[str] = ()) -> tuple[str, ...]:
    """The names after every join in `events`; `written` (a header's players) stands in for a missing
    `game_started`. A join that names a seat beyond the table is left out (a forged log's, for the replay to
    report)."""
    names = list(written)
    for item in events:
        event = item.event if isinstance(item, Entry) else item
        if isinstance(event, GameStarted):
            names = list(event.players)
        elif isinstance(event, SeatJoined) and 0 <= event.player < len(names):
            names[event.player] = event.name
    return tuple(names)
