"""A referee that lies consistently: each lie below is written into a game's events, and the log is then chained
and signed again, so the hash chain and the signature are perfect. Only the rules check can catch it — and it must,
at the lying event, naming the rule the lie breaks.

(`test_audit_mutations.py` edits the bytes of a signed log; the chain alone catches those.)
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import random
from collections.abc import Callable

import pytest

from loveletter.core.cards import Card
from loveletter.core.catalogue import CardPlayed, Event, FavorGained, PlayerEliminated, RoundStarted
from loveletter.core.chance import commitment, committed_deal
from loveletter.core.commands import Command, RevealSeed, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL
from loveletter.events.log import write_game
from loveletter.play.simulate import Config, _header
from loveletter.replays.audit import Options, audit_bytes
from tests.audit_helpers import signing_key, simulated

Lie = Callable[[list[Event]], tuple[list[Event], int] | None]  # the lying events and the seq of the first lie


def _first(events: list[Event], wanted: Callable[[int, Event], bool]) -> int | None:
    return next((i for i, e in enumerate(events) if wanted(i, e)), None)


def guard_names_the_guard(events: list[Event]) -> tuple[list[Event], int] | None:
    i = _first(events, lambda _, e: isinstance(e, CardPlayed) and e.card is Card.GUARD and e.target is not None)
    if i is None:
        return None
    lied = list(events)
    lied[i] = dataclasses.replace(events[i], guess=Card.GUARD)  # type: ignore[type-var]
    return lied, i + 1


def king_on_oneself(events: list[Event]) -> tuple[list[Event], int] | None:
    kinds = (Card.PRIEST, Card.BARON, Card.KING)
    i = _first(events, lambda _, e: isinstance(e, CardPlayed) and e.card in kinds and e.target is not None)
    if i is None:
        return None
    lied = list(events)
    played = events[i]
    assert isinstance(played, CardPlayed)
    lied[i] = dataclasses.replace(played, target=played.player)
    return lied, i + 1


def elimination_after_a_missed_guess(events: list[Event]) -> tuple[list[Event], int] | None:
    def missed(i: int, e: Event) -> bool:
        after = events[i + 1] if i + 1 < len(events) else None
        return (
            isinstance(e, CardPlayed)
            and e.card is Card.GUARD
            and e.target is not None
            and not isinstance(after, PlayerEliminated)
        )

    i = _first(events, missed)
    if i is None:
        return None
    played = events[i]
    assert isinstance(played, CardPlayed) and played.target is not None
    held = fold(events[: i + 1]).hands[played.target]
    lied = [*events[: i + 1], PlayerEliminated(played.target, held, Card.GUARD), *events[i + 1 :]]
    return lied, i + 2


def favor_to_the_wrong_player(events: list[Event]) -> tuple[list[Event], int] | None:
    i = _first(events, lambda _, e: isinstance(e, FavorGained) and e.reason == "round")
    if i is None:
        return None
    favor = events[i]
    assert isinstance(favor, FavorGained)
    n = len(fold(events[:1]).players)
    lied = list(events)
    lied[i] = dataclasses.replace(favor, player=(favor.player + 1) % n)
    return lied, i + 1


LIES: dict[str, tuple[Lie, str]] = {
    "an illegal guess": (guard_names_the_guard, "guard.guess"),
    "an illegal target": (king_on_oneself, "target.other"),
    "an elimination the rules do not cause": (elimination_after_a_missed_guess, "guard.effect"),
    "a favor to the wrong player": (favor_to_the_wrong_player, "favor.round"),
}


def signed(events: list[Event], game: int) -> bytes:
    buf = io.BytesIO()
    n = len(fold(events[:1]).players)
    config = Config("2019", n, 1, 7, ("random",) * n)
    write_game(buf, events, _header(events, config, game), signer=signing_key().sign)
    return buf.getvalue()


@pytest.mark.parametrize("lie", sorted(LIES))
def test_a_consistent_lie_is_caught_by_the_rules_at_the_lie(lie: str) -> None:
    make, rule_id = LIES[lie]
    options = Options(lenient=True, require_signature=True, key=signing_key().public_key)
    tried = 0
    for game, events in enumerate(simulated(12, seed=7)):
        made = make(events)
        if made is None:
            continue
        lied, seq = made
        assert audit_bytes(signed(events, game), "honest", options).exit_code == 0
        report = audit_bytes(signed(lied, game), "liar", options)
        (audited,) = report.games
        found = [(p.rule_id, p.seq) for p in audited.problems]
        assert found, f"{lie} went unnoticed in game {game}"
        assert found[0] == (rule_id, seq), found
        assert not {"log.chain", "log.signature", "log.sequence"} & {r for r, _ in found}, found
        tried += 1
    assert tried >= 3, f"only {tried} games had a place for {lie}"


def stacked_game(seed: int, stack: bool) -> list[Event]:
    """A whole game with the shuffle committed and revealed. With `stack`, the referee swaps the first two
    different cards of round 1's deck after deriving it: every move after that is legal play on the stacked deck,
    and only the shuffle check can tell."""
    rng = random.Random(seed)
    server_seed = hashlib.sha256(b"liar %d" % seed).digest()
    state = INITIAL
    events: list[Event] = []
    command: Command = StartGame("2019", ("Ann", "Bob", "Cid"), seed_commitment=commitment(server_seed))
    while True:
        caused = decide(state, command)
        events.extend(caused)
        state = fold(caused, state)
        if state.phase in ("play", "chancellor"):
            command = rng.choice(legal_moves(state, state.active))
        elif state.phase == "deal":
            command = committed_deal(state, server_seed)
            if stack and state.round == 0:
                deck = list(command.deck)
                j = next(k for k in range(1, len(deck)) if deck[k] != deck[0])
                deck[0], deck[j] = deck[j], deck[0]
                command = dataclasses.replace(command, deck=tuple(deck))
        elif state.server_seed is None:
            command = RevealSeed(server_seed.hex())
        else:
            return events


@pytest.mark.parametrize("seed", range(4))
def test_a_stacked_deck_in_a_whole_legal_game_is_caught_by_the_shuffle_check(seed: int) -> None:
    options = Options(lenient=True, require_signature=True, key=signing_key().public_key)
    assert audit_bytes(signed(stacked_game(seed, stack=False), seed), "honest", options).exit_code == 0
    lied = stacked_game(seed, stack=True)
    (audited,) = audit_bytes(signed(lied, seed), "liar", options).games
    first_round = next(i + 1 for i, e in enumerate(lied) if isinstance(e, RoundStarted))
    assert [(p.rule_id, p.seq) for p in audited.problems] == [("shuffle.derivation", first_round)]
