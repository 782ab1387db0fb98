"""Judging: a seat's move turned into a command and decided by the rules, everything it causes (chance dealing,
bot seats, a clock started) appended with it in one atomic batch at the expected version, and the answer each seat
may see; a move sent with an idempotency key is answered once and that answer replayed to its retries.

A move refused by the rules is judged again on a fresh read before the refusal stands when other workers share the
store (this worker's cache may be behind); a lost race at the store reads the game again and judges again.

What follows a move by itself (chance, the bot seats, a person's clock) is `referee.following`'s: a bot that thinks
(the `expert`) is awaited from the thinking room's worker processes, never run on the event loop, and a game
created with such a bot to play first has its move recorded by a task of its own (`_nudge`). The `expert` also
decides for a seat whose clock ran out under `on_timeout: bot` (`play.bots.STAND_IN`)."""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import structlog

from loveletter.core.catalogue import Event
from loveletter.core.commands import Command, DealRound, ExpireSeats, TimeOut
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.lang import Text
from loveletter.core.legal import legal_moves_as_dicts
from loveletter.core.rules import RuleViolation
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_PLAY, GameState
from loveletter.core.views import view
from loveletter.events.store import Append, ConflictError, EventStore, GameIndex, Idempotency
from loveletter.play.bots import STAND_IN
from loveletter.play.thinking import OFF_THE_LOOP, Thinking
from loveletter.referee.commands import command, deal_of
from loveletter.referee.following import Following, thinker
from loveletter.referee.inputs import Move
from loveletter.referee.lobby import game_index, lobby_news
from loveletter.referee.reading import events_json
from loveletter.referee.record import GameRecord, indexed
from loveletter.referee.refusals import Refusal, kept_changing, ruled_out
from loveletter.referee.tables import Table, Tables
from loveletter.referee.tokens import Credentials

log = structlog.get_logger()

MAX_RETRIES = 5
T = TypeVar("T")
Kept = tuple[int, bytes]
"""An answer as its transport keeps it with an idempotency key (for HTTP: the status and the body's bytes); the
referee stores and replays it without reading it."""
Keeper = Callable[[dict[str, Any] | Refusal], Kept]
"""How the transport keeps an answer or a refusal (rendered in the asker's language, say)."""


@dataclass(slots=True)
class Reread:
    """A command's one fresh read of its game (`Judge.reread`)."""

    tables: Tables
    table: Table
    done: bool

    async def __call__(self) -> bool:
        if self.done:
            return False
        self.done = True
        await self.tables.refresh(self.table)
        return True


@dataclass(frozen=True, slots=True)
class Moved:
    """A move (or a resignation, an abort) recorded: the game's new version and the seat's answer (its events as it
    sees them, its view, its legal moves); `kept`, the answer as the keeper rendered it when there was a key."""

    version: int
    answer: dict[str, Any]
    kept: Kept | None = None
    seat: int | None = None
    """The seat that moved (None: the organiser or an admin), for the transport's log line."""


@dataclass(frozen=True, slots=True)
class Replayed:
    """The first answer to an idempotency key, kept as the transport rendered it (a refusal, perhaps)."""

    kept: Kept


def answer(state: GameState, seat: int | None, events: list[Event], first_seq: int) -> dict[str, Any]:
    """What a move answers `seat`: the version, the events it caused as the seat sees them, its view and moves."""
    return {
        "version": state.seq,
        "events": events_json(events, first_seq, seat),
        "view": view(state, seat).as_dict(),
        "legal_moves": legal_moves_as_dicts(state, seat) if seat is not None else [],
    }


class Judge:
    """Decides commands on cached tables and records them; `now` is the time source (Unix milliseconds);
    `thinking`, where the bots that think are asked (started at its first use)."""

    def __init__(
        self,
        store: EventStore,
        tables: Tables,
        credentials: Credentials,
        now: Callable[[], int],
        thinking: Thinking | None = None,
    ) -> None:
        self.store = store
        self.tables = tables
        self.credentials = credentials
        self.now = now
        self.thinking = thinking if thinking is not None else Thinking()
        self.follow = Following(now, self.thinking)
        self._nudged: dict[str, asyncio.Task[None]] = {}
        tables.loaded.append(self._nudge_if_due)

    # -- what follows by itself --------------------------------------------------------------------

    def automatic(
        self, state: GameState, record: GameRecord, scenario_deals: list[DealRound]
    ) -> tuple[list[Event], GameState]:
        """What follows `state` by itself without thinking (`Following.automatic`)."""
        return self.follow.automatic(state, record, scenario_deals)

    def _nudge_if_due(self, game_id: str, state: GameState) -> None:
        """A table loaded or grown where a bot must think (a game just created with a thinking bot to play
        first: creation does not wait for it): record its move in a task of its own."""
        table = self.tables.cached.get(game_id)
        if table is None or state.over:
            return
        if any(seat.bot in OFF_THE_LOOP for seat in table.record.seats):
            self.thinking.warm()  # this game needs the thinking room: have it ready for its first decision
        if game_id in self._nudged or thinker(state, table.record) is None:
            return
        try:
            task = asyncio.get_running_loop().create_task(self._nudge(game_id))
        except RuntimeError:  # no loop runs (a table loaded by a synchronous tool): nobody plays here
            return
        self._nudged[game_id] = task
        task.add_done_callback(lambda _: self._nudged.pop(game_id, None))

    async def _nudge(self, game_id: str) -> None:
        try:
            table = await self.tables.table(game_id)

            async def think() -> bool | None:
                if thinker(table.state, table.record) is None:
                    return True
                return await self.commit(table, table.state, []) is not None or None

            await self.settled(table, think, exhausted=lambda: False)
        except Exception:  # a store outage, say: the next load or append of the game tries again
            log.exception("bot move", game_id=game_id)

    # -- recording -----------------------------------------------------------------------------------

    async def settled(
        self, table: Table, attempt: Callable[[], Awaitable[T | None]], exhausted: Callable[[], T] | None = None
    ) -> T:
        """The one loop of every command: under the table's lock, `attempt` judges the game as it is now and records
        what it decided; None means another writer got there first (the table is caught up: judge again). After
        `MAX_RETRIES` such losses, `exhausted()`, or the refusal that the game kept changing."""
        async with table.lock:
            for _ in range(MAX_RETRIES):
                result = await attempt()
                if result is not None:
                    return result
        if exhausted is not None:
            return exhausted()
        raise kept_changing(table.version)

    async def commit(
        self,
        table: Table,
        state: GameState,
        mine: list[Event],
        record: GameRecord | None = None,
        kept: Callable[[GameState, list[Event]], Idempotency | None] | None = None,
    ) -> int | None:
        """The one commit path: record `mine` and what follows automatically after `state` (with the game's new
        record, if it changes, and the answer `kept` makes of the final state and every event, kept with an
        idempotency key) in one atomic append at `state`'s version; None when another writer got there first."""
        now = record or table.record
        deals = [deal_of(d) for d in now.scenario_deals]
        automatic, final = await self.follow.following(fold(mine, state), now, deals)
        events = [*mine, *automatic]
        index = self.index_change(table, now, final, events)
        idem = kept(final, events) if kept is not None else None
        facts = indexed(table.events[0], events)
        meta = record.as_json() if record is not None else None
        append = Append(table.game_id, state.seq, events, idem, meta=meta, index=index, **facts.as_store())
        version = await self.appended(table, append)
        if version is None:
            return None
        if record is not None:
            table.record = record
        self._grown(table, events, final, index)
        return version

    async def appended(self, table: Table, append: Append) -> int | None:
        """The store's append, or None when another writer got there first (the table is then caught up)."""
        try:
            return await self.store.commit(append)
        except ConflictError:
            await self.tables.refresh(table)
            return None

    def reread(self, table: Table) -> Reread:
        """Once per command, before a "no", the game read again if other workers share the store (this cache may be
        behind): `await reread()` says whether it was read again just now."""
        return Reread(self.tables, table, done=not self.store.shared)

    def _grown(self, table: Table, events: list[Event], final: GameState, index: GameIndex | None) -> None:
        """After a commit: the table extended, the lobby told of news, the streams and clocks woken."""
        table.extend(events, final)
        if index is not None:
            table.indexed = index
            if index.news is not None and index.public:
                self.tables.lobby_ping()
        self.tables.extended(table)

    def index_change(self, table: Table, record: GameRecord, state: GameState, events: list[Event]) -> GameIndex | None:
        """The game's new index entry with the lobby's news of `events`, or None when it has none or it did not
        change."""
        index = game_index(record, state, table.events[0])
        if index is None or index == table.indexed:
            return None
        return replace(index, news=lobby_news(events, state))

    async def decided(self, table: Table, make: Callable[[GameState], Command], seat: int | None) -> Moved:
        """Decide and record one command made by `make` from the current state (a resignation, an abort)."""
        reread = self.reread(table)

        async def attempt() -> Moved | None:
            state = table.state
            try:
                events = list(decide(state, make(state)))
            except RuleViolation as v:
                if await reread():
                    return None
                raise ruled_out(v, legal_moves_as_dicts(state, seat) if seat is not None else []) from None
            version = await self.commit(table, state, events)
            if version is None:
                return None
            return Moved(version, answer(table.state, seat, table.events[state.seq :], state.seq + 1), None, seat)

        return await self.settled(table, attempt)

    async def expire(self, game_id: str, deadline: int) -> str | None:
        """Act on `game_id`'s `deadline` if it is still the game's next deadline and has passed: what was done (a
        seat's clock ran out: `timeout`; a seat still open: `seats_unfilled`, the game aborted), or None."""
        table = await self.tables.table(game_id)
        reread = self.reread(table)

        async def attempt() -> str | bool | None:
            await reread()  # another worker may have acted on this clock: look first
            state = table.state
            now = self.now()
            if state.next_deadline != deadline or now < deadline:
                return False
            if state.join_by is not None:
                if await self.commit(table, state, list(decide(state, ExpireSeats(now)))) is None:
                    return None  # a seat was taken just in time, or another worker acted: judge the new state
                log.info("open seats expired", game_id=game_id, seats=list(state.open_seats))
                return "seats_unfilled"
            assert state.deadline is not None
            seat = state.deadline[0]
            events = list(decide(state, TimeOut(seat, now)))
            after = fold(events, state)
            if after.on_timeout == "bot" and after.active == seat and after.phase in (PHASE_PLAY, PHASE_CHANCELLOR):
                events += decide(after, await self.follow.thought(after, table.record, STAND_IN))
            if await self.commit(table, state, events) is None:
                return None  # another worker acted (or the player moved just in time): judge the new state
            log.info("clock ran out", game_id=game_id, seat=seat, on_timeout=state.on_timeout)
            return "timeout"

        done = await self.settled(table, attempt, exhausted=lambda: False)
        return done if isinstance(done, str) else None

    # -- a move ----------------------------------------------------------------------------------------

    async def move(
        self,
        game_id: str,
        token: str | None,
        move: Move,
        *,
        request: bytes,
        expected: int | None = None,
        key: str | None = None,
        keep: Keeper | None = None,
    ) -> Moved | Replayed:
        """Judge and record the move of the seat of `token`; `expected`, the version the client saw (refused if the
        game is elsewhere); `request`, the request as sent, which a `key` is bound to.

        With a key, an answer that judged the move is kept with it (as `keep` renders it), a rules refusal as well
        as a recorded move: a retry with the key gets that answer again, even once the move would be judged
        otherwise. A request refused before it was judged (unknown game, token, version, a lost race) keeps
        nothing, and its retry is judged afresh."""
        table = await self.tables.table(game_id)
        seat = self.credentials.seat_of_player(table, token)
        # a key is never replayed to another seat, nor for another body
        request_hash = hashlib.sha256(b"%d:" % seat + request).hexdigest() if key is not None else ""
        reread = self.reread(table)  # a cache that other workers may have overtaken is read again before a "no"

        async def attempt() -> Moved | Replayed | None:
            if key is not None:
                replayed = await self._replayed(game_id, key, request_hash)
                if replayed is not None:
                    return replayed
            state = table.state
            if expected is not None and expected != state.seq:
                if expected > state.seq and await reread():
                    return None
                raise Refusal(
                    "stale_version",
                    Text(
                        f"the move expected version {expected}, the game is at version {state.seq}",
                        f"le coup attendait la version {expected}, la partie en est à la version {state.seq}",
                    ),
                    about={"expected": expected},
                    version=state.seq,
                )
            refusal: Refusal | None = None
            try:
                mine = decide(state, command(state, seat, move))
            except RuleViolation as v:
                if await reread() and table.version != state.seq:
                    return None
                refusal = ruled_out(v, legal_moves_as_dicts(state, seat))
            except Refusal as problem:  # a player or an action code this game does not have
                refusal = problem
            if refusal is not None:
                if key is None or keep is None:
                    raise refusal
                status, body = keep(refusal)
                if await self.appended(
                    table, Append(game_id, state.seq, [], Idempotency(key, request_hash, status, body))
                ):
                    raise refusal  # kept with its key, at the version it was judged at: no event, the answer alone
                return None
            said: dict[str, Any] = {}

            def kept(final: GameState, events: list[Event]) -> Idempotency | None:
                said["answer"] = answer(final, seat, events, state.seq + 1)
                if key is None or keep is None:
                    return None
                said["kept"] = keep(said["answer"])
                return Idempotency(key, request_hash, *said["kept"])

            version = await self.commit(table, state, list(mine), kept=kept)
            if version is None:
                if expected is not None:
                    raise Refusal(
                        "conflict",
                        Text("another move was recorded first", "un autre coup a été enregistré avant celui-ci"),
                        version=table.version,
                    ) from None
                return None
            return Moved(version, said["answer"], said.get("kept"), seat)

        return await self.settled(table, attempt)

    async def _replayed(self, game_id: str, key: str, request_hash: str) -> Replayed | None:
        stored = await asyncio.to_thread(self.store.idempotency, game_id, key)
        if stored is None:
            return None
        if stored.request_hash != request_hash:
            raise Refusal(
                "idempotency_key_reused",
                Text(
                    "this idempotency key was already used with a different request",
                    "cette clé d'idempotence a déjà servi pour une requête différente",
                ),
            )
        return Replayed((stored.status, stored.response))
