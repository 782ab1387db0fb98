"""A second, independent referee, written for the tests from RULINGS.md alone: a plain mutable table of cards.

Resigning and aborting (RULINGS §12) are here too, written again from §12's text.

It is given only the commands — the game's creation, each deal and each decision — and works out everything
itself: which moves are legal, every card's effect, who is out or protected, when a round ends and who wins it,
which favors are gained and who wins the game. It never reads `core`'s state or events (only the command and
card types are shared). The state machines play `core` and this table side by side and compare them at every
step; a wrong rule in `core` makes them disagree.

It is deliberately simple and slow: lists, loops, no caching.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import permutations

from loveletter.core.cards import Card
from loveletter.core.commands import DealRound, PlayCard, ReturnCards

# RULINGS §1, written out again so the table trusts nothing of core.rulesets.
ORDER = ("spy", "guard", "priest", "baron", "handmaid", "prince", "chancellor", "king", "countess", "princess")
VALUES_2019 = {Card(name): value for value, name in enumerate(ORDER)}
VALUES_2012 = {Card(n): v for n, v in zip(ORDER[1:6] + ORDER[7:], (1, 2, 3, 4, 5, 6, 7, 8), strict=True)}
COPIES_2019 = dict(zip(map(Card, ORDER), (2, 6, 2, 2, 2, 2, 2, 1, 1, 1), strict=True))
COPIES_CLASSIC = {**COPIES_2019, Card.GUARD: 5, Card.CHANCELLOR: 0, Card.SPY: 0}
COPIES_2012 = {**COPIES_CLASSIC, Card.KING: 1}
THRESHOLDS_2019 = {2: 6, 3: 5, 4: 4, 5: 3, 6: 3}


@dataclass(frozen=True)
class Book:
    values: dict[Card, int]
    copies: dict[Card, int]
    players: tuple[int, int]
    thresholds: dict[int, int]
    spy_favor: bool = False
    pair_favor: bool = False  # princess-princess: Amira & Sadie (RULINGS §8)
    sums_break_ties: bool = False  # 2012 (RULINGS §1)

    def deck(self) -> Counter[Card]:
        return Counter({card: k for card, k in self.copies.items() if k})


BOOKS = {
    "2019": Book(VALUES_2019, COPIES_2019, (2, 6), THRESHOLDS_2019, spy_favor=True),
    "2019-classic": Book(VALUES_2019, COPIES_CLASSIC, (2, 4), {2: 6, 3: 5, 4: 4}),
    "2012": Book(VALUES_2012, COPIES_2012, (2, 4), {2: 7, 3: 5, 4: 4}, sums_break_ties=True),
    "princess-princess": Book(VALUES_2019, COPIES_2019, (2, 6), THRESHOLDS_2019, spy_favor=True, pair_favor=True),
}
TARGETED = (Card.GUARD, Card.PRIEST, Card.BARON, Card.KING)


@dataclass
class Table:
    ruleset: str
    n: int
    options: dict[str, str] = field(default_factory=dict)
    named_first: int | None = None
    phase: str = "deal"  # deal, play, chancellor, over
    round: int = 0
    active: int = -1
    deck: list[Card] = field(default_factory=list)  # index 0 is the top
    set_aside: Card | None = None
    face_up: list[Card] = field(default_factory=list)
    hands: list[list[Card]] = field(default_factory=list)
    front: list[list[Card]] = field(default_factory=list)  # played and discarded this round, in order
    out: list[bool] = field(default_factory=list)
    protected: list[bool] = field(default_factory=list)
    favors: list[int] = field(default_factory=list)
    last_round_winners: tuple[int, ...] | None = None
    winners: tuple[int, ...] = ()
    resigned: list[bool] = field(default_factory=list)
    turn_seconds: int | None = None
    on_timeout: str | None = None
    deadline: tuple[int, int] | None = None  # (seat, Unix ms) of the running clock
    # What the last decision caused, for the machines to compare with core's events.
    eliminated: list[int] = field(default_factory=list)
    round_end: tuple[str, tuple[int, ...]] | None = None
    gains: Counter[tuple[int, str]] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.favors = [0] * self.n
        self.resigned = [False] * self.n
        self.out = [False] * self.n
        self.protected = [False] * self.n
        self.hands = [[] for _ in range(self.n)]
        self.front = [[] for _ in range(self.n)]

    @property
    def book(self) -> Book:
        return BOOKS[self.ruleset]

    def value(self, card: Card) -> int:
        return self.book.values[card]

    def alive(self) -> list[int]:
        return [i for i in range(self.n) if not self.out[i]]

    # -- the deal (RULINGS §2) -----------------------------------------------------------------------------

    def playing(self) -> list[int]:
        """Seats that have not left the game."""
        return [i for i in range(self.n) if not self.resigned[i]]

    def first_player_candidates(self) -> set[int]:
        if self.round == 0 and self.named_first is not None:
            return {self.named_first}
        winners = [w for w in self.last_round_winners or () if not self.resigned[w]]
        if self.round > 0 and winners:
            return set(winners)
        return set(self.playing())

    def deal_is_legal(self, cmd: DealRound) -> bool:
        dealt = [card for card in cmd.hands if card is not None]
        return (
            self.phase == "deal"
            and len(cmd.hands) == self.n
            and all((cmd.hands[i] is None) == self.resigned[i] for i in range(self.n))
            and len(cmd.face_up) == (3 if len(self.playing()) == 2 else 0)
            and Counter((cmd.set_aside, *cmd.face_up, *dealt, *cmd.deck)) == self.book.deck()
            and cmd.first_player in self.first_player_candidates()
        )

    def deal(self, cmd: DealRound) -> None:
        assert self.deal_is_legal(cmd)
        self.round += 1
        self.deck, self.set_aside, self.face_up = list(cmd.deck), cmd.set_aside, list(cmd.face_up)
        self.hands = [[] if card is None else [card] for card in cmd.hands]
        self.front = [[] for _ in range(self.n)]
        self.out = list(self.resigned)
        self.protected = [False] * self.n
        self._clear_outcome()
        self._start_turn(cmd.first_player)

    # -- legal moves (RULINGS §3-§5) ----------------------------------------------------------------------

    def others(self, p: int) -> list[int]:
        return [i for i in range(self.n) if i != p and not self.out[i] and not self.protected[i]]

    def legal_moves(self, p: int) -> set[PlayCard | ReturnCards]:
        if p != self.active:
            return set()
        hand = self.hands[p]
        if self.phase == "chancellor":
            moves: set[PlayCard | ReturnCards] = set()
            for i, keep in enumerate(hand):
                rest = hand[:i] + hand[i + 1 :]
                moves |= {ReturnCards(p, keep, order) for order in permutations(rest)}
            return moves
        if self.phase != "play":
            return set()
        cards = set(hand)
        if Card.COUNTESS in cards and cards & {Card.KING, Card.PRINCE}:
            cards = {Card.COUNTESS}
        others = self.others(p)
        named = Card if self.options.get("guard_unknown") == "miss" else [c for c in Card if self.book.copies[c]]
        guesses = [c for c in named if c is not Card.GUARD]
        moves = set()
        for card in cards:
            if card in TARGETED and not others:
                moves.add(PlayCard(p, card))
            elif card is Card.GUARD:
                moves |= {PlayCard(p, card, t, g) for t in others for g in guesses}
            elif card in TARGETED:
                moves |= {PlayCard(p, card, t) for t in others}
            elif card is Card.PRINCE:
                moves |= {PlayCard(p, card, t) for t in [p, *others]}
            else:
                moves.add(PlayCard(p, card))
        return moves

    # -- effects -----------------------------------------------------------------------------------------------

    def play(self, cmd: PlayCard | ReturnCards) -> None:
        assert cmd in self.legal_moves(cmd.player), cmd
        self._clear_outcome()
        self.deadline = None  # a decision made stops its clock
        p = cmd.player
        if isinstance(cmd, ReturnCards):
            self.hands[p] = [cmd.keep]
            self.deck.extend(cmd.bottom)  # under the deck, listed top to bottom
            self.phase = "play"
            self._end_turn()
            return
        self.hands[p].remove(cmd.card)
        self.front[p].append(cmd.card)
        card, t = cmd.card, cmd.target
        if card is Card.PRINCESS:
            self._eliminate(p)
        elif card is Card.HANDMAID:
            self.protected[p] = True
        elif card is Card.GUARD and t is not None:
            if cmd.guess in self.hands[t]:
                self._eliminate(t)
        elif card is Card.BARON and t is not None:
            mine, theirs = self.value(self.hands[p][0]), self.value(self.hands[t][0])
            if mine != theirs:
                self._eliminate(p if mine < theirs else t)
        elif card is Card.KING and t is not None:
            self.hands[p], self.hands[t] = self.hands[t], self.hands[p]
        elif card is Card.PRINCE:
            assert t is not None
            discarded = self.hands[t].pop()
            self.front[t].append(discarded)
            if discarded is Card.PRINCESS:
                self._eliminate(t)
            elif self.deck:
                self.hands[t].append(self.deck.pop(0))
            else:
                assert self.set_aside is not None
                self.hands[t].append(self.set_aside)
                self.set_aside = None
        elif card is Card.CHANCELLOR and self.deck:
            drawn, self.deck = self.deck[:2], self.deck[2:]
            self.hands[p].extend(drawn)
            self.phase = "chancellor"
            return
        self._end_turn()

    # -- leaving the game (RULINGS §12) -------------------------------------------------------------------

    def resign_is_legal(self, p: int) -> bool:
        return 0 <= p < self.n and not self.resigned[p] and self.round > 0 and self.phase != "over"

    # -- turn clocks (RULINGS §12) ------------------------------------------------------------------------

    def set_clock_is_legal(self, p: int) -> bool:
        pending = self.phase in ("play", "chancellor") and p == self.active
        return self.turn_seconds is not None and pending and self.deadline is None

    def set_clock(self, p: int, at: int) -> None:
        assert self.set_clock_is_legal(p) and self.turn_seconds is not None
        self._clear_outcome()
        self.deadline = (p, at + self.turn_seconds * 1000)

    def time_out_is_legal(self, p: int, at: int) -> bool:
        return self.phase != "over" and self.deadline is not None and self.deadline[0] == p and at >= self.deadline[1]

    def time_out(self, p: int) -> None:
        """The deadline passed: the seat resigns, or (bot) its decision stays pending for the server's bot."""
        assert self.deadline is not None
        self.deadline = None
        if self.on_timeout == "resign":
            self.resign(p)
        else:
            self._clear_outcome()

    def resign(self, p: int) -> None:
        """Out of the round at once, hand face up without effect; the turn ends if it was theirs; out of later
        rounds; the last one left in the game wins it."""
        assert self.resign_is_legal(p)
        self._clear_outcome()
        self.resigned[p] = True
        if self.deadline is not None and self.deadline[0] == p:
            self.deadline = None
        if self.phase == "deal" or self.out[p]:
            if self.phase == "deal" and len(self.playing()) == 1:
                self.winners = tuple(self.playing())
                self.phase = "over"
            return
        self.out[p] = True
        self.front[p].extend(self.hands[p])
        self.hands[p] = []
        self.protected[p] = False
        if p == self.active:
            self.phase = "play"
            self._end_turn()
        elif len(self.alive()) == 1:
            self._end_round("last-standing", tuple(self.alive()))

    def abort(self) -> None:
        self._clear_outcome()
        self.deadline = None
        self.winners = ()
        self.phase = "over"

    def _eliminate(self, p: int) -> None:
        self.out[p] = True
        self.front[p].extend(self.hands[p])  # the hand is discarded face up, without its effect (RULINGS §4)
        self.hands[p] = []
        self.eliminated.append(p)

    def _start_turn(self, p: int) -> None:
        self.active = p
        self.protected[p] = False  # the Handmaid protects until the start of the player's own next turn
        self.hands[p].append(self.deck.pop(0))
        self.phase = "play"

    def _end_turn(self) -> None:
        alive = self.alive()
        if len(alive) == 1:
            self._end_round("last-standing", tuple(alive))
        elif not self.deck:
            self._end_round("deck-out", self._showdown())
        else:
            nxt = next(i % self.n for i in range(self.active + 1, self.active + self.n + 1) if not self.out[i % self.n])
            self._start_turn(nxt)

    def _showdown(self) -> tuple[int, ...]:
        alive = self.alive()
        best = max(self.value(self.hands[i][0]) for i in alive)
        tied = [i for i in alive if self.value(self.hands[i][0]) == best]
        if len(tied) == 1 or not self.book.sums_break_ties:
            return tuple(tied)
        sums = {i: sum(self.value(c) for c in self.front[i]) for i in tied}
        still = [i for i in tied if sums[i] == max(sums.values())]
        if len(still) == 1 or self.options.get("tie_2012") == "all":
            return tuple(still)
        return ()

    def _end_round(self, reason: str, winners: tuple[int, ...]) -> None:
        self.round_end = (reason, winners)
        self.gains = Counter((w, "round") for w in winners)
        alive = self.alive()
        if self.book.spy_favor:
            spies = [i for i in alive if Card.SPY in self.front[i]]
            if len(spies) == 1:
                self.gains[(spies[0], "spy")] += 1
        if self.book.pair_favor:
            pair = [i for i in alive if Card.CHANCELLOR in self.front[i]]
            if len(pair) == 2:
                self.gains.update((i, "amira-sadie") for i in pair)
        for (player, _), k in self.gains.items():
            self.favors[player] += k
        self.last_round_winners = winners
        self.protected = [False] * self.n
        self.active = -1
        threshold = self.book.thresholds[self.n]  # the starting player count's, whoever has left since
        playing = self.playing()
        if len(playing) == 1:
            self.winners = (playing[0],)
        else:
            self.winners = tuple(i for i in playing if self.favors[i] >= threshold)
        self.phase = "over" if self.winners else "deal"

    def _clear_outcome(self) -> None:
        self.eliminated, self.round_end, self.gains = [], None, Counter()
