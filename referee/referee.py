"""The referee: the one authority between clients and the event store.

It checks who is asking (seat tokens), judges moves with `decide`, lets chance deal and bot seats
play, appends everything a move causes in one atomic batch at the expected version, and answers each
seat with only what that seat may see. Folded states of active games are cached; the store is the
truth, so a cold start or a conflict just folds the log again.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import heapq
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import structlog

from loveletter.api import parse
from loveletter.api.credentials import AdminTokens
from loveletter.api.problems import Problem, bilingual, violation
from loveletter.api.schemas import CodeIn, CreateGameIn, JoinIn, PlayIn, ReturnIn, SeedIn
from loveletter.core.cards import Card
from loveletter.core.catalogue import Event, GameAborted, GameEnded, SeatJoined
from loveletter.core.chance import commitment, committed_deal
from loveletter.core.commands import (
    Abort,
    Command,
    ContributeSeed,
    DealRound,
    JoinSeat,
    PlayCard,
    Resign,
    ReturnCards,
    RevealSeed,
    SetClock,
    StartGame,
    TimeOut,
)
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.lang import Text
from loveletter.core.legal import from_action_code, legal_moves, legal_moves_as_dicts
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_DEAL, PHASE_PLAY, GameState
from loveletter.core.views import redact, view
from loveletter.events.codec import dumps, encode
from loveletter.events.log import Header, game_lines
from loveletter.events.signing import SigningKey
from loveletter.events.store import Append, ConflictError, EventStore, GameIndex, Idempotency
from loveletter.play.bots import get_bot
from loveletter.referee.tokens import digest, matches, new_token

log = structlog.get_logger()

MAX_RETRIES = 5
CLOCK_POLL = 1.0
"""Seconds the clock keeper sleeps at most between looks at the time source (which tests may move by hand)."""
KEEP_ALIVE = 15.0
"""Seconds between keep-alives on an idle event stream (and looks at whether its client has gone)."""
CLOCK_RESCAN = 10.0
"""Seconds between two reads of the store's running deadlines by a worker sharing its store with others."""


def wall_ms() -> int:
    """The time source of a live referee: Unix time in milliseconds."""
    return time.time_ns() // 1_000_000


# JSON leaves U+0085, U+2028 and U+2029 unescaped, and some line readers (httpx's, under httpx-sse) end a line at
# each: a player named with one would cut an event's `data:` in two for them. Escaped, the JSON means the same.
_LINE_ENDS = ((b"\xc2\x85", b"\\u0085"), (b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


def sse_frame(ident: int, kind: str, data: bytes) -> bytes:
    """One server-sent event whose `data:` stays on one line for every line reader."""
    for raw, escaped in _LINE_ENDS:
        if raw in data:
            data = data.replace(raw, escaped)
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (ident, kind.encode(), data)


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
    frames: dict[int | None, list[bytes]] = field(default_factory=dict)
    """Each viewer's server-sent event frames of the events so far (seat, or None for spectators and the
    organiser), made once and shared by all of that viewer's streams."""

    def sse(self, seat: int | None, after: int) -> bytes:
        """The events after seq `after` as `seat` sees them, as server-sent event frames in one chunk."""
        frames = self.frames.setdefault(seat, [])
        if len(frames) < len(self.events):
            for item in events_json(self.events[len(frames) :], len(frames) + 1, seat):
                frames.append(sse_frame(item["seq"], item["type"], dumps(item)))
        return b"".join(frames[after:])

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


class Presence:
    """Which seats are at the table: a seat is *present* while at least one event stream opened with its token is
    open on this worker (docs/web.md). Spectators' streams count for nobody. With several workers each knows its
    own streams only."""

    def __init__(self) -> None:
        self._open: dict[tuple[str, int], int] = {}

    @contextmanager
    def hold(self, game_id: str, seat: int | None) -> Iterator[None]:
        """`with presence.hold(game, seat):` the seat is present for as long as the block runs."""
        if seat is None:
            yield
            return
        key = (game_id, seat)
        self._open[key] = self._open.get(key, 0) + 1
        try:
            yield
        finally:
            left = self._open[key] - 1
            if left:
                self._open[key] = left
            else:
                del self._open[key]

    def seats(self, game_id: str, count: int) -> list[bool]:
        """For each of the game's `count` seats, whether it is present."""
        return [(game_id, seat) in self._open for seat in range(count)]


def seat_of(state: GameState, ref: int | str | None, what: str) -> int | None:
    if ref is None:
        return None
    if isinstance(ref, int) and 0 <= ref < len(state.players):
        return ref
    if isinstance(ref, str) and ref in state.players:
        return state.players.index(ref)
    raise Problem(
        422,
        "unknown_player",
        Text(
            f"{what}: {ref!r} is not a player of this game",
            f"« {what} » : « {ref} » ne désigne aucun joueur de cette partie",
        ),
    )


def events_json(events: list[Event], first_seq: int, seat: int | None) -> list[dict[str, Any]]:
    out = []
    for seq, event in enumerate(events, start=first_seq):
        fields = encode(event)
        fields["seq"] = seq
        out.append(redact(event, fields, seat))
    return out


class Referee:
    def __init__(
        self,
        store: EventStore,
        *,
        cache_games: int = 10_000,
        admin_token: str | None = None,
        admin_tokens: AdminTokens | None = None,
        signing_key: SigningKey | None = None,
        clock: Callable[[], int] = wall_ms,
    ) -> None:
        self.store = store
        self.clock = clock
        self._deadlines: list[tuple[int, str]] = []  # (deadline, game id): one heap for every running clock
        self._kept: set[tuple[int, str]] = set()  # what the heap holds, so an entry is kept once
        self._clock_wake = asyncio.Event()
        self._clock_task: asyncio.Task[None] | None = None
        self._ticker: asyncio.Task[None] | None = None
        self.lobby_news = asyncio.Event()
        """Set (then replaced) whenever the lobby's feed may have grown: lobby streams wait on it."""
        self.lobby_streams = 0
        self.signing_key = signing_key
        self.admin_tokens = AdminTokens([admin_token] if admin_token else []) if admin_tokens is None else admin_tokens
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._watches: dict[str, Watch] = {}  # by game id: open streams, whether or not their game is cached
        self.presence = Presence()  # which seats have an event stream open here (the web table shows it)
        self._cache_games = cache_games
        self._rng = random.Random(secrets.randbits(128))
        self._loop: asyncio.AbstractEventLoop | None = None
        self._refreshing: set[asyncio.Task[None]] = set()
        if store.shared:  # other workers append too: hear of it to refresh cached games and live streams
            store.subscribe(self._on_append)

    # -- loading and caching ------------------------------------------------------------------------

    async def table(self, game_id: str) -> Table:
        table = self._tables.get(game_id)
        if table is not None:
            self._tables.move_to_end(game_id)
            return table
        meta = await asyncio.to_thread(self.store.meta, game_id)
        if meta is None:
            raise parse.game_not_found(game_id)
        rows = await asyncio.to_thread(self.store.load, game_id)
        events = [e for _, e in rows]
        table = self._tables.get(game_id)  # another request may have loaded it meanwhile
        if table is None:
            table = Table(game_id, meta, events, fold(events))
            self._tables[game_id] = table
            self._evict()
            self._clock_started(game_id, table.state)
        return table

    def _evict(self) -> None:
        while len(self._tables) > self._cache_games:
            game_id, table = next(iter(self._tables.items()))
            if table.lock.locked():
                break
            del self._tables[game_id]

    async def refresh(self, table: Table) -> None:
        """Catch up with appends made elsewhere (another worker)."""
        rows = await asyncio.to_thread(self.store.load, table.game_id, table.version)
        if rows and rows[0][0] == table.version + 1:
            new = [e for seq, e in rows if seq > table.version]
            table.extend(new)
            if any(type(e) is SeatJoined for e in new):  # a join elsewhere: its seat's token digest is in the record
                table.meta = await asyncio.to_thread(self.store.meta, table.game_id) or table.meta
            table.indexed = None
            self._extended(table)
            self._clock_started(table.game_id, table.state)

    def _extended(self, table: Table) -> None:
        """`table` grew: wake the game's streams (by its id: they do not hold this `Table`, which the cache may
        drop and rebuild at any time)."""
        watch = self._watches.get(table.game_id)
        if watch is not None:
            watch.announce(table.version)

    # -- streams ----------------------------------------------------------------------------------

    @contextmanager
    def watching(self, game_id: str) -> Iterator[Watch]:
        """`with referee.watching(game_id) as watch:` wake on `watch.changed` at each append to the game.

        A watch lives while a stream is open and costs a few bytes: streamed games are not pinned in the cache,
        which stays bounded by `cache_games`; a stream reads its game through `current`, which reloads it when
        it was evicted."""
        watch = self._watches.get(game_id)
        if watch is None:
            watch = self._watches[game_id] = Watch()
        watch.streams += 1
        try:
            yield watch
        finally:
            watch.streams -= 1
            if watch.streams == 0 and self._watches.get(game_id) is watch:
                del self._watches[game_id]

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

    def _on_append(self, appended: list[tuple[str, int]]) -> None:
        """Store callback (any thread): appends made durable, possibly by another worker."""
        loop = self._loop
        if loop is not None and self.lobby_streams and appended:
            loop.call_soon_threadsafe(self.lobby_ping)
        heard = [(g, version) for g, version in appended if g in self._tables or g in self._watches]
        if loop is not None and heard:
            loop.call_soon_threadsafe(self._schedule_refreshes, heard)

    def _schedule_refreshes(self, appended: list[tuple[str, int]]) -> None:
        for game_id, version in appended:
            watch = self._watches.get(game_id)
            if watch is not None:  # the game's streams catch up themselves, cached or not
                watch.announce(version)
            self._schedule_refresh(game_id, version)

    def _schedule_refresh(self, game_id: str, version: int) -> None:
        table = self._tables.get(game_id)
        if table is not None and version > table.version:
            task = asyncio.ensure_future(self._locked_refresh(table, version))
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    async def _locked_refresh(self, table: Table, version: int) -> None:
        async with table.lock:  # after any move in progress here, which may already have folded `version`
            if version > table.version:
                await self.refresh(table)

    def bind_loop(self) -> None:
        self._loop = asyncio.get_running_loop()

    # -- who is asking ----------------------------------------------------------------------------

    def seat_for(self, table: Table, token: str | None, *, required: bool) -> int | None:
        if token is None:
            if required:
                raise Problem(
                    401,
                    "token_required",
                    Text(
                        "send Authorization: Bearer <seat token>",
                        "envoyez l'en-tête « Authorization: Bearer <jeton de votre siège> »",
                    ),
                )
            return None
        for seat, info in enumerate(table.meta["seats"]):
            stored = info.get("token_digest")
            if stored and matches(token, stored):
                structlog.contextvars.bind_contextvars(game_id=table.game_id, seat=seat)
                return seat
        if self.is_organiser(table, token):
            return None  # the organiser reads what a spectator reads
        raise Problem(
            403,
            "token_rejected",
            Text(
                "this token is not a seat token of this game",
                "ce jeton n'est celui d'aucun siège de cette partie",
            ),
        )

    def is_admin(self, token: str | None) -> bool:
        """Whether `token` is one of the admin tokens now (several may be valid at once; see api/credentials.py)."""
        return self.admin_tokens.matches(token)

    # -- automatic play ---------------------------------------------------------------------------

    def _automatic(
        self, state: GameState, meta: dict[str, Any], scenario_deals: list[DealRound]
    ) -> tuple[list[Event], GameState]:
        """Deal rounds and play bot seats until a human must decide or the game is over: the events, and the
        state they lead to."""
        events: list[Event] = []
        seats = meta["seats"]
        server_seed = bytes.fromhex(meta["server_seed"])
        while True:
            if state.over:
                if state.server_seed is not None or state.seed_commitment is None:
                    break
                command: Any = RevealSeed(meta["server_seed"])
            elif state.phase == PHASE_DEAL:
                if state.round == 0 and state.open_seats:
                    break  # dealt once the last seat is taken
                if state.round < len(scenario_deals):
                    command = scenario_deals[state.round]
                else:
                    command = committed_deal(state, server_seed)
            else:
                bot = seats[state.active].get("bot")
                if bot is None:
                    if state.turn_seconds is None or state.deadline is not None:
                        break
                    command = SetClock(state.active, self.clock())  # a person must decide: start their clock
                else:
                    command = self._bot_move(state, bot)
            new = decide(state, command)
            events.extend(new)
            state = fold(new, state)
        return events, state

    def _bot_move(self, state: GameState, bot: str) -> Command:
        moves = legal_moves(state, state.active)
        choice: Command = get_bot(bot).choose(view(state, state.active), moves, self._rng)
        return choice

    # -- creating a game --------------------------------------------------------------------------

    async def create(
        self,
        body: CreateGameIn,
        *,
        game_id: str | None = None,
        reserved: dict[int, str] | None = None,
        organiser_digest: str | None = None,
    ) -> dict[str, Any]:
        """Create a game. A rematch passes its id, the open seats `reserved` for the token (digest) of a player of
        the game before (no invite for those), and the organiser's token digest it keeps."""
        reserved = reserved or {}
        names = tuple(p.name or "" for p in body.players)
        opened = tuple(i for i, p in enumerate(body.players) if p.open)
        first = None
        if body.first_player is not None:
            probe = fold(decide(INITIAL, StartGame(body.ruleset, names, body.options, open_seats=opened)))
            first = seat_of(probe, body.first_player, "first_player")
        # secret until the game ends; every deck derives from it (an admin may choose it: duplicate deals)
        server_seed = bytes.fromhex(body.server_seed) if body.server_seed else secrets.token_bytes(32)
        start = StartGame(
            body.ruleset,
            names,
            body.options,
            first,
            body.scenario is not None,
            commitment(server_seed),
            opened,
            body.turn_seconds,
            body.on_timeout,
        )
        events = list(decide(INITIAL, start))
        for seat, player in enumerate(body.players):
            if player.open:
                continue
            if player.seed is not None:
                events += decide(fold(events), ContributeSeed(seat, player.seed))
        state = fold(events)
        deals = [self._scenario_deal(state, d) for d in body.scenario.deals] if body.scenario else []
        tokens = [None if p.open or p.bot else new_token() for p in body.players]
        invites = [new_token() if p.open and i not in reserved else None for i, p in enumerate(body.players)]
        organiser = new_token() if organiser_digest is None else None
        meta = {
            "ruleset": state.ruleset.id if state.ruleset else body.ruleset,
            "players": list(names),
            "scenario_deals": [_deal_json(d) for d in deals],
            "server_seed": server_seed.hex(),
            "seats": [
                {
                    "name": names[i],
                    "bot": None if p.open else p.bot,
                    "token_digest": digest(t) if t else None,
                    "invite_digest": digest(code) if (code := invites[i]) else None,
                    "reserved_digest": reserved.get(i),
                }
                for i, (p, t) in enumerate(zip(body.players, tokens, strict=True))
            ],
            "organiser_digest": organiser_digest or digest(organiser or ""),
            "public": body.public,
            "created": self.clock(),
        }
        automatic, state = self._automatic(state, meta, deals)
        events += automatic
        game_id = game_id or "g_" + secrets.token_urlsafe(12)
        index = game_index(meta, state)
        if index is not None:
            index = replace(index, news=lobby_news(events, state, created=True))
        version = await self.store.commit(Append(game_id, 0, events, create=meta, index=index))
        table = Table(game_id, meta, events, state, indexed=index)
        if index is not None and index.public:
            self.lobby_ping()
        self._tables[game_id] = table
        self._evict()
        self._clock_started(game_id, state)
        log.info("game created", game_id=game_id, ruleset=meta["ruleset"], seats=len(names), seq=version)
        seats: list[dict[str, Any]] = []
        for i, (p, t) in enumerate(zip(body.players, tokens, strict=True)):
            if p.open and i in reserved:
                seats.append({"seat": i, "open": True, "reserved": True})
            elif p.open:
                code = invites[i]
                seats.append({"seat": i, "open": True, "invite": code, "join": f"/games/{game_id}/join?invite={code}"})
            else:
                seats.append({"seat": i, "name": p.name, "bot": p.bot, "token": t})
        return {
            "game_id": game_id,
            "version": version,
            "ruleset": meta["ruleset"],
            "scenario": body.scenario is not None,
            "public": body.public,
            "organiser_token": organiser,
            "seats": seats,
        }

    # -- the lobby: joining, leaving, aborting ----------------------------------------------------------

    async def join(self, game_id: str, body: JoinIn, *, claim: str | None = None) -> dict[str, Any]:
        """Seat a player at an open seat (by invite, or any open seat of a public game; with `claim`, the seat a
        rematch reserved for that token): that seat's own token."""
        table = await self.table(game_id)
        async with table.lock:
            for _ in range(MAX_RETRIES):
                state = table.state
                if claim is not None:
                    seat = self._reserved_seat(table, claim)
                else:
                    seat = self._seat_to_join(table, body.invite)
                token = new_token()
                try:
                    events = list(decide(state, JoinSeat(seat, body.name, self.clock())))
                    if body.seed is not None:
                        events += decide(fold(events, state), ContributeSeed(seat, body.seed))
                except RuleViolation as v:
                    raise violation(v) from None
                meta = {**table.meta, "seats": list(table.meta["seats"])}
                meta["seats"][seat] = {**meta["seats"][seat], "name": body.name.strip(), "token_digest": digest(token)}
                meta["players"] = [*meta["players"][:seat], body.name.strip(), *meta["players"][seat + 1 :]]
                version = await self._commit(table, state, events, meta=meta)
                if version is None:
                    continue
                return {"game_id": game_id, "seat": seat, "name": body.name.strip(), "token": token, "version": version}
        raise _kept_changing(table)

    def _seat_to_join(self, table: Table, invite: str | None) -> int:
        state = table.state
        seats = table.meta["seats"]
        if invite is not None:
            for seat, info in enumerate(seats):
                stored = info.get("invite_digest")
                if stored and matches(invite, stored):
                    if seat not in state.open_seats:
                        raise Problem(
                            409,
                            "invite_used",
                            Text("this invite's seat is already taken", "le siège de cette invitation est déjà pris"),
                        )
                    return seat
            raise Problem(
                403,
                "invite_rejected",
                Text("this invite is not one of this game's", "cette invitation n'est pas de cette partie"),
            )
        if not table.meta.get("public"):
            raise Problem(
                401,
                "invite_required",
                Text(
                    "this game is joined by invite only: send the invite you were given",
                    "on ne rejoint cette partie que sur invitation : envoyez celle que vous avez reçue",
                ),
            )
        free = [i for i in state.open_seats if not seats[i].get("reserved_digest")]
        if free and not state.over:
            return free[0]
        raise Problem(
            409,
            "game_full",
            Text(
                "every seat of this game is taken: it has started",
                "tous les sièges de cette partie sont pris : elle a commencé",
            ),
        )

    def _reserved_seat(self, table: Table, token: str) -> int:
        for seat, info in enumerate(table.meta["seats"]):
            stored = info.get("reserved_digest")
            if stored and matches(token, stored):
                if seat not in table.state.open_seats:
                    raise Problem(
                        409,
                        "invite_used",
                        Text("this seat of the rematch is already taken", "ce siège de la revanche est déjà pris"),
                    )
                return seat
        raise _seat_token_needed()

    # -- rematch ----------------------------------------------------------------------------------------

    async def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The rematch of a finished game: the same table, seats rotated by one, each person's seat kept for them.
        The first caller creates it (once, linked from the game); a seat token also takes its own new seat."""
        old = await self.table(game_id)
        if token is None:
            raise Problem(
                401,
                "token_required",
                Text(
                    "send Authorization: Bearer <seat or organiser token>",
                    "envoyez l'en-tête « Authorization: Bearer <jeton de siège ou d'organisateur> »",
                ),
            )
        seat = self.seat_for(old, token, required=True)
        if not old.state.over:
            raise Problem(
                409,
                "game_not_over",
                Text("a rematch follows a finished game", "une revanche suit une partie terminée"),
            )
        new_id = await self._rematch_of(old)
        answer: dict[str, Any] = {"game_id": new_id, "rematch_of": game_id}
        if seat is not None and old.meta["seats"][seat].get("bot") is None:
            name = old.state.players[seat]
            joined = await self.join(new_id, JoinIn(name=name), claim=token)
            answer |= {"seat": joined["seat"], "name": name, "token": joined["token"], "version": joined["version"]}
        return answer

    async def _rematch_of(self, old: Table) -> str:
        """The rematch's id, derived from the finished game's: every worker asked at once names the same game, the
        store creates it once (the others' creations are refused), and the finished game's record links to it."""
        new_id = rematch_id(old.game_id)
        if await asyncio.to_thread(self.store.meta, new_id) is None:
            await self._create_rematch(old, new_id)
        if old.meta.get("rematch") != new_id:
            async with old.lock:
                meta = {**old.meta, "rematch": new_id}
                with contextlib.suppress(ConflictError):  # the game moved meanwhile: the link waits for a next call
                    await self.store.commit(Append(old.game_id, old.version, [], meta=meta))
                    old.meta = meta
        return new_id

    async def _create_rematch(self, old: Table, new_id: str) -> None:
        state, seats = old.state, old.meta["seats"]
        n = len(seats)
        players: list[dict[str, Any]] = [{}] * n
        reserved: dict[int, str] = {}
        for i, info in enumerate(seats):
            to = (i + 1) % n  # seats rotate: whoever sat at i sits at i + 1
            if info.get("bot"):
                players[to] = {"name": state.players[i], "bot": info["bot"]}
            else:
                players[to] = {"open": True}
                reserved[to] = info["token_digest"]
        body = CreateGameIn.model_validate(
            {
                "ruleset": old.meta["ruleset"],
                "options": state.options.as_dict(),
                "players": players,
                "public": bool(old.meta.get("public")),
                "turn_seconds": state.turn_seconds,
                "on_timeout": state.on_timeout,
            }
        )
        organiser = old.meta.get("organiser_digest")
        with contextlib.suppress(ConflictError):  # another worker created it first
            await self.create(body, game_id=new_id, reserved=reserved, organiser_digest=organiser)

    async def resign(self, game_id: str, token: str | None) -> tuple[bytes, int]:
        """The seat of `token` leaves the game (RULINGS §12): its answer as a move's, and the new version."""
        table = await self.table(game_id)
        seat = self.seat_for(table, token, required=True)
        if seat is None:
            raise _seat_token_needed()
        return await self._decided(table, lambda state: Resign(seat, self.clock()), seat)

    async def abort(self, game_id: str, token: str | None) -> tuple[bytes, int]:
        """The organiser (or an admin) stops the game: nobody wins."""
        table = await self.table(game_id)
        if token is None:
            raise Problem(
                401,
                "token_required",
                Text(
                    "send Authorization: Bearer <organiser token>",
                    "envoyez l'en-tête « Authorization: Bearer <jeton d'organisateur> »",
                ),
            )
        if not self.is_organiser(table, token) and not self.is_admin(token):
            raise Problem(
                403,
                "not_organiser",
                Text("only the game's organiser may abort it", "seul l'organisateur de la partie peut l'annuler"),
            )
        return await self._decided(table, lambda state: Abort(self.clock()), None)

    async def _decided(self, table: Table, make: Callable[[GameState], Command], seat: int | None) -> tuple[bytes, int]:
        async with table.lock:
            fresh = not self.store.shared
            for _ in range(MAX_RETRIES):
                state = table.state
                try:
                    events = list(decide(state, make(state)))
                except RuleViolation as v:
                    if not fresh:
                        fresh = True
                        await self.refresh(table)
                        continue
                    raise violation(v, legal_moves_as_dicts(state, seat) if seat is not None else []) from None
                version = await self._commit(table, state, events)
                if version is None:
                    continue
                return self._answer(table.state, seat, table.events[state.seq :], state.seq + 1), version
        raise _kept_changing(table)

    async def _commit(
        self, table: Table, state: GameState, mine: list[Event], meta: dict[str, Any] | None = None
    ) -> int | None:
        """Record `mine` and what follows automatically (deals, bots, clocks) after `state`; None when another
        writer got there first (the table is refreshed: judge again)."""
        deals = [_deal_of(d) for d in table.meta.get("scenario_deals", [])]
        automatic, final = self._automatic(fold(mine, state), meta or table.meta, deals)
        events = [*mine, *automatic]
        index = self._index_change(table, meta or table.meta, final, events)
        try:
            version = await self.store.commit(Append(table.game_id, state.seq, events, meta=meta, index=index))
        except ConflictError:
            await self.refresh(table)
            return None
        if meta is not None:
            table.meta = meta
        if index is not None:
            table.indexed = index
            if index.news is not None and index.public:
                self.lobby_ping()
        table.extend(events, final)
        self._extended(table)
        self._clock_started(table.game_id, final)
        return version

    def _index_change(
        self, table: Table, meta: dict[str, Any], state: GameState, events: list[Event]
    ) -> GameIndex | None:
        """The game's new index entry with the lobby's news of `events`, or None when it has none or it did not
        change."""
        index = game_index(meta, state)
        if index is None or index == table.indexed:
            return None
        return replace(index, news=lobby_news(events, state))

    def is_organiser(self, table: Table, token: str) -> bool:
        stored = table.meta.get("organiser_digest")
        return isinstance(stored, str) and matches(token, stored)

    # -- clocks ---------------------------------------------------------------------------------------

    def _clock_started(self, game_id: str, state: GameState) -> None:
        if state.deadline is not None:
            self._keep(state.deadline[1], game_id)

    def _keep(self, deadline: int, game_id: str) -> None:
        entry = (deadline, game_id)
        if entry not in self._kept:
            self._kept.add(entry)
            heapq.heappush(self._deadlines, entry)
            self._clock_wake.set()

    async def _take_up_clocks(self) -> None:
        for game_id, deadline in await asyncio.to_thread(self.store.deadlines):
            self._keep(deadline, game_id)

    async def start_clocks(self) -> None:
        """Take up every running clock the store knows of (after a restart, or as another worker) and keep them;
        and start the one ticker that wakes every idle stream for its keep-alive."""
        await self._take_up_clocks()
        self._clock_task = asyncio.ensure_future(self._keep_clocks())
        self._ticker = asyncio.ensure_future(self._tick())

    async def _tick(self) -> None:
        """Every KEEP_ALIVE seconds wake every stream once: one timer for all of them, none per stream."""
        while True:
            await asyncio.sleep(KEEP_ALIVE)
            for watch in list(self._watches.values()):
                watch.poke()
            self.lobby_ping()

    async def stop_clocks(self) -> None:
        for task in (self._clock_task, self._ticker):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._clock_task = self._ticker = None

    async def _keep_clocks(self) -> None:
        """One task for every clock: sleep until the earliest deadline, act on what is due. With several workers,
        each also reads the store's running deadlines now and then, so a clock set by a worker that has stopped
        is still kept (whoever records a timeout first wins; the others' appends are refused)."""
        looked = time.monotonic()
        while True:
            if self.store.shared and time.monotonic() - looked > CLOCK_RESCAN:
                looked = time.monotonic()
                with contextlib.suppress(Exception):
                    await self._take_up_clocks()
            now = self.clock()
            while self._deadlines and self._deadlines[0][0] <= now:
                deadline, game_id = heapq.heappop(self._deadlines)
                self._kept.discard((deadline, game_id))
                try:
                    await self.expire(game_id, deadline)
                except Exception:  # a store outage, say: try again at the next look
                    log.exception("clock", game_id=game_id)
                    self._keep(deadline, game_id)
                    break
            wait = CLOCK_POLL
            if self._deadlines:
                wait = max(0.0, min(wait, (self._deadlines[0][0] - self.clock()) / 1000))
            self._clock_wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._clock_wake.wait(), timeout=wait)

    async def expire(self, game_id: str, deadline: int) -> bool:
        """Act on `game_id`'s clock if `deadline` is still its running deadline and has passed: True if acted."""
        table = await self.table(game_id)
        async with table.lock:
            if self.store.shared:
                await self.refresh(table)
            for _ in range(MAX_RETRIES):
                state = table.state
                now = self.clock()
                if state.deadline is None or state.deadline[1] != deadline or now < deadline:
                    return False
                seat = state.deadline[0]
                events = list(decide(state, TimeOut(seat, now)))
                after = fold(events, state)
                if after.on_timeout == "bot" and after.active == seat and after.phase in (PHASE_PLAY, PHASE_CHANCELLOR):
                    move = self._bot_move(after, "heuristic")
                    events += decide(after, move)
                if await self._commit(table, state, events) is not None:
                    log.info("clock ran out", game_id=game_id, seat=seat, on_timeout=state.on_timeout)
                    return True
                # another worker acted (or the player moved just in time): judge the new state
        return False

    def _scenario_deal(self, state: GameState, d: Any) -> DealRound:
        first = seat_of(state, d.first_player, "scenario.deals[].first_player")
        if first is None:
            first = 0 if state.named_first_player is None else state.named_first_player
        return DealRound(d.set_aside, tuple(d.face_up), tuple(d.hands), tuple(d.deck), first)

    # -- a move -----------------------------------------------------------------------------------

    def command(self, state: GameState, seat: int, body: PlayIn | ReturnIn | CodeIn | SeedIn) -> Command:
        if isinstance(body, SeedIn):
            return ContributeSeed(seat, body.seed)
        if isinstance(body, PlayIn):
            return PlayCard(seat, body.card, seat_of(state, body.target, "target"), body.guess)
        if isinstance(body, ReturnIn):
            return ReturnCards(seat, body.keep, tuple(body.bottom))
        try:
            return from_action_code(body.action_code, seat)
        except ValueError as exc:
            raise Problem(
                422,
                "unknown_action_code",
                bilingual(exc, f"aucun coup n'a le code d'action {body.action_code}"),
            ) from None

    async def move(
        self,
        game_id: str,
        token: str | None,
        body: PlayIn | ReturnIn | CodeIn | SeedIn,
        *,
        raw_body: bytes,
        if_match: int | None,
        idempotency_key: str | None,
        lang: str = "en",
        instance: str | None = None,
    ) -> tuple[int, bytes, int]:
        """Judge and record a move; (status, JSON body, version), the version -1 for an answer replayed by its
        Idempotency-Key (which may be a refusal: 409 or 422 problem+json).

        With a key, an answer that judged the move is kept with it, a rules refusal as well as a recorded move (the
        refusal rendered in `lang`, with `instance`): a retry with the key gets that answer again, even once the move
        would be judged otherwise. A request refused before it was judged (unknown game, token, If-Match, a lost
        race) keeps nothing, and its retry is judged afresh."""
        table = await self.table(game_id)
        seat = self.seat_for(table, token, required=True)
        if seat is None:  # the organiser's token (found by the OpenAPI conformance run: it was an assert, a 500)
            raise _seat_token_needed()
        # a key is never replayed to another seat, nor for another body
        request_hash = hashlib.sha256(b"%d:" % seat + raw_body).hexdigest() if idempotency_key is not None else ""
        async with table.lock:
            fresh = not self.store.shared  # a cache that other workers may have overtaken is read again before a "no"
            for _ in range(MAX_RETRIES):
                if idempotency_key is not None:
                    replayed = await self._replayed(game_id, idempotency_key, request_hash)
                    if replayed is not None:
                        return replayed
                state = table.state
                if if_match is not None and if_match != state.seq:
                    if if_match > state.seq and not fresh:
                        fresh = True
                        await self.refresh(table)
                        continue
                    raise Problem(
                        412,
                        "stale_version",
                        Text(
                            f"If-Match expected version {if_match}, the game is at version {state.seq}",
                            f"If-Match attendait la version {if_match}, la partie en est à la version {state.seq}",
                        ),
                        version=state.seq,
                    )
                refusal: Problem | None = None
                try:
                    mine = decide(state, self.command(state, seat, body))
                except RuleViolation as v:
                    if not fresh:
                        fresh = True
                        await self.refresh(table)
                        if table.version != state.seq:
                            continue
                    refusal = violation(v, legal_moves_as_dicts(state, seat))
                except Problem as problem:  # a player or an action code this game does not have
                    refusal = problem
                if refusal is not None:
                    if idempotency_key is None or await self._keep_refusal(
                        table,
                        state.seq,
                        Idempotency(idempotency_key, request_hash, refusal.status, refusal.encode(lang, instance)),
                    ):
                        raise refusal
                    continue
                deals = [_deal_of(d) for d in table.meta.get("scenario_deals", [])]
                automatic, final = self._automatic(fold(mine, state), table.meta, deals)
                events = [*mine, *automatic]
                answer = self._answer(final, seat, events, state.seq + 1)
                idem = Idempotency(idempotency_key, request_hash, 200, answer) if idempotency_key else None
                index = self._index_change(table, table.meta, final, events)
                try:
                    version = await self.store.commit(Append(game_id, state.seq, events, idem, index=index))
                except ConflictError:
                    await self.refresh(table)
                    if if_match is not None:
                        raise Problem(
                            409,
                            "conflict",
                            Text("another move was recorded first", "un autre coup a été enregistré avant celui-ci"),
                            version=table.version,
                        ) from None
                    continue
                table.extend(events, final)
                if index is not None:
                    table.indexed = index
                    if index.news is not None and index.public:
                        self.lobby_ping()
                self._extended(table)
                self._clock_started(game_id, final)
                structlog.contextvars.bind_contextvars(seq=version)
                return 200, answer, version
        raise Problem(
            409,
            "conflict",
            Text("the game kept changing; try again", "la partie n'a pas cessé de changer ; réessayez"),
            version=table.version,
        )

    async def _keep_refusal(self, table: Table, version: int, kept: Idempotency) -> bool:
        """Record a refusal with its Idempotency-Key, at the version it was judged at (no event, the answer alone);
        False if the game moved meanwhile, to be judged again."""
        try:
            await self.store.commit(Append(table.game_id, version, [], kept))
        except ConflictError:
            await self.refresh(table)
            return False
        return True

    async def _replayed(self, game_id: str, key: str, request_hash: str) -> tuple[int, bytes, int] | None:
        stored = await asyncio.to_thread(self.store.idempotency, game_id, key)
        if stored is None:
            return None
        if stored.request_hash != request_hash:
            raise Problem(
                422,
                "idempotency_key_reused",
                Text(
                    "this Idempotency-Key was already used with a different request body",
                    "cette valeur d'Idempotency-Key a déjà servi pour une requête au corps différent",
                ),
            )
        return stored.status, stored.response, -1

    def _answer(self, state: GameState, seat: int | None, events: list[Event], first_seq: int) -> bytes:
        return dumps(
            {
                "version": state.seq,
                "events": events_json(events, first_seq, seat),
                "view": view(state, seat).as_dict(),
                "legal_moves": legal_moves_as_dicts(state, seat) if seat is not None else [],
            }
        )

    # -- reading ----------------------------------------------------------------------------------

    def game_json(self, table: Table, seat: int | None) -> dict[str, Any]:
        state = table.state
        return {
            "game_id": table.game_id,
            "version": state.seq,
            "players": list(state.players),
            "bots": [s.get("bot") for s in table.meta["seats"]],
            "scenario": state.scenario,
            "over": state.over,
            "your_turn": seat is not None and state.active == seat,
            "rematch": table.meta.get("rematch"),
            "view": view(state, seat).as_dict(),
            "legal_moves": legal_moves_as_dicts(state, seat) if seat is not None else [],
        }

    def log_bytes(self, table: Table) -> bytes:
        """The game's complete JSONL log: header, hash-chained events, and the referee's signature
        (the format `loveletter replay` and `loveletter audit` verify)."""
        header = Header.of(table.events[0], table.game_id)  # type: ignore[arg-type]
        signer = self.signing_key.sign if self.signing_key is not None else None
        return b"".join(line + b"\n" for line in game_lines(table.events, header, signer=signer))


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
    }
    return GameIndex(
        bool(meta.get("public")),
        status,
        meta["ruleset"],
        int(meta.get("created") or 0),
        dumps(listing),
        state.deadline[1] if state.deadline is not None else None,
    )


def rematch_id(game_id: str) -> str:
    """A finished game's rematch id: 16 url-safe characters of a SHA-256 of its id (ids are public; tokens guard)."""
    return "g_" + base64.urlsafe_b64encode(hashlib.sha256(f"rematch/{game_id}".encode()).digest())[:16].decode()


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


def _seat_token_needed() -> Problem:
    return Problem(
        403,
        "token_rejected",
        Text("this token is not a seat token of this game", "ce jeton n'est celui d'aucun siège de cette partie"),
    )


def _kept_changing(table: Table) -> Problem:
    return Problem(
        409,
        "conflict",
        Text("the game kept changing; try again", "la partie n'a pas cessé de changer ; réessayez"),
        version=table.version,
    )


def _deal_json(d: DealRound) -> dict[str, Any]:
    return {
        "set_aside": d.set_aside.value,
        "face_up": [c.value for c in d.face_up],
        "hands": [c.value if c else None for c in d.hands],
        "deck": [c.value for c in d.deck],
        "first_player": d.first_player,
    }


def _deal_of(data: dict[str, Any]) -> DealRound:
    return DealRound(
        Card(data["set_aside"]),
        tuple(Card(c) for c in data["face_up"]),
        tuple(Card(c) for c in data["hands"]),
        tuple(Card(c) for c in data["deck"]),
        int(data["first_player"]),
    )
