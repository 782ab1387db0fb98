"""The games in memory: each `Table` (its record, events and folded state), the bounded cache of them, the watches
that wake a game's streams, the lobby's news bell, which seats are present, and how much of a game a spectator
sees (`seen_by`: a game's spectator delay, docs/api.md).

The store is the truth: a game missing here is folded again from its log, and a game another worker appended to
is caught up (`refresh`) when the store says so or when a judgement needs the latest state."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter, OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.catalogue import CardPlayed, ChancellorReturned, Event, GameAborted, GameEnded, SeatJoined
from loveletter.core.evolve import fold
from loveletter.core.state import GameState
from loveletter.core.views import redact
from loveletter.events.codec import dumps, encode
from loveletter.events.store import EventStore, GameIndex
from loveletter.referee.refusals import game_not_found


@dataclass(slots=True)
class Table:
    """A game in memory: its creation record, every event, and the state they fold to."""

    game_id: str
    meta: dict[str, Any]
    events: list[Event]
    state: GameState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    indexed: GameIndex | None = None
    """The index entry last written for this game (None: not yet known here, or a game the index skips)."""
    rendered: dict[Any, list[Any]] = field(default_factory=dict)
    """Each viewer's events as a transport renders them (say, server-sent event frames), made once and shared by
    that viewer's streams; kept here so that they go when the game leaves the cache."""
    delayed: GameState | None = None
    """The state a spectator last saw, behind by the game's spectator delay (folded on from there, never again)."""

    @property
    def version(self) -> int:
        return self.state.seq

    def extend(self, events: list[Event], state: GameState | None = None) -> None:
        """Append `events`; `state`, when the caller already folded them onto the current state, saves a fold."""
        self.events.extend(events)
        self.state = fold(events, self.state) if state is None else state


MOVES = (CardPlayed, ChancellorReturned)
"""The events a spectator delay counts: a seat's decisions in play (a card played, the cards a Chancellor keeps
and returns), whoever made them (the person, a bot, or the bot a clock called)."""


def seen_by(table: Table, seat: int | None) -> int:
    """How many of the game's events `seat` may see (None: a spectator). A seat sees every one, and so does
    anyone once the game is over; a spectator of a game with a spectator delay of N moves sees the events before
    the N-th last move (before the first, if fewer were made): the game as it was N moves ago."""
    delay = table.state.options.spectator_delay
    if not delay or seat is not None or table.state.over:
        return len(table.events)
    cut = len(table.events)
    for index in range(len(table.events) - 1, -1, -1):
        if type(table.events[index]) in MOVES:
            cut = index
            delay -= 1
            if not delay:
                break
    return cut


def state_seen_by(table: Table, seat: int | None) -> GameState:
    """The state `seat` sees: the table's, or a spectator's delayed one (`seen_by`), folded on from the last."""
    shown = seen_by(table, seat)
    if shown == len(table.events):
        return table.state
    delayed = table.delayed
    if delayed is None or delayed.seq > shown:
        delayed = fold(table.events[:shown])
    elif delayed.seq < shown:
        delayed = fold(table.events[delayed.seq : shown], delayed)
    table.delayed = delayed
    return delayed


def events_json(events: list[Event], first_seq: int, seat: int | None) -> list[dict[str, Any]]:
    """`events` (the first numbered `first_seq`) as `seat` may see them (None: a spectator)."""
    out = []
    for seq, event in enumerate(events, start=first_seq):
        fields = encode(event)
        fields["seq"] = seq
        out.append(redact(event, fields, seat))
    return out


@dataclass(slots=True)
class Watch:
    """The open streams of one game, kept by game id apart from the cache of `Table`s: a game may be evicted,
    reloaded from the store or refreshed while it is streamed, and every append still wakes its streams."""

    version: int = 0
    """The latest version announced (by this worker's appends, or another worker's notifications)."""
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    streams: int = 0

    def announce(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self.poke()

    def poke(self) -> None:
        """Wake every stream of the game (they look for new events, or send a keep-alive)."""
        self.changed.set()
        self.changed = asyncio.Event()


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


class Tables:
    """The cache of `Table`s, bounded by `cache_games` (least recently used first out, never one in use), the
    watches of streamed games, and the lobby's bell; with a shared store, it hears other workers' appends."""

    def __init__(self, store: EventStore, cache_games: int) -> None:
        self.store = store
        self.cache_games = cache_games
        self.cached: OrderedDict[str, Table] = OrderedDict()
        self.watches: dict[str, Watch] = {}  # by game id: open streams, whether or not their game is cached
        self.presence = Presence()  # which seats have an event stream open here (the web table shows it)
        self.lobby_news = asyncio.Event()
        """Set (then replaced) whenever the lobby's feed may have grown: lobby streams wait on it."""
        self.lobby_streams = 0
        self.loaded: list[Any] = []
        """Called with (game_id, state) whenever a game is read into the cache or caught up (the clocks listen)."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._refreshing: set[asyncio.Task[None]] = set()
        if store.shared:  # other workers append too: hear of it to refresh cached games and live streams
            store.subscribe(self._on_append)

    def bind_loop(self) -> None:
        self._loop = asyncio.get_running_loop()

    async def table(self, game_id: str) -> Table:
        """The game, from the cache or folded from the store; refused if there is no such game."""
        table = self.cached.get(game_id)
        if table is not None:
            self.cached.move_to_end(game_id)
            return table
        meta = await asyncio.to_thread(self.store.meta, game_id)
        if meta is None:
            raise game_not_found(game_id)
        rows = await asyncio.to_thread(self.store.load, game_id)
        events = [e for _, e in rows]
        table = self.cached.get(game_id)  # another request may have loaded it meanwhile
        if table is None:
            table = self.keep(Table(game_id, meta, events, fold(events)))
        return table

    def keep(self, table: Table) -> Table:
        """Put `table` in the cache (evicting the oldest beyond the bound) and tell the listeners."""
        self.cached[table.game_id] = table
        while len(self.cached) > self.cache_games:
            game_id, oldest = next(iter(self.cached.items()))
            if oldest.lock.locked():
                break
            del self.cached[game_id]
        self._loaded(table)
        return table

    def _loaded(self, table: Table) -> None:
        for listener in self.loaded:
            listener(table.game_id, table.state)

    async def refresh(self, table: Table) -> None:
        """Catch up with appends made elsewhere (another worker)."""
        rows = await asyncio.to_thread(self.store.load, table.game_id, table.version)
        if rows and rows[0][0] == table.version + 1:
            new = [e for seq, e in rows if seq > table.version]
            table.extend(new)
            if any(type(e) is SeatJoined for e in new):  # a join elsewhere: its seat's token digest is in the record
                meta = await asyncio.to_thread(self.store.meta, table.game_id)
                table.meta = meta or table.meta
            table.indexed = None
            self.extended(table)

    def extended(self, table: Table) -> None:
        """`table` grew: wake the game's streams (by its id: they do not hold this `Table`, which the cache may
        drop and rebuild at any time), and tell the listeners."""
        watch = self.watches.get(table.game_id)
        if watch is not None:
            watch.announce(table.version)
        self._loaded(table)

    # -- streams ----------------------------------------------------------------------------------

    @contextmanager
    def watching(self, game_id: str) -> Iterator[Watch]:
        """`with tables.watching(game_id) as watch:` wake on `watch.changed` at each append to the game.

        A watch lives while a stream is open and costs a few bytes: streamed games are not pinned in the cache,
        which stays bounded by `cache_games`; a stream reads its game through `current`, which reloads it when
        it was evicted."""
        watch = self.watches.get(game_id)
        if watch is None:
            watch = self.watches[game_id] = Watch()
        watch.streams += 1
        try:
            yield watch
        finally:
            watch.streams -= 1
            if watch.streams == 0 and self.watches.get(game_id) is watch:
                del self.watches[game_id]

    async def current(self, game_id: str, watch: Watch) -> Table:
        """The game as cached (or reloaded from the store), caught up with every version `watch` heard of."""
        table = await self.table(game_id)
        if table.version < watch.version:
            async with table.lock:
                if table.version < watch.version:
                    await self.refresh(table)
        watch.announce(table.version)
        return table

    def lobby_ping(self) -> None:
        """Wake every lobby stream: the feed may hold news."""
        news, self.lobby_news = self.lobby_news, asyncio.Event()
        news.set()

    def poke_all(self) -> None:
        """Wake every stream once (for its keep-alive)."""
        for watch in list(self.watches.values()):
            watch.poke()
        self.lobby_ping()

    def _on_append(self, appended: list[tuple[str, int]]) -> None:
        """Store callback (any thread): appends made durable, possibly by another worker."""
        loop = self._loop
        if loop is not None and self.lobby_streams and appended:
            loop.call_soon_threadsafe(self.lobby_ping)
        heard = [(g, version) for g, version in appended if g in self.cached or g in self.watches]
        if loop is not None and heard:
            loop.call_soon_threadsafe(self._schedule_refreshes, heard)

    def _schedule_refreshes(self, appended: list[tuple[str, int]]) -> None:
        for game_id, version in appended:
            watch = self.watches.get(game_id)
            if watch is not None:  # the game's streams catch up themselves, cached or not
                watch.announce(version)
            table = self.cached.get(game_id)
            if table is not None and version > table.version:
                task = asyncio.ensure_future(self._locked_refresh(table, version))
                self._refreshing.add(task)
                task.add_done_callback(self._refreshing.discard)

    async def _locked_refresh(self, table: Table, version: int) -> None:
        async with table.lock:  # after any move in progress here, which may already have folded `version`
            if version > table.version:
                await self.refresh(table)


def game_index(meta: dict[str, Any], state: GameState) -> GameIndex | None:
    """The game's lobby entry and running deadline, for a public or clocked game; None for any other."""
    if not meta.get("public") and state.turn_seconds is None:
        return None
    status = "finished" if state.over else "open" if state.open_seats else "running"
    listing = {
        "ruleset": meta["ruleset"],
        "options": state.options.as_dict(),
        "seats": [
            {"seat": i, "name": name or None, "open": not name, "bot": info.get("bot"), "in_game": not gone}
            for i, (name, info, gone) in enumerate(zip(state.players, meta["seats"], state.resigned, strict=True))
        ],
        "open_seats": len(state.open_seats),
        "clock": None
        if state.turn_seconds is None
        else {"turn_seconds": state.turn_seconds, "on_timeout": state.on_timeout},
        "created": meta.get("created"),
        "status": status,
        "aborted": state.aborted,
        "winners": list(state.winner_names()),
        "rated": bool(meta.get("rated")),
    }
    return GameIndex(
        bool(meta.get("public")),
        status,
        meta["ruleset"],
        int(meta.get("created") or 0),
        dumps(listing),
        state.deadline[1] if state.deadline is not None else None,
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
