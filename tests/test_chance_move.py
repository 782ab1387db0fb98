"""Chance's one step (`core.chance.chance_move`), shared by the referee, simulations, tournaments, the environment
and the benchmarks: it deals where a round is to be dealt, reveals a committed seed once the game is over, and
otherwise leaves the move to a seat."""

from __future__ import annotations

from loveletter.core.chance import chance_move, commitment, committed_deal
from loveletter.core.commands import DealRound, RevealSeed, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.state import INITIAL
from tests.helpers import finished

SERVER = bytes(range(32))


def test_a_round_to_deal_is_dealt_from_the_committed_seed() -> None:
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), seed_commitment=commitment(SERVER))))
    move = chance_move(state, SERVER)
    assert isinstance(move, DealRound)
    assert move == committed_deal(state, SERVER)
    assert sorted(move.deck + move.hands + (move.set_aside,) + move.face_up) == sorted(state.ruleset.deck)


def test_a_seat_to_move_leaves_chance_nothing_to_do() -> None:
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), seed_commitment=commitment(SERVER))))
    dealt = fold(decide(state, committed_deal(state, SERVER)), state)
    assert dealt.phase == "play"
    assert chance_move(dealt, SERVER) is None


def test_the_end_of_a_committed_game_reveals_the_seed_once() -> None:
    over, server = finished(with_commitment=True)
    assert chance_move(over, server) == RevealSeed(server.hex())
    revealed = fold(decide(over, RevealSeed(server.hex())), over)
    assert revealed.server_seed == server.hex()
    assert chance_move(revealed, server) is None


def test_a_game_without_a_commitment_has_nothing_to_reveal() -> None:
    over, server = finished(with_commitment=False)
    assert chance_move(over, server) is None
