"""The games in memory: each `Table` (its record, events and folded state), the bounded cache of them, the watches
that wake a game's streams and the lobby's news bell. Nothing here leaves the referee: what a caller may see of a
table is `referee.reading`'s.

The store is the truth: a game missing here is folded again from its log, and a game another worker appended to
is caught up (`refresh`) when the store says so or when a judgement needs the latest state."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.catalogue import Event, SeatJoined
from loveletter.core.evolve import fold
from loveletter.core.state import GameState
from loveletter.events.store import EventStore, GameIndex
from loveletter.referee.presence import Presence
from loveletter.referee.record import GameRecord
from loveletter.referee.refusals import game_not_found


@dataclass(slots=True)
class Table:
    """A game in memory: its creation record, every event, and the state they fold to."""

    game_id: str
    record: GameRecord
    events: list[Event]
    state: GameState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    indexed: GameIndex | None = None
    """The index entry last written for this game (None: not yet known here, or a game the index skips)."""
    rendered: dict[Any, list[Any]] = field(default_factory=dict)
    """Each viewer's events as a transport renders them (say, server-sent event frames), made once and shared by
    that viewer's streams (`referee.reading`); kept here so that they go when the game leaves the cache."""
    delayed: GameState | None = None
    """The state a spectator last saw, behind by the game's spectator delay (folded on from there, never again)."""

    @property
    def version(self) -> int:
        return self.state.seq

    def extend(self, events: list[Event], state: GameState | None = None) -> None:
        """Append `events`; `state`, when the caller already folded them onto the current state, saves a fold."""
        self.events.extend(events)
        self.state = fold(events, self.state) if state is None else state


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
        stored = await asyncio.to_thread(self.store.meta, game_id)
        if stored is None:
            raise game_not_found(game_id)
        rows = await asyncio.to_thread(self.store.load, game_id)
        events = [e for _, e in rows]
        table = self.cached.get(game_id)  # another request may have loaded it meanwhile
        if table is None:
            table = self.keep(Table(game_id, GameRecord.of_json(stored), events, fold(events)))
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
                stored = await asyncio.to_thread(self.store.meta, table.game_id)
                table.record = GameRecord.of_json(stored) if stored else table.record
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
