"""The ladders as the referee serves them: `play.ladder`'s one fold over the logs of the store's finished rated games
(the `rated_games` table, which the store fills in the transaction that ends a rated game), folded again whenever that
list has changed since the last fold. The ladder's standings and each account's history are two readings of that
one fold; nothing here rates anything itself, and `loveletter ratings` over the downloaded logs computes the same."""

from __future__ import annotations

import asyncio

from loveletter.events.store import EventStore
from loveletter.play.ladder import (
    Group,
    Ladder,
    NotCounted,
    RatedGame,
    Standing,
    account_history,
    fold_ladders,
    rated_game,
)
from loveletter.play.ratings import rate

START = rate([], 1).final[0]
"""Every account's rating before its first game on a ladder (OpenSkill's default: the ladder's own start)."""
Change = tuple[tuple[float, float], tuple[float, float]]
"""An account's (mu, sigma) before one rated game and after it."""


class Ladders:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._folded: tuple[tuple[str, ...], dict[Group, Ladder]] = ((), {})
        self._lock = asyncio.Lock()

    async def all(self) -> dict[Group, Ladder]:
        """Every ladder, folded from every finished rated game the store holds now."""
        rows = await asyncio.to_thread(self.store.rated_games)
        ids = tuple(game_id for game_id, *_ in rows)
        async with self._lock:
            if self._folded[0] != ids:
                self._folded = (ids, await asyncio.to_thread(self._fold, ids))
            return self._folded[1]

    def _fold(self, ids: tuple[str, ...]) -> dict[Group, Ladder]:
        games: list[RatedGame] = []
        for g in ids:
            try:
                games.append(rated_game(g, [e for _, e in self.store.load(g)]))
            except NotCounted:
                continue  # the store lists only games that count; a record it holds from before is passed over
        return fold_ladders(games)

    async def ladder(self, ruleset: str, players: int) -> list[Standing]:
        found = (await self.all()).get((ruleset, players))
        return found.standings if found is not None else []

    async def history(self, account_id: str) -> dict[str, object]:
        """The account's history, win rate and head-to-head (`play.ladder.account_history`)."""
        return account_history(await self.all(), account_id)

    async def changes(self, account_id: str) -> dict[str, Change]:
        """The account's rating just before and just after each of its rated games, by game id: the figures of its
        history's chart (the point before a game is the one of the account's previous game on that ladder)."""
        out: dict[str, Change] = {}
        for ladder in (await self.all()).values():
            me = ladder.index.get(account_id)
            if me is None:
                continue
            for n, game in enumerate(ladder.games):
                if any(s.account == account_id for s in game.seats):
                    before = ladder.history[n - 1][me] if n else (START.mu, START.sigma)
                    out[game.game_id] = (before, ladder.history[n][me])
        return out

    async def of_account(self, account_id: str) -> list[dict[str, object]]:
        """The account's place on each ladder it is on: ruleset, table size, rank, rating and games."""
        out: list[dict[str, object]] = []
        for (ruleset, players), ladder in (await self.all()).items():
            for rank, standing in enumerate(ladder.standings, start=1):
                if standing.account == account_id:
                    out.append({"ruleset": ruleset, "players": players, "rank": rank, "mu": standing.mu,
                                "sigma": standing.sigma, "games": standing.games})  # fmt: skip
        return out
