"""evolve(state, event) -> state: the pure fold of the event log.

One small apply function per event type rebinds the attributes of a private `Transient` copy.
`evolve` copies and freezes around a single event; `fold` copies once for a whole sequence.
Evolve trusts its events: checking them against the rules is `decide`'s job (see `replays.replay`).
"""

from __future__ import annotations

from typing import Callable, Iterable, TypeVar

from loveletter.core import memo
from loveletter.core.cards import Card
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
from loveletter.core.rulesets import Options, get_ruleset
from loveletter.core.state import (
    INITIAL,
    PHASE_CHANCELLOR,
    PHASE_DEAL,
    PHASE_OVER,
    PHASE_PLAY,
    PHASE_RESOLVING,
    GameState,
    Transient,
)

T = TypeVar("T")


def _put(row: tuple[T, ...], i: int, value: T) -> tuple[T, ...]:
    if len(row) == 2 and (i == 0 or i == 1):  # a two-seat table's rows, built whole: no list in between
        return (value, row[1]) if i == 0 else (row[0], value)
    cells = list(row)
    cells[i] = value
    return tuple(cells)


_HANDMAID = Card.HANDMAID


Knows = tuple[tuple[Card | None, ...], ...]
_NOBODY_KNOWS: dict[int, Knows] = memo.table()


def _nobody_knows(n: int) -> Knows:
    """The `knows` of a fresh round, one shared value per table size: the fold can then tell by
    identity (no scan) that nobody knows anything yet."""
    knows = _NOBODY_KNOWS.get(n)
    if knows is None:
        knows = _NOBODY_KNOWS[n] = ((None,) * n,) * n
    return knows


def _forget(knows: Knows, subject: int) -> Knows:
    """Nobody knows `subject`'s hand any more."""
    if knows is _NOBODY_KNOWS.get(len(knows)):
        return knows
    for row in knows:
        if row[subject] is not None:
            return tuple(_put(row, subject, None) for row in knows)
    return knows


def _game_started(s: Transient, e: GameStarted) -> None:
    n = len(e.players)
    s.ruleset = get_ruleset(e.ruleset)
    s.options = Options.from_dict(e.options)
    s.players = e.players
    s.named_first_player = e.first_player
    s.scenario = e.scenario
    s.favors = (0,) * n
    s.phase = PHASE_DEAL
    s.out = (False,) * n
    s.protected = (False,) * n
    s.hands = ((),) * n
    s.front = ((),) * n
    s.knows = _nobody_knows(n)
    s.deck_known = ((),) * n
    s.seed_commitment = e.seed_commitment
    s.seat_seeds = (None,) * n
    s.resigned = (False,) * n
    s.turn_seconds = e.turn_seconds
    s.on_timeout = e.on_timeout
    s.join_by = e.join_by if e.open_seats else None


def _seat_joined(s: Transient, e: SeatJoined) -> None:
    s.players = _put(s.players, e.player, e.name)
    s.clock = e.at
    if all(s.players):
        s.join_by = None  # every seat taken: the seats' deadline is met


def _clock_set(s: Transient, e: ClockSet) -> None:
    s.deadline = (e.player, e.deadline)
    s.clock = e.at


def _clock_ran_out(s: Transient, e: ClockRanOut) -> None:
    s.deadline = None
    s.clock = e.at


def _player_resigned(s: Transient, e: PlayerResigned) -> None:
    p = e.player
    s.resigned = _put(s.resigned, p, True)
    s.clock = e.at
    if s.deadline is not None and s.deadline[0] == p:
        s.deadline = None
    if s.phase == PHASE_DEAL or s.out[p]:
        return
    _out_of_round(s, p, e.cards)
    if p == s.active:
        s.phase = PHASE_RESOLVING


def _game_aborted(s: Transient, e: GameAborted) -> None:
    s.aborted = True
    s.winners = ()
    s.deadline = None
    s.join_by = None
    s.clock = e.at
    s.phase = PHASE_OVER


def _seed_contributed(s: Transient, e: SeedContributed) -> None:
    seeds = list(s.seat_seeds)
    seeds[e.player] = e.seed
    s.seat_seeds = tuple(seeds)


def _seed_revealed(s: Transient, e: SeedRevealed) -> None:
    s.server_seed = e.seed


def _round_started(s: Transient, e: RoundStarted) -> None:
    n = len(s.players)
    s.round = e.round
    s.set_aside = e.set_aside
    s.face_up = e.face_up
    s.hands = tuple(() if card is None else (card,) for card in e.hands)
    s.deck = e.deck
    s.drawn = 0
    s.front = ((),) * n
    s.out = s.resigned
    s.protected = (False,) * n
    s.knows = _nobody_knows(n)
    s.deck_known = ((),) * n
    s.round_winners = ()
    s.active = -1
    s.phase = PHASE_RESOLVING


def _turn_started(s: Transient, e: TurnStarted) -> None:
    p = e.player
    s.active = p
    if s.protected[p]:
        s.protected = _put(s.protected, p, False)
    s.hands = _put(s.hands, p, s.hands[p] + (e.card,))
    s.deck = s.deck[1:]
    s.drawn += 1
    s.phase = PHASE_PLAY


def _card_played(s: Transient, e: CardPlayed) -> None:
    p, card = e.player, e.card
    hand = s.hands[p]
    if len(hand) == 2 and (hand[0] is card or hand[1] is card):  # a player to move holds two: the other is left
        left: tuple[Card, ...] = (hand[1],) if hand[0] is card else (hand[0],)
    else:
        i = hand.index(card)
        left = hand[:i] + hand[i + 1 :]
    s.hands = _put(s.hands, p, left)
    s.front = _put(s.front, p, s.front[p] + (card,))
    if card is _HANDMAID:
        s.protected = _put(s.protected, p, True)
    knows = s.knows
    if knows is not _NOBODY_KNOWS.get(len(knows)):
        for row in knows:
            if row[p] is card:
                s.knows = tuple(_put(row, p, None) if row[p] is card else row for row in knows)
                break
    s.deadline = None
    s.phase = PHASE_RESOLVING


def _hand_seen(s: Transient, e: HandSeen) -> None:
    s.knows = _put(s.knows, e.player, _put(s.knows[e.player], e.target, e.card))


def _hands_compared(s: Transient, e: HandsCompared) -> None:
    knows = _put(s.knows, e.player, _put(s.knows[e.player], e.target, e.target_card))
    s.knows = _put(knows, e.target, _put(knows[e.target], e.player, e.player_card))


def _hands_traded(s: Transient, e: HandsTraded) -> None:
    p, t = e.player, e.target
    hands = _put(s.hands, p, (e.target_card,))
    s.hands = _put(hands, t, (e.player_card,))
    # What anyone knew of one hand now describes the other; the two traders learn what they gave.
    rows = []
    for viewer, row in enumerate(s.knows):
        new = list(row)
        new[p], new[t] = row[t], row[p]
        if viewer == p:
            new[t] = e.player_card
        elif viewer == t:
            new[p] = e.target_card
        rows.append(tuple(new))
    s.knows = tuple(rows)


def _hand_discarded(s: Transient, e: HandDiscarded) -> None:
    p = e.player
    hand = list(s.hands[p])
    hand.remove(e.card)
    s.hands = _put(s.hands, p, tuple(hand))
    s.front = _put(s.front, p, s.front[p] + (e.card,))
    s.knows = _forget(s.knows, p)


def _card_drawn(s: Transient, e: CardDrawn) -> None:
    if e.source == "deck":
        s.deck = s.deck[1:]
        s.drawn += 1
    else:
        s.set_aside = None
    s.hands = _put(s.hands, e.player, s.hands[e.player] + (e.card,))


def _chancellor_drew(s: Transient, e: ChancellorDrew) -> None:
    k = len(e.cards)
    s.deck = s.deck[k:]
    s.drawn += k
    s.hands = _put(s.hands, e.player, s.hands[e.player] + e.cards)
    s.phase = PHASE_CHANCELLOR


def _chancellor_returned(s: Transient, e: ChancellorReturned) -> None:
    p = e.player
    s.hands = _put(s.hands, p, (e.kept,))
    start = s.drawn + len(s.deck)
    s.deck = s.deck + e.bottom
    known = s.deck_known[p] + tuple((start + i, card) for i, card in enumerate(e.bottom))
    s.deck_known = _put(s.deck_known, p, known)
    s.knows = _forget(s.knows, p)
    s.deadline = None
    s.phase = PHASE_RESOLVING


def _player_eliminated(s: Transient, e: PlayerEliminated) -> None:
    _out_of_round(s, e.player, e.cards)


def _out_of_round(s: Transient, p: int, cards: tuple[Card, ...]) -> None:
    """`p` leaves the round, their hand (`cards`) face up in front of them; what anyone knew of it goes."""
    s.out = _put(s.out, p, True)
    s.hands = _put(s.hands, p, ())
    if cards:
        s.front = _put(s.front, p, s.front[p] + cards)
    if s.protected[p]:
        s.protected = _put(s.protected, p, False)
    s.knows = _forget(s.knows, p)


def _round_ended(s: Transient, e: RoundEnded) -> None:
    s.round_winners = e.winners
    s.protected = (False,) * len(s.players)
    s.active = -1
    s.phase = PHASE_DEAL


def _favor_gained(s: Transient, e: FavorGained) -> None:
    s.favors = _put(s.favors, e.player, s.favors[e.player] + 1)


def _game_ended(s: Transient, e: GameEnded) -> None:
    s.winners = e.winners
    s.phase = PHASE_OVER


_APPLY: dict[type, Callable[[Transient, Event], None]] = {
    GameStarted: _game_started,  # type: ignore[dict-item]
    SeatJoined: _seat_joined,  # type: ignore[dict-item]
    ClockSet: _clock_set,  # type: ignore[dict-item]
    ClockRanOut: _clock_ran_out,  # type: ignore[dict-item]
    PlayerResigned: _player_resigned,  # type: ignore[dict-item]
    GameAborted: _game_aborted,  # type: ignore[dict-item]
    SeedContributed: _seed_contributed,  # type: ignore[dict-item]
    SeedRevealed: _seed_revealed,  # type: ignore[dict-item]
    RoundStarted: _round_started,  # type: ignore[dict-item]
    TurnStarted: _turn_started,  # type: ignore[dict-item]
    CardPlayed: _card_played,  # type: ignore[dict-item]
    HandSeen: _hand_seen,  # type: ignore[dict-item]
    HandsCompared: _hands_compared,  # type: ignore[dict-item]
    HandsTraded: _hands_traded,  # type: ignore[dict-item]
    HandDiscarded: _hand_discarded,  # type: ignore[dict-item]
    CardDrawn: _card_drawn,  # type: ignore[dict-item]
    ChancellorDrew: _chancellor_drew,  # type: ignore[dict-item]
    ChancellorReturned: _chancellor_returned,  # type: ignore[dict-item]
    PlayerEliminated: _player_eliminated,  # type: ignore[dict-item]
    RoundEnded: _round_ended,  # type: ignore[dict-item]
    FavorGained: _favor_gained,  # type: ignore[dict-item]
    GameEnded: _game_ended,  # type: ignore[dict-item]
}


def apply(s: Transient, event: Event) -> None:
    """Fold one event into a transient state in place (for `fold` and the simulator's hot loop)."""
    _APPLY[type(event)](s, event)
    s.seq += 1


def apply_all(s: Transient, events: Iterable[Event]) -> None:
    """Fold events into a transient state in place: `apply` for each, with one call."""
    table = _APPLY
    if type(events) is tuple or type(events) is list:
        for event in events:
            table[type(event)](s, event)
        s.seq += len(events)
        return
    n = 0
    for event in events:
        table[type(event)](s, event)
        n += 1
    s.seq += n


def evolve(state: GameState, event: Event) -> GameState:
    """The state after `event`. Pure: `state` is unchanged."""
    s = state.thaw()
    _APPLY[type(event)](s, event)
    s.seq += 1
    return s.freeze()


def fold(events: Iterable[Event], state: GameState = INITIAL) -> GameState:
    """The state after every event of `events`, starting from `state` (no game by default)."""
    s = state.thaw()
    apply_all(s, events)
    return s.freeze()
