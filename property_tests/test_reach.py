"""The state machines, run once per ruleset under the active Hypothesis profile, and what their runs reached.

Each run checks every invariant of `RefereeMachine`. Over a run of at least `RUNS` examples the machines must also
reach what they check: a share of the runs ends a round, a share ends a game, and RULINGS §12 is really played (a
machine whose runs never left the first turn would pass every invariant and prove nothing). The quick profile of
`make test` derandomizes these runs (the same 60 every time: a red CI is reproducible and the reach figures are
stable); `make property-long` searches 10,000 random runs per ruleset; `make mutation` plays 12, too few to judge
reach by, so only the invariants are asserted there.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

from property_tests.test_referee_machine import MACHINES, RefereeMachine

RUNS = 60


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.ruleset)
def test_the_machine_holds_its_invariants_and_reaches_the_ends_of_rounds_and_games(
    machine: type[RefereeMachine],
) -> None:
    probe = type(f"Probe{machine.__name__}", (machine,), {"reached": Counter()})
    active = settings.default
    quick = settings.get_profile("quick")
    derandomize = active.max_examples == quick.max_examples and active.stateful_step_count == quick.stateful_step_count
    run_state_machine_as_test(probe, settings=settings(active, derandomize=derandomize or active.derandomize))
    reached = probe.reached
    print(f"\n{machine.ruleset}: {dict(reached)}")
    if active.max_examples < RUNS:
        return  # the mutation profile's dozen runs: the invariants alone
    assert reached["runs"] >= RUNS
    assert reached["round ended"] / reached["runs"] >= 0.4, dict(reached)
    assert reached["game over"] / reached["runs"] >= 0.08, dict(reached)
    # and RULINGS §12 is really played: runs where a seat left mid-round, between rounds, and where a game was aborted
    assert reached["resigned in a round"] >= 3 and reached["resigned between rounds"] >= 1, dict(reached)
    assert reached["aborted"] >= 1 and reached["timed out"] >= 3, dict(reached)
