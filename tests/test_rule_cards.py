"""RULINGS §4, §5: what each card does."""

from __future__ import annotations

from loveletter.core.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
    TurnStarted,
)
from loveletter.core.commands import PlayCard, ReturnCards
from loveletter.core.legal import legal_moves
from loveletter.core.views import view
from tests.helpers import (
    CO,
    PR,
    PS,
    B,
    C,
    G,
    Game,
    H,
    K,
    P,
    S,
    expect_violation,
    favors_by_reason,
    of_type,
    round_end,
    start,
)
from tests.test_rule_targets import _ann_vs_protected_bob

# -- guard -------------------------------------------------------------------------------------------------


def test_guard_effect__a_correct_guess_eliminates_the_target() -> None:
    game = start("2019", 3)
    game.deal([G, K, PR], [H])
    events = game.play(0, G, 1, K)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1, (K,), G)]
    assert game.out(1) and game.hand(1) == ()


def test_guard_effect__a_wrong_guess_does_nothing() -> None:
    game = start("2019", 3)
    game.deal([G, K, PR], [H])
    events = game.play(0, G, 1, PS)
    assert not of_type(events, PlayerEliminated)
    assert game.hand(1)[0] == K and not game.out(1)


def test_guard_guess__a_guard_must_name_a_card_other_than_the_guard() -> None:
    game = start("2019", 2)
    game.deal([G, G], [H])
    expect_violation(game.state, PlayCard(0, G, 1), "guard.guess")
    expect_violation(game.state, PlayCard(0, G, 1, G), "guard.guess")
    assert all(m.guess is not G for m in legal_moves(game.state, 0))


def test_guard_guess_in_ruleset__naming_a_card_not_in_the_ruleset_is_refused_by_default() -> None:
    for ruleset, absent in (("2012", C), ("2012", S), ("2019-classic", C), ("2019-classic", S)):
        game = start(ruleset, 2)
        game.deal([G, PR], [H])
        expect_violation(game.state, PlayCard(0, G, 1, absent), "guard.guess-in-ruleset")
        assert all(m.guess is not absent for m in legal_moves(game.state, 0))


def test_guard_guess_in_ruleset__option_miss_makes_it_a_legal_guess_that_always_misses() -> None:
    game = start("2012", 2, options={"guard_unknown": "miss"})
    game.deal([G, PR], [H])
    assert PlayCard(0, G, 1, C) in legal_moves(game.state, 0)
    events = game.play(0, G, 1, C)
    assert events[0] == CardPlayed(0, G, 1, C)
    assert not of_type(events, PlayerEliminated)
    assert game.state.active == 1


# -- priest ------------------------------------------------------------------------------------------------


def test_priest_effect__only_the_actor_learns_the_card() -> None:
    game = start("2019", 3)
    game.deal([PR, K, G], [H])
    events = game.play(0, PR, 1)
    assert of_type(events, HandSeen) == [HandSeen(0, 1, K)]
    assert view(game.state, 0).seats[1].known_hand == K
    assert view(game.state, 2).seats[1].known_hand is None
    assert view(game.state, None).seats[1].known_hand is None
    assert game.hand(1)[0] == K and not game.out(1)


# -- baron -------------------------------------------------------------------------------------------------


def test_baron_effect__the_target_with_the_lower_card_is_out() -> None:
    game = start("2019", 3)
    game.deal([B, G, PR], [K])
    events = game.play(0, B, 1)
    assert of_type(events, HandsCompared) == [HandsCompared(0, 1, K, G)]
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1, (G,), B)]


def test_baron_effect__the_actor_with_the_lower_card_is_out() -> None:
    game = start("2019", 3)
    game.deal([B, PR, H], [G])
    events = game.play(0, B, 1)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(0, (G,), B)]
    assert game.out(0) and not game.out(1)


def test_baron_effect__a_tie_does_nothing_and_only_the_two_players_learn() -> None:
    game = start("2019", 3)
    game.deal([B, G, PR], [G])
    events = game.play(0, B, 1)
    assert of_type(events, HandsCompared) == [HandsCompared(0, 1, G, G)]
    assert not of_type(events, PlayerEliminated)
    assert view(game.state, 0).seats[1].known_hand == G
    assert view(game.state, 1).seats[0].known_hand == G
    assert view(game.state, 2).seats[0].known_hand is None and view(game.state, 2).seats[1].known_hand is None


def test_baron_effect__2012_values_are_used() -> None:
    game = start("2012", 3)
    game.deal([B, CO, PR], [K])  # King 6 < Countess 7 in 2012
    events = game.play(0, B, 1)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(0, (K,), B)]


# -- handmaid ----------------------------------------------------------------------------------------------


def test_handmaid_effect__protected_until_the_start_of_your_next_turn() -> None:
    game = start("2019", 3)
    game.deal([H, G, G], [G, PR, PR, G])
    game.play(0, H)
    assert game.state.protected == (True, False, False)
    expect_violation(game.state, PlayCard(1, G, 0, PR), "target.protected")
    game.play(1, G, 2, PR)
    game.play(2, PR, 1)
    assert game.state.active == 0 and game.state.protected == (False, False, False)


def test_handmaid_effect__protection_ends_with_the_round() -> None:
    game = start("2019", 2)
    game.deal([H, PR], [G, PS], set_aside=K, face_up=[S, S, P])
    game.play(0, H)
    assert game.state.protected[0]
    events = game.play(1, PS)  # Bob is out: the round ends with Ann protected
    assert round_end(events).winners == (0,)
    assert game.state.protected == (False, False)


# -- prince ------------------------------------------------------------------------------------------------


def test_prince_effect__the_target_discards_without_effect_and_draws_the_top_card() -> None:
    game = start("2019", 3)
    game.deal([P, B, G], [G, K, H])
    events = game.play(0, P, 1)
    assert of_type(events, HandDiscarded) == [HandDiscarded(1, B)]
    assert of_type(events, CardDrawn) == [CardDrawn(1, K, "deck")]
    assert not of_type(events, HandsCompared)  # the Baron had no effect
    assert game.hand(1) == (K, H) and game.state.front[1] == (B,)
    assert events[-1] == TurnStarted(1, H)


def test_prince_effect__you_may_choose_yourself() -> None:
    game = start("2019", 2)
    game.deal([P, B], [G, K])
    events = game.play(0, P, 0)
    assert of_type(events, HandDiscarded) == [HandDiscarded(0, G)]
    assert game.hand(0) == (K,)


def test_prince_effect__on_an_empty_deck_the_target_draws_the_set_aside_card_never_a_face_up_one() -> None:
    game = start("2019", 2)
    game.deal([P, P], set_aside=PS, face_up=[K, C, C])
    game.burn_until(lambda s: len(s.deck) == 0, avoid=[P])
    assert game.state.active == 0 and P in game.hand(0)
    events = game.play(0, P, 1)
    assert of_type(events, HandDiscarded) == [HandDiscarded(1, P)]
    assert of_type(events, CardDrawn) == [CardDrawn(1, PS, "set-aside")]
    assert game.state.face_up == (K, C, C)
    assert round_end(events).hands[1] == PS
    assert round_end(events).winners == (1,)


def test_prince_princess__a_discarded_princess_eliminates_and_nothing_is_drawn() -> None:
    game = start("2019", 3)
    game.deal([P, PS, G], [G, K, H])
    events = game.play(0, P, 1)
    assert of_type(events, HandDiscarded) == [HandDiscarded(1, PS)]
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1, (), PS)]
    assert not of_type(events, CardDrawn)
    assert game.out(1) and game.state.front[1] == (PS,)
    assert events[-1] == TurnStarted(2, K)  # the deck is untouched


def test_prince_princess__discarding_your_own_princess_eliminates_you() -> None:
    game = start("2019", 2)
    game.deal([P, G], [PS], set_aside=K)
    events = game.play(0, P, 0)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(0, (), PS)]
    assert round_end(events).winners == (1,)


# -- chancellor --------------------------------------------------------------------------------------------


def _chancellor_two_left() -> Game:
    """2019, 2 players. Ann keeps a Chancellor; on her turn with 2 cards left she holds Chancellor and Guard, Bob a
    Baron, and the deck is Spy then Chancellor."""
    game = start("2019", 2)
    game.deal([C, G], [G, H, B, H, K, G, G, B, G, PR, PR, CO, G], deck_bottom=(S, C), set_aside=PS, face_up=[S, P, P])
    game.play(0, G, 1, PR)
    game.play(1, H)
    game.play(0, B)  # Bob is protected: no effect
    game.play(1, H)
    game.play(0, K)  # Bob is protected: no effect
    game.play(1, G, 0, PR)
    game.play(0, G, 1, PR)
    game.play(1, G, 0, PR)  # Bob keeps the Baron
    game.play(0, G, 1, PR)
    game.play(1, PR, 0)
    game.play(0, PR, 1)
    game.play(1, CO)
    assert game.hand(0) == (C, G) and game.hand(1) == (B,) and game.state.deck == (S, C)
    return game


def _chancellor_one_left() -> Game:
    """Mirror image: Bob keeps a Chancellor; on his turn with 1 card left he holds Chancellor and Spy, Ann a Baron."""
    game = start("2019", 2)
    game.deal([G, C], [H, B, H, K, G, G, B, G, PR, PR, CO, G, G], deck_bottom=(S, C), set_aside=PS, face_up=[S, P, P])
    game.play(0, H)
    game.play(1, B)
    game.play(0, H)
    game.play(1, K)
    game.play(0, G, 1, PR)
    game.play(1, G, 0, PR)
    game.play(0, G, 1, PR)  # Ann keeps the Baron
    game.play(1, G, 0, PR)
    game.play(0, PR, 1)
    game.play(1, PR, 0)
    game.play(0, CO)
    game.play(1, G, 0, PR)
    game.play(0, G, 1, PR)
    assert game.hand(1) == (C, S) and game.hand(0) == (B,) and game.state.deck == (C,)
    return game


def test_chancellor_effect__two_cards_left_draw_two_keep_one_return_two_in_the_chosen_order() -> None:
    game = _chancellor_two_left()
    events = game.play(0, C)
    assert events[-1] == ChancellorDrew(0, (S, C))
    assert game.state.phase == "chancellor" and game.hand(0) == (G, S, C)
    assert game.state.deck == ()
    events = game.give_back(0, G, C, S)
    assert events[0] == ChancellorReturned(0, G, (C, S))
    assert events[-1] == TurnStarted(1, C)  # the order chosen is the order at the bottom
    assert game.state.deck == (S,)  # 2 cards again before Bob drew
    assert game.hand(0) == (G,) and S not in game.state.front[0]


def test_chancellor_effect__returning_a_spy_is_not_a_discard_for_the_spy_favor() -> None:
    game = _chancellor_two_left()
    game.play(0, C)
    game.give_back(0, C, G, S)  # Ann keeps the other Chancellor and puts the Spy at the very bottom
    assert S not in game.state.front[0]
    game.play(1, G, 0, PR)
    assert game.state.deck == () and game.hand(0) == (C, S)
    events = game.play(0, C)  # no effect on an empty deck: the round ends
    ended = round_end(events)
    assert ended.reason == "deck-out" and ended.hands == (S, B) and ended.winners == (1,)
    assert S not in game.state.front[0]
    assert favors_by_reason(events) == {"round": [1]}  # no Spy favor for Ann


def test_chancellor_effect__one_card_left_draw_one_return_one() -> None:
    game = _chancellor_one_left()
    events = game.play(1, C)
    assert events[-1] == ChancellorDrew(1, (C,))
    assert game.hand(1) == (S, C)
    expect_violation(game.state, ReturnCards(1, S, (C, C)), "chancellor.return")
    expect_violation(game.state, ReturnCards(1, S, ()), "chancellor.return")
    events = game.give_back(1, C, S)
    assert not of_type(events, RoundEnded)
    assert events[-1] == TurnStarted(0, S)  # deck size unchanged (1): Ann draws the returned Spy


def test_chancellor_effect__an_empty_deck_no_effect_and_the_round_ends() -> None:
    game = _chancellor_two_left()
    game.play(0, G, 1, PR)
    game.play(1, S)
    assert game.state.deck == () and game.hand(0) == (C, C)
    events = game.play(0, C)
    assert not of_type(events, ChancellorDrew)
    ended = round_end(events)
    assert ended.reason == "deck-out" and ended.hands == (C, B) and ended.winners == (0,)


def test_chancellor_return__keep_exactly_one_card_of_your_hand_return_all_the_others() -> None:
    game = start("2019", 3)
    game.deal([C, G, G], [G, K, CO])
    game.play(0, C)
    assert game.hand(0) == (G, K, CO)
    for bad in (
        ReturnCards(0, PS, (K, CO)),
        ReturnCards(0, G, (K,)),
        ReturnCards(0, G, (K, CO, G)),
        ReturnCards(0, G, (K, K)),
        ReturnCards(1, G, (K, CO)),
    ):
        expect_violation(game.state, bad, "chancellor.return" if bad.player == 0 else "turn.order")
    assert len(legal_moves(game.state, 0)) == 6


def test_chancellor_return__no_return_without_a_chancellor() -> None:
    game = start("2019", 2)
    game.deal([G, PR], [H])
    expect_violation(game.state, ReturnCards(0, G, (H,)), "chancellor.return")


def test_chancellor_pending__nothing_else_happens_before_the_decision() -> None:
    game = start("2019", 3)
    game.deal([C, G, G], [G, K, CO])
    game.play(0, C)
    expect_violation(game.state, PlayCard(0, G, 1, PR), "chancellor.pending")
    expect_violation(game.state, PlayCard(1, G, 0, PR), "chancellor.pending")
    game.give_back(0, K, G, CO)
    assert game.state.active == 1


# -- king --------------------------------------------------------------------------------------------------


def test_king_effect__trade_hands_and_both_learn_the_card_they_received() -> None:
    game = start("2019", 3)
    game.deal([K, PS, G], [G])
    events = game.play(0, K, 1)
    assert of_type(events, HandsTraded) == [HandsTraded(0, 1, G, PS)]
    assert game.hand(0) == (PS,) and game.hand(1)[0] == G
    assert view(game.state, 0).seats[1].known_hand == G  # Ann knows what she gave
    assert view(game.state, 1).seats[0].known_hand == PS
    assert all(s.known_hand is None for s in view(game.state, 2).seats)


# -- countess ----------------------------------------------------------------------------------------------


def test_countess_forced__with_the_king() -> None:
    game = start("2019", 2)
    game.deal([CO, G], [K])
    expect_violation(game.state, PlayCard(0, K, 1), "countess.forced")
    assert legal_moves(game.state, 0) == [PlayCard(0, CO)]


def test_countess_forced__with_a_prince() -> None:
    game = start("2019", 2)
    game.deal([P, G], [CO])
    expect_violation(game.state, PlayCard(0, P, 1), "countess.forced")
    expect_violation(game.state, PlayCard(0, P, 0), "countess.forced")


def test_countess_forced__even_when_prince_must_target_self() -> None:
    game = _ann_vs_protected_bob([CO, P])
    expect_violation(game.state, PlayCard(0, P, 0), "countess.forced")
    assert legal_moves(game.state, 0) == [PlayCard(0, CO)]
    events = game.play(0, CO)
    assert [type(e) for e in events] == [CardPlayed, TurnStarted]  # playing it reveals nothing


def test_countess_forced__may_be_played_anyway() -> None:
    game = start("2019", 2)
    game.deal([CO, G], [H])
    assert {m.card for m in legal_moves(game.state, 0)} == {CO, H}
    game.play(0, CO)
    assert game.hand(0) == (H,)


def test_countess_forced__does_not_apply_to_what_a_chancellor_keeps() -> None:
    game = start("2019", 3)
    game.deal([C, G, G], [G, K, CO])
    game.play(0, C)
    game.give_back(0, K, CO, G)
    assert game.hand(0) == (K,)


# -- princess ----------------------------------------------------------------------------------------------


def test_princess_eliminated__playing_it_is_legal_and_eliminates_you() -> None:
    game = start("2019", 3)
    game.deal([PS, G, G], [H])
    assert PlayCard(0, PS) in legal_moves(game.state, 0)
    events = game.play(0, PS)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(0, (H,), PS)]
    assert game.state.front[0] == (PS, H)


def test_princess_eliminated__traded_princess_is_not_discarded() -> None:
    game = start("2019", 3)
    game.deal([K, PS, G], [G])
    events = game.play(0, K, 1)
    assert not of_type(events, PlayerEliminated)


# -- spy ---------------------------------------------------------------------------------------------------


def test_spy_effect__no_effect_when_played() -> None:
    game = start("2019", 2)
    game.deal([S, G], [G])
    events = game.play(0, S)
    assert [type(e) for e in events] == [CardPlayed, TurnStarted]


def test_spy_effect__no_effect_when_discarded_by_a_prince() -> None:
    game = start("2019", 3)
    game.deal([P, S, G], [G, K])
    events = game.play(0, P, 1)
    assert [type(e) for e in events] == [CardPlayed, HandDiscarded, CardDrawn, TurnStarted]


# -- out.discard -------------------------------------------------------------------------------------------


def test_out_discard__an_eliminated_player_discards_face_up_without_effect_and_is_skipped() -> None:
    game = start("2019", 3)
    game.deal([G, P, H], [H, G])
    events = game.play(0, G, 1, P)
    assert of_type(events, PlayerEliminated) == [PlayerEliminated(1, (P,), G)]
    assert not of_type(events, HandDiscarded)  # the Prince is not resolved
    assert game.hand(1) == () and game.state.front[1] == (P,)
    assert events[-1].player == 2
    game.play(2, H)
    assert game.state.active == 0
    assert not view(game.state, 0).seats[1].in_round
    assert not of_type(game.log, RoundEnded)
