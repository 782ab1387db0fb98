"""The referee: the one authority between clients and the event store, and the one entry its callers need.

Like boardgame.io's master, it is handed its storage (an `EventStore`), its time source and its intervals, and
knows no transport: it takes plain inputs (`referee.inputs`) and tokens, and returns plain data or raises a
`Refusal`. Its parts, each of one concern: `tables` (the cache of folded games, their watches, presence),
`tokens` (who is asking), `moves` (judging and recording, idempotency), `following` (chance and the bot seats,
the expert thought off the event loop), `seating` (create, join, rematch, resign, abort) and `clocks` (turn clocks,
the streams' ticker)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Callable

from loveletter.core.lang import Text
from loveletter.core.legal import legal_moves_as_dicts
from loveletter.core.views import view
from loveletter.events.log import Header, game_lines
from loveletter.events.signing import SigningKey
from loveletter.events.store import EventStore
from loveletter.referee.clocks import Clocks, Timing, wall_ms
from loveletter.referee.inputs import Joining, Move, NewGame
from loveletter.referee.moves import Judge, Keeper, Moved, Replayed
from loveletter.referee.refusals import Refusal
from loveletter.referee.seating import Seating
from loveletter.referee.tables import Presence, Table, Tables, Watch, state_seen_by
from loveletter.referee.tokens import AdminTokens, Credentials


class Referee:
    """The parts wired together: a facade whose methods are the referee's whole surface."""

    def __init__(
        self,
        store: EventStore,
        *,
        cache_games: int = 10_000,
        admin_tokens: AdminTokens | None = None,
        signing_key: SigningKey | None = None,
        clock: Callable[[], int] = wall_ms,
        timing: Timing | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.signing_key = signing_key
        self.tables = Tables(store, cache_games)
        self.credentials = Credentials(admin_tokens if admin_tokens is not None else AdminTokens())
        self.judge = Judge(store, self.tables, self.credentials, clock)
        self.seating = Seating(self.judge)
        self.clocks = Clocks(store, clock, timing or Timing(), self._expire, self.tables.poke_all)
        self.tables.loaded.append(self.clocks.started)

    async def _expire(self, game_id: str, deadline: int) -> bool:
        return await self.expire(game_id, deadline)  # by attribute: a benchmark may wrap `expire`

    # -- tables, streams, presence ------------------------------------------------------------------

    async def table(self, game_id: str) -> Table:
        """The game (refused with `game_not_found` if there is none)."""
        return await self.tables.table(game_id)

    @contextmanager
    def watching(self, game_id: str) -> Iterator[Watch]:
        with self.tables.watching(game_id) as watch:
            yield watch

    async def current(self, game_id: str, watch: Watch) -> Table:
        return await self.tables.current(game_id, watch)

    @property
    def presence(self) -> Presence:
        return self.tables.presence

    def bind_loop(self) -> None:
        self.tables.bind_loop()

    async def start_clocks(self) -> None:
        await self.clocks.start()

    async def stop_clocks(self) -> None:
        await self.clocks.stop()

    async def expire(self, game_id: str, deadline: int) -> bool:
        """Act on a game's clock if `deadline` is still its running deadline and has passed: True if acted."""
        return await self.judge.expire(game_id, deadline)

    # -- who is asking --------------------------------------------------------------------------------

    def seat_for(self, table: Table, token: str | None, *, required: bool) -> int | None:
        return self.credentials.seat_for(table, token, required=required)

    def is_admin(self, token: str | None) -> bool:
        return self.credentials.is_admin(token)

    # -- commands -------------------------------------------------------------------------------------

    async def create(self, game: NewGame, token: str | None = None) -> dict[str, Any]:
        """Create a game (`token`: the asker's, needed only to choose the server seed, which is the admin's)."""
        if game.server_seed is not None and not self.credentials.is_admin(token):
            raise Refusal(
                "admin_required",
                Text(
                    "only the referee's admin may choose a game's server seed",
                    "seul l'administrateur de l'arbitre peut choisir la graine serveur d'une partie",
                ),
            )
        return await self.seating.create(game)

    async def join(self, game_id: str, joining: Joining) -> dict[str, Any]:
        return await self.seating.join(game_id, joining)

    async def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        return await self.seating.rematch(game_id, token)

    async def resign(self, game_id: str, token: str | None) -> Moved:
        return await self.seating.resign(game_id, token)

    async def abort(self, game_id: str, token: str | None) -> Moved:
        return await self.seating.abort(game_id, token)

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
        """Judge and record a seat's move (see `Judge.move`)."""
        return await self.judge.move(game_id, token, move, request=request, expected=expected, key=key, keep=keep)

    # -- reading ----------------------------------------------------------------------------------------

    def game_json(self, table: Table, seat: int | None) -> dict[str, Any]:
        """The game as `seat` sees it (None: a spectator, who sees it as it was the spectator delay ago)."""
        state = state_seen_by(table, seat)
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
