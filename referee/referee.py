"""The referee: the one authority between clients and the event store, and the one thing its callers touch.

Like boardgame.io's master, it is handed its storage (an `EventStore`), its time source and its intervals, and knows
no transport: it takes plain inputs (`referee.inputs`) and credentials, and returns plain data or raises a `Refusal`
(`referee.refusals`). It composes the services that do the work, each of one concern — `tables` (the cache of folded
games and their watches), `tokens` (who is asking), `moves` (judging and recording), `seating` (create, join, rematch,
resign, abort), `clocks` (turn clocks, the streams' ticker), `accounts`, `seeks`, `challenges`, `account_events`,
`ladder` and `jobs` — owns their start and stop, and answers every read of a game through a `Reader` made for the
credential that asked (`referee.reading`): no `Table`, store or service leaves this room (tests/test_layers.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING, Any, Callable, Literal

import orjson

from loveletter.core.catalogue import Event
from loveletter.core.lang import Lang, Text
from loveletter.events.signing import SigningKey
from loveletter.events.store import EventStore
from loveletter.play.ladder import Standing
from loveletter.play.simulate import Config
from loveletter.play.thinking import Thinking
from loveletter.referee.account_events import KINDS as ACCOUNT_EVENT_KINDS
from loveletter.referee.account_events import AccountFeed
from loveletter.referee.accounts import Accounts, Kind
from loveletter.referee.challenges import Challenges
from loveletter.referee.clocks import Clocks, Timing, wall_ms
from loveletter.referee.inputs import Joining, Move, NewGame
from loveletter.referee.jobs import Job, Jobs
from loveletter.referee.ladder import Ladders
from loveletter.referee.lobby import follow_news
from loveletter.referee.moves import Judge, Keeper, Moved, Replayed
from loveletter.referee.reading import Item, Reader, game_not_over
from loveletter.referee.refusals import Refusal, key_rejected
from loveletter.referee.seating import Seating
from loveletter.referee.seeks import SeekQueue
from loveletter.referee.tables import Tables
from loveletter.referee.tokens import AdminTokens, Credentials

if TYPE_CHECKING:
    from loveletter.play.engine.review import Decision

__all__ = [
    "ACCOUNT_EVENT_KINDS",
    "AdminTokens",
    "Item",
    "Job",
    "Keeper",
    "Moved",
    "Reader",
    "Referee",
    "Refusal",
    "Replayed",
    "Timing",
]

Asker = Literal["seat", "seat_or_admin", "admin"]
"""Which credentials a read takes: a seat's or the organiser's token (any other refused), those or an admin's, or
an admin's alone (any other read as nobody's: the caller is a spectator)."""


READY_SECONDS = 2.0
"""How long `readiness` waits for the store before it says the referee is not ready."""


class Referee:
    """The face of the referee: every command and every read its callers may make, and nothing else."""

    def __init__(
        self,
        store: EventStore,
        *,
        cache_games: int = 10_000,
        admin_tokens: AdminTokens | None = None,
        signing_key: SigningKey | None = None,
        clock: Callable[[], int] = wall_ms,
        timing: Timing | None = None,
        owns_store: bool = False,
        thinking: Thinking | None = None,
        identified: Callable[[str, int], None] | None = None,
    ) -> None:
        """`identified` is told (game id, seat) whenever a token is found to be a seat's (a log line's context)."""
        self._store = store
        self._owns_store = owns_store
        self._signing_key = signing_key
        self._timing = timing or Timing()
        self._tables = Tables(store, cache_games)
        self._credentials = Credentials(admin_tokens if admin_tokens is not None else AdminTokens(), identified)
        self._judge = Judge(store, self._tables, self._credentials, clock, thinking)
        self._ladders = Ladders(store)
        self._accounts = Accounts(store, clock, self._ladders)
        self._seating = Seating(self._judge, self._accounts, self._timing)
        self._clocks = Clocks(store, clock, self._timing, self._expire, self._tables.poke_all)
        self._tables.loaded.append(self._clocks.started)
        self._feed = AccountFeed(store, clock)
        self._seeks = SeekQueue(self._accounts, self._seating, self._feed)
        self._challenges = Challenges(self._accounts, self._seating, self._feed, self._timing)
        self._jobs = Jobs(self._judge.thinking)

    # -- start and stop -------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start the background work: the turn clocks, and the seek queue's pairing (the open seeks left in the
        store are paired though no new seek comes). Called on the event loop that will serve the referee."""
        self._tables.bind_loop()
        await self._clocks.start()
        self._seeks.start()

    async def stop(self) -> None:
        """Stop the background work, the thinking room's worker processes, and the store if it is the referee's."""
        await self._seeks.stop()
        await self._jobs.stop()
        await self._clocks.stop()
        self._judge.thinking.close()
        if self._owns_store:
            self._store.close()

    async def _expire(self, game_id: str, deadline: int) -> bool:
        return await self.expire(game_id, deadline)  # by attribute: a benchmark may wrap `expire`

    async def expire(self, game_id: str, deadline: int) -> bool:
        """Act on a game's `deadline` if it is still its next deadline and has passed: True if acted. A game a seek
        paired whose seats were not all taken in time gives its seeks back (`SeekQueue.unfilled`)."""
        done = await self._judge.expire(game_id, deadline)
        state = (await self._tables.table(game_id)).state
        if done == "seats_unfilled" or (done is None and state.aborted and state.round == 0):
            # (again when a first attempt recorded the abort but could not reach the seeks: nothing is done twice)
            await self._seeks.unfilled(game_id, state)
        return done is not None

    # -- the service ------------------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """Alive: answered without touching the store (what a supervisor restarts the process on)."""
        return {"status": "ok", "store": type(self._store).__name__}

    async def figures(self, token: str | None, anyone: bool = False) -> dict[str, Any]:
        """What an operator watches, read now: the games of the lobby's index by status (the store's, the same for
        every worker), this worker's engine queue and its background jobs under way. For an admin's token, or for
        anyone when the operator opened them (`anyone`)."""
        if not anyone and not self._credentials.is_admin(token):
            raise Refusal(
                "admin_required",
                Text(
                    "the referee's figures are for its admins: send an admin token",
                    "les chiffres de l'arbitre sont réservés à ses administrateurs : envoyez un jeton d'administration",
                ),
            )
        games = await asyncio.to_thread(self._store.game_counts)
        return {
            "games": {status: games.get(status, 0) for status in ("open", "running", "finished")},
            "engine": self._engine(),
            "jobs": self._jobs.under_way(),
        }

    def _engine(self) -> dict[str, Any]:
        """The engine's worker processes: how many, their state, the work waiting in each lane."""
        thinking = self._judge.thinking
        return {
            "workers": thinking.workers,
            "state": thinking.state,
            "urgent_waiting": thinking.waiting(True),
            "background_waiting": thinking.waiting(False),
        }

    async def readiness(self) -> dict[str, Any]:
        """Ready to serve: the store answers a read within `READY_SECONDS`, and the state of the engine's worker
        processes (they start at the first decision that needs them, so "idle" is ready too). `ready` is False
        only when the store does not answer: what a load balancer takes a host out of rotation for."""
        started = time.perf_counter()
        try:
            await asyncio.wait_for(asyncio.to_thread(self._store.lobby_feed_head), READY_SECONDS)
            store: dict[str, Any] = {"ready": True, "ms": round((time.perf_counter() - started) * 1000, 1)}
        except Exception as exc:  # any failure to read is "not ready", said in its own words
            store = {"ready": False, "error": f"{type(exc).__name__}: {exc}"[:300]}
        return {
            "ready": store["ready"],
            "store": {"kind": type(self._store).__name__, **store},
            "engine": self._engine(),
        }

    def public_keys(self) -> list[dict[str, str]]:
        """The public keys the logs are signed with (none without a signing key)."""
        return [self._signing_key.published()] if self._signing_key is not None else []

    # -- games: commands ----------------------------------------------------------------------------

    async def create(self, game: NewGame, token: str | None = None) -> dict[str, Any]:
        """Create a game (`token`: the asker's, needed only to choose the server seed, which is the admin's)."""
        if game.server_seed is not None and not self._credentials.is_admin(token):
            raise Refusal(
                "admin_required",
                Text(
                    "only the referee's admin may choose a game's server seed",
                    "seul l'administrateur de l'arbitre peut choisir la graine serveur d'une partie",
                ),
            )
        return await self._seating.create(game)

    async def join(self, game_id: str, joining: Joining) -> dict[str, Any]:
        return await self._seating.join(game_id, joining)

    async def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        return await self._seating.rematch(game_id, token)

    async def resign(self, game_id: str, token: str | None) -> Moved:
        return await self._seating.resign(game_id, token)

    async def abort(self, game_id: str, token: str | None) -> Moved:
        return await self._seating.abort(game_id, token)

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
        return await self._judge.move(game_id, token, move, request=request, expected=expected, key=key, keep=keep)

    # -- games: reads, each filtered for the credential that asked ----------------------------------------

    async def reader(self, game_id: str, token: str | None, *, asker: Asker = "seat") -> Reader:
        """The game as `token` may see it (refused with `game_not_found` if there is none; a token that is not one
        the read takes is refused, except for `asker="admin"`, where anyone else is a spectator)."""
        table = await self._tables.table(game_id)
        if asker == "admin":  # the log is the record: caught up with what other workers appended, not as cached
            async with table.lock:
                await self._tables.refresh(table)
        admin = asker != "seat" and self._credentials.is_admin(token)
        seat = None if admin or asker == "admin" else self._credentials.seat_for(table, token, required=False)
        return Reader(
            self._tables, table, seat, admin=admin, signing_key=self._signing_key, keep_alive=self._timing.keep_alive
        )

    async def finished_events(self, game_id: str) -> list[Event]:
        """A finished game's events, which anyone may read (refused while the game is in play)."""
        table = await self._tables.table(game_id)
        if not table.state.over:
            raise game_not_over(
                "a game of this server is analysed once it is over", "une partie de ce serveur s'analyse une fois finie"
            )
        return list(table.events)

    async def lobby(
        self, status: str | None, ruleset: str | None, before: tuple[int, str] | None, limit: int
    ) -> tuple[list[dict[str, Any]], tuple[int, str] | None]:
        """A page of the public games, newest first, with public facts only, and where the next page starts."""
        rows = await asyncio.to_thread(self._store.lobby, status, ruleset, before, limit + 1)
        games = [{"game_id": game, **orjson.loads(listing)} for _, game, listing in rows[:limit]]
        return games, (rows[limit - 1][0], rows[limit - 1][1]) if len(rows) > limit else None

    def lobby_news(self, cursor: int | None) -> AsyncGenerator[list[Item] | None, None]:
        """The lobby's news after `cursor` (None: from the next news on), then as it comes (`lobby.follow_news`)."""
        return follow_news(self._store, self._tables, cursor, self._timing.keep_alive)

    # -- accounts -----------------------------------------------------------------------------------------

    async def create_account(self, name: str, kind: Kind) -> dict[str, Any]:
        """A new account: its public id and its key (shown here and never again)."""
        return await self._accounts.create(name, kind)

    async def account(self, account_id: str) -> dict[str, Any]:
        """What anyone may read of an account: its name, kind, games and ratings."""
        return await self._accounts.public(account_id)

    async def account_of_key(self, key: str | None) -> dict[str, Any]:
        """The account whose current key is `key`, as anyone may read it (refused for any other key)."""
        row = await self._accounts.holder(key)
        return await self._accounts.public(row.account_id)

    async def rotate_key(self, account_id: str, key: str | None) -> dict[str, Any]:
        return await self._accounts.rotate(account_id, key)

    async def revoke_key(self, account_id: str, key: str | None) -> None:
        await self._accounts.revoke(account_id, key)

    async def account_events(
        self, account_id: str, key: str | None, cursor: int
    ) -> AsyncGenerator[list[Item] | None, None]:
        """The account's events after `cursor`, for the holder of its key alone (`AccountFeed.follow`)."""
        holder = await self._accounts.holder(key)
        if holder.account_id != account_id:
            raise key_rejected()
        return self._feed.follow(account_id, cursor, self._timing.keep_alive)

    # -- seeks and challenges -------------------------------------------------------------------------

    async def seek(self, key: str, ruleset: str, players: int, turn_seconds: int | None, rated: bool) -> dict[str, Any]:
        return await self._seeks.seek(key, ruleset, players, turn_seconds, rated)

    async def seek_status(self, seek_id: str) -> dict[str, Any]:
        return await self._seeks.public(seek_id)

    async def cancel_seek(self, seek_id: str, key: str | None) -> dict[str, Any]:
        return await self._seeks.cancel(seek_id, key)

    async def challenge(self, key: str, to: str, ruleset: str, rated: bool) -> dict[str, Any]:
        return await self._challenges.make(key, to, ruleset, rated)

    async def challenge_status(self, challenge_id: str) -> dict[str, Any]:
        return await self._challenges.public(challenge_id)

    async def accept_challenge(self, challenge_id: str, key: str) -> dict[str, Any]:
        return await self._challenges.accept(challenge_id, key)

    async def decline_challenge(self, challenge_id: str, key: str) -> dict[str, Any]:
        return await self._challenges.decline(challenge_id, key)

    async def challenges_of(self, account_id: str) -> list[dict[str, Any]]:
        return await self._challenges.of_account(account_id)

    # -- background jobs, the ladder and standings

    async def ladder(self, ruleset: str, players: int) -> list[Standing]:
        """A ladder's standings, best first (`play.ladder`'s fold of the finished rated games)."""
        return await self._ladders.ladder(ruleset, players)

    async def account_history(self, account_id: str) -> dict[str, object]:
        """An account's rating after each of its rated games, its win rate and head-to-head, read from the ladder's
        own fold (refused for an account that does not exist)."""
        await self._accounts.public(account_id)
        return await self._ladders.history(account_id)

    async def account_games(self, account_id: str, limit: int) -> dict[str, Any]:
        """An account's newest games, each from its point of view (`Accounts.played`)."""
        return await self._accounts.played(account_id, limit)

    def start_simulation(self, config: Config) -> Job:
        """Bots against bots for the statistics page (one at a time per worker, `referee.jobs`)."""
        return self._jobs.simulation(config)

    def simulation(self, job_id: str) -> Job:
        return self._jobs.get("simulation", job_id)

    def cancel_simulation(self, job_id: str) -> Job:
        return self._jobs.cancel("simulation", job_id)

    def start_analysis(self, events: list[Event], decisions: list[Decision], head: dict[str, Any], lang: Lang) -> Job:
        """The engine's review of `decisions` of a game, in the background (`referee.jobs`)."""
        return self._jobs.analysis(events, decisions, head, lang)

    def analysis(self, job_id: str) -> Job:
        return self._jobs.get("analysis", job_id)

    def cancel_analysis(self, job_id: str) -> Job:
        return self._jobs.cancel("analysis", job_id)
