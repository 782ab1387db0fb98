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

from loveletter.core import memo
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
# The cards as module names: reading a member off an Enum class goes through the class's attribute lookup, ten times
# the cost of a global, and the heuristic tests the played card against several of them at every decision.
_SPY, _GUARD, _PRIEST, _BARON, _HANDMAID = Card.SPY, Card.GUARD, Card.PRIEST, Card.BARON, Card.HANDMAID
_PRINCE, _CHANCELLOR, _KING = Card.PRINCE, Card.CHANCELLOR, Card.KING
_COUNTESS, _PRINCESS = Card.COUNTESS, Card.PRINCESS


def _odds(seen: Glance, values: dict[Card, int], mine: int) -> tuple[float, float]:
    """(P(an unknown hand is lower than `mine`), P(higher)) from the unseen-card counts."""
    total = lower = higher = 0
    for card, n in seen.unseen.items():
        total += n
        value = values[card]
        if value < mine:
            lower += n
        elif value > mine:
            higher += n
    if total <= 0:
        return 0.0, 0.0
    return lower / total, higher / total


def _kept(hand: tuple[Card, ...], played: Card) -> Card:
    """The card left in `hand` once `played` is played from it."""
    return hand[1] if hand[0] is played and len(hand) > 1 else hand[0]


def _score_play(
    seen: Glance,
    move: PlayCard,
    values: dict[Card, int],
    unseen_total: int,
    odds: dict[int, tuple[float, float]] | None = None,
) -> float:
    """The heuristic's score of a play; `odds` remembers `_odds` by the card kept, across one decision's moves."""
    hand = seen.hand
    card, t = move.card, move.target
    other = hand[1] if hand[0] is card and len(hand) > 1 else hand[0]  # `_kept`, inline: called for most moves
    known = seen.known[t] if t is not None else None
    # Keeping a high card helps at the deck-out showdown: prefer playing the lower one.
    score = 0.3 * values[other]
    if card is _PRINCESS:
        return _DOOM
    if t is None:
        if card is _HANDMAID:
            return score + 6
        if card is _SPY:
            return score + 4
        if card is _CHANCELLOR:
            return score + (3 if seen.deck_size else 0)
        if card is _COUNTESS:
            return score + 1
        return score  # a targeting card with nobody to choose: no effect
    leader = seen.favors[t] * 0.2  # aim at the leader, all else equal
    if card is _GUARD:
        guess = move.guess
        assert guess is not None
        if known is not None:
            return score + leader + (40 if guess is known else -5)
        # Probability the target holds `guess`: its hand is one of the cards this seat has not seen.
        return _guess_score(score + leader, seen.unseen.get(guess, 0), unseen_total)
    if card is _PRIEST:
        return score + leader + (0.5 if known is not None else 4)
    if card is _BARON:
        mine = values[other]
        if known is not None:
            if values[known] < mine:
                return score + leader + 35
            if values[known] > mine:
                return _DOOM / 2
            return score - 1
        if odds is None:
            lower, higher = _odds(seen, values, mine)
        else:
            found = odds.get(mine)
            if found is None:
                found = odds[mine] = _odds(seen, values, mine)
            lower, higher = found
        return score + leader + 25 * (lower - higher) - (10 if higher > 0.5 else 0)
    if card is _PRINCE:
        if t == seen.seat:
            if other is _PRINCESS:
                return _DOOM
            return score - 2 - 0.5 * values[other] if values[other] > 2 else score + 1
        if known is _PRINCESS:
            return score + leader + 60
        if known is not None:
            return score + leader + 0.6 * values[known]
        return score + leader + 2
    if card is _KING:
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


_Group = tuple[int, tuple[Card, ...], tuple[PlayCard, ...]]
_Plan = tuple[tuple[PlayerCommand, ...], tuple[PlayerCommand | _Group, ...]]
_PLANS: dict[int, _Plan] = memo.table()


def _plan(moves: Sequence[PlayerCommand]) -> tuple[PlayerCommand | _Group, ...]:
    """`moves` with each run of Guard guesses at one target made a group `(target, names, guesses)`: the rules core
    lists a target's guesses side by side, and the heuristic scores them together. Remembered by the identity of the
    move tuple (the rules core shares one tuple per situation), which the table keeps alive."""
    key = id(moves)
    found = _PLANS.get(key)
    if found is not None and found[0] is moves:
        return found[1]
    items: list[PlayerCommand | _Group] = []
    run: list[PlayCard] = []

    def close() -> None:
        if run:
            items.append((run[0].target, tuple(m.guess for m in run), tuple(run)))  # type: ignore[arg-type,misc]
            run.clear()

    for move in moves:
        if isinstance(move, PlayCard) and move.card is _GUARD and move.target is not None and move.guess:
            if run and run[0].target != move.target:
                close()
            run.append(move)
        else:
            close()
            items.append(move)
    close()
    plan = tuple(items)
    if type(moves) is tuple:
        if len(_PLANS) >= 1 << 14:
            _PLANS.clear()
        _PLANS[key] = (moves, plan)
    return plan


def heuristic_best(seen: Glance, moves: Sequence[PlayerCommand]) -> list[PlayerCommand]:
    """The moves the heuristic scores highest for this seat's knowledge (several when tied): the engine reads them
    to judge how likely a play was (`play.engine.belief`)."""
    values = _VALUES.get(seen.ruleset)
    if values is None:  # a reduced research deck (core.rulesets, its reduced decks): its parent's values, by its own id
        values = _VALUES[seen.ruleset] = dict(get_ruleset(seen.ruleset).values)
    unseen, known = seen.unseen, seen.known
    unseen_total = sum(unseen.values())
    # A Guard's guesses at an unknown hand score alike but for the chance of the card named (`_guess_score`), the same
    # chance whatever the target: the likeliest names are found once a decision, a target's group scores as one, and
    # the groups among the best are opened at the end.
    most = -1
    hit = base = 0.0
    odds: dict[int, tuple[float, float]] = {}
    best: list[PlayerCommand | _Group] = []
    top = float("-inf")
    for item in _plan(moves):
        if type(item) is tuple:
            t, names, group = item
            if known[t] is not None:
                for move in group:
                    s = _score_play(seen, move, values, unseen_total, odds)
                    if s > top + 1e-9:
                        top, best = s, [move]
                    elif s > top - 1e-9:
                        best.append(move)
                continue
            if most < 0:
                most = max([unseen.get(c, 0) for c in names])
                hit = _guess_score(0.0, most, unseen_total)
                base = 0.3 * values[_kept(seen.hand, _GUARD)]
            s = base + seen.favors[t] * 0.2 + hit
        elif type(item) is PlayCard:
            s = _score_play(seen, item, values, unseen_total, odds)
        else:
            s = _score_return(item, values)  # type: ignore[arg-type]
        if s > top + 1e-9:
            top, best = s, [item]
        elif s > top - 1e-9:
            best.append(item)
    if most < 0:
        return best  # type: ignore[return-value]
    out: list[PlayerCommand] = []
    for item in best:
        if type(item) is tuple:
            out.extend([m for c, m in zip(item[1], item[2], strict=True) if unseen.get(c, 0) == most])
        else:
            out.append(item)  # type: ignore[arg-type]
    return out


def choose_heuristic(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """The best-scoring legal move for this seat's knowledge; ties broken with `rng`."""
    return heuristic_choice(Glance.of(view), moves, rng)


def heuristic_choice(seen: Glance, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """`choose_heuristic` from the seat's glance: the engine's rollouts make the glance without the view."""
    best = heuristic_best(seen, moves)
    return best[0] if len(best) == 1 else rng.choice(best)
