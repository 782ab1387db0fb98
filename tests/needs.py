"""What some tests need from the machine, and the one way to skip them: by name.

`make test` installs Debian's chromium, PostgreSQL, curl, Prometheus and HAProxy (.ci/system-packages). A test
whose need is missing fails, saying how to get it — unless the person running the tests asked to skip that kind of
test by name, with `LOVELETTER_SKIP=browser,postgres,curl,root,prometheus,haproxy` (`root`: the fault tests that mount
a small tmpfs to fill a disk, which only root may do). Nothing is skipped in silence.
"""

from __future__ import annotations

import os

import pytest

KINDS = ("browser", "postgres", "curl", "root", "prometheus", "haproxy")
INSTALL = "sudo bash .ci/system-packages"
REMEDY = {"root": "run the tests as root (`sudo make test`)"}
"""How to get a need that no package gives; the others: install them with `INSTALL`."""


def asked_to_skip() -> set[str]:
    return {word.strip() for word in os.environ.get("LOVELETTER_SKIP", "").split(",") if word.strip()}


def need(kind: str, missing: str | None) -> None:
    """Go on if nothing is `missing`; else skip (asked by name) or fail with the command that installs it."""
    assert kind in KINDS, kind
    if missing is None:
        return
    if kind in asked_to_skip():
        pytest.skip(f"{missing} (skipped as asked: LOVELETTER_SKIP={kind})")
    remedy = REMEDY.get(kind, f"install it with `{INSTALL}`")
    pytest.fail(f"{missing}: {remedy}, or skip the {kind} tests by name with LOVELETTER_SKIP={kind}", pytrace=False)
