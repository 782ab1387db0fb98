"""Corners of `core.seats` (the lobby, the clocks, leaving) that the other tests never reach: a seat command before
any game, open seat 0, names taken twice beside an open seat, two seats still open at the deal, a name that is not
text, a resignation between rounds with a card still in hand, and the player to move leaving when the deck is empty.

Written against the survivors of `make mutation`; expected events follow RULINGS §12 and the hand-built tables.
"""

from __future__ import annotations

import pytest

from loveletter.core.catalogue import FavorGained, GameEnded, PlayerResigned, RoundEnded, SeatJoined
from loveletter.core.commands import Abort, JoinSeat, Resign, SetClock, StartGame, TimeOut
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, GameState
from tests.helpers import PR, PS, B, G, H, K, explicit_deal, position, start

T = 1_790_000_000_000


def _refused(state: GameState, command: object) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide(state, command)  # type: ignore[arg-type]
    return info.value


@pytest.mark.parametrize("command", [JoinSeat(0, "Ann", T), SetClock(0, T), TimeOut(0, T), Resign(0, T), Abort(T)])
def test_a_seat_command_before_any_game_is_refused(command: object) -> None:
    v = _refused(INITIAL, command)
    assert (v.code, v.rule_id, v.en, v.fr) == (
        "no_game",
        "setup.ruleset",
        "no game has been created yet",
        "aucune partie n'a encore été créée",
    )


def _lobby(*names: str, open_seats: tuple[int, ...]) -> GameState:
    return fold(decide(INITIAL, StartGame("2019", names, open_seats=open_seats)))


def test_seat_zero_may_be_left_open_and_taken_later() -> None:
    state = _lobby("", "Bob", open_seats=(0,))
    assert state.open_seats == (0,)
    assert decide(state, JoinSeat(0, " Ann ", T)) == (SeatJoined(0, "Ann", T),)


def test_two_players_named_alike_beside_an_open_seat_are_refused() -> None:
    v = _refused(INITIAL, StartGame("2019", ("Ann", "Ann", ""), open_seats=(2,)))
    assert (v.code, v.en) == (
        "player_names",
        "player names must be distinct and not empty (an open seat has no name until someone takes it)",
    )


def test_the_deal_names_every_seat_still_open() -> None:
    state = _lobby("Ann", "", "", open_seats=(1, 2))
    v = _refused(state, explicit_deal(state, (G, PR, B), first_player=0))
    assert (v.code, v.rule_id, v.en, v.fr) == (
        "seats_open",
        "lobby.deal",
        "seats still open: 1, 2; the game is dealt once every seat is taken",
        "sièges encore ouverts : 1, 2 ; la partie n'est distribuée qu'une fois tous les sièges pris",
    )


@pytest.mark.parametrize("name", [5, None, b"Bob"])
def test_a_name_that_is_not_text_cannot_take_a_seat(name: object) -> None:
    v = _refused(_lobby("Ann", "", open_seats=(1,)), JoinSeat(1, name, T))  # type: ignore[arg-type]
    assert (v.code, v.en, v.fr) == (
        "name_taken",
        "a player's name cannot be empty",
        "le nom d'un joueur ne peut pas être vide",
    )


def test_a_round_winner_who_resigns_between_rounds_discards_nothing() -> None:
    # RULINGS §12: between rounds a player holds no card in play; the last round's hand is not discarded again.
    game = start("2019", 2)
    game.deal((G, PR), (H,), set_aside=PS)
    game.play(0, G, 1, PR)  # Bob is out; Ann, still holding the Handmaid, wins the round
    assert game.state.phase == "deal" and game.hand(0) == (H,)
    assert game.do(Resign(0, T)) == (PlayerResigned(0, (), "resigned", T), GameEnded((1,)))


def test_the_player_to_move_leaving_with_the_deck_empty_ends_the_round_by_showdown() -> None:
    # Ann is to play with the draw pile empty; Bob holds the Priest, Cid the Baron (RULINGS §1: the higher wins).
    state = position(((G, H), (PR,), (B,)), (), set_aside=K, players=("Ann", "Bob", "Cid"))
    assert decide(state, Resign(0, T)) == (
        PlayerResigned(0, (G, H), "resigned", T),
        RoundEnded(1, "deck-out", (2,), K, (None, PR, B)),
        FavorGained(2, "round"),
    )
