"""RULINGS §1, §2, §3, §9: creating a game, dealing rounds, whose turn it is."""

from __future__ import annotations

import pytest

from loveletter.core.catalogue import GameStarted, RoundStarted, TurnStarted
from loveletter.core.chance import deal
from loveletter.core.commands import DealRound, PlayCard, StartGame
from loveletter.core.decide import decide
from loveletter.core.rulesets import RULESETS
from loveletter.core.state import INITIAL
from tests.helpers import (
    CO,
    NAMES,
    PR,
    PS,
    B,
    C,
    G,
    H,
    K,
    P,
    S,
    expect_violation,
    explicit_deal,
    start,
)

SEED = bytes(range(32))

# -- setup.ruleset -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "size", "king"),
    [("2019", 21, 7), ("2019-classic", 16, 7), ("2012", 16, 6), ("princess-princess", 21, 7)],
)
def test_setup_ruleset__each_ruleset_has_its_deck_and_values(ruleset: str, size: int, king: int) -> None:
    game = start(ruleset)
    rs = game.state.ruleset
    assert rs is not None and rs.id == ruleset
    assert len(rs.deck) == size
    assert rs.values[K] == king
    assert isinstance(game.log[0], GameStarted) and game.log[0].ruleset == ruleset


def test_setup_ruleset__classic_is_2019_less_a_guard_both_chancellors_and_both_spies() -> None:
    classic, full = RULESETS["2019-classic"], RULESETS["2019"]
    assert classic.copies[G] == full.copies[G] - 1
    assert not classic.has(C) and not classic.has(S)
    assert all(classic.values[c] == full.values[c] for c in classic.cards)


def test_setup_ruleset__unknown_ruleset_is_refused() -> None:
    expect_violation(INITIAL, StartGame("1999", ("Ann", "Bob")), "setup.ruleset")


def test_setup_ruleset__a_game_is_created_only_once() -> None:
    game = start()
    expect_violation(game.state, StartGame("2019", ("Ann", "Bob")), "setup.ruleset")


def test_setup_ruleset__no_deal_and_no_play_before_the_game_exists() -> None:
    expect_violation(INITIAL, DealRound(G, (), (G, G), (G,), 0), "setup.ruleset")
    expect_violation(INITIAL, PlayCard(0, G, 1, PR), "setup.ruleset")


# -- setup.players -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_setup_players__between_the_rulesets_minimum_and_maximum(ruleset: str) -> None:
    rs = RULESETS[ruleset]
    for n in range(rs.min_players, rs.max_players + 1):
        start(ruleset, n)
    for n in (1, rs.max_players + 1):
        expect_violation(INITIAL, StartGame(ruleset, NAMES[:n] + ("Gus",) * (n > 6)), "setup.players")


def test_setup_players__names_are_distinct_and_not_empty() -> None:
    expect_violation(INITIAL, StartGame("2019", ("Ann", "Ann")), "setup.players")
    expect_violation(INITIAL, StartGame("2019", ("Ann", "  ")), "setup.players")


def test_setup_players__2012_and_classic_allow_at_most_four() -> None:
    for ruleset in ("2012", "2019-classic"):
        expect_violation(INITIAL, StartGame(ruleset, NAMES[:5]), "setup.players")


# -- setup.options -------------------------------------------------------------------------------------------


def test_setup_options__defaults_are_nobody_and_refuse_and_are_recorded_in_the_first_event() -> None:
    game = start("2012")
    assert game.log[0].options == {"tie_2012": "nobody", "guard_unknown": "refuse"}
    other = start("2012", options={"tie_2012": "all", "guard_unknown": "miss"})
    assert other.log[0].options == {"tie_2012": "all", "guard_unknown": "miss"}
    assert other.state.options.as_dict() == {"tie_2012": "all", "guard_unknown": "miss"}


def test_setup_options__unknown_option_or_value_is_refused() -> None:
    expect_violation(INITIAL, StartGame("2019", ("Ann", "Bob"), {"house_rule": "yes"}), "setup.options")
    expect_violation(INITIAL, StartGame("2019", ("Ann", "Bob"), {"tie_2012": "coin-flip"}), "setup.options")


def test_setup_options__cannot_change_after_creation() -> None:
    game = start("2012", options={"tie_2012": "all"})
    expect_violation(game.state, StartGame("2012", ("Ann", "Bob"), {"tie_2012": "nobody"}), "setup.ruleset")
    assert game.state.options.as_dict()["tie_2012"] == "all"


# -- setup.deal ----------------------------------------------------------------------------------------------


def test_setup_deal__two_players_set_one_card_down_and_three_up() -> None:
    game = start("2019", 2)
    cmd = deal(game.state, SEED)
    assert cmd.set_aside is not None
    assert len(cmd.face_up) == 3
    assert len(cmd.hands) == 2
    assert len(cmd.deck) == 21 - 1 - 3 - 2
    game.do(cmd)
    assert game.state.face_up == cmd.face_up and game.state.set_aside == cmd.set_aside


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_setup_deal__more_players_set_only_one_card_down(n: int) -> None:
    game = start("2019", n)
    cmd = deal(game.state, SEED)
    assert cmd.face_up == ()
    assert len(cmd.hands) == n and len(cmd.deck) == 21 - 1 - n


def test_setup_deal__the_first_player_draws_the_top_card() -> None:
    game = start("2019", 3)
    events = game.deal([G, PR, B], [H, K])
    assert isinstance(events[0], RoundStarted) and events[1] == TurnStarted(0, H)
    assert game.hand(0) == (G, H)
    assert game.state.deck[0] == K


def test_setup_deal__two_players_need_three_face_up_cards() -> None:
    game = start("2019", 2)
    good = explicit_deal(game.state, [G, PR])
    bad = DealRound(good.set_aside, good.face_up[:2], good.hands, good.deck + good.face_up[2:], 0)
    expect_violation(game.state, bad, "setup.deal")
    game3 = start("2019", 3)
    good3 = explicit_deal(game3.state, [G, PR, B])
    bad3 = DealRound(good3.set_aside, good3.deck[:3], good3.hands, good3.deck[3:], 0)
    expect_violation(game3.state, bad3, "setup.deal")


def test_setup_deal__the_deal_must_be_exactly_the_rulesets_deck() -> None:
    game = start("2019", 2)
    good = explicit_deal(game.state, [G, PR])
    expect_violation(game.state, DealRound(good.set_aside, good.face_up, good.hands, good.deck[1:], 0), "setup.deal")
    swapped = (PS, *good.deck[1:])  # a second Princess, a card less
    expect_violation(game.state, DealRound(good.set_aside, good.face_up, good.hands, swapped, 0), "setup.deal")
    expect_violation(game.state, DealRound(good.set_aside, good.face_up, (G,), (*good.deck, PR), 0), "setup.deal")
    game12 = start("2012", 2)
    expect_violation(game12.state, good, "setup.deal")  # a 2019 deal for a 2012 game


def test_setup_deal__no_new_deal_while_a_round_is_in_progress() -> None:
    game = start("2019", 2)
    game.deal([G, PR])
    expect_violation(game.state, explicit_deal(start("2019", 2).state, [G, PR]), "setup.deal")


def test_setup_deal__chance_is_deterministic_and_always_a_legal_deal() -> None:
    for ruleset, rs in RULESETS.items():
        for n in range(rs.min_players, rs.max_players + 1):
            game = start(ruleset, n, first_player=None)
            assert deal(game.state, SEED) == deal(game.state, SEED)
            game.do(deal(game.state, SEED))
            assert game.state.round == 1


# -- setup.first-player ------------------------------------------------------------------------------------


def test_setup_first_player__named_at_creation() -> None:
    game = start("2019", 3, first_player=2)
    expect_violation(game.state, explicit_deal(game.state, [G, PR, B], first_player=0), "setup.first-player")
    events = game.deal([G, PR, B], first_player=2)
    assert events[0].first_player == 2 and events[0].first_player_rule == "named"
    assert game.state.active == 2


def test_setup_first_player__random_when_not_named_and_recorded() -> None:
    game = start("2019", 4, first_player=None)
    firsts = set()
    for i in range(40):
        cmd = deal(game.state, bytes([i]) * 32)
        firsts.add(cmd.first_player)
        assert decide(game.state, cmd)[0].first_player_rule == "random"
    assert firsts == {0, 1, 2, 3}
    events = game.deal([G, PR, B, H], first_player=3)
    assert events[0].first_player == 3 and events[0].first_player_rule == "random"


def test_setup_first_player__a_named_seat_must_exist() -> None:
    expect_violation(INITIAL, StartGame("2019", ("Ann", "Bob"), {}, 2), "setup.first-player")


def test_setup_first_player__later_rounds_start_with_the_previous_winner() -> None:
    game = start("2019", 3, first_player=0)
    game.deal([G, K, PR], [PS])  # Ann draws the Princess
    game.play(0, G, 1, K)  # Bob is out
    game.play(2, PR, 0)  # Cid looks at Ann
    game.play(0, PS)  # Ann plays the Princess: Cid wins
    assert game.state.round_winners == (2,)
    assert {deal(game.state, bytes([i]) * 32).first_player for i in range(10)} == {2}
    expect_violation(game.state, explicit_deal(game.state, [G, PR, B], first_player=0), "setup.first-player")
    events = game.deal([G, PR, B], first_player=2)
    assert events[0].first_player_rule == "previous-winner"


def test_setup_first_player__chance_follows_the_previous_winner() -> None:
    game = start("2019", 3, first_player=1)
    game.deal([G, PS, PR], [G], first_player=1)  # Bob holds the Princess and draws a Guard
    game.play(1, PS)  # Bob is out
    game.play(2, G, 0, PR)  # Cid misses
    game.play(0, G, 2, PR)  # Ann guesses Cid's Priest: Ann wins
    assert game.state.round_winners == (0,)
    for i in range(10):
        assert deal(game.state, bytes([i]) * 32).first_player == 0


def test_setup_first_player__several_winners_one_of_them_at_random() -> None:
    game = start("2019-classic", 2)
    game.deal([P, P], set_aside=PS, face_up=[K, B, B])
    game.play_out(avoid=[P])
    assert game.state.round_winners == (0, 1)
    firsts = {deal(game.state, bytes([i]) * 32).first_player for i in range(30)}
    assert firsts == {0, 1}
    events = game.deal([G, PR], first_player=1)
    assert events[0].first_player_rule == "random-among-winners"


def test_setup_first_player__nobody_won_any_player_at_random() -> None:
    from tests.test_rule_round import still_tied_2012

    game = still_tied_2012("nobody")
    assert game.state.round_winners == ()
    firsts = {deal(game.state, bytes([i]) * 32).first_player for i in range(30)}
    assert firsts == {0, 1}
    assert game.deal([G, PR], first_player=1)[0].first_player_rule == "random"


# -- round.not-started -------------------------------------------------------------------------------------


def test_round_not_started__nobody_plays_between_rounds() -> None:
    game = start("2019", 2)
    expect_violation(game.state, PlayCard(0, G, 1, PR), "round.not-started")
    game.deal([G, PR], [PS])
    game.play(0, G, 1, PR)  # Bob is out: the round is over
    assert game.state.round_winners == (0,)
    expect_violation(game.state, PlayCard(0, PS), "round.not-started")
    expect_violation(game.state, PlayCard(1, PR, 0), "round.not-started")


# -- turn.order --------------------------------------------------------------------------------------------


def test_turn_order__only_the_active_player_acts() -> None:
    game = start("2019", 3)
    game.deal([G, PR, B], [H, CO, K])
    expect_violation(game.state, PlayCard(1, PR, 0), "turn.order")
    expect_violation(game.state, PlayCard(7, G, 1, PR), "turn.order")


def test_turn_order__clockwise_and_eliminated_players_are_skipped() -> None:
    game = start("2019", 3)
    game.deal([G, PR, B], [H, CO, K, G])
    events = game.play(0, G, 1, PR)  # Ann guesses Bob's Priest
    assert events[-1] == TurnStarted(2, CO)  # Bob is skipped: Cid draws
    game.play(2, CO)
    assert game.last[-1] == TurnStarted(0, K)
    game.play(0, H)
    assert game.state.active == 2


def test_turn_order__the_turn_passes_clockwise_from_the_last_seat_to_the_first() -> None:
    game = start("2019", 3, first_player=2)
    game.deal([G, PR, H], [H, CO, K], first_player=2)
    game.play(2, H)
    assert game.state.active == 0 and game.hand(0) == (G, CO)


# -- turn.play-from-hand ----------------------------------------------------------------------------------


def test_turn_play_from_hand__play_one_of_the_two_cards_in_hand() -> None:
    game = start("2019", 2)
    game.deal([G, PR], [H])
    assert game.hand(0) == (G, H)
    expect_violation(game.state, PlayCard(0, K, 1), "turn.play-from-hand")
    game.play(0, H)
    assert game.hand(0) == (G,) and game.state.front[0] == (H,)


# -- game.over ---------------------------------------------------------------------------------------------


def test_game_over__nobody_plays_and_nothing_is_dealt_once_the_game_has_ended() -> None:
    from tests.test_rule_round import quick_round

    game = start("2019-classic", 2)
    for _ in range(6):
        quick_round(game, winner=0)
    assert game.state.over and game.state.winners == (0,)
    expect_violation(game.state, explicit_deal(start("2019-classic", 2).state, [G, PR]), "game.over")
    expect_violation(game.state, PlayCard(0, G, 1, PR), "game.over")
