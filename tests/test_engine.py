"""The `expert` bot (play/engine): legal moves only, worlds that agree with the seat's view, no peeking at a card
the seat cannot know, determinism under a seed, the game-value model, and positions whose best move is known."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator

import pytest

from loveletter.core.catalogue import SeatBot
from loveletter.core.commands import PlayCard, PlayerCommand
from loveletter.core.legal import legal_move_tuple, legal_moves
from loveletter.core.rulesets import RULESETS
from loveletter.core.state import GameState
from loveletter.core.views import view
from loveletter.play.bots import BOTS, get_bot, seat_bot
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.policy import analyse, candidates, expert_policy
from loveletter.play.engine.search import Budget, default_budget
from loveletter.play.engine.value import end_value, race
from loveletter.play.simulate import decisions
from tests.helpers import CO, PR, PS, B, C, G, Game, H, K, P, S, position, ruleset_deck

SMALL = Budget(iterations=6)
TABLES = [(rs.id, n) for rs in RULESETS.values() for n in range(rs.min_players, rs.max_players + 1)]


def _decisions(ruleset: str, players: int, games: int, budget: Budget = SMALL, seed: int = 11) -> Iterator[tuple]:
    """(state, seat, moves, chosen) at every decision of `games` games with the expert in every seat."""
    return decisions(ruleset, players, games, expert_policy(budget), seed)


def test_expert_is_a_built_in_bot() -> None:
    assert "expert" in BOTS
    state, seat, moves, _ = next(_decisions("2019", 2, 1))
    assert get_bot("expert").choose(view(state, seat), moves, random.Random(1)) in moves


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_expert_only_chooses_legal_moves_and_samples_worlds_the_seat_cannot_tell_apart(
    ruleset: str, players: int
) -> None:
    decisions = 0
    rng = random.Random(players)
    for state, seat, moves, chosen in _decisions(ruleset, players, 1):
        assert chosen in moves
        decisions += 1
        seen = view(state, seat)
        world = Sampler(seen).sample(rng)
        # the world gives the seat the very view it has (bar the log's length) and the very moves
        assert view(world, seat)._replace(version=0) == seen._replace(version=0)
        assert legal_move_tuple(world, seat) == tuple(moves)
        assert Counter(_all_cards(world)) == Counter(RULESETS[ruleset].deck)
    assert decisions > 10


def _all_cards(state: GameState) -> list:
    aside = [state.set_aside] if state.set_aside is not None else []
    return [
        *state.face_up,
        *aside,
        *state.deck,
        *(c for h in state.hands for c in h),
        *(c for f in state.front for c in f),
    ]


def _rearranged(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The same position with every card `seat` cannot see (unknown hands, the unknown part of the draw pile, the
    set-aside card) dealt again into those places: a state consistent with all the seat knows."""
    known_deck = {pos - state.drawn for pos, _ in state.deck_known[seat]}
    hidden_seats = [
        i for i in range(len(state.players)) if i != seat and not state.out[i] and state.knows[seat][i] is None
    ]
    hidden_deck = [j for j in range(len(state.deck)) if j not in known_deck]
    cards = [c for i in hidden_seats for c in state.hands[i]] + [state.deck[j] for j in hidden_deck]
    if state.set_aside is not None:
        cards.append(state.set_aside)
    rng.shuffle(cards)
    s = state.thaw()
    hands, deck = list(s.hands), list(s.deck)
    at = 0
    for i in hidden_seats:
        hands[i] = tuple(cards[at : at + len(hands[i])])
        at += len(hands[i])
    for j in hidden_deck:
        deck[j] = cards[at]
        at += 1
    s.hands, s.deck = tuple(hands), tuple(deck)
    if s.set_aside is not None:
        s.set_aside = cards[at]
    return s.freeze()


@pytest.mark.parametrize(("ruleset", "players"), [("2019", 2), ("2019", 4), ("princess-princess", 5), ("2012", 3)])
def test_expert_never_reads_a_card_its_seat_cannot_know(ruleset: str, players: int) -> None:
    choose = expert_policy(Budget(iterations=12))
    rng = random.Random(5)
    checked = changed = 0
    for state, seat, moves, _ in _decisions(ruleset, players, 1):
        if len(moves) < 2:
            continue
        other = _rearranged(state, seat, rng)
        changed += other != state
        assert view(other, seat) == view(state, seat)
        assert legal_moves(other, seat) == moves
        assert choose(view(other, seat), moves, random.Random(checked)) == choose(
            view(state, seat), moves, random.Random(checked)
        )
        checked += 1
    assert checked > 5
    assert changed > checked // 2


def test_the_same_seed_gives_the_same_decisions() -> None:
    first = [chosen for *_, chosen in _decisions("2019", 3, 1, Budget(iterations=10), seed=4)]
    again = [chosen for *_, chosen in _decisions("2019", 3, 1, Budget(iterations=10), seed=4)]
    assert first == again


def test_the_game_value_model() -> None:
    assert race(1, (1,)) == pytest.approx(0.5)
    assert race(1, (2,)) == pytest.approx(0.75)  # wins the next round, or the one after if the other does not
    assert race(2, (1,)) == pytest.approx(0.25)
    assert race(3, ()) == 1.0
    shares = [race(d, tuple(sorted(o))) for d, o in [(2, (3, 4)), (3, (2, 4)), (4, (2, 3))]]
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] > shares[1] > shares[2]


# -- positions whose best move is known by hand --------------------------------------------------------------------


def _full_deck(hands: tuple, top: tuple, set_aside, face_up: tuple = (), front: tuple = ((), ())) -> tuple:
    """The draw pile: `top`, then every card of the 2019 deck not placed elsewhere (so the position is a whole deck)."""
    rest = ruleset_deck("2019")
    rest.subtract([*(c for h in hands for c in h), *top, set_aside, *face_up, *(c for f in front for c in f)])
    assert all(n >= 0 for n in rest.values())
    return (*top, *sorted(rest.elements()))


THOROUGH = Budget(iterations=300)


def _best(state: GameState, budget: Budget = THOROUGH) -> PlayerCommand:
    seat = state.active
    return expert_policy(budget)(view(state, seat), legal_moves(state, seat), random.Random(7))


def test_a_guard_that_can_only_hit_by_counting_names_the_card() -> None:
    # Deck empty, Bob's hand and the set-aside card are the two Priests: the Guard naming the Priest wins the round,
    # anything else goes to a showdown that Ann (Spy or Guard against a Priest) loses.
    front = ((G, B, H, P, C, G, S), (G, G, B, H, P, C, G))
    state = position(((G, S), (PR,)), (), set_aside=PR, face_up=(PS, K, CO), front=front)
    assert Counter(_all_cards(state)) == ruleset_deck("2019")
    assert _best(state) == PlayCard(0, G, 1, PR)


def test_a_guard_against_a_hand_seen_with_the_priest_is_a_certain_hit() -> None:
    # Ann's Priest showed her Bob's King; Bob guessed wrong with his Guard; Ann holds a Guard and a Baron: the Baron
    # would lose (Guard against King), the Guard naming the King wins the round.
    hands = ((PR, G), (K,))
    top = (G, B)
    game = Game(position(hands, _full_deck(hands, top, PS), set_aside=PS))
    game.play(0, PR, 1)
    game.play(1, G, 0, PS)
    assert game.state.hands[0] == (G, B)
    assert _best(game.state) == PlayCard(0, G, 1, K)


def test_a_baron_against_a_lower_hand_it_has_seen_wins_the_round() -> None:
    hands = ((PR, B), (G,))
    top = (S, H)
    game = Game(position(hands, _full_deck(hands, top, PS), set_aside=PS))
    game.play(0, PR, 1)  # Ann sees Bob's Guard
    game.play(1, S)
    assert sorted(game.state.hands[0]) == sorted((B, H))
    assert _best(game.state) == PlayCard(0, B, 1)


@pytest.mark.parametrize("other", [G, P])
def test_the_princess_is_never_discarded_when_there_is_a_choice(other) -> None:
    hands = ((PS, other), (PR,))
    state = position(hands, _full_deck(hands, (), H), set_aside=H)
    chosen = _best(state, Budget(iterations=60))
    assert isinstance(chosen, PlayCard)
    assert chosen.card is not PS
    assert not (chosen.card is P and chosen.target == 0)


def test_the_expert_never_discards_the_princess_in_play() -> None:
    checked = 0
    for state, seat, moves, chosen in _decisions("2019", 4, 3, Budget(iterations=16), seed=2):
        if PS not in state.hands[seat] or not isinstance(chosen, PlayCard):
            continue
        safe = [
            m for m in moves if isinstance(m, PlayCard) and m.card is not PS and not (m.card is P and m.target == seat)
        ]
        if safe:
            checked += 1
            assert chosen.card is not PS
            assert not (chosen.card is P and chosen.target == seat)
    assert checked > 3


def test_guard_guesses_that_cannot_hit_are_not_searched() -> None:
    front = ((G, B, H, P, C, G, S), (G, G, B, H, P, C, G))
    state = position(((G, S), (PR,)), (), set_aside=PR, face_up=(PS, K, CO), front=front)
    seen = view(state, 0)
    moves = legal_moves(state, 0)
    kept = candidates(seen, moves)
    assert PlayCard(0, G, 1, PR) in kept
    assert not any(isinstance(m, PlayCard) and m.card is G and m.guess is not PR for m in kept)
    ranked = analyse(seen, moves, random.Random(1), Budget(iterations=40))
    assert ranked[0].move == PlayCard(0, G, 1, PR)
    assert ranked[0].mean > ranked[-1].mean
    assert end_value(state, 0) == pytest.approx(0.5)  # no favors yet, two seats: an even race


def test_the_built_in_expert_searches_a_fixed_amount_stated_in_the_log() -> None:
    """200 rollouts a decision for each other seat (docs/engine.md): 200 at two players, 600 at four, whatever the
    machine's load; `seat_bot` writes the same figure in a game's log, and the other bots search nothing."""
    assert seat_bot("expert", 2) == SeatBot("expert", 200)
    assert seat_bot("expert", 4) == SeatBot("expert", 600)
    assert seat_bot("heuristic", 4) == SeatBot("heuristic", None)
    with pytest.raises(KeyError):
        seat_bot("nobody", 2)
    assert default_budget(2) == Budget(iterations=200) and default_budget(4) == Budget(iterations=600)
    assert default_budget(4).seconds is None  # a count, not a time
