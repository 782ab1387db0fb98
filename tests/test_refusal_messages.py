"""Refusals that help: they say who by name, what the mover holds (their own hand, which they know), and what
decision is pending when a player moves while their own Chancellor waits. Codes and rule ids do not change."""

from __future__ import annotations

from loveletter.core.commands import PlayCard, ReturnCards
from loveletter.core.decide import decide
from loveletter.core.rules import RuleViolation
from loveletter.core.state import GameState
from tests.french import not_french
from tests.helpers import PR, B, C, G, H, K, start

NAMES = ["Ann", "Bob"]


def refusal(state: GameState, command: PlayCard | ReturnCards) -> RuleViolation:
    try:
        decide(state, command)
    except RuleViolation as v:
        assert not_french(v.fr, allowed=NAMES) == [], v.fr
        return v
    raise AssertionError("the move was legal")


def test_turn_play_from_hand__the_refusal_names_the_player_and_their_hand() -> None:
    game = start("2019", 2)
    game.deal((G, PR), (H,))  # Ann holds the Guard and draws the Handmaid
    v = refusal(game.state, PlayCard(0, K, 1))
    assert (v.code, v.rule_id) == ("card_not_in_hand", "turn.play-from-hand")
    assert v.en == "Ann does not hold the King (Ann holds the Guard and the Handmaid)"
    assert v.fr == "Ann n'a pas le Roi en main (sa main : le Garde et la Servante)"


def test_chancellor_pending__your_own_decision_says_what_is_pending() -> None:
    game = start("2019", 2)
    game.deal((G, PR), (C, H, B))  # Ann plays the Chancellor she drew: she holds Guard, Handmaid, Baron
    game.play(0, C)
    v = refusal(game.state, PlayCard(0, G, 1, PR))
    assert (v.code, v.rule_id) == ("chancellor_pending", "chancellor.pending")
    assert v.en == (
        "Ann must first finish the Chancellor: keep one of the Guard, the Handmaid and the Baron and put the other "
        "2 cards on the bottom of the deck"
    )
    assert "garder une carte parmi le Garde, la Servante et le Baron et placer les 2 autres sous la pioche" in v.fr


def test_chancellor_pending__another_player_learns_nothing_of_the_hand() -> None:
    game = start("2019", 2)
    game.deal((G, PR), (C, H, B))
    game.play(0, C)
    v = refusal(game.state, PlayCard(1, PR, 0))
    assert (v.code, v.rule_id) == ("chancellor_pending", "chancellor.pending")
    assert "Ann must first choose" in v.en and "Guard" not in v.en and "Garde" not in v.fr
