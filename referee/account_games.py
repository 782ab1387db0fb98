"""An account's games as its page lists them (`GET /accounts/{id}/games`): newest first, each read from the game's
own log (who sat where, who won, whether it ended or was stopped) and its record (when it was created), told from
this account's point of view, with the rating change the ladder's fold gives a finished rated game. The store picks
and orders the games (`newest_account_games`); nothing here guesses an order or a result.

A finished game never changes, so what its log says is kept (a few thousand games at most): a page of a hundred
games then reads only the logs of the games still being played."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from loveletter.core.catalogue import Event, GameStarted, SeatAccount, SeatJoined
from loveletter.core.evolve import fold
from loveletter.events.store import EventStore
from loveletter.referee.ladder import Change
from loveletter.referee.record import GameRecord

KEPT = 5000
"""Finished games whose facts are kept in memory."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What one game's log and record say, whoever reads it."""

    game_id: str
    created: int
    """Unix ms, the referee's clock when the game was created (its record)."""
    ruleset: str
    names: tuple[str, ...]
    """Each seat's player ("" for a seat still open)."""
    accounts: tuple[SeatAccount | None, ...]
    rated: bool
    over: bool
    aborted: bool
    winners: tuple[int, ...]
    resigned: tuple[bool, ...]


def facts(game_id: str, record: GameRecord, events: Sequence[Event]) -> Facts:
    """A game's facts from its record and its log (the seats' accounts as the log gives them, as the ladder reads
    them: `game_started.accounts`, then `seat_joined.account`)."""
    started = events[0]
    assert isinstance(started, GameStarted)  # a game's first event starts it
    seats: list[SeatAccount | None] = list(started.accounts) or [None] * len(started.players)
    for e in events:
        if isinstance(e, SeatJoined) and e.account is not None:
            seats[e.player] = e.account
    state = fold(events)
    return Facts(
        game_id,
        record.created or int(started.at or 0),
        started.ruleset,
        tuple(state.players),
        tuple(seats),
        started.rated,
        state.over,
        state.aborted,
        tuple(state.winners),
        tuple(state.resigned),
    )


def status(game: Facts, mine: Sequence[int]) -> str:
    """The game from the account's seats `mine`: waiting (a seat still open), playing, resigned (it left; the game
    goes on without it), won (alone or with others), lost, or aborted (stopped: nobody won)."""
    if game.aborted:
        return "aborted"
    if game.over:
        return "won" if any(s in game.winners for s in mine) else "lost"
    if any(not name for name in game.names):
        return "waiting"
    return "resigned" if all(game.resigned[s] for s in mine) else "playing"


def as_seen(game: Facts, account_id: str, change: Change | None) -> dict[str, Any]:
    """One game of the list, from `account_id`'s point of view."""
    mine = [s for s, a in enumerate(game.accounts) if a is not None and a.account == account_id]
    others = [
        {"seat": s, "name": name, "account_id": a.account if a else None, "kind": a.kind if a else None}
        for s, (name, a) in enumerate(zip(game.names, game.accounts, strict=True))
        if s not in mine and name
    ]
    rating = None
    if change is not None:
        (mu0, sigma0), (mu1, sigma1) = change
        rating = {"before": {"mu": mu0, "sigma": sigma0}, "after": {"mu": mu1, "sigma": sigma1}}
    return {
        "game_id": game.game_id,
        "created": game.created,
        "ruleset": game.ruleset,
        "players": len(game.names),
        "seats": mine,
        "rated": game.rated,
        "status": status(game, mine),
        "opponents": others,
        "rating": rating,
    }


class AccountGames:
    """Reads the games of an account's list, keeping the facts of the finished ones."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._kept: OrderedDict[str, Facts] = OrderedDict()
        self._lock = threading.Lock()  # pages are read in worker threads, several at once

    def read(self, account_id: str, limit: int) -> tuple[list[Facts], int]:
        """The facts of the account's newest `limit` games, newest first, and how many games it sat at in all
        (blocking: the store's calls)."""
        ids, total = self.store.newest_account_games(account_id, limit)
        found: list[Facts] = []
        for game_id in ids:
            with self._lock:
                known = self._kept.get(game_id)
                if known is not None:
                    self._kept.move_to_end(game_id)
            if known is None:
                meta = self.store.meta(game_id)
                events = [e for _, e in self.store.load(game_id)]
                if meta is None or not events:  # pragma: no cover - the store writes a game and its seats together
                    continue
                known = facts(game_id, GameRecord.of_json(meta), events)
                if known.over:
                    with self._lock:
                        self._kept[game_id] = known
                        while len(self._kept) > KEPT:
                            self._kept.popitem(last=False)
            found.append(known)
        return found, total
