"""An independent model of a game, built only from its events and the rulebook (RULINGS), never from `core`'s
judgement: what each seat may know, who is in the round, what is in front of whom, and who should win and gain
favors. The state machines compare `core` against it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    GameStarted,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
    RoundStarted,
    TurnStarted,
)

# The rulebook's tables (RULINGS §1), written out again so the model does not trust core.rulesets.
_NAMES_2019 = ("spy", "guard", "priest", "baron", "handmaid", "prince", "chancellor", "king", "countess", "princess")
V2019 = {name: value for value, name in enumerate(_NAMES_2019)}
V2012 = {"guard": 1, "priest": 2, "baron": 3, "handmaid": 4, "prince": 5, "king": 6, "countess": 7, "princess": 8}
C2019 = {"spy": 2, "guard": 6, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "chancellor": 2, "king": 1}
C2019 |= {"countess": 1, "princess": 1}
C2012 = {"guard": 5, "priest": 2, "baron": 2, "handmaid": 2, "prince": 2, "king": 1, "countess": 1, "princess": 1}
CCLASSIC = {**C2019, "guard": 5, "chancellor": 0, "spy": 0}
BOOK: dict[str, dict[str, Any]] = {
    "2019": {"values": V2019, "copies": C2019, "players": (2, 6), "favors": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}},
    "2019-classic": {"values": V2019, "copies": CCLASSIC, "players": (2, 4), "favors": {2: 6, 3: 5, 4: 4}},
    "2012": {"values": V2012, "copies": C2012, "players": (2, 4), "favors": {2: 7, 3: 5, 4: 4}},
    "princess-princess": {
        "values": V2019,
        "copies": C2019,
        "players": (2, 6),
        "favors": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
    },
}

# Fields of each event that only some seats may see (RULINGS §10), and who may see them.
HIDDEN: dict[type, tuple[str, ...]] = {
    RoundStarted: ("deck", "set_aside", "hands"),
    TurnStarted: ("card",),
    CardDrawn: ("card",),
    ChancellorDrew: ("cards",),
    ChancellorReturned: ("kept", "bottom"),
    HandSeen: ("card",),
    HandsCompared: ("player_card", "target_card"),
    HandsTraded: ("player_card", "target_card"),
}


def entitled(event: Event, seat: int | None) -> bool:
    """May `seat` see the hidden fields of `event`?"""
    if seat is None or isinstance(event, RoundStarted):
        return False
    if isinstance(event, (HandsCompared, HandsTraded)):
        return seat in (event.player, event.target)
    return getattr(event, "player", None) == seat


@dataclass
class Model:
    ruleset: str = ""
    n: int = 0
    options: dict[str, str] = field(default_factory=dict)
    named_first: int | None = None
    round: int = 0
    favors: list[int] = field(default_factory=list)
    out: list[bool] = field(default_factory=list)
    front: list[list[Card]] = field(default_factory=list)
    knows: list[list[Card | None]] = field(default_factory=list)
    deck_known: list[set[tuple[int, Card]]] = field(default_factory=list)
    drawn: int = 0
    deck_len: int = 0
    last_winners: tuple[int, ...] | None = None
    over: bool = False

    @property
    def book(self) -> dict[str, Any]:
        return BOOK[self.ruleset]

    def value(self, card: Card) -> int:
        return int(self.book["values"][card.value])

    def deck_counter(self) -> Counter[Card]:
        return Counter({Card(c): k for c, k in self.book["copies"].items() if k})

    def first_player_candidates(self) -> set[int]:
        if self.round == 0:
            return {self.named_first} if self.named_first is not None else set(range(self.n))
        return set(self.last_winners) if self.last_winners else set(range(self.n))

    def alive(self) -> list[int]:
        return [i for i in range(self.n) if not self.out[i]]

    def expected_round(self, hands: tuple[tuple[Card, ...], ...], deck_empty: bool) -> tuple[str, tuple[int, ...]]:
        """The reason and winners of a round that must end now (RULINGS §6, §1, §11)."""
        alive = self.alive()
        if len(alive) == 1:
            return "last-standing", tuple(alive)
        assert deck_empty
        best = max(self.value(hands[i][0]) for i in alive)
        tied = [i for i in alive if self.value(hands[i][0]) == best]
        if len(tied) == 1 or self.ruleset != "2012":
            return "deck-out", tuple(tied)
        sums = {i: sum(self.value(c) for c in self.front[i]) for i in tied}
        top = max(sums.values())
        still = [i for i in tied if sums[i] == top]
        if len(still) == 1 or self.options.get("tie_2012") == "all":
            return "deck-out", tuple(still)
        return "deck-out", ()

    def expected_favors(self, winners: tuple[int, ...]) -> Counter[tuple[int, str]]:
        gains: Counter[tuple[int, str]] = Counter((w, "round") for w in winners)
        alive = self.alive()
        if self.ruleset in ("2019", "princess-princess"):
            spies = [i for i in alive if Card.SPY in self.front[i]]
            if len(spies) == 1:
                gains[(spies[0], "spy")] += 1
        if self.ruleset == "princess-princess":
            pair = [i for i in alive if Card.CHANCELLOR in self.front[i]]
            if len(pair) == 2:
                gains.update((i, "amira-sadie") for i in pair)
        return gains

    # -- folding events --------------------------------------------------------------------------------

    def _forget(self, subject: int) -> None:
        for row in self.knows:
            row[subject] = None

    def apply(self, e: Event) -> None:
        if isinstance(e, GameStarted):
            self.ruleset, self.n, self.options = e.ruleset, len(e.players), dict(e.options)
            self.named_first = e.first_player
            self.favors = [0] * self.n
            self.out = [False] * self.n
            self.front = [[] for _ in range(self.n)]
            self.knows = [[None] * self.n for _ in range(self.n)]
            self.deck_known = [set() for _ in range(self.n)]
        elif isinstance(e, RoundStarted):
            self.round = e.round
            self.out = [False] * self.n
            self.front = [[] for _ in range(self.n)]
            self.knows = [[None] * self.n for _ in range(self.n)]
            self.deck_known = [set() for _ in range(self.n)]
            self.drawn, self.deck_len = 0, len(e.deck)
        elif isinstance(e, TurnStarted):
            self.drawn += 1
            self.deck_len -= 1
        elif isinstance(e, CardPlayed):
            self.front[e.player].append(e.card)
            for row in self.knows:  # the known card may be the one played: nobody can be sure any more
                if row[e.player] is e.card:
                    row[e.player] = None
        elif isinstance(e, HandSeen):
            self.knows[e.player][e.target] = e.card
        elif isinstance(e, HandsCompared):
            self.knows[e.player][e.target] = e.target_card
            self.knows[e.target][e.player] = e.player_card
        elif isinstance(e, HandsTraded):
            for row in self.knows:
                row[e.player], row[e.target] = row[e.target], row[e.player]
            self.knows[e.player][e.target] = e.player_card
            self.knows[e.target][e.player] = e.target_card
        elif isinstance(e, HandDiscarded):
            self.front[e.player].append(e.card)
            self._forget(e.player)
        elif isinstance(e, CardDrawn):
            if e.source == "deck":
                self.drawn += 1
                self.deck_len -= 1
        elif isinstance(e, ChancellorDrew):
            self.drawn += len(e.cards)
            self.deck_len -= len(e.cards)
        elif isinstance(e, ChancellorReturned):
            start = self.drawn + self.deck_len
            self.deck_known[e.player] |= {(start + i, c) for i, c in enumerate(e.bottom)}
            self.deck_len += len(e.bottom)
            self._forget(e.player)
        elif isinstance(e, PlayerEliminated):
            self.out[e.player] = True
            self.front[e.player].extend(e.cards)
            self._forget(e.player)
        elif isinstance(e, RoundEnded):
            self.last_winners = e.winners
        elif type(e).__name__ == "FavorGained":
            self.favors[e.player] += 1  # type: ignore[union-attr]
        elif type(e).__name__ == "GameEnded":
            self.over = True


def oracle_moves(model: Model, state: Any) -> set[Any]:
    """Every legal command of the active player, straight from RULINGS §3-§5 (the state supplies only facts:
    hands, who is out, who is protected)."""
    from itertools import permutations

    from loveletter.core.commands import PlayCard, ReturnCards

    if state.phase not in ("play", "chancellor"):
        return set()
    p = state.active
    hand = list(state.hands[p])
    if state.phase == "chancellor":
        out = set()
        for i, keep in enumerate(hand):
            rest = hand[:i] + hand[i + 1 :]
            out |= {ReturnCards(p, keep, order) for order in permutations(rest)}
        return out
    cards = set(hand)
    if Card.COUNTESS in cards and (Card.KING in cards or Card.PRINCE in cards):
        cards = {Card.COUNTESS}
    others = [i for i in range(model.n) if i != p and not state.out[i] and not state.protected[i]]
    in_ruleset = [Card(c) for c, k in model.book["copies"].items() if k]
    named = list(Card) if model.options.get("guard_unknown") == "miss" else in_ruleset
    guesses = [c for c in named if c is not Card.GUARD]
    moves: set[Any] = set()
    for card in cards:
        if card in (Card.GUARD, Card.PRIEST, Card.BARON, Card.KING):
            if not others:
                moves.add(PlayCard(p, card))
            elif card is Card.GUARD:
                moves |= {PlayCard(p, card, t, g) for t in others for g in guesses}
            else:
                moves |= {PlayCard(p, card, t) for t in others}
        elif card is Card.PRINCE:
            moves |= {PlayCard(p, card, t) for t in [p, *others]}
        else:
            moves.add(PlayCard(p, card))
    return moves
