"""The answers of the routes of accounts as typed values (challenges, seeks, an account's event stream): the one
definition of their shapes, declared in the server's OpenAPI document, like `loveletter.client.models`."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from loveletter.client.models import Answer


class AccountEvent(Answer):
    """One item of `GET /accounts/{id}/stream`, by `type`: `challenge_received`, `challenge_accepted`,
    `challenge_declined` (with the `challenge`), `game_started` (its `game_id`, the account's `seat`, `joined`:
    false when the account still takes it by joining with its key), `seek_paired` (the `seek_id` and its game),
    `game_unfilled` (a game made for the account ended unplayed, a seat still open at its join deadline: the `game_id`,
    its `seat`, the `seek_id` that paired it, and `requeued`: true when that seek is back in the queue, the account
    having taken its seat), `challenge_expired` (the `challenge`, unanswered in time)."""

    type: str
    at: int
    """When the referee wrote it (Unix ms)."""
    id: int = 0
    """The event's id in the account's stream (`Last-Event-ID`), as the stream frames it."""
    challenge: dict[str, Any] | None = None
    game_id: str | None = None
    seat: int | None = None
    joined: bool | None = None
    ruleset: str | None = None
    players: int | None = None
    rated: bool | None = None
    challenge_id: str | None = None
    seek_id: str | None = None
    requeued: bool | None = None


# -- accounts: challenges and seeks (docs/accounts.md) -----------------------------------------------------


class AccountInfo(Answer):
    """`GET /account` (or `/accounts/{id}`): an account as anyone may read it."""

    account_id: str
    name: str
    kind: str
    created: int
    active: bool
    games: list[str] = Field(default_factory=list)
    ratings: list[dict[str, Any]] = Field(default_factory=list)


class Party(Answer):
    account_id: str
    name: str
    kind: str


class Challenge(Answer):
    """A challenge: who challenged whom, to what game, and where it stands (`open`, `accepted`: see `game_id`,
    `declined`, `expired`: unanswered until `expires`)."""

    challenge_id: str
    challenger: Party
    challenged: Party
    ruleset: str
    players: int
    rated: bool
    status: str
    game_id: str | None = None
    """The game, once the challenge is accepted."""
    created: int
    expires: int | None = None
    """When an unanswered challenge expires (Unix milliseconds; None: never)."""


class ChallengeList(Answer):
    """`GET /accounts/{id}/challenges`: the account's open challenges, made or received, oldest first."""

    challenges: list[Challenge]


class Accepted(Answer):
    """`POST /challenges/{id}/accept`: the new game and the acceptor's seat, with its token."""

    challenge_id: str
    game_id: str
    seat: int
    name: str
    token: str
    version: int


class Seek(Answer):
    """A seek and where it stands: `open` (waiting), `paired` (`game_id`, and the account's `seat`, taken by
    joining with its key) or `cancelled`."""

    seek_id: str
    account_id: str
    ruleset: str
    players: int
    turn_seconds: int | None = None
    rated: bool
    rating: float
    """The account's rating on this ladder when it sought, which the pairing compares."""
    status: str
    game_id: str | None = None
    seat: int | None = None
    created: int
