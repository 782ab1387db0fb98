"""The solver (play/solver): the published 4-card game's exploitability worked out by hand, a bad policy measured
worse than the solution, the same answer every time, information sets that never depend on a hidden card, the
reduced research rulesets, and a rules core the solver leaves as it found it."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

import pytest

from loveletter.core.cards import Card
from loveletter.core.chance import deal
from loveletter.core.commands import PlayCard, PlayerCommand, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import RULESETS, get_ruleset, reduced, reduced_id
from loveletter.core.state import INITIAL, PHASE_PLAY, GameState
from loveletter.core.views import View, view
from loveletter.play.bots import get_bot
from loveletter.play.policies import choose_heuristic
from loveletter.play.solver.cfr import CFRPlus
from loveletter.play.solver.exploit import measure, policy_strategy, uniform
from loveletter.play.solver.games import _JavaRandom, cut, java_order, published
from loveletter.play.solver.tree import CHANCE, DECISION, Tree, build
from tests.cli import loveletter

G, PR, B, H, P, K, CO, PS = (
    Card.GUARD,
    Card.PRIEST,
    Card.BARON,
    Card.HANDMAID,
    Card.PRINCE,
    Card.KING,
    Card.COUNTESS,
    Card.PRINCESS,
)


@pytest.fixture(scope="module")
def four() -> Tree:
    return build(published(4), keep_states=True)


@pytest.fixture(scope="module")
def six() -> Tree:
    return build(published(6), keep_states=True)


def name_the_king(view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
    """A known-bad policy: a Guard always names the King (never in play in the 4-card game)."""
    return next((m for m in moves if isinstance(m, PlayCard) and m.guess is K), moves[0])


# -- the published games ---------------------------------------------------------------------------------------


def test_javas_generator_gives_its_documented_numbers() -> None:
    # new Random(0).nextInt() is -1155484576, and new Random(0).nextInt(100) is 60, in any Java.
    first = _JavaRandom(0)._next(32)
    assert first - (1 << 32) == -1155484576
    assert _JavaRandom(0).next_int(100) == 60


def test_the_published_four_card_game_is_a_baron_and_three_guards() -> None:
    assert Counter(java_order()) == Counter(get_ruleset("2012").deck)
    game = published(4)
    assert java_order()[-4:] == (B, G, G, G)
    assert game.in_play == (G, G, G, B)
    assert game.face_up == (CO, K, G)  # the three cards laid face up before them
    assert game.ruleset.id == "2012@guard*4,baron*1,king*1,countess*1"
    assert published(7).in_play == (G, G, G, G, B, K, CO)


def test_the_four_card_game_is_one_decision_of_north(four: Tree) -> None:
    # North holds two Guards (the Baron set aside or in South's hand), a Baron then a Guard, or a Guard then the
    # Baron: three information sets, all North's. The pile then runs out: South never decides.
    assert [s.seat for s in four.infosets] == [0, 0, 0]
    two_guards = next(s for s in four.infosets if s.state is not None and s.state.hands[0] == (G, G))
    assert [(m.card, m.target, m.guess) for m in two_guards.moves if isinstance(m, PlayCard)] == [
        (G, 1, B),
        (G, 1, K),
        (G, 1, CO),
    ]
    assert len(two_guards.nodes) == 2


def test_exploitability_of_the_four_card_game_by_hand(four: Tree) -> None:
    # The Baron is equally likely (1/4 each) to be set aside, in South's hand, in North's hand or North's draw.
    # - set aside: North's Guard misses South's Guard whatever it names; at the deck-out Guard ties Guard and North
    #   wins on its discards (1 against 0, the 2012 tie rule). North wins.
    # - in South's hand: naming the Baron wins; naming the King or the Countess misses, and South's Baron beats
    #   North's Guard at the deck-out.
    # - in North's hand or draw: a Baron on South ties Guard with Guard (nothing happens) and North wins the
    #   deck-out on its discards (3 against 0); a Guard misses, and North's Baron beats South's Guard. North wins.
    # Equilibrium: name the Baron; North wins every round (value 1, South has no decision).
    # Uniform play: 1/4 (1 + 1/3 + 1 + 1) = 5/6. A best-responding North wins 1; South, without a decision, gets
    # 1 - 5/6 = 1/6. Exploitability (1 + 1/6 - 1) / 2 = 1/12.
    at_random = measure(four, uniform(four))
    assert at_random.value == pytest.approx(5 / 6)
    assert at_random.north_best == pytest.approx(1.0)
    assert at_random.south_best == pytest.approx(1 / 6)
    assert at_random.exploitability == pytest.approx(1 / 12)
    # Always naming the King: 1/4 (1 + 0 + 1 + 1) = 3/4, exploitability (1 + 1/4 - 1) / 2 = 1/8.
    king = measure(four, policy_strategy(four, name_the_king))
    assert king.value == pytest.approx(3 / 4)
    assert king.exploitability == pytest.approx(1 / 8)
    solver = CFRPlus(four)
    solver.iterate(100)
    solved = measure(four, solver.average())
    assert solved.value == pytest.approx(1.0, abs=1e-3)
    assert solved.exploitability < 1e-3


def test_a_bad_policy_is_more_exploitable_than_the_solution(six: Tree) -> None:
    solver = CFRPlus(six)
    solver.iterate(200)
    solved = measure(six, solver.average()).exploitability
    assert solved < 0.005
    for bad in (uniform(six), policy_strategy(six, get_bot("random").choose), policy_strategy(six, choose_heuristic)):
        assert measure(six, bad).exploitability > solved + 0.05
    # A best response never does worse than the strategy it answers.
    result = measure(six, solver.average())
    assert result.north_best >= result.value - 1e-12
    assert result.south_best >= 1 - result.value - 1e-12


def test_the_same_game_gives_the_same_tree_and_the_same_solution(six: Tree) -> None:
    again = build(published(6))
    assert (again.kind, again.children, again.probs, again.value, again.infoset) == (
        six.kind,
        six.children,
        six.probs,
        six.value,
        six.infoset,
    )
    first, second = CFRPlus(six), CFRPlus(again)
    first.iterate(30)
    second.iterate(30)
    assert first.average() == second.average()
    assert policy_strategy(six, choose_heuristic, seed=4) == policy_strategy(again, choose_heuristic, seed=4)


# -- what each seat knows ----------------------------------------------------------------------------------------


def test_a_seats_information_set_never_depends_on_a_hidden_card(six: Tree) -> None:
    """Every node of a set gives the seat the very same view and legal moves, while the cards it cannot see differ
    between the nodes: the solution (one strategy per set) cannot read them."""
    hidden_differ = 0
    for info in six.infosets:
        states = [six.states[node] for node in info.nodes]
        views = {_key(view(state, info.seat)) for state in states}
        assert len(views) == 1
        assert all(tuple(legal_moves(state, info.seat)) == info.moves for state in states)
        other = 1 - info.seat
        hidden_differ += len({(state.hands[other], state.deck, state.set_aside) for state in states}) > 1
    assert hidden_differ > len(six.infosets) // 4


def test_every_state_of_the_tree_holds_the_deck_and_chance_adds_up(six: Tree) -> None:
    deck = Counter(six.game.ruleset.deck)
    for node, state in six.states.items():
        if state.phase != PHASE_PLAY:
            continue
        held = [card for group in (*state.hands, *state.front) for card in group]
        places = [*state.face_up, *state.deck, *held, *([state.set_aside] if state.set_aside else [])]
        assert Counter(places) == deck
        assert six.kind[node] == DECISION
    for node in range(len(six)):
        if six.kind[node] == CHANCE:
            assert sum(six.probs[node]) == pytest.approx(1.0)


def _key(v: View) -> str:
    return json.dumps(v.as_dict(), sort_keys=True)  # every field of the view


# -- reduced rulesets -----------------------------------------------------------------------------------------------


def test_a_reduced_ruleset_is_named_by_its_id_and_keeps_its_parents_rules() -> None:
    rs = reduced("2012", {G: 4, B: 1, K: 1, CO: 1})
    assert rs.id == reduced_id("2012", {CO: 1, K: 1, B: 1, G: 4}) == "2012@guard*4,baron*1,king*1,countess*1"
    assert get_ruleset(rs.id) is rs
    parent = RULESETS["2012"]
    assert rs.values == parent.values and rs.tie_rule == parent.tie_rule and rs.cards == (G, B, K, CO)
    assert (rs.min_players, rs.max_players, len(rs.deck)) == (2, 2, 7)
    own = cut("2012", (G, G, B, PS), (P, K, CO)).ruleset.id
    assert own == "2012@guard*2,baron*1,prince*1,king*1,countess*1,princess*1"


@pytest.mark.parametrize(
    "ruleset_id",
    [
        "2012@guard*2,baron*1",  # three cards: a two-player round needs seven
        "2012@guard*6,baron*1",  # the original deck has five Guards
        "2020@guard*5,baron*2",  # no such parent
        "2012@baron*2,guard*5",  # not in the catalogue's order
        "2012@guard*five",
    ],
)
def test_a_reduced_ruleset_that_cannot_be_is_unknown(ruleset_id: str) -> None:
    with pytest.raises(KeyError):
        get_ruleset(ruleset_id)


def test_a_reduced_ruleset_is_not_played_at_a_table() -> None:
    with pytest.raises(RuleViolation) as refused:
        decide(INITIAL, StartGame(reduced("2012", {G: 5, B: 2}).id, ("Ann", "Bob")))
    assert refused.value.code == "unknown_ruleset"


def test_the_heuristic_plays_a_reduced_deck_by_its_parents_values(six: Tree) -> None:
    info = six.infosets[0]
    assert info.state is not None
    assert choose_heuristic(view(info.state, info.seat), info.moves, random.Random(1)) in info.moves


# -- the rules core ------------------------------------------------------------------------------------------------


def _seeded_game() -> GameState:
    """A 2019 game's first round, dealt from a fixed seed and played by the heuristic: a fingerprint of the rules."""
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), first_player=0)))
    state = fold(decide(state, deal(state, bytes(32))), state)
    rng = random.Random(3)
    while state.phase == PHASE_PLAY:
        move = choose_heuristic(view(state, state.active), legal_moves(state, state.active), rng)
        state = fold(decide(state, move), state)
    return state


def test_the_solver_leaves_the_rules_core_as_it_found_it() -> None:
    catalogue = {rs.id: (rs.deck, dict(rs.values)) for rs in RULESETS.values()}
    before = _seeded_game()
    tree = build(published(6))
    solver = CFRPlus(tree)
    solver.iterate(5)
    measure(tree, solver.average())
    policy_strategy(tree, choose_heuristic)
    assert {rs.id: (rs.deck, dict(rs.values)) for rs in RULESETS.values()} == catalogue
    assert _seeded_game() == before


# -- the command line ------------------------------------------------------------------------------------------------


def test_loveletter_solve_prints_its_progress_and_figures_as_json() -> None:
    result = loveletter("solve", "--cards", "5", "--iterations", "20", "--against", "heuristic", "--json")
    assert result.returncode == 0, result.stderr
    figures = json.loads(result.stdout)
    assert figures["ruleset"] == published(5).ruleset.id and figures["iterations"] == 20
    assert (figures["nodes"], figures["infosets"]) == (len(build(published(5))), len(build(published(5)).infosets))
    assert [s["iterations"] for s in figures["steps"]] == [1, 2, 5, 10, 20]
    assert figures["exploitability"] == figures["steps"][-1]["exploitability"] < 0.01
    assert figures["bots"]["heuristic"]["exploitability"] > figures["exploitability"]
    assert "iteration 20: exploitability" in result.stderr


def test_loveletter_solve_speaks_french() -> None:
    result = loveletter("solve", "--cards", "4", "--target", "1", "--lang", "fr")
    assert result.returncode == 0, result.stderr
    assert "exploitabilité" in result.stdout and "itération 5 : exploitabilité 0,556" in result.stderr
    refused = loveletter("solve", "--target", "beaucoup", "--lang", "fr")
    assert refused.returncode == 2 and "« beaucoup » n'est pas un pourcentage" in refused.stderr
