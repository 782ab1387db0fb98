"""The end of a turn, a round and the game: the next turn, the showdown, the favors and the game's winners.

Split from `core.decide`, which (with `core.card_effects`) comes here once a move's effects are known.
"""

from __future__ import annotations

from loveletter.core import memo
from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    Event,
    FavorGained,
    FavorReason,
    GameEnded,
    RoundEnded,
    RoundEndReason,
    TurnStarted,
)
from loveletter.core.evolve import apply_all, fold
from loveletter.core.rulesets import Tie2012, TieRule
from loveletter.core.state import GameState, Transient

Events = tuple[Event, ...]


def end_of_turn(
    state: GameState,
    events: list[Event],
    eliminated: int,
    deck_left: int,
    top: Card | None,
    into: Transient | None = None,
) -> Events:
    """After a move's effects (`eliminated`: the seat it knocked out, or -1): end the round (last
    standing, or deck out) or start the next turn. With `into` (`core.decide.advance`: `state` itself, owned by
    the caller), every event is folded into it as well, and a round's end is judged on it instead of on a copy."""
    out = state.out
    n = len(out)
    alive = n - out.count(True) - (eliminated >= 0)  # (count: a C loop; sum would add the bools one by one)
    if alive == 1 or deck_left == 0:
        reason: RoundEndReason = "last-standing" if alive == 1 else "deck-out"
        if into is None:
            events.extend(end_of_round(fold(events, state), reason))
            return tuple(events)
        apply_all(into, events)
        ending = end_of_round(into, reason)
        apply_all(into, ending)
        events.extend(ending)
        return tuple(events)
    nxt = state.active + 1
    if nxt == n:
        nxt = 0
    while out[nxt] or nxt == eliminated:
        nxt += 1
        if nxt == n:
            nxt = 0
    assert top is not None
    events.append(turn_started(nxt, top))
    if into is not None:
        apply_all(into, events)
    return tuple(events)


def turn_started(seat: int, card: Card) -> TurnStarted:
    """`TurnStarted(seat, card)`, shared: events are immutable values."""
    turn = _TURN_STARTED.get((seat, card)) if type(card) is Card else None
    if turn is None:
        turn = TurnStarted(seat, card)
        if type(card) is Card and type(seat) is int and 0 <= seat < 8:
            _TURN_STARTED[(seat, card)] = turn
    return turn


_TURN_STARTED: dict[tuple[int, Card], TurnStarted] = memo.table()


def showdown_winners(state: GameState) -> tuple[int, ...]:
    """Who wins a deck-out showdown among the players still in the round (RULINGS §1, §6, §11)."""
    rs = state.ruleset
    assert rs is not None
    values = rs.values
    alive = state.in_round()
    best = max(values[state.hands[i][0]] for i in alive)
    tied = tuple(i for i in alive if values[state.hands[i][0]] == best)
    if len(tied) == 1 or rs.tie_rule is TieRule.ALL_WIN:
        return tied
    sums = {i: sum(values[c] for c in state.front[i]) for i in tied}
    top = max(sums.values())
    still = tuple(i for i in tied if sums[i] == top)
    if len(still) == 1 or state.options.tie_2012 is Tie2012.ALL:
        return still
    return ()


def _favor(seat: int, reason: FavorReason) -> FavorGained:
    event = _FAVORS.get((seat, reason))
    if event is None:
        event = FavorGained(seat, reason)
        if type(seat) is int and 0 <= seat < 8:
            _FAVORS[(seat, reason)] = event
    return event


_FAVORS: dict[tuple[int, str], FavorGained] = memo.table()
_SPY, _CHANCELLOR = Card.SPY, Card.CHANCELLOR


def end_of_round(state: GameState, reason: RoundEndReason) -> list[Event]:
    rs = state.ruleset
    assert rs is not None
    out = state.out
    n = len(out)
    alive = tuple([i for i in range(n) if not out[i]])
    if reason == "last-standing":
        winners: tuple[int, ...] = alive
        hands: tuple[Card | None, ...] = ()
    else:
        winners = showdown_winners(state)
        hands = tuple([h[0] if not out[i] else None for i, h in enumerate(state.hands)])
    events: list[Event] = [memo.shared(RoundEnded, state.round, reason, winners, state.set_aside, hands)]
    gains = [0] * n
    for w in winners:
        gains[w] += 1
        events.append(_favor(w, "round"))
    front = state.front
    if rs.spy_favor:
        spies = [i for i in alive if _SPY in front[i]]
        if len(spies) == 1:
            events.append(_favor(spies[0], "spy"))
            gains[spies[0]] += 1
    if rs.amira_sadie_favor:
        pair = [i for i in alive if _CHANCELLOR in front[i]]
        if len(pair) == 2:
            for i in pair:
                events.append(_favor(i, "amira-sadie"))
                gains[i] += 1
    threshold = rs.favors_to_win[n]  # RULINGS §12: the starting player count's, even after someone left
    resigned = state.resigned
    if True in resigned and sum(not gone for gone in resigned) == 1:
        game_winners: tuple[int, ...] = (resigned.index(False),)  # the last one left in the game wins at once
    else:
        game_winners = tuple([i for i, f in enumerate(state.favors) if f + gains[i] >= threshold and not resigned[i]])
    if game_winners:
        events.append(memo.shared(GameEnded, game_winners))
    return events
