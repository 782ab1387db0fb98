"""The built-in policies `random` and `heuristic`: pure functions of what one seat may know.

A policy is `choose(view, moves, rng) -> command`: it sees the seat's `View` (never the full state),
the seat's legal moves (from `core.legal.legal_moves`) and a `random.Random`, and returns one of the
moves. Policies never mutate anything and draw randomness only from `rng`, so a seeded simulation
replays exactly.

- `random`: uniform over the legal moves.
- `heuristic`: scores each move from the view: Guard guesses from the known hands and the unseen-card
  counts, Baron only when the odds (or Priest/Baron/King knowledge) favour it, never the Princess
  when avoidable, a sensible Chancellor keep; ties are broken with `rng`.

The engine (`play.engine`) plays its rollouts with `heuristic`, so the policies sit apart from the registry of
bots (`play.bots`), which names the engine's `expert` beside them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.rulesets import RULESETS, get_ruleset
from loveletter.core.views import Glance, View

Policy = Callable[[View, Sequence[PlayerCommand], random.Random], PlayerCommand]
CodePolicy = Callable[[Sequence[int], random.Random], int]
BlindPolicy = Callable[[Sequence[PlayerCommand], random.Random], PlayerCommand]


def choose_random(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """Any legal move, uniformly (one `rng.random()` draw; its bias, below 2**-45, is negligible)."""
    return moves[int(rng.random() * len(moves))]


def choose_random_code(codes: Sequence[int], rng: random.Random) -> int:
    """`choose_random` over action codes: the same draw from `rng` picks the same move, since
    `legal_action_codes` lists the codes of `legal_moves` in the same order."""
    return codes[int(rng.random() * len(codes))]


def choose_random_blind(moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """`choose_random` without the view it never reads (the simulator's fast path)."""
    return moves[int(rng.random() * len(moves))]


# -- the heuristic ---------------------------------------------------------------------------------

_DOOM = -1000.0  # a move that eliminates the player who makes it
_VALUES = {rs.id: dict(rs.values) for rs in RULESETS.values()}


def _odds(seen: Glance, values: dict[Card, int], mine: int) -> tuple[float, float]:
    """(P(an unknown hand is lower than `mine`), P(higher)) from the unseen-card counts."""
    total = sum(seen.unseen.values())
    if total <= 0:
        return 0.0, 0.0
    lower = sum(n for c, n in seen.unseen.items() if values[c] < mine)
    higher = sum(n for c, n in seen.unseen.items() if values[c] > mine)
    return lower / total, higher / total


def _kept(hand: tuple[Card, ...], played: Card) -> Card:
    """The card left in `hand` once `played` is played from it."""
    return hand[1] if hand[0] is played and len(hand) > 1 else hand[0]


def _score_play(seen: Glance, move: PlayCard, values: dict[Card, int], unseen_total: int) -> float:
    hand = seen.hand
    other = _kept(hand, move.card)
    card, t = move.card, move.target
    known = seen.known[t] if t is not None else None
    # Keeping a high card helps at the deck-out showdown: prefer playing the lower one.
    score = 0.3 * values[other]
    if card is Card.PRINCESS:
        return _DOOM
    if t is None:
        if card is Card.HANDMAID:
            return score + 6
        if card is Card.SPY:
            return score + 4
        if card is Card.CHANCELLOR:
            return score + (3 if seen.deck_size else 0)
        if card is Card.COUNTESS:
            return score + 1
        return score  # a targeting card with nobody to choose: no effect
    leader = seen.favors[t] * 0.2  # aim at the leader, all else equal
    if card is Card.GUARD:
        guess = move.guess
        assert guess is not None
        if known is not None:
            return score + leader + (40 if guess is known else -5)
        # Probability the target holds `guess`: its hand is one of the cards this seat has not seen.
        return _guess_score(score + leader, seen.unseen.get(guess, 0), unseen_total)
    if card is Card.PRIEST:
        return score + leader + (0.5 if known is not None else 4)
    if card is Card.BARON:
        mine = values[other]
        if known is not None:
            if values[known] < mine:
                return score + leader + 35
            if values[known] > mine:
                return _DOOM / 2
            return score - 1
        lower, higher = _odds(seen, values, mine)
        return score + leader + 25 * (lower - higher) - (10 if higher > 0.5 else 0)
    if card is Card.PRINCE:
        if t == seen.seat:
            if other is Card.PRINCESS:
                return _DOOM
            return score - 2 - 0.5 * values[other] if values[other] > 2 else score + 1
        if known is Card.PRINCESS:
            return score + leader + 60
        if known is not None:
            return score + leader + 0.6 * values[known]
        return score + leader + 2
    if card is Card.KING:
        # Trading gives away `other` and takes their card.
        gain = (values[known] - values[other]) if known is not None else 0
        return 0.3 * (values[known] if known is not None else 4) + leader + gain - 1
    return score


def _guess_score(base: float, hits: int, unseen_total: int) -> float:
    """A Guard guess at a hand this seat does not know: `base` (the card kept, the target's lead) and the chance that
    the hand is the card named (`hits` of the `unseen_total` cards this seat has not seen)."""
    return base + 20 * hits / max(1, unseen_total)


def _score_return(move: ReturnCards, values: dict[Card, int]) -> float:
    keep = values[move.keep]
    # Keep the highest card; put the lowest on the very bottom (the other one comes back sooner).
    return keep * 10 + (values[move.bottom[-1]] < values[move.bottom[0]] if len(move.bottom) == 2 else 0)


def heuristic_best(seen: Glance, moves: Sequence[PlayerCommand]) -> list[PlayerCommand]:
    """The moves the heuristic scores highest for this seat's knowledge (several when tied): the engine reads them
    to judge how likely a play was (`play.engine.belief`)."""
    values = _VALUES.get(seen.ruleset)
    if values is None:  # a reduced research deck (core.rulesets, its reduced decks): its parent's values, by its own id
        values = _VALUES[seen.ruleset] = dict(get_ruleset(seen.ruleset).values)
    unseen, known, hand = seen.unseen, seen.known, seen.hand
    unseen_total = sum(unseen.values())
    # A Guard's guesses at one unknown hand differ only by the card named: what they share is worked out once per
    # target (the rollouts score thousands of them a second), the rest by `_guess_score`, as `_score_play` does.
    guard_base: dict[int, float] = {}
    best: list[PlayerCommand] = []
    top = float("-inf")
    for move in moves:
        if isinstance(move, PlayCard):
            t = move.target
            if move.card is Card.GUARD and t is not None and known[t] is None and move.guess is not None:
                base = guard_base.get(t)
                if base is None:
                    other = _kept(hand, Card.GUARD)
                    base = guard_base[t] = 0.3 * values[other] + seen.favors[t] * 0.2
                s = _guess_score(base, unseen.get(move.guess, 0), unseen_total)
            else:
                s = _score_play(seen, move, values, unseen_total)
        else:
            s = _score_return(move, values)
        if s > top + 1e-9:
            top, best = s, [move]
        elif s > top - 1e-9:
            best.append(move)
    return best


def choose_heuristic(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """The best-scoring legal move for this seat's knowledge; ties broken with `rng`."""
    return heuristic_choice(Glance.of(view), moves, rng)


def heuristic_choice(seen: Glance, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """`choose_heuristic` from the seat's glance: the engine's rollouts make the glance without the view."""
    best = heuristic_best(seen, moves)
    return best[0] if len(best) == 1 else rng.choice(best)
