"""Examples aimed at what `make mutation` found unguarded in `core/`: paths the other tests never take.

Each test says which path it covers and why no other test does; expected values come from the rules or from a
second, independent computation, never from the code under test.
"""

from __future__ import annotations

from loveletter.core.evolve import apply, apply_all, evolve, fold
from loveletter.core.state import INITIAL
from tests.helpers import PR, G, H, start


def _a_short_game_log() -> list:
    game = start("2019", 2)
    game.deal((G, PR), (H,))
    game.play(0, G, 1, PR)  # Ann's Guard names Bob's Priest: Bob is out, Ann wins the round
    return game.log


def test_apply_one_event_at_a_time_reaches_the_state_fold_reaches() -> None:
    """`evolve.apply` (the audit's and the simulator's one-event path) counts each event as `fold` does."""
    log = _a_short_game_log()
    s = INITIAL.thaw()
    for i, event in enumerate(log, start=1):
        apply(s, event)
        assert s.seq == i
    assert s.freeze() == fold(log)
    assert fold(log).seq == len(log)


def test_apply_all_counts_the_events_of_any_iterable() -> None:
    """A generator takes `apply_all`'s general path, a list or tuple its quick one: both count every event."""
    log = _a_short_game_log()
    for events in (iter(log), (e for e in log), tuple(log), list(log)):
        s = INITIAL.thaw()
        apply_all(s, events)
        assert s.seq == len(log)
        assert s.freeze() == fold(log)


def test_evolve_counts_one_and_leaves_its_input_alone() -> None:
    log = _a_short_game_log()
    state = INITIAL
    for i, event in enumerate(log, start=1):
        before = state.as_dict()
        after = evolve(state, event)
        assert state.as_dict() == before
        assert after.seq == i
        state = after
    assert state == fold(log)
