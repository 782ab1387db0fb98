"""The referee: the one authority between clients and the event store.

It checks who is asking (seat tokens), judges moves with `decide`, lets chance deal and bot seats
play, appends everything a move causes in one atomic batch at the expected version, and answers each
seat with only what that seat may see. Folded states of active games are cached; the store is the
truth, so a cold start or a conflict just folds the log again.
"""

from __future__ import annotations

import asyncio
import hashlib
import random
import secrets
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import structlog

from loveletter.api import parse
from loveletter.api.credentials import AdminTokens
from loveletter.api.problems import Problem, bilingual, violation
from loveletter.api.schemas import CodeIn, CreateGameIn, PlayIn, ReturnIn, SeedIn
from loveletter.api.tokens import digest, matches, new_token
from loveletter.core.bots import get_bot
from loveletter.core.cards import Card
from loveletter.core.catalogue import Event
from loveletter.core.chance import commitment, committed_deal
from loveletter.core.commands import (
    Command,
    ContributeSeed,
    DealRound,
    PlayCard,
    ReturnCards,
    RevealSeed,
    StartGame,
)
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.lang import Text
from loveletter.core.legal import from_action_code, legal_moves, legal_moves_as_dicts
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, PHASE_DEAL, GameState
from loveletter.core.views import redact, view
from loveletter.events.codec import dumps, encode
from loveletter.events.log import Header, game_lines
from loveletter.events.signing import SigningKey
from loveletter.events.store import Append, ConflictError, EventStore, Idempotency

log = structlog.get_logger()

MAX_RETRIES = 5


@dataclass(slots=True)
class Table:
    """A game in memory: its creation record, every event, and the state they fold to."""

    game_id: str
    meta: dict[str, Any]
    events: list[Event]
    state: GameState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

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
            self.changed.set()
            self.changed = asyncio.Event()


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
    ) -> None:
        self.store = store
        self.signing_key = signing_key
        self.admin_tokens = AdminTokens([admin_token] if admin_token else []) if admin_tokens is None else admin_tokens
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._watches: dict[str, Watch] = {}  # by game id: open streams, whether or not their game is cached
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
            table.extend([e for seq, e in rows if seq > table.version])
            self._extended(table)

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

    def _on_append(self, appended: list[tuple[str, int]]) -> None:
        """Store callback (any thread): appends made durable, possibly by another worker."""
        loop = self._loop
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
                if state.round < len(scenario_deals):
                    command = scenario_deals[state.round]
                else:
                    command = committed_deal(state, server_seed)
            else:
                bot = seats[state.active].get("bot")
                if bot is None:
                    break
                moves = legal_moves(state, state.active)
                command = get_bot(bot).choose(view(state, state.active), moves, self._rng)
            new = decide(state, command)
            events.extend(new)
            state = fold(new, state)
        return events, state

    # -- creating a game --------------------------------------------------------------------------

    async def create(self, body: CreateGameIn) -> dict[str, Any]:
        names = tuple(p.name for p in body.players)
        first = None
        if body.first_player is not None:
            probe = fold(decide(INITIAL, StartGame(body.ruleset, names, body.options)))
            first = seat_of(probe, body.first_player, "first_player")
        server_seed = secrets.token_bytes(32)  # secret until the game ends; every deck derives from it
        start = StartGame(body.ruleset, names, body.options, first, body.scenario is not None, commitment(server_seed))
        events = list(decide(INITIAL, start))
        for seat, player in enumerate(body.players):
            if player.seed is not None:
                events += decide(fold(events), ContributeSeed(seat, player.seed))
        state = fold(events)
        deals = [self._scenario_deal(state, d) for d in body.scenario.deals] if body.scenario else []
        tokens = [None if p.bot else new_token() for p in body.players]
        meta = {
            "ruleset": state.ruleset.id if state.ruleset else body.ruleset,
            "players": list(names),
            "scenario_deals": [_deal_json(d) for d in deals],
            "server_seed": server_seed.hex(),
            "seats": [
                {"name": p.name, "bot": p.bot, "token_digest": digest(t) if t else None}
                for p, t in zip(body.players, tokens, strict=True)
            ],
        }
        automatic, state = self._automatic(state, meta, deals)
        events += automatic
        game_id = "g_" + secrets.token_urlsafe(12)
        version = await self.store.commit(Append(game_id, 0, events, create=meta))
        table = Table(game_id, meta, events, state)
        self._tables[game_id] = table
        self._evict()
        log.info("game created", game_id=game_id, ruleset=meta["ruleset"], seats=len(names), seq=version)
        return {
            "game_id": game_id,
            "version": version,
            "ruleset": meta["ruleset"],
            "scenario": body.scenario is not None,
            "seats": [
                {"seat": i, "name": p.name, "bot": p.bot, "token": t}
                for i, (p, t) in enumerate(zip(body.players, tokens, strict=True))
            ],
        }

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
        assert seat is not None
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
                try:
                    version = await self.store.commit(Append(game_id, state.seq, events, idem))
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
                self._extended(table)
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

    def _answer(self, state: GameState, seat: int, events: list[Event], first_seq: int) -> bytes:
        return dumps(
            {
                "version": state.seq,
                "events": events_json(events, first_seq, seat),
                "view": view(state, seat).as_dict(),
                "legal_moves": legal_moves_as_dicts(state, seat),
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
            "view": view(state, seat).as_dict(),
            "legal_moves": legal_moves_as_dicts(state, seat) if seat is not None else [],
        }

    def log_bytes(self, table: Table) -> bytes:
        """The game's complete JSONL log: header, hash-chained events, and the referee's signature
        (the format `loveletter replay` and `loveletter audit` verify)."""
        header = Header.of(table.events[0], table.game_id)  # type: ignore[arg-type]
        signer = self.signing_key.sign if self.signing_key is not None else None
        return b"".join(line + b"\n" for line in game_lines(table.events, header, signer=signer))


def _deal_json(d: DealRound) -> dict[str, Any]:
    return {
        "set_aside": d.set_aside.value,
        "face_up": [c.value for c in d.face_up],
        "hands": [c.value for c in d.hands],
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
