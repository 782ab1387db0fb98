"""Commands: what a player (or chance) asks for. `core.decide` turns a legal one into events."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union

from loveletter.core.cards import Card
from loveletter.core.catalogue import OnTimeout, SeatAccount, SeatBot, Shuffle


@dataclass(frozen=True, slots=True)
class StartGame:
    """Create a game. `first_player` None means the first round's first player is drawn at random."""

    ruleset: str
    players: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    first_player: int | None = None
    scenario: bool = False
    seed_commitment: str | None = None
    open_seats: tuple[int, ...] = ()
    turn_seconds: int | None = None
    on_timeout: OnTimeout | None = None
    accounts: tuple[SeatAccount | None, ...] = ()
    rated: bool = False
    at: int | None = None
    join_by: int | None = None
    bots: tuple[SeatBot | None, ...] = ()
    stand_in: SeatBot | None = None


@dataclass(frozen=True, slots=True)
class DealRound:
    """Chance's move: the zones of a freshly shuffled round and its first player."""

    set_aside: Card
    face_up: tuple[Card, ...]
    hands: tuple[Card | None, ...]
    deck: tuple[Card, ...]
    first_player: int
    shuffle: Shuffle | None = None


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play `card` from hand, choosing `target` (a seat) and, for the Guard, naming `guess`."""

    player: int
    card: Card
    target: int | None = None
    guess: Card | None = None


@dataclass(frozen=True, slots=True)
class ReturnCards:
    """The Chancellor's second decision: keep one card, put `bottom` under the deck (listed top to bottom)."""

    player: int
    keep: Card
    bottom: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ContributeSeed:
    """A seat adds its own 256-bit seed (hex) to the shuffles of later rounds."""

    player: int
    seed: str


@dataclass(frozen=True, slots=True)
class RevealSeed:
    """Chance's last move: the server seed, once the game is over."""

    seed: str


@dataclass(frozen=True, slots=True)
class JoinSeat:
    """Take the open seat `player` under `name`, at `at` (Unix time in milliseconds)."""

    player: int
    name: str
    at: int
    account: SeatAccount | None = None


@dataclass(frozen=True, slots=True)
class SetClock:
    """The referee starts the clock of `player`'s pending decision at `at` (milliseconds)."""

    player: int
    at: int


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The referee saw `player`'s deadline pass at `at` (milliseconds)."""

    player: int
    at: int


@dataclass(frozen=True, slots=True)
class Resign:
    """`player` leaves the game at `at` (milliseconds)."""

    player: int
    at: int


@dataclass(frozen=True, slots=True)
class Abort:
    """The organiser stops the game at `at` (milliseconds)."""

    at: int


@dataclass(frozen=True, slots=True)
class ExpireSeats:
    """The referee saw the open seats' deadline (`join_by`) pass at `at` (milliseconds) with a seat still open."""

    at: int


Command = Union[
    StartGame,
    DealRound,
    PlayCard,
    ReturnCards,
    ContributeSeed,
    RevealSeed,
    JoinSeat,
    SetClock,
    TimeOut,
    Resign,
    Abort,
    ExpireSeats,
]
PlayerCommand = Union[PlayCard, ReturnCards]
