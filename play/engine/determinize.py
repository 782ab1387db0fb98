"""Worlds consistent with one seat's knowledge: the hidden cards of a `View` dealt again at random.

A bot is given the seat's `View`, never the state. To look ahead with the rules core, the search needs whole states;
`Sampler` makes them. Everything the seat knows is copied from the view (its hand, the face-up cards, every card in
front of a seat, the hands it saw with a Priest, Baron or King, the cards its own Chancellor put under the deck);
every card it has not seen (the view's `unseen` counts) is shuffled into the places it cannot see: the other hands,
the rest of the draw pile and the set-aside card. Nothing else is read, so two states that give the seat the same
view give the sampler the same worlds.

What the other seats know of each other (and of this seat) is not in the view: in a sampled world nobody but the
seat knows anything it did not see itself.
"""

from __future__ import annotations

import copy
import random

from loveletter.core.cards import Card
from loveletter.core.rulesets import Options, get_ruleset
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_PLAY, GameState
from loveletter.core.views import View


class Sampler:
    """Draws states that `view.seat` cannot tell from the true one (uniformly over the unseen cards' places)."""

    __slots__ = (
        "_base",
        "_deck_fixed",
        "_deck_size",
        "_hidden_seats",
        "_leaning",
        "_leaning_seats",
        "_pool",
        "_set_aside",
        "seat",
    )

    def __init__(self, view: View) -> None:
        seat = view.seat
        if seat is None or view.phase not in (PHASE_PLAY, PHASE_CHANCELLOR) or view.active != seat:
            raise ValueError("a world is sampled for the seat that must decide")
        self.seat = seat
        n = len(view.seats)
        pool: list[Card] = []
        for card, count in view.unseen.items():
            pool.extend([card] * count)
        pool.sort()  # the same unseen counts give the same pool, whatever the dict's order
        known_hands: list[Card | None] = [None] * n
        hidden: list[int] = []
        for other in view.seats:
            if other.seat == seat or not other.in_round:
                continue
            if other.known_hand is not None and other.hand_size == 1:
                known_hands[other.seat] = other.known_hand
            else:
                hidden.extend([other.seat] * other.hand_size)
        fixed = dict(view.deck_known)
        places = len(hidden) + view.deck_size - len(fixed) + int(view.set_aside_face_down)
        if places != len(pool):
            raise ValueError(f"{len(pool)} unseen cards for {places} hidden places")
        self._pool = tuple(pool)
        self._hidden_seats = tuple(hidden)
        self._deck_fixed = fixed
        self._deck_size = view.deck_size
        self._set_aside = view.set_aside_face_down
        self._leaning: tuple[tuple[int, dict[Card, float]], ...] = ()
        self._leaning_seats: frozenset[int] = frozenset()
        s = INITIAL.thaw()
        s.ruleset = get_ruleset(view.ruleset)
        s.options = Options.from_dict(view.options)
        s.players = tuple(p.name for p in view.seats)
        s.favors = tuple(p.favors for p in view.seats)
        s.round, s.phase, s.active = view.round, view.phase, seat
        s.face_up = view.face_up
        s.front = tuple(p.front for p in view.seats)
        s.out = tuple(not p.in_round for p in view.seats)
        s.protected = tuple(p.protected for p in view.seats)
        s.resigned = tuple(not p.in_game for p in view.seats)
        rows: list[tuple[Card | None, ...]] = [(None,) * n] * n
        rows[seat] = tuple(known_hands)
        s.knows = tuple(rows)
        deck_known: list[tuple[tuple[int, Card], ...]] = [()] * n
        deck_known[seat] = view.deck_known
        s.deck_known = tuple(deck_known)
        s.drawn = 0
        s.seat_seeds = (None,) * n
        s.round_winners = view.round_winners
        hands: list[tuple[Card, ...]] = [()] * n
        hands[seat] = view.hand
        for i, known in enumerate(known_hands):
            if known is not None:
                hands[i] = (known,)
        s.hands = tuple(hands)
        self._base = s.freeze()

    def leaning(self, odds: dict[int, dict[Card, float]]) -> Sampler:
        """This sampler, dealing each seat of `odds` its one hidden card with the chance of each card weighed by it
        (`belief.leanings`: how well holding it explains the seat's plays); the other places stay uniform."""
        leaning = copy.copy(self)
        leaning._leaning = tuple(sorted(odds.items()))
        leaning._leaning_seats = frozenset(odds)
        return leaning

    def sample(self, rng: random.Random) -> GameState:
        """One world: the unseen cards shuffled by `rng` into the hidden places (other hands, deck, set-aside), the
        leaning seats' cards drawn first by their odds."""
        cards = list(self._pool)
        rng.shuffle(cards)
        s = self._base.thaw()
        at = 0
        if self._hidden_seats:
            hands = list(s.hands)
            for seat, odds in self._leaning:
                pick = rng.choices(range(len(cards)), [odds[c] for c in cards])[0]
                hands[seat] = (*hands[seat], cards.pop(pick))
            for i in self._hidden_seats:
                if i not in self._leaning_seats:
                    hands[i] = (*hands[i], cards[at])
                    at += 1
            s.hands = tuple(hands)
        fixed = self._deck_fixed
        if not fixed:  # no card of the deck placed by this seat's Chancellor: the deck is the next cards, in order
            s.deck = tuple(cards[at : at + self._deck_size])
            at += self._deck_size
        else:
            deck: list[Card] = []
            for pos in range(self._deck_size):
                placed = fixed.get(pos)
                if placed is None:
                    placed = cards[at]
                    at += 1
                deck.append(placed)
            s.deck = tuple(deck)
        s.set_aside = cards[at] if self._set_aside else None
        return s.freeze()
