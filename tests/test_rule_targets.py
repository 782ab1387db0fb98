"""RULINGS §3, §4, §5: whom a card may choose."""

from __future__ import annotations

from loveletter.core.cards import Card
from loveletter.core.catalogue import CardPlayed, HandDiscarded, PlayerEliminated
from loveletter.core.commands import PlayCard
from loveletter.core.legal import legal_moves
from tests.helpers import CO, PR, PS, B, G, Game, H, K, P, S, expect_violation, of_type, start


def _ann_vs_protected_bob(ann: list[Card], bob: Card = G) -> Game:
    """2019, 2 players. Bob plays first and plays a Handmaid; then Ann holds `ann[0]` and draws `ann[1]`."""
    game = start("2019", 2, first_player=1)
    game.deal([ann[0], bob], [H, ann[1]], set_aside=PS if PS not in ann else K, face_up=[S, S, B], first_player=1)
    game.play(1, H)  # Bob is protected
    return game


# -- target.required ---------------------------------------------------------------------------------------


def test_target_required__a_card_that_chooses_must_choose_when_a_legal_target_exists() -> None:
    game = start("2019", 2)
    game.deal([G, PR], [B])
    for card in (G, B):
        expect_violation(game.state, PlayCard(0, card), "target.required")


def test_target_required__the_target_must_be_a_seat_of_the_game() -> None:
    game = start("2019", 2)
    game.deal([G, PR], [B])
    expect_violation(game.state, PlayCard(0, B, 5), "target.required")


# -- target.other ------------------------------------------------------------------------------------------


def test_target_other__guard_priest_baron_king_never_choose_yourself() -> None:
    for card in (G, PR, B, K):
        game = start("2019", 3)
        game.deal([H, G, G], [card])
        expect_violation(game.state, PlayCard(0, card, 0, PR if card is G else None), "target.other")


def test_target_other__even_when_everyone_else_is_protected() -> None:
    game = _ann_vs_protected_bob([PR, B])
    expect_violation(game.state, PlayCard(0, B, 0), "target.other")


# -- target.eliminated ------------------------------------------------------------------------------------


def test_target_eliminated__a_player_out_of_the_round_cannot_be_chosen() -> None:
    game = start("2019", 3)
    game.deal([G, PR, H], [G, P, PR])
    game.play(0, G, 1, PR)  # Bob is out
    game.play(2, H)
    assert game.hand(0) == (G, PR)
    for cmd in (PlayCard(0, G, 1, H), PlayCard(0, P, 1), PlayCard(0, PR, 1)):
        if cmd.card in game.hand(0):
            expect_violation(game.state, cmd, "target.eliminated")
    assert all(m.target != 1 for m in legal_moves(game.state, 0))


def test_target_eliminated__not_by_a_prince_either() -> None:
    game = start("2019", 3)
    game.deal([G, PR, H], [P, G])
    game.play(0, G, 1, PR)  # Bob is out; Ann keeps the Prince
    game.play(2, G, 0, PR)
    assert P in game.hand(0)
    expect_violation(game.state, PlayCard(0, P, 1), "target.eliminated")


# -- target.protected --------------------------------------------------------------------------------------


def test_target_protected__choosing_a_protected_player_is_refused_not_a_fizzle() -> None:
    game = _ann_vs_protected_bob([G, PR])
    for cmd in (PlayCard(0, G, 1, PR), PlayCard(0, PR, 1)):
        exc = expect_violation(game.state, cmd, "target.protected")
        assert exc.code == "target_protected"
    assert PlayCard(0, G, 1, PR) not in legal_moves(game.state, 0)


def test_target_protected__a_prince_cannot_choose_a_protected_player() -> None:
    game = _ann_vs_protected_bob([P, G])
    expect_violation(game.state, PlayCard(0, P, 1), "target.protected")


def test_target_protected__with_three_players_the_unprotected_one_must_be_chosen() -> None:
    game = start("2019", 3, first_player=1)
    game.deal([G, H, PR], [H, G], first_player=1)
    game.play(1, H)
    expect_violation(game.state, PlayCard(2, G, 1, PR), "target.protected")
    expect_violation(game.state, PlayCard(2, G), "target.required")
    assert {m.target for m in legal_moves(game.state, 2) if m.card is G} == {0}


# -- target.none -------------------------------------------------------------------------------------------


def test_target_none__all_others_protected_a_guard_priest_baron_or_king_has_no_effect() -> None:
    for card in (G, PR, B, K):
        game = _ann_vs_protected_bob([card, H if card is not H else G])
        assert PlayCard(0, card) in legal_moves(game.state, 0)
        events = game.play(0, card)
        assert events[0] == CardPlayed(0, card, None, None)
        assert [type(e).__name__ for e in events[1:]] == ["TurnStarted"]  # no look, comparison or trade
        assert game.hand(0) == (H,) and game.hand(1)[0] == G  # nothing happened to Bob


def test_target_none__all_others_protected_a_prince_must_choose_yourself() -> None:
    game = _ann_vs_protected_bob([P, G])
    expect_violation(game.state, PlayCard(0, P), "target.none")
    assert [m for m in legal_moves(game.state, 0) if m.card is P] == [PlayCard(0, P, 0)]
    events = game.play(0, P, 0)
    assert of_type(events, HandDiscarded) == [HandDiscarded(0, G)]


def test_target_none__reader_question_princess_and_prince_only_opponent_protected() -> None:
    """Seed 001: holding Princess and Prince, the only opponent protected, you are out whatever you play."""
    for card in (PS, P):
        game = _ann_vs_protected_bob([PS, P])
        moves = legal_moves(game.state, 0)
        assert set(moves) == {PlayCard(0, PS), PlayCard(0, P, 0)}
        events = game.play(0, card, 0 if card is P else None)
        assert game.out(0)
        assert of_type(events, PlayerEliminated)[0].player == 0
        assert game.state.round_winners == (1,)


# -- target.unexpected -------------------------------------------------------------------------------------


def test_target_unexpected__cards_that_choose_nobody_refuse_a_target() -> None:
    for card in (S, H, CO, PS):
        game = start("2019", 2)
        game.deal([G, PR], [card], set_aside=K if card is PS else PS)
        expect_violation(game.state, PlayCard(0, card, 1), "target.unexpected")


def test_target_unexpected__only_the_guard_names_a_card() -> None:
    game = start("2019", 2)
    game.deal([PR, G], [H])
    expect_violation(game.state, PlayCard(0, PR, 1, K), "target.unexpected")
    expect_violation(game.state, PlayCard(0, H, None, K), "target.unexpected")
