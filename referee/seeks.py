"""Seeks: an account asks for a game (ruleset, table size, turn clock, rated or not) and waits in a queue that pairs
seeks of close ratings, widening the window of ratings it accepts as the oldest seek waits (`window`).

The queue is the store's `seeks` table, so every worker pairs from the same queue: a seek sent to one worker pairs
with one sent to another. A pairing claims its seeks with one compare-and-swap statement (`claim_seeks`) and gives
them back unless it got all of them, so two workers pairing at once never put a seek in two games. The paired game is
created with every seat kept for its account (taken by joining with the account's key), and each account is told on
its stream (`seek_paired`, `game_started`). Each worker sweeps the queue when it receives a seek and then once a
second while open seeks remain, so a window widens even when no new seek comes; from its start-up (`start`) every
worker also looks at the queue every few seconds while it is empty, so the seeks left by a worker that stopped
(or by every worker, restarted) are paired though no new seek comes.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from loveletter.core.lang import Text
from loveletter.core.state import GameState
from loveletter.events.accounts import SeekRow
from loveletter.referee.account_events import AccountFeed
from loveletter.referee.accounts import Accounts
from loveletter.referee.inputs import NewGame, NewSeat
from loveletter.referee.ladder import START
from loveletter.referee.refusals import Refusal, key_rejected, seek_not_found
from loveletter.referee.seating import Seating

WINDOW = 2.0
"""Seeks whose ratings (OpenSkill mu) differ by at most this much pair at once."""
WIDEN = 0.5
"""How much the window grows for each second the oldest seek of a pairing has waited."""
CLAIM_WAIT_SECONDS = 2.0
"""How long a new seek's answer waits for a game another worker is creating for it (it takes milliseconds)."""
SWEEP_SECONDS = 1.0
"""How often a worker that knows of open seeks tries to pair them again."""
IDLE_SECONDS = 5.0
"""How often a worker whose queue was empty looks again: seeks received by another worker that has stopped since
are paired though none comes to this one (one cheap query an idle worker)."""
STRANDED_SECONDS = 30.0
"""How long a seek may stay claimed for a game that does not exist before a sweep gives it back to the queue (its
claiming worker died before creating the game; creating one takes milliseconds)."""


def window(waited_ms: int) -> float:
    """The widest difference of ratings a seek that has waited `waited_ms` accepts."""
    return WINDOW + WIDEN * max(waited_ms, 0) / 1000


def pairings(seeks: Sequence[SeekRow], now: int) -> list[list[SeekRow]]:
    """The tables to make from the open seeks (oldest first): the oldest seek not yet placed takes, oldest first,
    seeks of the same kind (ruleset, table size, clock, rated) from other accounts whose rating is within its window,
    until its table is full; a seek that cannot fill its table waits."""
    kinds: dict[tuple[str, int, int | None, bool], list[SeekRow]] = defaultdict(list)
    for s in seeks:
        kinds[(s.ruleset, s.players, s.turn_seconds, s.rated)].append(s)
    tables: list[list[SeekRow]] = []
    for queue in kinds.values():
        placed: set[str] = set()
        for first in queue:
            if first.seek_id in placed:
                continue
            width = window(now - first.created)
            table, accounts = [first], {first.account_id}
            for other in queue:
                if len(table) == first.players:
                    break
                if other.seek_id in placed or other.account_id in accounts or abs(other.mu - first.mu) > width:
                    continue
                table.append(other)
                accounts.add(other.account_id)
            if len(table) == first.players:
                tables.append(table)
                placed.update(s.seek_id for s in table)
    return tables


class SeekQueue:
    """One worker's side of the queue: taking seeks, withdrawing them, pairing them (one per referee)."""

    def __init__(self, accounts: Accounts, seating: Seating, feed: AccountFeed) -> None:
        self.accounts = accounts
        self.store = accounts.store
        self.seating = seating
        self.feed = feed
        self._sweeping = asyncio.Lock()
        self._loop: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._open = True
        """Whether the last sweep left open seeks (or could not read the queue): the loop sweeps again in a second."""
        self._gameless: dict[str, float] = {}
        """Seeks seen claimed for a game that did not exist yet, and when this worker first saw each so."""
        self._looked_for_gameless = float("-inf")
        """When this worker last read the seeks claimed for a game that does not exist (a tenth of the time a seek
        may stay so is often enough: the query need not run every sweep)."""

    async def seek(self, key: str, ruleset: str, players: int, turn_seconds: int | None, rated: bool) -> dict[str, Any]:
        """Queue a seek for the account of `key`, and pair what can be paired now: the seek as it then stands."""
        holder = await self.accounts.holder(key)
        mu = START.mu  # an account not yet on the seek's ladder: the ladder's own start
        for rung in await self.accounts.ladders.of_account(holder.account_id):
            if (rung["ruleset"], rung["players"]) == (ruleset, players):
                mu = float(rung["mu"])  # type: ignore[arg-type]
        row = SeekRow("s_" + secrets.token_urlsafe(12), holder.account_id, ruleset, players, turn_seconds, rated, mu,
                      "open", None, self.accounts.now())  # fmt: skip
        await asyncio.to_thread(self.store.create_seek, row)
        await self.sweep()
        self._keep_sweeping()
        self._wake.set()
        return await self._answer(row.seek_id)

    async def _answer(self, seek_id: str) -> dict[str, Any]:
        """The new seek as it stands, once any pairing under way is made: another worker's sweep may have claimed it a
        moment ago and be creating the game (milliseconds), and the seeker is better told `paired` at once than
        `open` then `paired` a moment later. `CLAIM_WAIT_SECONDS` at most, then as it stands."""
        deadline = asyncio.get_running_loop().time() + CLAIM_WAIT_SECONDS
        while True:
            row = await self._row(seek_id)
            answer = await self._public(row)
            claimed = row.status == "paired" and answer["status"] == "open"  # claimed, its game not made yet
            if not claimed or asyncio.get_running_loop().time() > deadline:
                return answer
            await asyncio.sleep(0.02)

    async def cancel(self, seek_id: str, key: str | None) -> dict[str, Any]:
        """Withdraw an open seek of the account of `key`; a seek already paired or withdrawn is refused."""
        row = await self._row(seek_id)
        if (await self.accounts.holder(key)).account_id != row.account_id:
            raise key_rejected()
        if not await asyncio.to_thread(self.store.cancel_seek, seek_id):
            found = await self._row(seek_id)
            raise Refusal(
                "seek_closed",
                Text(f"this seek is {found.status} already", f"cette recherche est déjà {_FR[found.status]}"),
            )
        return await self.public(seek_id)

    async def public(self, seek_id: str) -> dict[str, Any]:
        return await self._public(await self._row(seek_id))

    async def _public(self, r: SeekRow) -> dict[str, Any]:
        seek_id = r.seek_id
        seat = None
        if r.status == "paired" and r.game_id and await asyncio.to_thread(self.store.meta, r.game_id) is None:
            # claimed, its game not created yet (or never to be: `_give_back`): a pairing is made when its game exists,
            # so the seek still waits, and nobody is sent to a game that is not there
            r = dataclasses.replace(r, status="open", game_id=None)
        if r.game_id is not None and r.status == "paired":
            seat = [s.seek_id for s in await self._table(r.game_id)].index(seek_id)
        status = "expired" if r.status == "cancelled" and r.game_id is not None else r.status
        return {"seek_id": r.seek_id, "account_id": r.account_id, "ruleset": r.ruleset, "players": r.players,
                "turn_seconds": r.turn_seconds, "rated": r.rated, "rating": r.mu, "status": status,
                "game_id": r.game_id, "seat": seat, "created": r.created}  # fmt: skip

    async def _row(self, seek_id: str) -> SeekRow:
        row = await asyncio.to_thread(self.store.seek, seek_id)
        if row is None:
            raise seek_not_found(seek_id)
        return row

    async def _table(self, game_id: str) -> list[SeekRow]:
        rows = await asyncio.to_thread(self.store.seeks_of_game, game_id)
        return sorted(rows, key=lambda s: (s.created, s.seek_id))

    async def sweep(self) -> int:
        """Pair every table that can be made now: how many games were started."""
        async with self._sweeping:
            seeks = await asyncio.to_thread(self.store.open_seeks)
            started = 0
            left = len(seeks)
            for table in pairings(seeks, self.accounts.now()):
                game_id = "g_" + secrets.token_urlsafe(12)
                if await asyncio.to_thread(self.store.claim_seeks, [s.seek_id for s in table], game_id):
                    await self._start(table, game_id)
                    started += 1
                    left -= len(table)
            self._open = left > 0
            await self._give_back()
            return started

    async def _give_back(self) -> None:
        """Reopen the seeks claimed for a game that has not existed for `STRANDED_SECONDS` (the claiming worker died
        between its claim and the game's creation), so that no seek waits forever for a game that will never be."""
        now = asyncio.get_running_loop().time()
        if now - self._looked_for_gameless < STRANDED_SECONDS / 10:
            return
        self._looked_for_gameless = now
        gameless = await asyncio.to_thread(self.store.gameless_seeks)
        seen = {s.seek_id: self._gameless.get(s.seek_id, now) for s in gameless}
        self._gameless = seen
        for s in gameless:
            if now - seen[s.seek_id] >= STRANDED_SECONDS and s.game_id is not None:
                await asyncio.to_thread(self.store.unpair_seek, s.seek_id, s.game_id, True)
                self._gameless.pop(s.seek_id, None)
                self._open = True

    async def _start(self, table: list[SeekRow], game_id: str) -> None:
        first = table[0]
        game = NewGame(
            tuple(NewSeat(open=True) for _ in table), ruleset=first.ruleset, rated=first.rated,
            turn_seconds=first.turn_seconds, on_timeout="resign" if first.turn_seconds else None,
        )  # fmt: skip
        await self.seating.create(
            game, game_id=game_id, reserved_accounts={i: s.account_id for i, s in enumerate(table)}
        )
        facts = {"game_id": game_id, "ruleset": first.ruleset, "players": first.players, "rated": first.rated}
        for seat, s in enumerate(table):
            await self.feed.post(s.account_id, "seek_paired", {"seek_id": s.seek_id, "game_id": game_id, "seat": seat})
            await self.feed.post(s.account_id, "game_started", {**facts, "seat": seat, "joined": False,
                                                                  "seek_id": s.seek_id})  # fmt: skip

    async def unfilled(self, game_id: str, state: GameState) -> None:
        """A game these seeks paired ended unplayed, a seat still open at its join deadline: the seek of each account
        that took its seat goes back to the queue with its place (its time), the others' seeks expire, and each
        account is told (`game_unfilled`, with `requeued`). Whoever changes a seek tells its account, so with
        several workers each account is told once."""
        for seat, s in enumerate(await self._table(game_id)):
            joined = bool(state.players[seat])
            if await asyncio.to_thread(self.store.unpair_seek, s.seek_id, game_id, joined):
                await self.feed.post(
                    s.account_id,
                    "game_unfilled",
                    {"game_id": game_id, "seat": seat, "seek_id": s.seek_id, "requeued": joined},
                )
        self._keep_sweeping()
        self._wake.set()

    def start(self) -> None:
        """At a worker's start-up: sweep the open seeks its store holds, as if it had received them, and keep looking
        for more. Whoever received them may be gone — restarted, or stopped for good — and no new seek may come."""
        self._keep_sweeping()

    async def stop(self) -> None:
        """At a worker's shutdown, before its store closes: no sweep after it."""
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._loop

    def _keep_sweeping(self) -> None:
        if self._loop is None or self._loop.done():
            self._loop = asyncio.get_running_loop().create_task(self._sweep_always())

    async def _sweep_always(self) -> None:
        """Sweep at once, then once a second while open seeks remain (the windows widen as they wait); while the
        queue is empty, look again every `IDLE_SECONDS`, or at once when this worker receives a seek. Each look is the
        sweep's own read of the queue."""
        while True:
            self._wake.clear()  # before the sweep: a seek received during it wakes the next one at once
            try:
                await self.sweep()
            except Exception:  # a store out of reach: the next sweep tries again
                self._open = True
            if self._open:
                await asyncio.sleep(SWEEP_SECONDS)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), IDLE_SECONDS)


_FR = {"paired": "appariée", "cancelled": "retirée", "open": "ouverte", "expired": "expirée"}
