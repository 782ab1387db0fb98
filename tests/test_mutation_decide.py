"""Corners of `core.decide` that the rule examples never reach: a name that is not a string, a deal holding something
that is neither a card nor a word, a French plural of face-up cards, a round winner who left the game.

Written against the survivors of `make mutation`; each expected value is written from RULINGS.md (§2, §12) or read
off the hand-built command.
"""

from __future__ import annotations

import pytest

from loveletter.core.catalogue import ChancellorReturned
from loveletter.core.commands import DealRound, PlayCard, Resign, ReturnCards, StartGame
from loveletter.core.decide import decide, first_player_candidates
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL
from tests.helpers import PR, PS, B, C, G, H, K, explicit_deal, start

T = 1_790_000_000_000


def _refused(state: object, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide(state, command)  # type: ignore[arg-type]
    return info.value


@pytest.mark.parametrize("name", [5, None, b"Bob", ["Bob"]])
def test_a_player_name_that_is_not_text_is_refused_as_an_empty_one(name: object) -> None:
    v = _refused(INITIAL, StartGame("2019", ("Ann", name)))  # type: ignore[arg-type]
    assert (v.code, v.rule_id) == ("player_names", "setup.players")
    assert v.en == "player names must be distinct and not empty"


def test_a_deal_holding_a_number_names_it_in_both_languages() -> None:
    state = start("2019", 3).state
    deal = explicit_deal(state, (G, PR, B), (H, K), set_aside=PS, first_player=0)
    # One of the six Guards of the draw pile replaced by the number 7 (Python cannot sort it among the cards).
    i = deal.deck.index(G)
    broken = DealRound(deal.set_aside, deal.face_up, deal.hands, (*deal.deck[:i], 7, *deal.deck[i + 1 :]), 0)  # type: ignore[arg-type]
    v = _refused(state, broken)
    assert (v.code, v.rule_id) == ("invalid_deal", "setup.deal")
    assert v.en == "the deal is not the 2019 deck (extra: 7 × 1, missing: Guard × 1)"
    assert v.fr == (
        "la distribution ne correspond pas au paquet du jeu de règles « 2019 » (cartes en trop : « 7 » × 1 ; "
        "cartes manquantes : Garde × 1)"
    )


def test_face_up_cards_at_a_table_of_three_are_counted_in_french_plural() -> None:
    state = start("2019", 3).state
    deal = explicit_deal(state, (G, PR, B), (H, K), set_aside=PS, face_up=(G, G), first_player=0)
    v = _refused(state, deal)
    assert (v.en, v.fr) == (
        "2 face-up cards where 0 are set aside face up",
        "2 cartes face visible, alors que la mise en place en prévoit 0",
    )


def test_a_round_winner_who_left_the_game_does_not_start_the_next_round() -> None:
    game = start("2019", 3)
    game.deal((G, PR, B), (H,), set_aside=PS)
    game.play(0, G, 1, PR)  # Ann draws the Handmaid; her Guard names Bob's Priest: Bob is out
    game.play(2, B, 0)  # Cid draws a Guard; his Baron shows it against Ann's Handmaid: Cid is out, Ann wins the round
    assert game.state.round_winners == (0,) and game.state.phase == "deal"
    assert first_player_candidates(game.state) == ((0,), "previous-winner")  # RULINGS §2
    game.do(Resign(0, T))
    # RULINGS §12: Ann left; Bob and Cid are still in, so the start is drawn among the seats still playing.
    assert first_player_candidates(game.state) == ((1, 2), "random")


def test_a_deal_holding_the_string_of_a_card_is_not_that_card() -> None:
    """`Card` is a `str`: "guard" equals the Guard and hashes like it, but the rules tell cards apart by identity, so a
    deal passing the string would put a card no rule recognises into play. Found while judging `make mutation`'s
    survivors of `_same_cards`."""
    state = start("2019", 2).state
    deal = explicit_deal(state, (G, PR), set_aside=PS, first_player=0)
    i = deal.deck.index(G)
    broken = DealRound(deal.set_aside, deal.face_up, deal.hands, (*deal.deck[:i], "guard", *deal.deck[i + 1 :]), 0)  # type: ignore[arg-type]
    v = _refused(state, broken)
    assert (v.code, v.rule_id) == ("invalid_deal", "setup.deal")
    assert v.en == "the deal is not the 2019 deck (extra: 'guard' × 1, missing: Guard × 1)"
    assert v.fr == (
        "la distribution ne correspond pas au paquet du jeu de règles « 2019 » (cartes en trop : « guard » × 1 ; "
        "cartes manquantes : Garde × 1)"
    )


def test_a_move_naming_the_string_of_a_card_is_refused_not_misread() -> None:
    """The same for moves: `PlayCard(0, "handmaid")` passed every check (the string is `in` a hand holding the
    Handmaid) and then played a card the rules did not recognise — no protection; a Guard naming "priest" never hit;
    a Chancellor keeping "handmaid" put a string into the hand. Now each is refused by the rule it breaks, and a
    card that is no card at all ("joker") is named in the refusal instead of crashing it."""
    game = start("2019", 2)
    game.deal((G, PR), (H,), set_aside=PS)  # Ann holds the Guard and the Handmaid, Bob the Priest
    for given in ("handmaid", "joker"):
        v = _refused(game.state, PlayCard(0, given))  # type: ignore[arg-type]
        assert (v.code, v.rule_id) == ("card_not_in_hand", "turn.play-from-hand")
        assert v.en == f"Ann does not hold {given!r} (Ann holds the Guard and the Handmaid)"
        assert v.fr == f"Ann n'a pas « {given} » en main (sa main : le Garde et la Servante)"
    v = _refused(game.state, PlayCard(0, K))  # a real card Ann does not hold is named as a card
    assert (v.en, v.fr) == (
        "Ann does not hold the King (Ann holds the Guard and the Handmaid)",
        "Ann n'a pas le Roi en main (sa main : le Garde et la Servante)",
    )
    v = _refused(game.state, PlayCard(0, G, 1, "priest"))  # type: ignore[arg-type]
    assert (v.code, v.rule_id, v.en) == (
        "invalid_guess",
        "guard.guess",
        "the Guard must name a card other than the Guard",
    )
    chancellor = start("2019", 2)
    chancellor.deal((C, PR), (H, K), set_aside=PS)
    chancellor.play(0, C)  # Ann holds the Handmaid, the King and the Guard
    for keep, bottom in (("handmaid", (K, G)), (H, ("king", G)), ("joker", (K, G))):
        v = _refused(chancellor.state, ReturnCards(0, keep, bottom))  # type: ignore[arg-type]
        assert (v.code, v.rule_id, v.en) == (
            "invalid_return",
            "chancellor.return",
            "keep one card and return the other 2 of your hand (Handmaid, King, Guard)",
        )
    # The cards themselves are still accepted.
    assert chancellor.give_back(0, H, K, G)[0] == ChancellorReturned(0, H, (K, G))
