"""A described position (`core.situation`): every refusal of `position.possible` word for word, the unseen cards a
possible position leaves, and the state built from it.

Written against the survivors of `make mutation`: the dispute tests check that an impossible position is refused,
not why. The expected counts come from the rulebook's deck (2019: 21 cards; 2012: 16).
"""

from __future__ import annotations

from collections import Counter

import pytest

from loveletter.core.commands import PlayCard, ReturnCards
from loveletter.core.decide import decide
from loveletter.core.evolve import evolve
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import get_ruleset
from loveletter.core.situation import check_position
from loveletter.core.state import GameState
from loveletter.core.views import view
from tests.helpers import CO, PR, PS, B, C, G, H, K, P, S, position

R2019 = get_ruleset("2019")
R2012 = get_ruleset("2012")


def _refusal(*args: object) -> tuple[str, str, str, str]:
    with pytest.raises(RuleViolation) as info:
        check_position(*args)  # type: ignore[arg-type]
    v = info.value
    return v.code, v.rule_id, v.en, v.fr


def test_a_possible_position_leaves_exactly_the_cards_nobody_wrote() -> None:
    # 2019 deck (rulebook: "2x Chancelier"): 2 Spy, 6 Guard, 2 each of Priest, Baron, Handmaid, Prince,
    # Chancellor, 1 each of King, Countess, Princess. Written: the active seat's Guard and King, seat 1's Princess,
    # one Guard face up = 4 cards; 17 left.
    left = check_position(R2019, [G, K, PS, G], 17, [2, 1], [False, False], 0)
    assert left == Counter({G: 4, S: 2, PR: 2, B: 2, H: 2, P: 2, C: 2, CO: 1})
    # A card written as often as the deck holds it is not "unseen" at all (no zero entries).
    left = check_position(R2012, [PS, K, CO, G, G, G, G, G], 8, [2, 0, 1], [False, True, False], 0)
    assert left == Counter({PR: 2, B: 2, H: 2, P: 2})
    assert PS not in left and G not in left


def test_a_seat_out_of_the_round_holds_no_card_the_active_seat_two_the_others_one() -> None:
    assert _refusal(R2019, [G, K], 18, [2, 1, 1], [False, True, False], 0) == (
        "impossible_position",
        "position.possible",
        "seat 1 holds 1 card where the position needs 0",
        "le siège 1 tient 1 carte là où la position en demande 0",
    )
    assert _refusal(R2019, [G], 19, [1, 1], [False, False], 0) == (
        "impossible_position",
        "position.possible",
        "seat 0 holds 1 card where the position needs 2",
        "le siège 0 tient 1 carte là où la position en demande 2",
    )
    assert _refusal(R2019, [G, K, G, PR], 17, [2, 2], [False, False], 0) == (
        "impossible_position",
        "position.possible",
        "seat 1 holds 2 cards where the position needs 1",
        "le siège 1 tient 2 cartes là où la position en demande 1",
    )
    assert _refusal(R2019, [G, K], 19, [2, 0], [False, False], 0)[2:] == (
        "seat 1 holds 0 cards where the position needs 1",
        "le siège 1 tient 0 carte là où la position en demande 1",
    )


def test_the_seat_to_play_cannot_be_out_of_the_round() -> None:
    # Every hand size is right for `out` (the active seat out holds nothing): only the turn is wrong.
    assert _refusal(R2019, [G], 20, [0, 1], [True, False], 0) == (
        "impossible_position",
        "position.possible",
        "seat 0 is to play but is out of the round",
        "le siège 0 doit jouer mais a quitté la manche",
    )


def test_more_copies_than_the_deck_holds_are_named_in_card_order() -> None:
    # 2012 has one King and one Princess: two of each are two too many, named alphabetically by card id.
    assert _refusal(R2012, [K, K, PS, PS, G], 0, [2, 1, 1, 1], [False] * 4, 0) == (
        "impossible_position",
        "position.possible",
        "more copies than the 2012 deck holds: king, princess",
        "plus d'exemplaires que le paquet « 2012 » n'en compte : king, princess",
    )


def test_the_unwritten_cards_must_fill_the_unknown_places_exactly() -> None:
    # 2019, four cards written: 17 are left, whatever number of unknown places the description gives.
    assert _refusal(R2019, [G, K, PS, G], 16, [2, 1], [False, False], 0) == (
        "impossible_position",
        "position.possible",
        "the 2019 deck leaves 17 cards not written for 16 unknown places",
        "le paquet « 2019 » laisse 17 cartes non écrites pour 16 places inconnues",
    )
    # 2012, fifteen written: one card left, one place too many.
    written = [G, G, G, G, G, PR, PR, B, B, H, H, P, P, K, CO]
    assert _refusal(R2012, written, 2, [2, 1], [False, False], 0)[2:] == (
        "the 2012 deck leaves 1 card not written for 2 unknown places",
        "le paquet « 2012 » laisse 1 carte non écrite pour 2 places inconnues",
    )
    assert _refusal(R2012, written, 0, [2, 1], [False, False], 0)[2:] == (
        "the 2012 deck leaves 1 card not written for 0 unknown places",  # English: zero takes the plural
        "le paquet « 2012 » laisse 1 carte non écrite pour 0 place inconnue",  # French: zero takes the singular
    )
    assert check_position(R2012, written, 1, [2, 1], [False, False], 0) == Counter({PS: 1})
    # Fourteen written (the Countess not): two cards left for one place.
    assert _refusal(R2012, written[:-1], 1, [2, 1], [False, False], 0)[2:] == (
        "the 2012 deck leaves 2 cards not written for 1 unknown place",
        "le paquet « 2012 » laisse 2 cartes non écrites pour 1 place inconnue",
    )


def _a_position() -> GameState:
    return position(
        ((G,), (C, PR), ()),
        (P, G, B, G),
        set_aside=K,
        players=("Ann", "Bob", "Cid"),
        round_no=3,
        favors=(1, 0, 2),
        active=1,
        front=((H,), (G,), (B, S)),
        out=(False, False, True),
        protected=(True, False, False),
    )


def test_a_described_position_is_a_scenario_in_play_with_nothing_drawn_and_nothing_known() -> None:
    s = _a_position()
    assert s.scenario is True  # its deal was described, not drawn from a committed seed
    assert s.drawn == 0  # draws are counted from the described moment
    assert (s.round, s.active, s.favors, s.phase) == (3, 1, (1, 0, 2), "play")
    assert s.hands == ((G,), (C, PR), ()) and s.deck == (P, G, B, G) and s.set_aside == K
    assert s.knows == ((None,) * 3,) * 3 and s.deck_known == ((), (), ())
    assert s.resigned == (False, False, False) and s.seat_seeds == (None, None, None)


def test_a_chancellor_played_from_a_position_knows_where_its_cards_went() -> None:
    # Bob plays the Chancellor: draws P and G, keeps P, puts G then PR under the deck (B, G, G, PR); Cid is out, so
    # Ann draws B and the deck is G, G, PR.
    s = _a_position()
    for e in decide(s, PlayCard(1, C)):
        s = evolve(s, e)
    for e in decide(s, ReturnCards(1, P, (G, PR))):
        s = evolve(s, e)
    assert s.deck == (G, G, PR) and s.hands[0] == (G, B)
    # Bob knows the last two cards of the deck (positions 1 and 2 from the top); nobody else does.
    assert view(s, 1).as_dict()["deck_known"] == [
        {"from_top": 1, "card": "guard"},
        {"from_top": 2, "card": "priest"},
    ]
    assert view(s, 0).as_dict()["deck_known"] == []
    # What Bob has not seen: fronts H; G, C; B, S, his Prince, and the Guard and Priest he put under the deck.
    assert view(s, 1).unseen == {S: 1, G: 4, PR: 1, B: 1, H: 1, P: 1, C: 1, K: 1, CO: 1, PS: 1}
