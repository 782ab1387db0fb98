"""What each card does when it is played, and a Chancellor's return: the events a legal move causes.

Split from `core.decide`: `play` and `return_cards` take a quick path for plainly legal moves, leave every
other one to `core.move_checks`, and hand the turn's end to `core.round_end`.
"""

from __future__ import annotations

from loveletter.core import memo
from loveletter.core.cards import TARGETS_OTHER, Card
from loveletter.core.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
)
from loveletter.core.commands import PlayCard, ReturnCards
from loveletter.core.evolve import apply_all
from loveletter.core.move_checks import check_play, check_return
from loveletter.core.round_end import Events, end_of_turn
from loveletter.core.rulesets import GuardUnknown
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_PLAY, GameState, Transient

_GUARD, _PRIEST, _BARON, _PRINCE = Card.GUARD, Card.PRIEST, Card.BARON, Card.PRINCE
_KING, _COUNTESS, _PRINCESS, _CHANCELLOR = Card.KING, Card.COUNTESS, Card.PRINCESS, Card.CHANCELLOR
_MISS = GuardUnknown.MISS


_CARD_PLAYED: dict[tuple[int, Card, int | None, Card | None], CardPlayed] = memo.table()


def _plainly_legal(state: GameState, p: int, card: Card, t: int | None, guess: Card | None) -> bool:
    """A quick test that accepts only plays `check_play` accepts (it may send legal ones to the full check)."""
    if state.phase != PHASE_PLAY or type(p) is not int or p != state.active or type(card) is not Card:
        return False
    hand = state.hands[p]
    if card not in hand or (card is not _COUNTESS and _COUNTESS in hand and (_KING in hand or _PRINCE in hand)):
        return False
    if t is None:
        if guess is not None or card is _PRINCE:
            return False
        if card not in TARGETS_OTHER:
            return True
        out, protected = state.out, state.protected  # played with no effect only when nobody can be chosen
        return all(i == p or out[i] or protected[i] for i in range(len(out)))
    if type(t) is not int or not 0 <= t < len(state.out) or state.out[t]:
        return False
    if card is _PRINCE:
        return guess is None and (t == p or not state.protected[t])
    if t == p or state.protected[t] or card not in TARGETS_OTHER:
        return False
    if card is _GUARD:
        if type(guess) is not Card or guess is _GUARD:
            return False
        rs = state.ruleset
        return rs is not None and (
            (guess in rs.copies and rs.copies[guess] > 0) or state.options.guard_unknown is _MISS
        )
    return guess is None


def play(state: GameState, cmd: PlayCard, into: Transient | None = None) -> Events:
    """The events of `cmd`; with `into` (`state` itself, `core.decide.advance`), folded into it as well."""
    p, card, t, guess = cmd.player, cmd.card, cmd.target, cmd.guess
    plain = _plainly_legal(state, p, card, t, guess)
    if plain:
        # Events are immutable values: a legal play's `card_played` is shared, not rebuilt.
        key = (p, card, t, guess)
        played = _CARD_PLAYED.get(key)
        if played is None:
            played = _CARD_PLAYED[key] = CardPlayed(p, card, t, guess)
    else:
        check_play(state, cmd)
        played = CardPlayed(p, card, t, guess)
    hand = state.hands[p]
    mine = hand[1] if hand[0] is card else hand[0]  # the player to move holds two cards, `card` one of them
    events: list[Event] = [played]
    eliminated: int = -1
    deck = state.deck
    drawn = 0  # cards this move takes from the top of the deck
    if t is not None:
        theirs = state.hands[t][0] if t != p else mine
        if card is _GUARD:
            if guess is theirs:
                events.append(memo.shared(PlayerEliminated, t, (theirs,), _GUARD))
                eliminated = t
        elif card is _PRIEST:
            events.append(memo.shared(HandSeen, p, t, theirs))
        elif card is _BARON:
            events.append(memo.shared(HandsCompared, p, t, mine, theirs))
            values = state.ruleset.values  # type: ignore[union-attr]
            if values[mine] < values[theirs]:
                events.append(memo.shared(PlayerEliminated, p, (mine,), _BARON))
                eliminated = p
            elif values[theirs] < values[mine]:
                events.append(memo.shared(PlayerEliminated, t, (theirs,), _BARON))
                eliminated = t
        elif card is _PRINCE:
            events.append(memo.shared(HandDiscarded, t, theirs))
            if theirs is _PRINCESS:
                events.append(memo.shared(PlayerEliminated, t, (), _PRINCESS))
                eliminated = t
            elif deck:
                events.append(memo.shared(CardDrawn, t, deck[0], "deck"))
                drawn = 1
            else:
                assert state.set_aside is not None
                events.append(memo.shared(CardDrawn, t, state.set_aside, "set-aside"))
        elif card is _KING:
            events.append(memo.shared(HandsTraded, p, t, mine, theirs))
    elif card is _PRINCESS:
        events.append(memo.shared(PlayerEliminated, p, (mine,), _PRINCESS))
        eliminated = p
    elif card is _CHANCELLOR and deck:
        events.append(memo.shared(ChancellorDrew, p, deck[:2]))
        if into is not None:
            apply_all(into, events)
        return tuple(events)
    deck_left = len(deck) - drawn
    return end_of_turn(state, events, eliminated, deck_left, deck[drawn] if deck_left else None, into)


def _same_hand(keep: Card, bottom: tuple[Card, ...], hand: tuple[Card, ...]) -> bool:
    """Quickly: whether `keep` and `bottom` are exactly the cards of `hand`, each a `Card` (so sorting cannot fail)."""
    if type(bottom) is not tuple:
        return False
    given = (keep, *bottom)
    return len(bottom) == len(hand) - 1 and all(type(c) is Card for c in given) and sorted(given) == sorted(hand)


def return_cards(state: GameState, cmd: ReturnCards, into: Transient | None = None) -> Events:
    p = cmd.player
    if not (
        state.phase == PHASE_CHANCELLOR
        and type(p) is int
        and p == state.active
        and _same_hand(cmd.keep, cmd.bottom, state.hands[p])
    ):
        check_return(state, cmd)
    deck = state.deck + cmd.bottom
    events: list[Event] = [ChancellorReturned(p, cmd.keep, cmd.bottom)]
    return end_of_turn(state, events, -1, len(deck), deck[0] if deck else None, into)
