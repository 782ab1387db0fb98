"""RULINGS §6, §7, §8, §9, §11: the end of a round, favors and the end of the game."""

from __future__ import annotations

import pytest

from loveletter.core.catalogue import FavorGained, GameEnded, RoundEnded
from loveletter.core.decide import first_player_candidates
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
    favors_by_reason,
    game_winners,
    of_type,
    round_end,
    start,
)


def quick_round(game: Game, winner: int) -> tuple:
    """A 2-player round that `winner` wins on the first move: a correct Guard, or the loser plays the Princess."""
    first = first_player_candidates(game.state)[0][0]
    other = 1 - first
    hands = [PR, PR]
    if first == winner:
        hands[first] = G
        game.deal(hands, [H], first_player=first)
        return game.play(first, G, other, PR)
    hands[first] = PS
    game.deal(hands, [G], first_player=first)
    return game.play(first, PS)


def tied_classic_round(game: Game) -> tuple:
    """A 2019-classic 2-player deck-out where both players keep a Prince to the end."""
    first = first_player_candidates(game.state)[0][0]
    game.deal([P, P], set_aside=PS, face_up=[K, B, B], first_player=first)
    return game.play_out(avoid=[P])


def discards_2012_game() -> Game:
    """2012, 2 players, deck-out with both holding a Priest. Bob's front holds two cards discarded by Princes."""
    game = start("2012", 2)
    game.deal([G, B], [P, H, G, H, P, G, G, PR, PR, G], set_aside=PS, face_up=[K, CO, B])
    game.play(0, P, 1)  # Bob discards his Baron, draws a Handmaid
    game.play(1, G, 0, K)
    game.play(0, H)
    game.play(1, P, 1)  # Ann is protected: Bob's Prince must choose Bob, who discards his Handmaid
    game.play(0, G, 1, PR)
    game.play(1, G, 0, PR)
    game.play(0, G, 1, B)
    game.play(1, G, 0, B)
    return game


def still_tied_2012(tie_2012: str) -> Game:
    """2012, 2 players, deck-out: both hold a Priest and both fronts total 13."""
    game = start("2012", 2, options={"tie_2012": tie_2012})
    game.deal([G, G], [H, B, P, G, P, G, G, H, PR, PR], set_aside=PS, face_up=[K, CO, B])
    game.play(0, H)
    game.play(1, B)  # Ann is protected: no effect
    game.play(0, P, 0)  # Ann discards her Guard, draws a Guard
    game.play(1, P, 0)  # Ann discards her Guard, draws a Guard
    game.play(0, G, 1, H)
    game.play(1, H)
    game.play(0, G)  # Bob is protected: no effect
    game.play(1, G, 0, B)
    return game


def keep_first(game: Game, seat: int) -> tuple:
    hand = game.hand(seat)
    return game.give_back(seat, hand[0], *hand[1:])


# -- round.last-standing -----------------------------------------------------------------------------------


def test_round_last_standing__the_round_ends_at_once_and_the_survivor_wins() -> None:
    game = start("2019", 3)
    game.deal([G, PR, B], [H, G, PR])
    game.play(0, G, 1, PR)
    assert not of_type(game.last, RoundEnded)
    events = game.play(2, G, 0, H)  # Cid draws a Guard, guesses Ann's Handmaid
    ended = round_end(events)
    assert ended.reason == "last-standing" and ended.winners == (2,)
    assert ended.set_aside == game.state.set_aside  # the face-down card is revealed at the end
    assert favors_by_reason(events) == {"round": [2]}
    assert game.state.phase == "deal"


# -- round.deck-out ----------------------------------------------------------------------------------------


def test_round_deck_out__after_the_turn_that_empties_the_deck_highest_hand_wins() -> None:
    game = start("2019-classic", 2)
    game.deal([K, PS], set_aside=P, face_up=[P, B, B])
    events = game.play_out(avoid=[K, PS])
    ended = round_end(events)
    assert ended.reason == "deck-out"
    assert ended.winners == (1,)  # the Princess (9) beats the King (7)
    assert ended.hands == (K, PS)
    assert game.state.deck == ()


def test_round_deck_out__the_round_does_not_end_while_cards_remain() -> None:
    game = start("2019-classic", 2)
    game.deal([K, PS], set_aside=P, face_up=[P, B, B])
    game.burn_until(lambda s: len(s.deck) == 0, avoid=[K, PS])
    assert game.state.phase == "play"  # the last card was drawn: its player still plays
    assert not of_type(game.log, RoundEnded)


def test_round_deck_out__a_chancellor_decision_that_leaves_cards_keeps_the_round_going() -> None:
    game = start("2019", 2)
    game.deal([G, C], set_aside=PS, face_up=[P, P, K], deck_bottom=(S, C))
    game.burn_until(lambda s: len(s.deck) == 1 and s.active == 1, avoid=[C])
    assert game.state.deck == (C,) and C in game.hand(1)
    game.play(1, C)
    events = game.give_back(1, game.hand(1)[0], *game.hand(1)[1:])
    assert not of_type(events, RoundEnded)
    assert len(game.state.deck) == 0 and game.state.active == 0  # Ann drew the returned card


# -- round.tie ---------------------------------------------------------------------------------------------


def test_round_tie__2019_every_tied_player_wins() -> None:
    game = start("2019-classic", 2)
    events = tied_classic_round(game)
    ended = round_end(events)
    assert ended.winners == (0, 1) and ended.hands == (P, P)
    assert favors_by_reason(events) == {"round": [0, 1]}


def test_round_tie__2012_the_highest_total_in_front_wins_counting_prince_discards() -> None:
    game = discards_2012_game()
    ended = round_end(game.last)
    assert ended.hands == (PR, PR)
    # Ann's front: Prince, Handmaid, Guard, Guard = 11. Bob's: Baron and Handmaid (discarded by Princes),
    # Guard, Prince, Guard, Guard = 15 (without the discards he would have 8 and lose).
    assert game.state.front[1] == (B, G, P, H, G, G)
    assert ended.winners == (1,)
    assert favors_by_reason(game.last) == {"round": [1]}


def test_round_tie__2012_still_tied_nobody_wins_by_default() -> None:
    game = still_tied_2012("nobody")
    ended = round_end(game.last)
    assert ended.hands == (PR, PR)
    assert ended.winners == ()
    assert not of_type(game.last, FavorGained)
    assert game.favors == (0, 0)


def test_round_tie__2012_still_tied_option_all_every_still_tied_player_wins() -> None:
    game = still_tied_2012("all")
    assert round_end(game.last).winners == (0, 1)
    assert game.favors == (1, 1)


def test_round_tie__2012_a_value_tie_broken_by_the_sums_is_not_a_tie() -> None:
    game = discards_2012_game()
    assert len(round_end(game.last).winners) == 1


# -- favor.round -------------------------------------------------------------------------------------------


def test_favor_round__each_round_winner_gains_one_favor() -> None:
    game = start("2019-classic", 2)
    quick_round(game, 0)
    assert game.favors == (1, 0)
    quick_round(game, 1)
    assert game.favors == (1, 1)
    tied_classic_round(game)
    assert game.favors == (2, 2)


# -- favor.spy ---------------------------------------------------------------------------------------------


def test_favor_spy__the_only_surviving_spy_player_gains_one_favor_besides_the_round() -> None:
    game = start("2019", 2)
    game.deal([S, PR], [G, G, G], set_aside=PS, face_up=[K, P, P])
    game.play(0, S)
    game.play(1, G, 0, H)  # miss: Ann holds a Guard
    events = game.play(0, G, 1, PR)  # Bob is out
    assert favors_by_reason(events) == {"round": [0], "spy": [0]}
    assert game.favors == (2, 0)


def test_favor_spy__a_spy_discarded_by_a_prince_counts() -> None:
    game = start("2019", 2)
    game.deal([P, S], [H, G, G], set_aside=PS, face_up=[K, C, C])
    game.play(0, P, 1)  # Bob discards his Spy and draws a Guard
    assert game.state.front[1] == (S,)
    events = game.play(1, G, 0, H)  # Ann held the Handmaid: Bob wins
    assert favors_by_reason(events) == {"round": [1], "spy": [1]}


def test_favor_spy__an_eliminated_spy_player_neither_gains_nor_blocks() -> None:
    game = start("2019", 3)
    game.deal([S, S, PR], [G, H, G, G])
    game.play(0, S)
    game.play(1, S)  # Bob keeps the Handmaid
    game.play(2, G, 1, H)  # Bob is out
    events = game.play(0, G, 2, PR)  # Cid is out: Ann wins
    assert favors_by_reason(events) == {"round": [0], "spy": [0]}


def test_favor_spy__the_only_spy_player_eliminated_nobody_gains_it() -> None:
    game = start("2019", 2)
    game.deal([S, PR], [H, G], set_aside=PS, face_up=[K, P, P])
    game.play(0, S)  # Ann keeps the Handmaid
    events = game.play(1, G, 0, H)
    assert favors_by_reason(events) == {"round": [1]}


def test_favor_spy__both_spies_by_one_player_give_it_once() -> None:
    game = start("2019", 3)
    game.deal([S, G, G], [S, H, H, G])
    game.play(0, S)
    game.play(1, H)
    game.play(2, H)
    events = game.play(0, S)
    assert not of_type(events, RoundEnded)
    assert game.state.front[0] == (S, S)
    # Ann wins by deck-out or last standing later: finish with harmless play and count her spy favors.
    events = game.play_out(avoid=[S])
    assert favors_by_reason(events)["spy"] == [0]


def test_favor_spy__not_in_2012_or_classic() -> None:
    for ruleset in ("2012", "2019-classic"):
        game = start(ruleset, 2)
        events = quick_round(game, 0)
        assert favors_by_reason(events) == {"round": [0]}


# -- favor.amira-sadie -------------------------------------------------------------------------------------


def _amira_sadie_round(hands: list, deck_top: list) -> Game:
    game = start("princess-princess", 2)
    game.deal(hands, deck_top, set_aside=PS, face_up=[S, S, K])
    return game


def test_favor_amira_sadie__two_different_players_each_gain_one() -> None:
    game = _amira_sadie_round([C, C], [G, G, G, G, G, G])
    game.play(0, C)
    game.give_back(0, G, G, G)
    game.play(1, C)
    game.give_back(1, G, G, G)
    events = game.play_out(avoid=[])
    reasons = favors_by_reason(events)
    assert sorted(reasons["amira-sadie"]) == [0, 1]
    assert len(reasons["round"]) >= 1


def test_favor_amira_sadie__one_player_with_both_copies_gains_nothing() -> None:
    game = _amira_sadie_round([C, G], [C, G, G, G])
    game.play(0, C)  # Ann holds the other one
    game.give_back(0, C, G, G)
    game.play(1, G, 0, PR)
    game.play(0, C)
    keep_first(game, 0)
    assert game.state.front[0] == (C, C)
    events = game.play_out(avoid=[])
    assert "amira-sadie" not in favors_by_reason(events)


def test_favor_amira_sadie__a_player_out_of_the_round_does_not_count() -> None:
    game = start("princess-princess", 3)
    game.deal([C, C, G], [G, G, G, H, G, G])
    game.play(0, C)
    game.give_back(0, G, G, G)
    game.play(1, C)
    game.give_back(1, H, G, G)
    game.play(2, G, 1, H)  # Bob is out
    events = game.play_out(avoid=[])
    assert "amira-sadie" not in favors_by_reason(events)


def test_favor_amira_sadie__only_in_princess_princess() -> None:
    game = start("2019", 2)
    game.deal([C, C], [G, G, G, G, G, G], set_aside=PS, face_up=[S, S, K])
    game.play(0, C)
    game.give_back(0, G, G, G)
    game.play(1, C)
    game.give_back(1, G, G, G)
    events = game.play_out(avoid=[])
    assert "amira-sadie" not in favors_by_reason(events)


# -- game.end ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("ruleset", "n", "threshold"), [("2019-classic", 2, 6), ("2012", 2, 7)])
def test_game_end__the_game_ends_exactly_when_a_player_reaches_the_threshold(
    ruleset: str, n: int, threshold: int
) -> None:
    game = start(ruleset, n)
    for i in range(threshold):
        events = quick_round(game, 0)
        if i < threshold - 1:
            assert game_winners(events) is None and not game.state.over
    assert game_winners(events) == (0,)
    assert game.favors == (threshold, 0)
    assert game.state.over


def test_game_end__several_players_can_win_at_once() -> None:
    game = start("2019-classic", 2)
    for _ in range(5):
        quick_round(game, 0)
        quick_round(game, 1)
    assert game.favors == (5, 5) and not game.state.over
    events = tied_classic_round(game)
    assert game_winners(events) == (0, 1)
    assert game.state.winners == (0, 1)


def test_game_end__reached_or_passed_the_threshold_at_once_with_round_and_spy_favors() -> None:
    game = start("2019", 2)
    for _ in range(5):
        quick_round(game, 0)
    assert game.favors == (5, 0)
    game.deal([S, PR], [G, G, G], set_aside=PS, face_up=[K, P, P], first_player=0)
    game.play(0, S)
    game.play(1, G, 0, H)
    events = game.play(0, G, 1, PR)
    assert game.favors == (7, 0)
    assert of_type(events, GameEnded) == [GameEnded((0,))]
    assert events[-1] == GameEnded((0,))  # after the favors are given
