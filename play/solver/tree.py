"""A reduced game's whole tree, written once through the rules core; the solver and the best response walk it.

Every edge is the rules' own: a seat's moves are `legal_move_tuple`, a move's outcome is `decide` and `fold`. Chance
is dealt as late as the rules reveal it. A round's deal fixes the order of the whole pile, but a card nobody has
seen yet is equally likely to be any of the unseen ones, whatever was played (the shuffle is uniform and nobody's
play can depend on a card they have not seen). So a node keeps one state whose unseen cards (the rest of the pile
and the set-aside card) lie in any order; when a move reveals some of them (a turn's draw, a Prince's), the node's
chance branches over every distinct sequence they can show, each with its probability, and for each the unseen
cards are laid again with that sequence first, before `decide` is asked. The same game with the deal fixed at the
start would have the same leaves with the same probabilities, and many times the nodes.

**Information sets** are keyed by what the seat saw: the events of the round, each one as `core.views` lets this seat
see it (`redact`: a card drawn by the other seat, the other's hand in a Baron's comparison, are hidden). Two nodes
share a set exactly when the seat saw the same events, so the seat's play never depends on a hidden card, and it
remembers all it saw (perfect recall: the seat's own moves are among the events).

The value of a leaf is the first seat's share of the round: 1 if it wins alone, 0 if it loses, ½ when both win or
nobody does (the 2012 tie that survives the discard sums). The second seat's share is one minus it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from loveletter.core.cards import Card
from loveletter.core.catalogue import CardDrawn, Event, GameStarted, RoundStarted, TurnStarted
from loveletter.core.commands import DealRound, PlayerCommand
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_move_tuple
from loveletter.core.state import PHASE_PLAY, GameState
from loveletter.core.views import redact, visible_to
from loveletter.events.codec import encode
from loveletter.play.solver.games import CutGame

TERMINAL, CHANCE, DECISION = 0, 1, 2
Last = tuple[tuple[int, int] | None, tuple[int, int] | None]
"""Each seat's latest decision on the way to a node: (information set, move's index), or None."""
SEATS = ("North", "South")
"""The two seats; North (seat 0) plays first."""


@dataclass(slots=True)
class InfoSet:
    """A seat's decision as the seat knows it: its legal moves and the nodes it cannot tell apart."""

    seat: int
    moves: tuple[PlayerCommand, ...]
    after: tuple[int, int] | None = None
    """The seat's decision just before this one: (its information set, the move's index); None for its first."""
    nodes: list[int] = field(default_factory=list)
    state: GameState | None = None
    """The state at one of its nodes: the seat's view of it is the same at every one (tests check it)."""


@dataclass(slots=True)
class Tree:
    """The nodes, numbered so that a parent comes before its children (node 0 is the deal)."""

    game: CutGame
    kind: list[int] = field(default_factory=list)
    children: list[tuple[int, ...]] = field(default_factory=list)
    probs: list[tuple[float, ...]] = field(default_factory=list)
    """At a chance node, each child's probability; elsewhere empty."""
    value: list[float] = field(default_factory=list)
    """At a leaf, the first seat's share of the round; elsewhere 0."""
    infoset: list[int] = field(default_factory=list)
    """At a decision node, its information set's number; elsewhere -1."""
    infosets: list[InfoSet] = field(default_factory=list)
    states: dict[int, GameState] = field(default_factory=dict)
    """Every node's state, kept only when the tree is built with `keep_states` (tests)."""

    def __len__(self) -> int:
        return len(self.kind)

    def player(self, node: int) -> int:
        return self.infosets[self.infoset[node]].seat


def build(game: CutGame, keep_states: bool = False, progress: Callable[[int], None] | None = None) -> Tree:
    """The whole tree of one round of `game`, North playing first."""
    return _Builder(game, keep_states, progress).tree


class _Builder:
    def __init__(self, game: CutGame, keep_states: bool, progress: Callable[[int], None] | None) -> None:
        self.tree = Tree(game)
        self.keep = keep_states
        self.progress = progress
        self.words: dict[object, int] = {}  # an event as a seat sees it -> a number (a few thousand in a game)
        self.seen: dict[tuple[int, int, tuple[int, ...]], int] = {}  # (seat, what it had seen, what it sees) -> number
        self.sets: dict[tuple[int, int], int] = {}  # (seat, what it has seen) -> information set
        start = fold([GameStarted(game.ruleset.id, SEATS, {}, first_player=0, scenario=True)])
        self._chance(start, (0, 0), (None, None), None)

    # -- nodes ---------------------------------------------------------------------------------------------------

    def _new(self, kind: int) -> int:
        t = self.tree
        node = len(t.kind)
        t.kind.append(kind)
        t.children.append(())
        t.probs.append(())
        t.value.append(0.0)
        t.infoset.append(-1)
        if self.progress is not None and node and node % 100000 == 0:
            self.progress(node)
        return node

    def _node(self, state: GameState, seen: tuple[int, int], events: tuple[Event, ...], last: Last) -> int:
        """The node of `state`, reached by `events` from where each seat had seen `seen`."""
        if state.phase != PHASE_PLAY:  # the round is over (2012 and the reduced decks have no Chancellor)
            node = self._new(TERMINAL)
            self.tree.value[node] = _share(state.round_winners)
        else:
            node = self._decision(state, self._saw(seen, events), last)
        if self.keep:
            self.tree.states[node] = state
        return node

    def _decision(self, state: GameState, seen: tuple[int, int], last: Last) -> int:
        t = self.tree
        node = self._new(DECISION)
        seat = state.active
        moves = legal_move_tuple(state, seat)
        key = (seat, seen[seat])
        number = self.sets.get(key)
        if number is None:
            number = self.sets[key] = len(t.infosets)
            t.infosets.append(InfoSet(seat, moves, last[seat], state=state))
        elif t.infosets[number].moves != moves or t.infosets[number].after != last[seat]:
            raise AssertionError("two states the seat cannot tell apart differ in its legal moves or its past moves")
        t.infoset[node] = number
        t.infosets[number].nodes.append(node)
        kids = []
        for a, move in enumerate(moves):
            now: Last = ((number, a), last[1]) if seat == 0 else (last[0], (number, a))
            kids.append(self._chance(state, seen, now, move))
        t.children[node] = tuple(kids)
        return node

    def _chance(self, state: GameState, seen: tuple[int, int], last: Last, move: PlayerCommand | None) -> int:
        """The node after `move` (None: the deal), with a chance node first when the move shows unseen cards."""
        unseen = _unseen(state) if move is not None else self.tree.game.in_play
        base, first = self._outcome(state, move, unseen, ())
        shown = _shown(first)
        if not shown:
            return self._node(fold(first, base), seen, first, last)
        node = self._new(CHANCE)
        kids: list[int] = []
        probs: list[float] = []
        for sequence, p in _sequences(Counter(unseen), len(shown)):
            laid, events = (base, first) if sequence == shown else self._outcome(state, move, unseen, sequence)
            if _shown(events) != sequence:
                raise AssertionError("the rules showed other cards than the ones laid on top")
            kids.append(self._node(fold(events, laid), seen, events, last))
            probs.append(p)
        self.tree.children[node] = tuple(kids)
        self.tree.probs[node] = tuple(probs)
        return node

    def _outcome(
        self, state: GameState, move: PlayerCommand | None, unseen: tuple[Card, ...], top: tuple[Card, ...]
    ) -> tuple[GameState, tuple[Event, ...]]:
        """The state with the unseen cards laid `top` first and the rest in a fixed order, and the events of `move`
        there (of the deal, when `move` is None)."""
        rest = list(unseen)
        for card in top:
            rest.remove(card)
        cards = (*top, *sorted(rest))
        if move is None:  # the deal: North's and South's hands, North's first draw, then the pile and the set-aside
            hands, pile = cards[:2], cards[2:-1]
            deal = DealRound(cards[-1], self.tree.game.face_up, hands, pile, 0)
            return state, tuple(decide(state, deal))
        left = len(state.deck)  # the pile still to draw (the state drops each card drawn)
        laid = state.thaw()
        laid.deck = cards[:left]
        if state.set_aside is not None:
            laid.set_aside = cards[left]
        ready = laid.freeze()
        return ready, tuple(decide(ready, move))

    def _saw(self, seen: tuple[int, int], events: tuple[Event, ...]) -> tuple[int, int]:
        """Each seat's record of what it saw, after `events`."""
        out = []
        words = self.words
        for seat in (0, 1):
            seen_now = []
            for event in events:
                word = _as_seen(event, seat)
                number = words.get(word)
                if number is None:
                    number = words[word] = len(words)
                seen_now.append(number)
            key = (seat, seen[seat], tuple(seen_now))
            number = self.seen.get(key)
            if number is None:
                number = self.seen[key] = len(self.seen) + 1  # 0 is the start: nothing seen
            out.append(number)
        return out[0], out[1]


def _unseen(state: GameState) -> tuple[Card, ...]:
    """The cards nobody has seen: the rest of the pile, then the set-aside card."""
    return state.deck if state.set_aside is None else (*state.deck, state.set_aside)


def _shown(events: Iterable[Event]) -> tuple[Card, ...]:
    """The unseen cards the events hand out, in order: the deal's two hands, a turn's draw, a Prince's new hand."""
    out: list[Card] = []
    for e in events:
        if type(e) is TurnStarted or type(e) is CardDrawn:
            out.append(e.card)
        elif type(e) is RoundStarted:
            out += [hand for hand in e.hands if hand is not None]
    return tuple(out)


def _sequences(cards: Counter[Card], k: int) -> list[tuple[tuple[Card, ...], float]]:
    """Every distinct sequence of `k` cards drawn from `cards` without putting back, with its probability."""
    if k == 0:
        return [((), 1.0)]
    total = sum(cards.values())
    out = []
    for card in sorted(c for c, n in cards.items() if n):
        p = cards[card] / total
        cards[card] -= 1
        out += [((card, *rest), p * q) for rest, q in _sequences(cards, k - 1)]
        cards[card] += 1
    return out


def _as_seen(event: Event, seat: int) -> object:
    """The event as `seat` sees it: itself, or what `redact` leaves of it."""
    if visible_to(event, seat):
        return event
    return tuple((name, _frozen(value)) for name, value in redact(event, encode(event), seat).items())


def _frozen(value: object) -> object:
    return tuple(value) if isinstance(value, list) else value


def _share(winners: tuple[int, ...]) -> float:
    """North's share of a round won by `winners`."""
    if (0 in winners) == (1 in winners):
        return 0.5
    return 1.0 if 0 in winners else 0.0
