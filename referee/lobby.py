"""The lobby's projection of a game: its public listing and running deadline (the store's index), and the news a
change of it makes in the lobby's feed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator

from loveletter.core.catalogue import Event, GameAborted, GameEnded, SeatJoined
from loveletter.core.state import GameState
from loveletter.events.codec import dumps
from loveletter.events.store import EventStore, GameIndex, StoreError
from loveletter.referee.clocks import Idle
from loveletter.referee.record import GameRecord
from loveletter.referee.tables import Tables


def game_index(record: GameRecord, state: GameState, first: Event) -> GameIndex | None:
    """The game's lobby entry and next deadline, for a public or clocked game, or one created with a seats' deadline
    (`first`, its first event, says: the entry stays, so that the deadline it held is cleared once met); None for
    any other."""
    expiring = getattr(first, "join_by", None) is not None
    if not record.public and state.turn_seconds is None and not expiring:
        return None
    status = "finished" if state.over else "open" if state.open_seats else "running"
    listing = {
        "ruleset": record.ruleset,
        "options": state.options.as_dict(),
        "seats": [
            {"seat": i, "name": name or None, "open": not name, "bot": info.bot, "in_game": not gone}
            for i, (name, info, gone) in enumerate(zip(state.players, record.seats, state.resigned, strict=True))
        ],
        "open_seats": len(state.open_seats),
        "clock": None
        if state.turn_seconds is None
        else {"turn_seconds": state.turn_seconds, "on_timeout": state.on_timeout},
        "created": record.created or None,
        "status": status,
        "aborted": state.aborted,
        "winners": list(state.winner_names()),
        "rated": record.rated,
        "join_by": state.join_by,
    }
    return GameIndex(
        record.public,
        status,
        record.ruleset,
        record.created,
        dumps(listing),
        state.next_deadline,
    )


def lobby_news(events: list[Event], state: GameState, *, created: bool = False) -> str | None:
    """What the lobby's feed says of a public game after `events`: the biggest change they made, if any."""
    kinds = {type(e) for e in events}
    if GameEnded in kinds or GameAborted in kinds:
        return "game_finished"
    if SeatJoined in kinds or created:
        if state.open_seats:
            return "game_opened" if created else "seat_filled"
        return "game_started"
    return None


LOBBY_PAGE = 500
"""News read from the store at once by a lobby stream."""


async def follow_news(
    store: EventStore, tables: Tables, cursor: int | None, keep_alive: float
) -> AsyncGenerator[list[tuple[int, str, bytes]] | None, None]:
    """The lobby's news after `cursor` (None: from the next news on), then each new item as the feed grows (woken by
    this worker's commits and, on PostgreSQL, by every worker's); None when idle for a keep-alive. Each item is
    (news id, kind, the game's public facts as JSON). Ends quietly when the store closes under it (the worker
    stopping): the client resumes from its last id where a store answers."""
    if cursor is None:
        cursor = await asyncio.to_thread(store.lobby_feed_head)
    tables.lobby_streams += 1
    idle = Idle(keep_alive)
    try:
        while True:
            news = tables.lobby_news  # taken before reading: news written meanwhile wakes the wait below
            try:
                rows = await asyncio.to_thread(store.lobby_feed, cursor, LOBBY_PAGE)
            except StoreError:
                return
            if rows:
                yield [(item, kind, b'{"game_id":"' + game_id.encode() + b'",' + listing[1:])
                       for item, game_id, kind, listing in rows]  # fmt: skip
                cursor = rows[-1][0]
                idle.sent()
            if len(rows) == LOBBY_PAGE:
                continue
            await news.wait()  # woken by news, or by the referee's ticker every `stream_keep_alive` seconds
            if idle.due():
                yield None
    finally:
        tables.lobby_streams -= 1
