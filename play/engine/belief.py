"""What the others' plays say of their hands: for each opponent, how well each card it may hold explains the last
cards it played; the sampler deals the hidden hands by these odds (`determinize.Sampler.leaning`).

An opponent who played `p` and holds one card kept `h` over `p`, unless a Prince or a King has changed its hand
since (the view cannot tell). In a world where it holds `h`, the model of the players (the `heuristic`, the same
model the rollouts play) is asked which card it would have played from `{p, h}`, in that world just before the play
(`p` back in the hand, the seat not yet protected). A play the model would have made counts 1; one it would not
counts `FLOOR`, because the opponent may not play like the model, or its hand may have changed. The play before the
last is read the same way (`likelihood`). Opponents whose hand the seat knows, who are out, or who have played
nothing are not weighed.

A card's likelihood reads only the judged opponent's hand and what is public (in a world nobody but the deciding seat
knows anything), so any world of the seat's view gives the same odds, and two states the seat cannot tell apart give
the same worlds. Each opponent is judged alone: the odds of two opponents' hands are taken as independent, apart
from the deck they are dealt from.
"""

from __future__ import annotations

from typing import TypeVar

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard
from loveletter.core.legal import legal_move_tuple
from loveletter.core.state import PHASE_PLAY, GameState
from loveletter.core.views import View, glance
from loveletter.play.policies import heuristic_best

T = TypeVar("T")

FLOOR = 0.1
"""The chance left to a play the model would not have made. 0.1 predicted the hidden hands of heuristic players best
among 0.0001, 0.1, 0.25, 0.5 and 1 (uniform): docs/engine.md, "How it decides"."""


def weighed_seats(seen: View) -> tuple[int, ...]:
    """The opponents whose last play says something of their hidden hand."""
    return tuple(
        o.seat
        for o in seen.seats
        if o.seat != seen.seat and o.in_round and o.hand_size == 1 and o.known_hand is None and o.front
    )


def leanings(seen: View, world: GameState) -> dict[int, dict[Card, float]]:
    """For each opponent worth weighing, each card it may hold (one the seat has not seen) and how well holding it
    explains its plays; `world` is any world of `seen`."""
    return {
        seat: {card: likelihood(_holding(world, seat, card), seat) for card, n in seen.unseen.items() if n > 0}
        for seat in weighed_seats(seen)
    }


def likelihood(world: GameState, seat: int) -> float:
    """How well the card the world gives `seat` explains its last two plays, each play's chance floored.

    It played `last` and kept `held`; the card it had before drawing was `held` (so at its play before, `prev`, it
    had kept `held`) or `last` (it had kept `last`): the two ways are taken as equally likely."""
    front = world.front[seat]
    held = world.hands[seat][0]
    last = front[-1]
    chance = _plays(world, seat, 1, last, held)
    if len(front) > 1:
        prev = front[-2]
        chance *= (_plays(world, seat, 2, prev, held) + _plays(world, seat, 2, prev, last)) / 2
    return chance


def _plays(world: GameState, seat: int, back: int, played: Card, kept: Card) -> float:
    """The floored chance that the model plays `played` from `{played, kept}`, in `world` as it was `back` plays of
    `seat` ago (those cards back in front of nobody, the seat not yet protected)."""
    if played is kept:
        return 1.0
    before = world.thaw()
    before.phase, before.active = PHASE_PLAY, seat
    before.hands = _with(world.hands, seat, (played, kept))
    before.front = _with(world.front, seat, world.front[seat][:-back])
    before.protected = _with(world.protected, seat, False)
    best = heuristic_best(glance(before, seat), legal_move_tuple(before, seat))
    share = sum(1 for m in best if isinstance(m, PlayCard) and m.card is played) / len(best)
    return FLOOR + (1.0 - FLOOR) * share


def _with(row: tuple[T, ...], at: int, value: T) -> tuple[T, ...]:
    return (*row[:at], value, *row[at + 1 :])


def can_hit(seen: View, target: int, guess: Card) -> bool:
    """Whether a Guard naming `guess` at `target` can hit, as `seen.seat` judges it: when it knows the target's hand,
    only that card; otherwise only a card of which it has not seen every copy."""
    known = seen.seats[target].known_hand
    return guess is known if known is not None else seen.unseen.get(guess, 0) > 0


def hand_odds(seen: View, seat: int, leaning: dict[Card, float] | None = None) -> dict[Card, float]:
    """The chance of each card being `seat`'s one-card hand, as `seen.seat` judges it: its unseen counts, each
    weighed by its `leaning` (`leanings`) when given."""
    known = seen.seats[seat].known_hand
    if known is not None:
        return {known: 1.0}
    odds = {card: n * (1.0 if leaning is None else leaning[card]) for card, n in seen.unseen.items() if n > 0}
    total = sum(odds.values())
    return {card: share / total for card, share in odds.items()} if total else odds


def _holding(world: GameState, seat: int, card: Card) -> GameState:
    s = world.thaw()
    s.hands = _with(world.hands, seat, (card,))
    return s.freeze()
