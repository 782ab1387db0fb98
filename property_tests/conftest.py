"""Hypothesis profiles for the property suite.

- `quick` (default, `make test`): 60 runs of each state machine, 150 steps each (about two minutes of the suite's
  time on this VM); the invariants' long search is `make property-long`.
- `long` (`HYPOTHESIS_PROFILE=long`, used by `make property-long`): >= 10,000 examples per state machine.
- `mutation` (`make mutation`): 12 derandomized examples, so that each planted bug meets the same games.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, settings

from loveletter.core.memo import forget_all

_COMMON = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    "print_blob": True,
}

# The quick profile does not shrink: a failure is reported at once (re-run with the printed blob to shrink it).
settings.register_profile(
    "quick",
    max_examples=60,
    stateful_step_count=150,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    **_COMMON,
)
settings.register_profile("long", max_examples=10_000, stateful_step_count=200, **_COMMON)
# `make mutation` runs the machines once per planted bug: fewer runs, the same ones every time (derandomized).
settings.register_profile(
    "mutation",
    max_examples=12,
    stateful_step_count=150,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    **_COMMON,
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "quick"))


@pytest.fixture(autouse=True)
def _fresh_memos() -> None:
    """Each machine judges afresh: the rules core's memo tables are emptied first (see `loveletter.core.memo`)."""
    forget_all()
