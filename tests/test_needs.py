"""A test that needs chromium, PostgreSQL or curl fails when it is missing, naming the command that installs it;
it is skipped only when the person asked for that kind by name (tests/needs.py)."""

from __future__ import annotations

import pytest

from tests.needs import need


def test_a_missing_need_fails_with_the_command_that_installs_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOVELETTER_SKIP", raising=False)
    with pytest.raises(pytest.fail.Exception) as failed:
        need("browser", "Debian's chromium is not installed")
    assert "sudo bash .ci/system-packages" in str(failed.value)
    assert "LOVELETTER_SKIP=browser" in str(failed.value)


def test_a_missing_need_is_skipped_only_when_asked_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOVELETTER_SKIP", "postgres, curl")
    with pytest.raises(pytest.skip.Exception):
        need("curl", "curl is not installed")
    with pytest.raises(pytest.fail.Exception):
        need("browser", "Debian's chromium is not installed")


def test_a_need_that_is_met_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOVELETTER_SKIP", "")
    need("postgres", None)


def test_a_need_no_package_gives_names_its_own_remedy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LOVELETTER_SKIP", raising=False)
    with pytest.raises(pytest.fail.Exception) as failed:
        need("root", "mounting a tmpfs needs root")
    assert "sudo make test" in str(failed.value) and "LOVELETTER_SKIP=root" in str(failed.value)
