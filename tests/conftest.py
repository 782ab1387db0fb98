"""Each test judges afresh: the rules core's memo tables are emptied before it (see `loveletter.core.memo`)."""

from __future__ import annotations

import pytest

from loveletter.core.memo import forget_all


@pytest.fixture(autouse=True)
def _fresh_memos() -> None:
    forget_all()
