"""Accounts as the stores keep them (schema version 4): a public id, a name and its comparison key, a kind, the digest
of the account's key (never the key), and the games each account sat at; their challenges (6),
event streams (7) and seeks (8).

Both stores share these statements and this code; each gives only its two primitives, `_query` and `_change`. An
account's rows change one statement at a time (each its own transaction); the seats an account takes are written
with the game's events instead (`Append.accounts`), so a game and who sat at it are never apart.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass
from typing import Any


class NameTaken(Exception):
    """Another account has this name (compared by its key: case and Unicode forms aside)."""


@dataclass(frozen=True, slots=True)
class AccountRow:
    account_id: str
    name: str
    kind: str
    created: int
    key_digest: str | None
    """None once the key is revoked."""


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    challenge_id: str
    challenger: str
    challenged: str
    ruleset: str
    rated: bool
    status: str
    """open, accepted (`game_id` is the game) or declined."""
    game_id: str | None
    created: int


@dataclass(frozen=True, slots=True)
class SeekRow:
    seek_id: str
    account_id: str
    ruleset: str
    players: int
    turn_seconds: int | None
    rated: bool
    mu: float
    """The account's rating on the seek's ladder when it sought (the pairing compares these)."""
    status: str
    """open, paired (`game_id` is the game) or cancelled."""
    game_id: str | None
    created: int


SEEK_COLUMNS = "seek_id, account_id, ruleset, players, turn_seconds, rated, mu, status, game_id, created"


class AccountStatements:
    """The account statements in one parameter mark."""

    def __init__(self, m: str) -> None:
        columns = "account_id, name, kind, created, key_digest"
        self.insert = (
            f"INSERT INTO accounts (account_id, name, name_key, kind, key_digest, created) VALUES ({m}, {m}, {m}, {m}, "
            f"{m}, {m})"
        )
        self.by_id = f"SELECT {columns} FROM accounts WHERE account_id = {m}"
        self.by_key = f"SELECT {columns} FROM accounts WHERE key_digest = {m}"
        self.set_key = f"UPDATE accounts SET key_digest = {m} WHERE account_id = {m} AND key_digest = {m}"
        # an account's games in the order the store created them (`games.created_at`; a tie by game id)
        mine = f"SELECT game_id FROM account_games WHERE account_id = {m}"
        self.games = f"SELECT game_id FROM games WHERE game_id IN ({mine}) ORDER BY created_at, game_id"
        self.newest_games = (
            f"SELECT game_id FROM games WHERE game_id IN ({mine}) ORDER BY created_at DESC, game_id DESC LIMIT {m}"
        )
        self.count_games = f"SELECT COUNT(DISTINCT game_id) FROM account_games WHERE account_id = {m}"
        self.rated_games = "SELECT game_id, ruleset, players, created FROM rated_games ORDER BY created, game_id"
        self.insert_rated = (
            f"INSERT INTO rated_games (game_id, ruleset, players, created) VALUES ({m}, {m}, {m}, {m}) "
            "ON CONFLICT DO NOTHING"
        )
        self.insert_seat = (
            f"INSERT INTO account_games (account_id, game_id, seat) VALUES ({m}, {m}, {m}) ON CONFLICT DO NOTHING"
        )
        self.by_name = f"SELECT {columns} FROM accounts WHERE name_key = {m}"
        challenge = "challenge_id, challenger, challenged, ruleset, rated, status, game_id, created"
        self.insert_challenge = f"INSERT INTO challenges ({challenge}) VALUES ({', '.join([m] * 8)})"
        self.challenge = f"SELECT {challenge} FROM challenges WHERE challenge_id = {m}"
        self.settle = f"UPDATE challenges SET status = {m}, game_id = {m} WHERE challenge_id = {m} AND status = 'open'"
        self.challenges_of = (
            f"SELECT {challenge} FROM challenges WHERE (challenger = {m} OR challenged = {m}) AND status = 'open' "
            "ORDER BY created, challenge_id"
        )
        self.insert_event = f"INSERT INTO account_events (account_id, kind, body, created) VALUES ({m}, {m}, {m}, {m})"
        self.events_after = (
            f"SELECT id, kind, body FROM account_events WHERE account_id = {m} AND id > {m} ORDER BY id LIMIT {m}"
        )
        self.insert_seek = f"INSERT INTO seeks ({SEEK_COLUMNS}) VALUES ({', '.join([m] * 10)})"
        self.seek = f"SELECT {SEEK_COLUMNS} FROM seeks WHERE seek_id = {m}"
        self.open_seeks = f"SELECT {SEEK_COLUMNS} FROM seeks WHERE status = 'open' ORDER BY created, seek_id"
        self.cancel_seek = f"UPDATE seeks SET status = 'cancelled' WHERE seek_id = {m} AND status = 'open'"
        self.unclaim = f"UPDATE seeks SET status = 'open', game_id = NULL WHERE game_id = {m} AND status = 'paired'"
        self.seeks_of_game = f"SELECT {SEEK_COLUMNS} FROM seeks WHERE game_id = {m}"
        self.gameless_seeks = (
            f"SELECT {SEEK_COLUMNS} FROM seeks WHERE status = 'paired' AND game_id NOT IN (SELECT game_id FROM games)"
        )
        self.unpair = (
            f"UPDATE seeks SET status = {m}, game_id = {m} WHERE seek_id = {m} AND game_id = {m} AND status = 'paired'"
        )
        self.expire_challenge = (
            f"UPDATE challenges SET expired = 1 WHERE challenge_id = {m} AND status = 'open' AND expired IS NULL"
        )
        self.mark = m

    def claim(self, count: int) -> str:
        """Pair `count` seeks under one game id, only those still open (the caller checks that all were)."""
        marks = ", ".join([self.mark] * count)
        return (
            f"UPDATE seeks SET status = 'paired', game_id = {self.mark} WHERE seek_id IN ({marks}) AND status = 'open'"
        )


class AccountRecords:
    """The account methods of a store, over its `_query` (rows of a read) and `_change` (rows a write changed)."""

    _accounts: AccountStatements

    @abstractmethod
    def _query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]: ...

    @abstractmethod
    def _change(self, sql: str, params: tuple[Any, ...]) -> int:
        """Run one write in a transaction of its own: how many rows it changed; `NameTaken` for a unique name."""

    def create_account(self, row: AccountRow, name_key: str) -> None:
        """Record a new account; `NameTaken` if another one has the same `name_key`."""
        r = row
        self._change(self._accounts.insert, (r.account_id, r.name, name_key, r.kind, r.key_digest, r.created))

    def account(self, account_id: str) -> AccountRow | None:
        rows = self._query(self._accounts.by_id, (account_id,))
        return AccountRow(*rows[0]) if rows else None

    def account_by_key(self, key_digest: str) -> AccountRow | None:
        """The account whose key has this digest (a revoked key has none)."""
        rows = self._query(self._accounts.by_key, (key_digest,))
        return AccountRow(*rows[0]) if rows else None

    def replace_account_key(self, account_id: str, old_digest: str, new_digest: str | None) -> bool:
        """Swap the key's digest (None: revoke it) if it is still `old_digest`: False when another call changed it
        first."""
        return self._change(self._accounts.set_key, (new_digest, account_id, old_digest)) == 1

    def account_games(self, account_id: str) -> list[str]:
        """The games the account sat at, oldest first (as the store created them: what "My games" reverses)."""
        return [g for (g,) in self._query(self._accounts.games, (account_id,))]

    def newest_account_games(self, account_id: str, limit: int) -> tuple[list[str], int]:
        """The newest `limit` games the account sat at, newest first, and how many it sat at in all."""
        newest = [g for (g,) in self._query(self._accounts.newest_games, (account_id, limit))]
        ((total,),) = self._query(self._accounts.count_games, (account_id,))
        return newest, int(total)

    def rated_games(self) -> list[tuple[str, str, int, int]]:
        """(game_id, ruleset, players, created) of every finished rated game, in the ladder's order."""
        return [(g, r, int(p), int(c)) for g, r, p, c in self._query(self._accounts.rated_games, ())]

    def account_by_name(self, name_key: str) -> AccountRow | None:
        """The account whose name has this comparison key (`referee.accounts.normalize_name`)."""
        rows = self._query(self._accounts.by_name, (name_key,))
        return AccountRow(*rows[0]) if rows else None

    # -- challenges ------------------------------------------------------------------------------------------

    def create_challenge(self, row: ChallengeRow) -> None:
        r = row
        values = (r.challenge_id, r.challenger, r.challenged, r.ruleset, int(r.rated), r.status, r.game_id, r.created)
        self._change(self._accounts.insert_challenge, values)

    def challenge(self, challenge_id: str) -> ChallengeRow | None:
        rows = self._query(self._accounts.challenge, (challenge_id,))
        return _challenge(rows[0]) if rows else None

    def settle_challenge(self, challenge_id: str, status: str, game_id: str | None) -> bool:
        """Close an open challenge (accepted, with its game; or declined): False if it was not open any more."""
        return self._change(self._accounts.settle, (status, game_id, challenge_id)) == 1

    def open_challenges(self, account_id: str) -> list[ChallengeRow]:
        """The open challenges the account made or received, oldest first."""
        return [_challenge(r) for r in self._query(self._accounts.challenges_of, (account_id, account_id))]

    # -- account event streams (schema version 7) ------------------------------------------------------------

    def add_account_event(self, account_id: str, kind: str, body: bytes, created: int) -> None:
        """Append an event to the account's stream (its id is the stream's cursor: it only grows)."""
        self._change(self._accounts.insert_event, (account_id, kind, body, created))

    def account_events(self, account_id: str, after: int, limit: int) -> list[tuple[int, str, bytes]]:
        """(id, kind, body) of the account's events after id `after`, oldest first, at most `limit`."""
        rows = self._query(self._accounts.events_after, (account_id, after, limit))
        return [(int(i), k, bytes(b)) for i, k, b in rows]

    # -- seeks (schema version 8): the store is the queue, so every worker pairs from the same one -------------

    def create_seek(self, row: SeekRow) -> None:
        r = row
        values = (r.seek_id, r.account_id, r.ruleset, r.players, r.turn_seconds, int(r.rated), r.mu, r.status,
                  r.game_id, r.created)  # fmt: skip
        self._change(self._accounts.insert_seek, values)

    def seek(self, seek_id: str) -> SeekRow | None:
        rows = self._query(self._accounts.seek, (seek_id,))
        return _seek(rows[0]) if rows else None

    def open_seeks(self) -> list[SeekRow]:
        """Every open seek, oldest first."""
        return [_seek(r) for r in self._query(self._accounts.open_seeks, ())]

    def seeks_of_game(self, game_id: str) -> list[SeekRow]:
        """The seeks paired into a game."""
        return [_seek(r) for r in self._query(self._accounts.seeks_of_game, (game_id,))]

    def gameless_seeks(self) -> list[SeekRow]:
        """Seeks claimed for a game that does not exist: being created now, or never to be (the claiming worker died
        between its claim and the game's creation)."""
        return [_seek(r) for r in self._query(self._accounts.gameless_seeks, ())]

    def cancel_seek(self, seek_id: str) -> bool:
        """Withdraw an open seek: False if it was not open any more (paired or withdrawn already)."""
        return self._change(self._accounts.cancel_seek, (seek_id,)) == 1

    def unpair_seek(self, seek_id: str, game_id: str, reopen: bool) -> bool:
        """A seek paired into `game_id`, which ended unplayed: back in the queue with its place (`reopen`), or
        closed, its game kept (`cancelled` with a game: what `SeekQueue` shows as expired). False if it was not
        paired into that game any more (another worker did it first)."""
        status, kept = ("open", None) if reopen else ("cancelled", game_id)
        return self._change(self._accounts.unpair, (status, kept, seek_id, game_id)) == 1

    def expire_challenge(self, challenge_id: str) -> bool:
        """Note an open challenge found past its time; True only for the first to note it."""
        return self._change(self._accounts.expire_challenge, (challenge_id,)) == 1

    def claim_seeks(self, seek_ids: list[str], game_id: str) -> bool:
        """Pair these seeks under `game_id` if every one of them is still open, else change none: one statement
        claims those still open, and a claim that got fewer than all gives back what it took (another worker paired
        or a player withdrew one of them meanwhile)."""
        if self._change(self._accounts.claim(len(seek_ids)), (game_id, *seek_ids)) == len(seek_ids):
            return True
        self._change(self._accounts.unclaim, (game_id,))
        return False


def _seek(row: tuple[Any, ...]) -> SeekRow:
    s_id, account, ruleset, players, turn, rated, mu, status, game_id, created = row
    return SeekRow(s_id, account, ruleset, int(players), turn, bool(rated), float(mu), status, game_id, int(created))


def _challenge(row: tuple[Any, ...]) -> ChallengeRow:
    c_id, challenger, challenged, ruleset, rated, status, game_id, created = row
    return ChallengeRow(c_id, challenger, challenged, ruleset, bool(rated), status, game_id, int(created))
