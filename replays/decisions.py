"""What each logged event is to replay: a decision (a player's, chance's or the referee's) or a consequence of the one
before it, the command a decision records, and the rule that produces each consequence (what a wrong one breaks).
`replays.replay` judges a log with them; `replays.regenerate` regenerates a clean one from its decisions."""

from __future__ import annotations

from collections.abc import Sequence

from loveletter.core.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    ClockRanOut,
    ClockSet,
    Event,
    FavorGained,
    GameAborted,
    GameEnded,
    GameStarted,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerResigned,
    RoundEnded,
    RoundStarted,
    SeatJoined,
    SeedContributed,
    SeedRevealed,
    TurnStarted,
)
from loveletter.core.commands import (
    Abort,
    Command,
    ContributeSeed,
    DealRound,
    ExpireSeats,
    JoinSeat,
    PlayCard,
    Resign,
    ReturnCards,
    RevealSeed,
    SetClock,
    StartGame,
    TimeOut,
)
from loveletter.events.log import Entry

DECISIONS = (
    GameStarted,
    RoundStarted,
    CardPlayed,
    ChancellorReturned,
    SeedContributed,
    SeedRevealed,
    SeatJoined,
    ClockSet,
    ClockRanOut,
    GameAborted,
)
"""Events that record a decision (a player's, chance's or the referee's); every other event is a consequence.
A `player_resigned` is a decision, except one for time right after its `clock_ran_out`."""


def starts_decision(entries: Sequence[Entry], k: int) -> bool:
    """Whether `entries[k]` records a decision rather than a consequence of the one before it."""
    event = entries[k].event
    if isinstance(event, DECISIONS):
        return True
    if type(event) is not PlayerResigned:
        return False
    # a resignation for time follows its clock_ran_out as a consequence; any other is the player's own decision
    return event.reason != "timeout" or k == 0 or type(entries[k - 1].event) is not ClockRanOut


def command_of(event: Event) -> Command | None:
    """The decision a logged event records, or None for a consequence."""
    kind = type(event)
    if kind is CardPlayed:
        return PlayCard(event.player, event.card, event.target, event.guess)  # type: ignore[union-attr]
    if kind is ChancellorReturned:
        return ReturnCards(event.player, event.kept, event.bottom)  # type: ignore[union-attr]
    if isinstance(event, RoundStarted):
        return DealRound(event.set_aside, event.face_up, event.hands, event.deck, event.first_player, event.shuffle)
    if isinstance(event, GameStarted):
        return StartGame(
            event.ruleset,
            event.players,
            dict(event.options),
            event.first_player,
            event.scenario,
            event.seed_commitment,
            event.open_seats,
            event.turn_seconds,
            event.on_timeout,
            event.accounts,
            event.rated,
            event.at,
            event.join_by,
            event.bots,
            event.stand_in,
        )
    if isinstance(event, SeedContributed):
        return ContributeSeed(event.player, event.seed)
    if isinstance(event, SeedRevealed):
        return RevealSeed(event.seed)
    if isinstance(event, SeatJoined):
        return JoinSeat(event.player, event.name, event.at, event.account)
    if isinstance(event, ClockSet):
        return SetClock(event.player, event.at)
    if isinstance(event, ClockRanOut):
        return TimeOut(event.player, event.at)
    if isinstance(event, PlayerResigned):
        return Resign(event.player, event.at)
    if isinstance(event, GameAborted):
        return ExpireSeats(event.at) if event.reason == "seats_unfilled" else Abort(event.at)
    return None


def rule_of(event: Event) -> str:
    """The rule that produces `event` as a consequence: what a wrong one breaks."""
    if isinstance(event, PlayerEliminated):
        return {"guard": "guard.effect", "baron": "baron.effect"}.get(event.cause.value, "princess.eliminated")
    if isinstance(event, RoundEnded):
        return "round.last-standing" if event.reason == "last-standing" else "round.deck-out"
    if isinstance(event, FavorGained):
        return f"favor.{event.reason}"
    simple: dict[type, str] = {
        GameStarted: "setup.ruleset",
        RoundStarted: "setup.deal",
        TurnStarted: "turn.order",
        CardPlayed: "turn.play-from-hand",
        HandSeen: "priest.effect",
        HandsCompared: "baron.effect",
        HandsTraded: "king.effect",
        HandDiscarded: "prince.effect",
        CardDrawn: "prince.effect",
        ChancellorDrew: "chancellor.effect",
        ChancellorReturned: "chancellor.return",
        GameEnded: "game.end",
        SeedContributed: "shuffle.seat-seed",
        SeedRevealed: "shuffle.commitment",
        SeatJoined: "lobby.join",
        ClockSet: "clock.deadline",
        ClockRanOut: "clock.timeout",
        PlayerResigned: "leave.resign",
        GameAborted: "leave.abort",
    }
    if isinstance(event, GameAborted) and event.reason == "seats_unfilled":
        return "lobby.join-deadline"
    return simple[type(event)]
