"""The event catalogue: every fact a game log can record, in one file.

Events are frozen, slotted dataclasses so the fold stays fast; pydantic validates them at the edges
(`events.codec`). Each event is named on the wire by its stable `TYPE` string and carries a schema
`VERSION`, so a rename in Python never breaks an old log. Seats are 0-based indices into the
players of `game_started`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal, Union

from pydantic import ConfigDict

from loveletter.core.cards import Card
from loveletter.core.event_parts import SeatAccount as SeatAccount
from loveletter.core.event_parts import SeatBot as SeatBot
from loveletter.core.event_parts import Shuffle as Shuffle

_STRICT = ConfigDict(extra="forbid", frozen=True)

FirstPlayerRule = Literal["named", "random", "previous-winner", "random-among-winners"]
RoundEndReason = Literal["last-standing", "deck-out"]
FavorReason = Literal["round", "spy", "amira-sadie"]
DrawSource = Literal["deck", "set-aside"]
OnTimeout = Literal["bot", "resign"]
AbortReason = Literal["seats_unfilled"]
ResignReason = Literal["resigned", "timeout"]


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game was created with these players, ruleset and rule options; `seed_commitment` is the SHA-256
    (hex) of the server seed every deck is derived from (absent in scenarios, whose deals are given)."""

    TYPE: ClassVar[str] = "game_started"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    ruleset: str
    players: tuple[str, ...]
    options: dict[str, str]
    first_player: int | None = None
    scenario: bool = False
    seed_commitment: str | None = None
    open_seats: tuple[int, ...] = ()
    turn_seconds: int | None = None
    on_timeout: OnTimeout | None = None
    accounts: tuple[SeatAccount | None, ...] = ()
    """Each seat's account at creation (None: none), or empty when no seat has one."""
    rated: bool = False
    """A rated game: its result moves its accounts' ratings (docs/accounts.md)."""
    at: int | None = None
    """When a rated game was created (Unix time in milliseconds): the ladder takes rated games in this order."""
    join_by: int | None = None
    """When the open seats expire (Unix time in milliseconds): a seat still open then ends the game unplayed."""
    bots: tuple[SeatBot | None, ...] = ()
    """The built-in bot of each seat the referee plays (None: a player's seat), or empty when it plays none."""
    stand_in: SeatBot | None = None
    """With `on_timeout: bot`: the bot that decides for a seat whose clock runs out."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset(
        {"open_seats", "turn_seconds", "on_timeout", "accounts", "rated", "at", "join_by", "bots", "stand_in"}
    )
    """Fields written only when they differ from their default, so logs from before them keep their bytes."""


@dataclass(frozen=True, slots=True)
class SeatJoined:
    """A player took an open seat (public). `players[player]` was empty until now."""

    TYPE: ClassVar[str] = "seat_joined"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    name: str
    at: int
    account: SeatAccount | None = None
    """The account that took the seat, if one did."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"account"})


@dataclass(frozen=True, slots=True)
class ClockSet:
    """`player` must decide by `deadline`: set at `at` (both Unix time in milliseconds, public)."""

    TYPE: ClassVar[str] = "clock_set"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    at: int
    deadline: int


@dataclass(frozen=True, slots=True)
class ClockRanOut:
    """`player`'s deadline passed, seen by the referee at `at`; what follows is the game's `on_timeout`."""

    TYPE: ClassVar[str] = "clock_ran_out"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    at: int


@dataclass(frozen=True, slots=True)
class PlayerResigned:
    """`player` left the game (RULINGS §12): out of the round, `cards` (their hand) discarded face up without
    effect, and out of every later round."""

    TYPE: ClassVar[str] = "player_resigned"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    cards: tuple[Card, ...]
    reason: ResignReason
    at: int


@dataclass(frozen=True, slots=True)
class GameAborted:
    """The game was stopped at `at`: nobody wins, nothing more is played. `reason` None: by its organiser (or an
    admin); `seats_unfilled`: a seat was still open at the game's `join_by`."""

    TYPE: ClassVar[str] = "game_aborted"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    at: int
    reason: AbortReason | None = None

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"reason"})


@dataclass(frozen=True, slots=True)
class SeedContributed:
    """A seat added its own 256-bit seed (hex) to the shuffles of the rounds dealt after it (public)."""

    TYPE: ClassVar[str] = "seed_contributed"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    seed: str


@dataclass(frozen=True, slots=True)
class SeedRevealed:
    """The game is over: the server reveals the seed whose SHA-256 `game_started` committed to."""

    TYPE: ClassVar[str] = "seed_revealed"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    seed: str


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round was dealt: every zone, in order, and who plays first and why."""

    TYPE: ClassVar[str] = "round_started"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    round: int
    first_player: int
    first_player_rule: FirstPlayerRule
    set_aside: Card
    face_up: tuple[Card, ...]
    hands: tuple[Card | None, ...]
    """One per seat; None for a seat that has left the game (RULINGS §12)."""
    deck: tuple[Card, ...]
    shuffle: Shuffle | None = None


@dataclass(frozen=True, slots=True)
class TurnStarted:
    """The active player drew the top card of the deck."""

    TYPE: ClassVar[str] = "turn_started"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A player played a card, with its target and the Guard's guess (public)."""

    TYPE: ClassVar[str] = "card_played"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    card: Card
    target: int | None = None
    guess: Card | None = None


@dataclass(frozen=True, slots=True)
class HandSeen:
    """Priest: `player` looked at `target`'s hand (known to `player` only)."""

    TYPE: ClassVar[str] = "hand_seen"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    target: int
    card: Card


@dataclass(frozen=True, slots=True)
class HandsCompared:
    """Baron: the two hands compared (known to the two players only)."""

    TYPE: ClassVar[str] = "hands_compared"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    target: int
    player_card: Card
    target_card: Card


@dataclass(frozen=True, slots=True)
class HandsTraded:
    """King: `player` gave `player_card` and received `target_card` (known to the two players only)."""

    TYPE: ClassVar[str] = "hands_traded"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    target: int
    player_card: Card
    target_card: Card


@dataclass(frozen=True, slots=True)
class HandDiscarded:
    """Prince: `player` discarded their hand face up, without its effect (public)."""

    TYPE: ClassVar[str] = "hand_discarded"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardDrawn:
    """Prince: `player` drew a new hand from the deck or the set-aside card (card known to `player`)."""

    TYPE: ClassVar[str] = "card_drawn"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    card: Card
    source: DrawSource


@dataclass(frozen=True, slots=True)
class ChancellorDrew:
    """Chancellor: `player` drew these cards (known to `player` only)."""

    TYPE: ClassVar[str] = "chancellor_drew"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class ChancellorReturned:
    """Chancellor: `player` kept one card and put `bottom` under the deck, listed top to bottom."""

    TYPE: ClassVar[str] = "chancellor_returned"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    kept: Card
    bottom: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class PlayerEliminated:
    """`player` is out of the round and discarded `cards` face up; `cause` is the card that did it."""

    TYPE: ClassVar[str] = "player_eliminated"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    cards: tuple[Card, ...]
    cause: Card


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """The round is over. `hands` holds each seat's revealed hand at a deck-out (None when not revealed)."""

    TYPE: ClassVar[str] = "round_ended"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    round: int
    reason: RoundEndReason
    winners: tuple[int, ...]
    set_aside: Card | None
    hands: tuple[Card | None, ...] = ()


@dataclass(frozen=True, slots=True)
class FavorGained:
    """`player` gained one favor token for `reason`."""

    TYPE: ClassVar[str] = "favor_gained"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    player: int
    reason: FavorReason


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over; every player at or above the threshold won."""

    TYPE: ClassVar[str] = "game_ended"
    VERSION: ClassVar[int] = 1
    __pydantic_config__ = _STRICT
    winners: tuple[int, ...]


Event = Union[
    GameStarted,
    SeatJoined,
    ClockSet,
    ClockRanOut,
    PlayerResigned,
    GameAborted,
    SeedContributed,
    SeedRevealed,
    RoundStarted,
    TurnStarted,
    CardPlayed,
    HandSeen,
    HandsCompared,
    HandsTraded,
    HandDiscarded,
    CardDrawn,
    ChancellorDrew,
    ChancellorReturned,
    PlayerEliminated,
    RoundEnded,
    FavorGained,
    GameEnded,
]

EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameStarted,
        SeatJoined,
        ClockSet,
        ClockRanOut,
        PlayerResigned,
        GameAborted,
        SeedContributed,
        SeedRevealed,
        RoundStarted,
        TurnStarted,
        CardPlayed,
        HandSeen,
        HandsCompared,
        HandsTraded,
        HandDiscarded,
        CardDrawn,
        ChancellorDrew,
        ChancellorReturned,
        PlayerEliminated,
        RoundEnded,
        FavorGained,
        GameEnded,
    )
}
