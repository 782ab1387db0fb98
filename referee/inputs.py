"""What a client asks of the referee, as plain data: a new game, a seat to join, a move.

These are not the rules' commands (`core.commands`): a client names a target by name or seat and a move by its
action code, and only the referee, knowing the game and the asker's seat, can turn that into a command. Nor are they
a transport's bodies: the HTTP layer validates its JSON into these (api/schemas.py), any other transport may too."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Union

from loveletter.core.cards import Card

SeatRef = Union[int, str]
"""A seat by number (0-based) or by its player's name."""


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A named seat (a person, or a bot the referee plays), or an open one (`open`), left for someone to join."""

    name: str | None = None
    bot: str | None = None
    seed: str | None = None
    open: bool = False
    account_key: str | None = None
    """The key of the account that takes this seat (it plays under the account's name)."""


@dataclass(frozen=True, slots=True)
class NewDeal:
    """An explicit deal of a scenario game: one round's zones, deck top first."""

    set_aside: Card
    face_up: tuple[Card, ...]
    hands: tuple[Card, ...]
    deck: tuple[Card, ...]
    first_player: SeatRef | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    players: tuple[NewSeat, ...]
    ruleset: str = "2019"
    options: dict[str, str] = field(default_factory=dict)
    first_player: SeatRef | None = None
    scenario: tuple[NewDeal, ...] | None = None
    """The first rounds' deals: the game is recorded as a scenario (None: every round shuffled)."""
    public: bool = False
    turn_seconds: int | None = None
    on_timeout: Literal["bot", "resign"] | None = None
    server_seed: str | None = None
    rated: bool = False
    """Every seat an account's, each account once: the result moves their ratings (docs/accounts.md)."""


@dataclass(frozen=True, slots=True)
class Joining:
    """Take an open seat: by invite, or any open seat of a public game without one."""

    name: str
    invite: str | None = None
    seed: str | None = None
    account_key: str | None = None
    """The key of the account that takes the seat (it plays under the account's name)."""


@dataclass(frozen=True, slots=True)
class Play:
    card: Card
    target: SeatRef | None = None
    guess: Card | None = None


@dataclass(frozen=True, slots=True)
class Return:
    """The Chancellor's choice: the card kept, the others to the bottom of the deck (top to bottom)."""

    keep: Card
    bottom: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Code:
    """Any move by its stable action code (docs/bots.md)."""

    action_code: int


@dataclass(frozen=True, slots=True)
class Seed:
    """The seat's own 256-bit seed (64 hex digits), mixed into the shuffles of the rounds dealt after it."""

    seed: str


Move = Union[Play, Return, Code, Seed]
