"""Judging: a seat's move turned into a command and decided by the rules, everything it causes (chance dealing,
bot seats, a clock started) appended with it in one atomic batch at the expected version, and the answer each seat
may see; a move sent with an idempotency key is answered once and that answer replayed to its retries.

A move refused by the rules is judged again on a fresh read before the refusal stands when other workers share the
store (this worker's cache may be behind); a lost race at the store reads the game again and judges again."""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import structlog

from loveletter.core.cards import Card
from loveletter.core.catalogue import Event
from loveletter.core.chance import chance_move
from loveletter.core.commands import Command, ContributeSeed, DealRound, PlayCard, ReturnCards, SetClock, TimeOut
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.lang import Text
from loveletter.core.legal import from_action_code, legal_moves, legal_moves_as_dicts
from loveletter.core.rules import RuleViolation
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_DEAL, PHASE_PLAY, GameState
from loveletter.core.views import view
from loveletter.events.store import Append, ConflictError, EventStore, GameIndex, Idempotency
from loveletter.play.bots import get_bot
from loveletter.referee.inputs import Code, Move, Play, Return, SeatRef, Seed
from loveletter.referee.refusals import Refusal, kept_changing, ruled_out, unknown_player
from loveletter.referee.tables import Table, Tables, events_json, game_index, lobby_news
from loveletter.referee.tokens import Credentials

log = structlog.get_logger()

MAX_RETRIES = 5
Kept = tuple[int, bytes]
"""An answer as its transport keeps it with an idempotency key (for HTTP: the status and the body's bytes); the
referee stores and replays it without reading it."""
Keeper = Callable[[dict[str, Any] | Refusal], Kept]
"""How the transport keeps an answer or a refusal (rendered in the asker's language, say)."""


@dataclass(frozen=True, slots=True)
class Moved:
    """A move (or a resignation, an abort) recorded: the game's new version and the seat's answer (its events as it
    sees them, its view, its legal moves); `kept`, the answer as the keeper rendered it when there was a key."""

    version: int
    answer: dict[str, Any]
    kept: Kept | None = None


@dataclass(frozen=True, slots=True)
class Replayed:
    """The first answer to an idempotency key, kept as the transport rendered it (a refusal, perhaps)."""

    kept: Kept


def seat_of(state: GameState, ref: SeatRef | None, what: str) -> int | None:
    """The seat a reference names (a seat number or a player's name); refused if it names nobody."""
    if ref is None:
        return None
    if isinstance(ref, int) and 0 <= ref < len(state.players):
        return ref
    if isinstance(ref, str) and ref in state.players:
        return state.players.index(ref)
    raise unknown_player(ref, what)


def answer(state: GameState, seat: int | None, events: list[Event], first_seq: int) -> dict[str, Any]:
    """What a move answers `seat`: the version, the events it caused as the seat sees them, its view and moves."""
    return {
        "version": state.seq,
        "events": events_json(events, first_seq, seat),
        "view": view(state, seat).as_dict(),
        "legal_moves": legal_moves_as_dicts(state, seat) if seat is not None else [],
    }


def deal_of(data: dict[str, Any]) -> DealRound:
    """A scenario's deal as the game's record keeps it."""
    return DealRound(
        Card(data["set_aside"]),
        tuple(Card(c) for c in data["face_up"]),
        tuple(Card(c) for c in data["hands"]),
        tuple(Card(c) for c in data["deck"]),
        int(data["first_player"]),
    )


class Judge:
    """Decides commands on cached tables and records them; `now` is the time source (Unix milliseconds)."""

    def __init__(self, store: EventStore, tables: Tables, credentials: Credentials, now: Callable[[], int]) -> None:
        self.store = store
        self.tables = tables
        self.credentials = credentials
        self.now = now
        self.rng = random.Random(secrets.randbits(128))

    # -- what follows by itself --------------------------------------------------------------------

    def automatic(
        self, state: GameState, meta: dict[str, Any], scenario_deals: list[DealRound]
    ) -> tuple[list[Event], GameState]:
        """Let chance and the bot seats move until a person must decide or the game is over (a person's clock
        started, on a clocked game): the events, and the state they lead to."""
        events: list[Event] = []
        seats = meta["seats"]
        server_seed = bytes.fromhex(meta["server_seed"])
        while True:
            command: Command | None
            if state.phase == PHASE_DEAL and state.round == 0 and state.open_seats:
                break  # dealt once the last seat is taken
            if state.phase == PHASE_DEAL and state.round < len(scenario_deals):
                command = scenario_deals[state.round]
            elif (command := chance_move(state, server_seed)) is None:
                if state.over:
                    break
                bot = seats[state.active].get("bot")
                if bot is None:
                    if state.turn_seconds is None or state.deadline is not None:
                        break
                    command = SetClock(state.active, self.now())  # a person must decide: start their clock
                else:
                    command = self.bot_move(state, bot)
            new = decide(state, command)
            events.extend(new)
            state = fold(new, state)
        return events, state

    def bot_move(self, state: GameState, bot: str) -> Command:
        moves = legal_moves(state, state.active)
        choice: Command = get_bot(bot).choose(view(state, state.active), moves, self.rng)
        return choice

    # -- recording -----------------------------------------------------------------------------------

    async def commit(
        self, table: Table, state: GameState, mine: list[Event], meta: dict[str, Any] | None = None
    ) -> int | None:
        """Record `mine` and what follows automatically after `state` (with the game's new record `meta`, if it
        changes); None when another writer got there first (the table is refreshed: judge again)."""
        deals = [deal_of(d) for d in table.meta.get("scenario_deals", [])]
        automatic, final = self.automatic(fold(mine, state), meta or table.meta, deals)
        events = [*mine, *automatic]
        index = self.index_change(table, meta or table.meta, final, events)
        try:
            version = await self.store.commit(Append(table.game_id, state.seq, events, meta=meta, index=index))
        except ConflictError:
            await self.tables.refresh(table)
            return None
        if meta is not None:
            table.meta = meta
        self._grown(table, events, final, index)
        return version

    def _grown(self, table: Table, events: list[Event], final: GameState, index: GameIndex | None) -> None:
        """After a commit: the table extended, the lobby told of news, the streams and clocks woken."""
        table.extend(events, final)
        if index is not None:
            table.indexed = index
            if index.news is not None and index.public:
                self.tables.lobby_ping()
        self.tables.extended(table)

    def index_change(
        self, table: Table, meta: dict[str, Any], state: GameState, events: list[Event]
    ) -> GameIndex | None:
        """The game's new index entry with the lobby's news of `events`, or None when it has none or it did not
        change."""
        index = game_index(meta, state)
        if index is None or index == table.indexed:
            return None
        return replace(index, news=lobby_news(events, state))

    async def decided(self, table: Table, make: Callable[[GameState], Command], seat: int | None) -> Moved:
        """Decide and record one command made by `make` from the current state (a resignation, an abort)."""
        async with table.lock:
            fresh = not self.store.shared
            for _ in range(MAX_RETRIES):
                state = table.state
                try:
                    events = list(decide(state, make(state)))
                except RuleViolation as v:
                    if not fresh:
                        fresh = True
                        await self.tables.refresh(table)
                        continue
                    raise ruled_out(v, legal_moves_as_dicts(state, seat) if seat is not None else []) from None
                version = await self.commit(table, state, events)
                if version is None:
                    continue
                return Moved(version, answer(table.state, seat, table.events[state.seq :], state.seq + 1))
        raise kept_changing(table.version)

    async def expire(self, game_id: str, deadline: int) -> bool:
        """Act on `game_id`'s clock if `deadline` is still its running deadline and has passed: True if acted."""
        table = await self.tables.table(game_id)
        async with table.lock:
            if self.store.shared:
                await self.tables.refresh(table)
            for _ in range(MAX_RETRIES):
                state = table.state
                now = self.now()
                if state.deadline is None or state.deadline[1] != deadline or now < deadline:
                    return False
                seat = state.deadline[0]
                events = list(decide(state, TimeOut(seat, now)))
                after = fold(events, state)
                if after.on_timeout == "bot" and after.active == seat and after.phase in (PHASE_PLAY, PHASE_CHANCELLOR):
                    events += decide(after, self.bot_move(after, "heuristic"))
                if await self.commit(table, state, events) is not None:
                    log.info("clock ran out", game_id=game_id, seat=seat, on_timeout=state.on_timeout)
                    return True
                # another worker acted (or the player moved just in time): judge the new state
        return False

    # -- a move ----------------------------------------------------------------------------------------

    def command(self, state: GameState, seat: int, move: Move) -> Command:
        if isinstance(move, Seed):
            return ContributeSeed(seat, move.seed)
        if isinstance(move, Play):
            return PlayCard(seat, move.card, seat_of(state, move.target, "target"), move.guess)
        if isinstance(move, Return):
            return ReturnCards(seat, move.keep, tuple(move.bottom))
        assert isinstance(move, Code)
        try:
            return from_action_code(move.action_code, seat)
        except ValueError as exc:
            raise Refusal(
                "unknown_action_code", Text(str(exc), f"aucun coup n'a le code d'action {move.action_code}")
            ) from None

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
        async with table.lock:
            fresh = not self.store.shared  # a cache that other workers may have overtaken is read again before a "no"
            for _ in range(MAX_RETRIES):
                if key is not None:
                    replayed = await self._replayed(game_id, key, request_hash)
                    if replayed is not None:
                        return replayed
                state = table.state
                if expected is not None and expected != state.seq:
                    if expected > state.seq and not fresh:
                        fresh = True
                        await self.tables.refresh(table)
                        continue
                    raise Refusal(
                        "stale_version",
                        Text(
                            f"If-Match expected version {expected}, the game is at version {state.seq}",
                            f"If-Match attendait la version {expected}, la partie en est à la version {state.seq}",
                        ),
                        version=state.seq,
                    )
                refusal: Refusal | None = None
                try:
                    mine = decide(state, self.command(state, seat, move))
                except RuleViolation as v:
                    if not fresh:
                        fresh = True
                        await self.tables.refresh(table)
                        if table.version != state.seq:
                            continue
                    refusal = ruled_out(v, legal_moves_as_dicts(state, seat))
                except Refusal as problem:  # a player or an action code this game does not have
                    refusal = problem
                if refusal is not None:
                    if key is None or keep is None:
                        raise refusal
                    status, body = keep(refusal)
                    if await self._keep_refusal(table, state.seq, Idempotency(key, request_hash, status, body)):
                        raise refusal
                    continue
                deals = [deal_of(d) for d in table.meta.get("scenario_deals", [])]
                automatic, final = self.automatic(fold(mine, state), table.meta, deals)
                events = [*mine, *automatic]
                said = answer(final, seat, events, state.seq + 1)
                kept = keep(said) if key is not None and keep is not None else None
                idem = Idempotency(key, request_hash, *kept) if key is not None and kept is not None else None
                index = self.index_change(table, table.meta, final, events)
                try:
                    version = await self.store.commit(Append(game_id, state.seq, events, idem, index=index))
                except ConflictError:
                    await self.tables.refresh(table)
                    if expected is not None:
                        raise Refusal(
                            "conflict",
                            Text("another move was recorded first", "un autre coup a été enregistré avant celui-ci"),
                            version=table.version,
                        ) from None
                    continue
                self._grown(table, events, final, index)
                structlog.contextvars.bind_contextvars(seq=version)
                return Moved(version, said, kept)
        raise kept_changing(table.version)

    async def _keep_refusal(self, table: Table, version: int, kept: Idempotency) -> bool:
        """Record a refusal with its idempotency key, at the version it was judged at (no event, the answer alone);
        False if the game moved meanwhile, to be judged again."""
        try:
            await self.store.commit(Append(table.game_id, version, [], kept))
        except ConflictError:
            await self.tables.refresh(table)
            return False
        return True

    async def _replayed(self, game_id: str, key: str, request_hash: str) -> Replayed | None:
        stored = await asyncio.to_thread(self.store.idempotency, game_id, key)
        if stored is None:
            return None
        if stored.request_hash != request_hash:
            raise Refusal(
                "idempotency_key_reused",
                Text(
                    "this Idempotency-Key was already used with a different request body",
                    "cette valeur d'Idempotency-Key a déjà servi pour une requête au corps différent",
                ),
            )
        return Replayed((stored.status, stored.response))
