"""The provable shuffle and the signed, chained log: commit–reveal seeds, derivation, signatures."""

from __future__ import annotations

import hashlib
import io
import random

import pytest

from loveletter.core.catalogue import Event, RoundStarted, SeedContributed, SeedRevealed
from loveletter.core.chance import commitment, committed_deal, round_seed
from loveletter.core.commands import ContributeSeed, RevealSeed, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, GameState
from loveletter.events.log import read_games, write_game
from loveletter.events.signing import SigningKey, verify

SERVER = hashlib.sha256(b"server seed of the tests").digest()
ANN_SEED = hashlib.sha256(b"ann").hexdigest()


def started(players: tuple[str, ...] = ("Ann", "Bob")) -> GameState:
    return fold(decide(INITIAL, StartGame("2019", players, seed_commitment=commitment(SERVER))))


def play_out(state: GameState, seed: int = 1) -> tuple[GameState, list[Event]]:
    rng = random.Random(seed)
    log: list[Event] = []
    while not state.over:
        command = (
            committed_deal(state, SERVER) if state.phase == "deal" else rng.choice(legal_moves(state, state.active))
        )
        events = decide(state, command)
        log.extend(events)
        state = fold(events, state)
    return state, log


def test_shuffle_commitment__the_seed_is_revealed_only_at_the_end_and_must_match() -> None:
    state = started()
    with pytest.raises(RuleViolation) as early:
        decide(state, RevealSeed(SERVER.hex()))
    assert early.value.rule_id == "shuffle.commitment" and early.value.code == "game_not_over"
    over, _ = play_out(state)
    wrong = hashlib.sha256(b"another seed").hexdigest()
    with pytest.raises(RuleViolation) as mismatch:
        decide(over, RevealSeed(wrong))
    assert (mismatch.value.rule_id, mismatch.value.code) == ("shuffle.commitment", "seed_mismatch")
    assert decide(over, RevealSeed(SERVER.hex())) == (SeedRevealed(SERVER.hex()),)
    revealed = fold(decide(over, RevealSeed(SERVER.hex())), over)
    with pytest.raises(RuleViolation):
        decide(revealed, RevealSeed(SERVER.hex()))  # once


def test_shuffle_commitment__a_commitment_is_a_sha256_digest() -> None:
    with pytest.raises(RuleViolation) as err:
        decide(INITIAL, StartGame("2019", ("Ann", "Bob"), seed_commitment="not hex"))
    assert err.value.rule_id == "shuffle.commitment"


def test_shuffle_seat_seed__each_seat_gives_at_most_one_well_formed_seed() -> None:
    state = started()
    assert decide(state, ContributeSeed(0, ANN_SEED)) == (SeedContributed(0, ANN_SEED),)
    for bad in ("", "xyz", ANN_SEED.upper(), ANN_SEED[:-2]):
        with pytest.raises(RuleViolation) as err:
            decide(state, ContributeSeed(0, bad))
        assert (err.value.rule_id, err.value.code) == ("shuffle.seat-seed", "invalid_seed")
    after = fold(decide(state, ContributeSeed(0, ANN_SEED)), state)
    with pytest.raises(RuleViolation) as twice:
        decide(after, ContributeSeed(0, ANN_SEED))
    assert twice.value.code == "seed_already_given"
    with pytest.raises(RuleViolation):
        decide(after, ContributeSeed(5, ANN_SEED))


def test_shuffle_derivation__a_seat_seed_changes_every_later_deck_and_decks_rederive_from_the_seeds() -> None:
    plain = started()
    seeded = fold(decide(plain, ContributeSeed(0, ANN_SEED)), plain)
    assert committed_deal(plain, SERVER) != committed_deal(seeded, SERVER)
    # Anyone holding the revealed server seed and the seat seeds re-derives the deal exactly.
    deal = committed_deal(seeded, SERVER)
    assert deal.shuffle is not None and deal.shuffle.algorithm == "commit-hmac-sha256-fy/1"
    assert deal.shuffle.seed == round_seed(SERVER, 1, (ANN_SEED, None)).hex()
    state, log = play_out(seeded)
    rounds = [e for e in log if isinstance(e, RoundStarted)]
    assert len(rounds) == state.round >= 2
    assert len({r.shuffle.seed for r in rounds if r.shuffle}) == len(rounds)  # a fresh seed every round


def test_log_signature__a_signed_log_verifies_and_any_change_breaks_it() -> None:
    events: list[Event] = list(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), seed_commitment=commitment(SERVER))))
    _, log = play_out(fold(events))
    events += log
    key = SigningKey.generate()
    buf = io.BytesIO()
    write_game(buf, events, signer=key.sign)
    (game,) = read_games(buf.getvalue().splitlines())
    assert game.signature is not None and game.signature["public_key"] == key.public_key
    last = game.entries[-1].hash
    assert game.signature["hash"] == last
    assert verify(key.public_key, last, game.signature["signature"])
    assert not verify(key.public_key, game.entries[-2].hash, game.signature["signature"])
    assert not verify(SigningKey.generate().public_key, last, game.signature["signature"])
    assert not verify(key.public_key, last, "00" * 64)
