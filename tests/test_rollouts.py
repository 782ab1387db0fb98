"""A rollout (`play.engine.search.play_out`) plays every seat by the heuristic from its own glance; it remembers the
heuristic's best moves by the parts of the state its glance and legal moves are made of (`search._best`). Held here
against a plain model of the same rollout that remembers nothing, from thousands of worlds with the memory warm, at
every ruleset and table size; the search, which plays one rollout for the candidates of a world that lead to the same
state, against a search that plays every rollout; and its tie-breaking generator (`Ties`) against a uniform count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.legal import legal_move_tuple
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_PLAY, GameState, Transient
from loveletter.core.views import glance, view
from loveletter.play.engine import search
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.search import Ties, play_out
from loveletter.play.engine.value import end_value
from loveletter.play.policies import heuristic_best, heuristic_choice
from loveletter.play.simulate import decisions
from tests.helpers import B, G, H, P, position
from tests.test_engine import TABLES


def plain_play_out(world: GameState, move: object, rng: Ties) -> GameState:
    """The rollout as the docstring of `play_out` says it, judging every decision afresh."""
    s = world.thaw()
    apply_all(s, decide(s, move))  # type: ignore[arg-type]
    while s.phase in (PHASE_PLAY, PHASE_CHANCELLOR):
        actor = s.active
        apply_all(s, decide(s, heuristic_choice(glance(s, actor), legal_move_tuple(s, actor), rng)))
    return s


@pytest.mark.parametrize(("ruleset", "players"), TABLES)
def test_a_rollout_with_the_memory_ends_where_one_without_it_does(ruleset: str, players: int) -> None:
    search.forget()
    rng = random.Random(players * 31)
    compared = 0
    for state, seat, moves, _ in decisions(ruleset, players, 2, lambda v, m, r: m[0], 5):
        sampler = Sampler(view(state, seat))
        for _ in range(6):  # the same position again and again: most of its situations are met before
            world = sampler.sample(rng)
            move = rng.choice(moves)
            seed = rng.getrandbits(64)
            assert play_out(world, move, Ties(seed)) == plain_play_out(world, move, Ties(seed))
            compared += 1
    assert compared > 100
    assert len(search._BEST) > 50  # the memory was used


def plain_sweep(sampler: Sampler, alive: list[search.Estimate], seat: int, rng: random.Random) -> None:
    """One world, every candidate's rollout played in it with the same seed, none shared."""
    world = sampler.sample(rng)
    seed = rng.getrandbits(64)
    for e in alive:
        e.total += end_value(plain_play_out(world, e.move, Ties(seed)), seat)
        e.n += 1


@pytest.mark.parametrize(("ruleset", "players"), [("2019", 2), ("2019", 4), ("2012", 3), ("princess-princess", 5)])
def test_the_search_sharing_rollouts_estimates_what_playing_each_one_does(
    ruleset: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    played = 0
    finish = search._finish

    def counted(s: Transient, rng: search.Chooser) -> Transient:
        nonlocal played
        played += 1
        return finish(s, rng)

    monkeypatch.setattr(search, "_finish", counted)
    searched = counted_rollouts = 0
    for state, seat, moves, _ in decisions(ruleset, players, 2, lambda v, m, r: m[0], 11):
        if len(moves) < 2 or searched >= 12:
            continue
        sampler = Sampler(view(state, seat))
        shared = search.search(sampler, moves, random.Random(seat), search.Budget(iterations=60), moves[0])
        with monkeypatch.context() as plain:
            plain.setattr(search, "_sweep", plain_sweep)
            alone = search.search(sampler, moves, random.Random(seat), search.Budget(iterations=60), moves[0])
        assert [(e.move, e.n, e.total) for e in shared] == [(e.move, e.n, e.total) for e in alone]
        searched += 1
        counted_rollouts += sum(e.n for e in shared)
    assert searched == 12
    assert played < counted_rollouts  # some candidates did share a rollout (the Guard's missed guesses)


def test_the_memory_tells_apart_situations_that_differ_only_in_what_the_seat_was_shown() -> None:
    """Two states alike but for a hand the deciding seat has seen (a Priest's look): the heuristic names the hand seen
    with its Guard, and the remembered answer must follow, whichever was judged first."""
    blind = position(((G, P), (H,)), (G, G, G), set_aside=B)
    s = blind.thaw()
    s.knows = ((None, H), (None, None))
    shown = s.freeze()
    for first, second in ((blind, shown), (shown, blind)):
        search.forget()
        for state in (first, second, first):
            assert search._best(state, 0) == heuristic_best(glance(state, 0), legal_move_tuple(state, 0))
    assert search._best(shown, 0) != search._best(blind, 0)


def test_ties_draws_each_choice_alike() -> None:
    ties = Ties(2026)
    counts = Counter(ties.choice("abcde") for _ in range(50_000))
    assert set(counts) == set("abcde")
    assert all(abs(n - 10_000) < 400 for n in counts.values()), counts  # 4 standard deviations (sd 89)
    assert [Ties(7).choice(range(1000)) for _ in range(3)] == [Ties(7).choice(range(1000))] * 3
