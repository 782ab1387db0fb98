"""The engine pauses the cyclic garbage collector while it thinks (`play.engine.collector`): it must come back when
the last of several nested or concurrent searches ends, and only if it was running before the first began."""

from __future__ import annotations

import gc
import random
import threading

from loveletter.core.state import GameState
from loveletter.core.views import view
from loveletter.play.engine import collector, review
from loveletter.play.engine import search as search_module
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.search import Budget, search
from loveletter.play.simulate import decisions


def test_searches_and_reviews_leave_no_cyclic_garbage() -> None:
    """Why the pause loses nothing: what the engine allocates while it thinks is freed by reference counting alone,
    so the collector, run afterwards, finds no unreachable object (at four players, searches and reviews alike)."""
    positions = [(s, seat, m) for s, seat, m, _ in decisions("2019", 4, 1, lambda v, m, r: m[0], 3) if len(m) > 1]
    assert len(positions) >= 8
    gc.collect()
    gc.disable()
    try:
        for state, seat, moves in positions[:8]:
            search(Sampler(view(state, seat)), moves, random.Random(1), Budget(iterations=100), moves[0])
            review.review(view(state, seat), moves, random.Random(2), 20)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_a_search_ends_with_the_collector_running_and_nothing_judged_kept() -> None:
    state, seat, moves = next(
        (s, seat, m) for s, seat, m, _ in decisions("2019", 3, 1, lambda v, m, r: m[0], 5) if len(m) > 2
    )
    seen: list[bool] = []

    class Watched(Sampler):
        """The sampler, noting whether the collector runs each time the search draws a world."""

        def sample(self, rng: random.Random) -> GameState:
            seen.append(gc.isenabled())
            return super().sample(rng)

    sampler = Watched(view(state, seat))
    search(sampler, moves, random.Random(4), Budget(iterations=60), moves[0])
    assert seen and not any(seen)  # paused while it searched
    assert gc.isenabled()
    assert not search_module._BEST


def test_the_collector_is_paused_inside_and_back_after_nested_pauses() -> None:
    assert gc.isenabled()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer search still runs
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off() -> None:
    gc.disable()
    try:
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_an_error_inside_still_brings_the_collector_back() -> None:
    try:
        with collector.paused():
            raise KeyError("a search that failed")
    except KeyError:
        pass
    assert gc.isenabled()


def test_overlapping_searches_in_two_threads_leave_it_running() -> None:
    """Thread A pauses, B pauses, A ends while B still searches (still paused), then B ends (running again)."""
    a_in, b_in, a_out = threading.Event(), threading.Event(), threading.Event()
    seen: list[bool] = []

    def a() -> None:
        with collector.paused():
            a_in.set()
            b_in.wait(5)
        a_out.set()

    def b() -> None:
        a_in.wait(5)
        with collector.paused():
            b_in.set()
            a_out.wait(5)
            seen.append(gc.isenabled())

    threads = [threading.Thread(target=a), threading.Thread(target=b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen == [False]
    assert gc.isenabled()
