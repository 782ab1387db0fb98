"""The expert's inference (play/engine/belief.py): a world is weighed by how well it explains each opponent's last
play, and a Guard names the card its target most likely holds. Expected values are worked out by hand from the rules
(a Countess beside a King or a Prince must be played) and from the heuristic's scores, written out below."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from loveletter.core.commands import PlayCard
from loveletter.core.legal import legal_moves
from loveletter.core.views import view
from loveletter.play.engine.belief import FLOOR, hand_odds, leanings, likelihood, weighed_seats
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.policy import likeliest_guesses
from tests.helpers import CO, PR, PS, B, C, G, H, K, P, S, position, ruleset_deck


def _after_a_countess(bob: object) -> object:
    """Ann to play with a Guard and a Baron; Bob has played the Countess and holds `bob`; three Guards... face up."""
    hands = ((G, B), (bob,))
    face_up = (G, G, H)
    rest = ruleset_deck("2019")
    rest.subtract([G, B, bob, *face_up, CO])
    set_aside = S if bob is not S else C
    rest.subtract([set_aside])
    return position(hands, tuple(sorted(rest.elements())), set_aside=set_aside, face_up=face_up, front=((), (CO,)))


@pytest.mark.parametrize("bob", [K, P, PS])
def test_a_countess_beside_a_king_a_prince_or_the_princess_explains_the_play(bob) -> None:
    # With a King or a Prince the Countess must be played (the rule); beside the Princess the model plays the
    # Countess (discarding the Princess loses the round).
    assert likelihood(_after_a_countess(bob), 1) == 1.0


@pytest.mark.parametrize("bob", [G, PR, B, H, C, S])
def test_a_countess_played_over_a_card_the_model_prefers_to_play_keeps_the_floor(bob) -> None:
    # The heuristic's score for playing the Countess and keeping 7 is 0.3 x 1 + 1 = 1.3; playing the other card and
    # keeping the Countess scores at least 0.3 x 7 = 2.1 (Guard), plus 4 for a Priest, 6 for a Handmaid, 3 for a
    # Chancellor, 4 for a Spy; a Baron holding 7 against Ann's unseen cards has better odds than not.
    assert likelihood(_after_a_countess(bob), 1) == pytest.approx(FLOOR)


def test_only_the_seats_that_have_played_and_whose_hand_is_unknown_are_judged() -> None:
    state = _after_a_countess(G)
    seen = view(state, 0)
    assert weighed_seats(seen) == (1,)
    odds = leanings(seen, state)
    assert set(odds) == {1}
    assert odds[1][K] == odds[1][P] == odds[1][PS] == 1.0
    assert odds[1][G] == odds[1][S] == pytest.approx(FLOOR)


def test_the_sampler_deals_a_leaning_seat_by_its_odds() -> None:
    # Bob's leaning after his Countess: King, Prince, Princess 1, the rest FLOOR. Over many worlds his hand
    # follows count x leaning (the Prince 2 / 5.2 of the time, a Guard 0.3 / 5.2...); Ann's view is unchanged.
    state = _after_a_countess(K)
    seen = view(state, 0)
    sampler = Sampler(seen).leaning(leanings(seen, state))
    rng = random.Random(5)
    worlds = 20000
    counts = Counter(sampler.sample(rng).hands[1][0] for _ in range(worlds))
    expected = hand_odds(seen, 1, leanings(seen, state)[1])
    total = 2 + 1 + 1 + FLOOR * (3 + 2 + 1 + 1 + 2 + 2)
    assert expected[P] == pytest.approx(2 / total)
    for card, chance in expected.items():
        assert counts[card] / worlds == pytest.approx(chance, abs=0.015)
    world = sampler.sample(rng)
    assert view(world, 0) == seen._replace(version=view(world, 0).version)


def test_after_a_countess_the_guard_names_the_prince() -> None:
    # Ann has not seen: Guard 3, Priest 2, Baron 1, Handmaid 1, Prince 2, Chancellor 2, King 1, Princess 1, Spy 2.
    # Uniformly, four cards tie at two copies and the highest of them, the Chancellor, is named. Weighed by Bob's
    # Countess, a Prince (2 x 1), the King and the Princess (1 x 1 each) explain it and every other card keeps a
    # quarter of its count: the Prince is twice as likely as any other card.
    state = _after_a_countess(K)
    seen = view(state, 0)
    assert {c: n for c, n in seen.unseen.items() if n} == {G: 3, PR: 2, B: 1, H: 1, P: 2, C: 2, K: 1, PS: 1, S: 2}
    odds = hand_odds(seen, 1, leanings(seen, state)[1])
    total = 2 * 1 + 1 + 1 + FLOOR * (3 + 2 + 1 + 1 + 2 + 2)
    assert odds[P] == pytest.approx(2 / total)
    assert odds[K] == odds[PS] == pytest.approx(1 / total)
    assert odds[G] == pytest.approx(3 * FLOOR / total)
    moves = legal_moves(state, 0)
    assert [m for m in likeliest_guesses(seen, moves, leanings(seen, state)) if m.card is G] == [PlayCard(0, G, 1, P)]
    assert [m for m in likeliest_guesses(seen, moves, {}) if m.card is G] == [PlayCard(0, G, 1, C)]
    assert hand_odds(seen, 1) == pytest.approx({c: n / 15 for c, n in seen.unseen.items() if n})


def test_a_hand_the_seat_knows_is_certain() -> None:
    state = _after_a_countess(K)
    seen = view(state, 0)._replace(
        seats=tuple(p._replace(known_hand=K) if p.seat == 1 else p for p in view(state, 0).seats)
    )
    assert hand_odds(seen, 1, {K: 0.5, G: 1.0}) == {K: 1.0}


def _after_a_handmaid_and_a_countess(bob: object) -> object:
    """As `_after_a_countess`, but Bob played a Handmaid before the Countess."""
    hands = ((G, B), (bob,))
    face_up = (G, G, PR)
    rest = ruleset_deck("2019")
    rest.subtract([G, B, bob, *face_up, H, CO, S])
    front = ((), (H, CO))
    return position(hands, tuple(sorted(rest.elements())), set_aside=S, face_up=face_up, front=front)


def test_the_play_before_the_last_is_read_too() -> None:
    # Holding the King now: the Countess was forced; before it, the Handmaid (0.3 x 6 + 6 = 7.8, or 8.1 beside the
    # Countess) beat the King (0.3 x 4 - 1 = 0.2) and the Countess (0.3 x 4 + 1 = 2.2) either way: 1 x (1 + 1) / 2.
    assert likelihood(_after_a_handmaid_and_a_countess(K), 1) == 1.0
    # Holding a Guard: the Countess over it is a play the model would not make (1.3 against at least 2.1); the
    # Handmaid beat the Guard (6.3 against 0.3 x 4 + 20 x 2/16 = 3.7 at best) and the Countess: FLOOR x 1.
    assert likelihood(_after_a_handmaid_and_a_countess(G), 1) == pytest.approx(FLOOR)
