"""Scenario builders: every state a test uses is reached by commands through `decide` + `evolve`, never by
mutating a state. Tests read like the rulebook: start a game, deal an explicit round, play, return.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence

import pytest

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    Event,
    FavorGained,
    GameEnded,
    HandDiscarded,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
)
from loveletter.core.chance import commitment
from loveletter.core.commands import Command, DealRound, PlayCard, ReturnCards, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import evolve, fold
from loveletter.core.legal import legal_moves
from loveletter.core.rules import RULES, RuleViolation
from loveletter.core.rulesets import Options, get_ruleset
from loveletter.core.situation import position_state
from loveletter.core.state import INITIAL, GameState

S, G, PR, B, H, P, C, K, CO, PS = (
    Card.SPY,
    Card.GUARD,
    Card.PRIEST,
    Card.BARON,
    Card.HANDMAID,
    Card.PRINCE,
    Card.CHANCELLOR,
    Card.KING,
    Card.COUNTESS,
    Card.PRINCESS,
)

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")

# Order in which the cards a test did not place fill the deck (after `deck_top`): harmless cards first.
_FILL_ORDER = (G, PR, H, CO, B, S, K, P, C, PS)


class Game:
    """A game driven by commands only: `state` is always `fold(log)`."""

    def __init__(self, state: GameState = INITIAL, log: Sequence[Event] = ()) -> None:
        self.state = state
        self.log: list[Event] = list(log)
        self.last: tuple[Event, ...] = ()

    def do(self, command: Command) -> tuple[Event, ...]:
        events = decide(self.state, command)
        state = self.state
        for event in events:
            state = evolve(state, event)
        self.state = state
        self.log.extend(events)
        self.last = events
        return events

    # -- commands -------------------------------------------------------------------------------

    def play(self, player: int, card: Card, target: int | None = None, guess: Card | None = None) -> tuple[Event, ...]:
        return self.do(PlayCard(player, card, target, guess))

    def give_back(self, player: int, keep: Card, *bottom: Card) -> tuple[Event, ...]:
        return self.do(ReturnCards(player, keep, tuple(bottom)))

    def deal(
        self,
        hands: Sequence[Card],
        deck_top: Sequence[Card] = (),
        *,
        set_aside: Card | None = None,
        face_up: Sequence[Card] | None = None,
        deck_bottom: Sequence[Card] = (),
        first_player: int | None = None,
    ) -> tuple[Event, ...]:
        return self.do(
            explicit_deal(
                self.state,
                hands,
                deck_top,
                set_aside=set_aside,
                face_up=face_up,
                deck_bottom=deck_bottom,
                first_player=first_player,
            )
        )

    # -- reading ----------------------------------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        return self.state.hands[seat]

    def out(self, seat: int) -> bool:
        return self.state.out[seat]

    @property
    def favors(self) -> tuple[int, ...]:
        return self.state.favors

    def burn_until(self, done: Callable[[GameState], bool], avoid: Iterable[Card] = ()) -> None:
        """Play harmless turns (see `harmless_move`) until `done(state)`."""
        avoid = tuple(avoid)
        for _ in range(40):
            if done(self.state):
                return
            self.do(harmless_move(self.state, avoid))
        raise AssertionError("burn_until never got there")

    def play_out(self, avoid: Iterable[Card] = ()) -> tuple[Event, ...]:
        """Play harmless turns until the round ends; the events of the last move (the round's end)."""
        avoid = tuple(avoid)
        for _ in range(40):
            events = self.do(harmless_move(self.state, avoid, allow_end=True))
            if any(isinstance(e, RoundEnded) for e in events):
                return events
        raise AssertionError("the round never ended")


def start(
    ruleset: str = "2019",
    players: int | Sequence[str] = 2,
    options: dict[str, str] | None = None,
    first_player: int | None = 0,
) -> Game:
    names = tuple(NAMES[:players]) if isinstance(players, int) else tuple(players)
    game = Game()
    game.do(StartGame(ruleset, names, dict(options or {}), first_player))
    return game


def explicit_deal(
    state: GameState,
    hands: Sequence[Card],
    deck_top: Sequence[Card] = (),
    *,
    set_aside: Card | None = None,
    face_up: Sequence[Card] | None = None,
    deck_bottom: Sequence[Card] = (),
    first_player: int | None = None,
) -> DealRound:
    """A DealRound with the chosen zones; the cards not placed fill the deck between `deck_top` and `deck_bottom`."""
    rs = state.ruleset
    assert rs is not None
    n = len(state.players)
    left = Counter(rs.deck)
    placed = [*hands, *deck_top, *deck_bottom]
    if set_aside is not None:
        placed.append(set_aside)
    if face_up is not None:
        placed.extend(face_up)
    left.subtract(placed)
    assert all(v >= 0 for v in left.values()), f"scenario uses cards the {rs.id} deck lacks: {-left}"
    rest = [c for c in _FILL_ORDER for _ in range(left[c])]
    if face_up is None:
        face_up = tuple(rest[:3]) if n == 2 else ()
        rest = rest[len(face_up) :]
    if set_aside is None:
        set_aside = rest.pop()  # the last card of the fill order is the least harmless
    if first_player is None:
        from loveletter.core.decide import first_player_candidates

        first_player = first_player_candidates(state)[0][0]
    return DealRound(
        set_aside=set_aside,
        face_up=tuple(face_up),
        hands=tuple(hands),
        deck=(*deck_top, *rest, *deck_bottom),
        first_player=first_player,
    )


_HARMLESS = (G, PR, H, CO, B, S, P)


def harmless_move(state: GameState, avoid: Iterable[Card] = (), allow_end: bool = False) -> Command:
    """A legal move of the active player that eliminates nobody and trades nothing, keeps the cards of `avoid` in
    hand (a Prince may only discard a card not in `avoid`, its own player's), plays a Chancellor, a King or a Prince
    on themself only when nothing else is harmless and, unless `allow_end`, does not end the round."""
    avoid = set(avoid)
    if state.phase == "chancellor":  # keep a card of `avoid` if there is one, return the rest in hand order
        hand = list(state.hands[state.active])
        keep = next((c for c in hand if c in avoid), hand[0])
        hand.remove(keep)
        return ReturnCards(state.active, keep, tuple(hand))
    bad: tuple[type, ...] = (PlayerEliminated,) if allow_end else (PlayerEliminated, RoundEnded)
    moves = [m for m in legal_moves(state, state.active) if isinstance(m, PlayCard)]
    moves.sort(key=lambda m: _HARMLESS.index(m.card) if m.card in _HARMLESS else 99)
    for strict in (True, False):
        for move in moves:
            if move.card in avoid or move.card not in (_HARMLESS if strict else (*_HARMLESS, C, K)):
                continue
            if move.card is P and (strict or move.target != move.player):
                continue
            events = decide(state, move)
            if any(isinstance(e, bad) for e in events):
                continue
            if any(isinstance(e, HandDiscarded) and e.card in avoid for e in events) or any(
                isinstance(e, HandsTraded) and {e.player_card, e.target_card} & avoid for e in events
            ):
                continue
            return move
    raise AssertionError(f"no harmless move for seat {state.active} holding {state.hands[state.active]}")


def expect_violation(state: GameState, command: Command, rule_id: str) -> RuleViolation:
    """`command` is refused citing `rule_id`, with an English and a French message, and nothing changes."""
    assert rule_id in RULES, rule_id
    before = state.as_dict()
    with pytest.raises(RuleViolation) as info:
        decide(state, command)
    exc = info.value
    assert exc.rule_id == rule_id, f"refused under {exc.rule_id} ({exc.code}: {exc.en}), expected {rule_id}"
    assert exc.code and exc.en and exc.fr
    assert state.as_dict() == before
    return exc


def of_type(events: Iterable[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


def favors_by_reason(events: Iterable[Event]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for e in of_type(events, FavorGained):
        out.setdefault(e.reason, []).append(e.player)
    return out


def round_end(events: Iterable[Event]) -> RoundEnded:
    (ended,) = of_type(events, RoundEnded)
    return ended


def game_winners(events: Iterable[Event]) -> tuple[int, ...] | None:
    ended = of_type(events, GameEnded)
    return ended[0].winners if ended else None


def replayed(game: Game) -> GameState:
    return fold(game.log)


def ruleset_deck(ruleset: str) -> Counter[Card]:
    return Counter(get_ruleset(ruleset).deck)


def finished(with_commitment: bool = True, seed: int = 5) -> tuple[GameState, bytes]:
    """A whole game played to its end with random legal moves (seeded), its server seed committed or not."""
    rng = random.Random(seed)
    server = bytes(range(32))
    state = fold(
        decide(
            INITIAL, StartGame("2019", ("Ann", "Bob"), seed_commitment=commitment(server) if with_commitment else None)
        )
    )
    while not state.over:
        if state.phase == "deal":
            deck = list(state.ruleset.deck)  # type: ignore[union-attr]
            rng.shuffle(deck)
            winners = state.round_winners or (0,)
            command: Command = DealRound(deck[0], tuple(deck[1:4]), (deck[4], deck[5]), tuple(deck[6:]), winners[0])
        else:
            command = rng.choice(legal_moves(state, state.active))
        state = fold(decide(state, command), state)
    return state, server


def position(
    hands: tuple[tuple[Card, ...], ...],
    deck: tuple[Card, ...],
    *,
    set_aside: Card,
    ruleset: str = "2019",
    players: tuple[str, ...] = ("Ann", "Bob"),
    round_no: int = 1,
    favors: tuple[int, ...] | None = None,
    active: int = 0,
    front: tuple[tuple[Card, ...], ...] | None = None,
    out: tuple[bool, ...] | None = None,
    protected: tuple[bool, ...] | None = None,
    face_up: tuple[Card, ...] = (),
) -> GameState:
    """A described position (`core.situation.position_state`) with the usual defaults: nothing in front of anyone,
    nobody out or protected, no favors, default options."""
    n = len(players)
    return position_state(
        get_ruleset(ruleset),
        Options(),
        players,
        round_no=round_no,
        favors=favors or (0,) * n,
        active=active,
        hands=hands,
        front=front or ((),) * n,
        out=out or (False,) * n,
        protected=protected or (False,) * n,
        face_up=face_up,
        set_aside=set_aside,
        deck=deck,
    )
