"""The ladders as the referee serves them: `play.ladder.standings` over the logs of the store's finished rated games
(the `rated_games` table, which the store fills in the transaction that ends a rated game), folded again whenever that
list has changed since the last fold. Nothing here rates anything itself: the server's figures are the fold's, which
is what `loveletter ratings` computes from the downloaded logs."""

from __future__ import annotations

import asyncio

from loveletter.events.store import EventStore
from loveletter.play.ladder import Group, NotCounted, RatedGame, Standing, rated_game, standings


class Ladders:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._folded: tuple[tuple[str, ...], dict[Group, list[Standing]]] = ((), {})
        self._games: tuple[tuple[str, ...], list[RatedGame]] = ((), [])
        self._lock = asyncio.Lock()

    async def all(self) -> dict[Group, list[Standing]]:
        """Every ladder, from every finished rated game the store holds now."""
        rows = await asyncio.to_thread(self.store.rated_games)
        ids = tuple(game_id for game_id, *_ in rows)
        async with self._lock:
            if self._folded[0] != ids:
                self._folded = (ids, await asyncio.to_thread(self._fold, ids))
            return self._folded[1]

    def _fold(self, ids: tuple[str, ...]) -> dict[Group, list[Standing]]:
        games = [rated_game(g, [e for _, e in self.store.load(g)]) for g in ids]
        return standings(games)

    async def games(self) -> list[RatedGame]:
        """Every finished rated game the store holds now, as the ladder counts it (read again when the list changed)."""
        rows = await asyncio.to_thread(self.store.rated_games)
        ids = tuple(game_id for game_id, *_ in rows)
        async with self._lock:
            if self._games[0] != ids:
                self._games = (ids, await asyncio.to_thread(self._read, ids))
            return self._games[1]

    def _read(self, ids: tuple[str, ...]) -> list[RatedGame]:
        games = []
        for g in ids:
            try:
                games.append(rated_game(g, [e for _, e in self.store.load(g)]))
            except NotCounted:
                continue  # the ladder's fold would refuse it too; the store records only games that count
        return games

    async def ladder(self, ruleset: str, players: int) -> list[Standing]:
        return (await self.all()).get((ruleset, players), [])

    async def of_account(self, account_id: str) -> list[dict[str, object]]:
        """The account's place on each ladder it is on: ruleset, table size, rank, rating and games."""
        out: list[dict[str, object]] = []
        for (ruleset, players), ladder in (await self.all()).items():
            for rank, standing in enumerate(ladder, start=1):
                if standing.account == account_id:
                    out.append({"ruleset": ruleset, "players": players, "rank": rank, "mu": standing.mu,
                                "sigma": standing.sigma, "games": standing.games})  # fmt: skip
        return out
