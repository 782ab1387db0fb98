"""The state machines must reach what they check: a share of their runs ends a round, and a share ends a game.
(A machine whose runs never left the first turn would pass every invariant and prove nothing.)"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, Phase, settings
from hypothesis.stateful import run_state_machine_as_test

from property_tests.test_referee_machine import MACHINES, RefereeMachine

RUNS = 60


@pytest.mark.parametrize("machine", MACHINES, ids=lambda m: m.ruleset)
def test_runs_reach_the_ends_of_rounds_and_games(machine: type[RefereeMachine]) -> None:
    probe = type(f"Probe{machine.__name__}", (machine,), {"reached": Counter()})
    run_state_machine_as_test(
        probe,
        settings=settings(
            max_examples=RUNS,
            stateful_step_count=150,
            derandomize=True,
            database=None,
            deadline=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        ),
    )
    reached = probe.reached
    assert reached["runs"] >= RUNS
    print(f"\n{machine.ruleset}: {dict(reached)}")
    assert reached["round ended"] / reached["runs"] >= 0.4, dict(reached)
    assert reached["game over"] / reached["runs"] >= 0.08, dict(reached)
    # and RULINGS §12 is really played: runs where a seat left mid-round, between rounds, and where a game was aborted
    assert reached["resigned in a round"] >= 3 and reached["resigned between rounds"] >= 1, dict(reached)
    assert reached["aborted"] >= 1 and reached["timed out"] >= 3, dict(reached)
