"""The viewer's evaluation graph in Chromium: a finished game analysed from the page (`a`, or the button, keyboard
alone), one dot per searched decision at the chance `loveletter analyse --json` gives the move played, and at a
decision's position the best move and the played move's cost as the command line says them, in English and in
French; axe-core finds nothing serious in the panel."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import orjson
import pytest

from tests.browser.conftest import Site, wait_until
from tests.browser.test_viewer import Finished, at, open_viewer
from tests.browser.test_viewer import finished as finished  # the module's finished game (a fixture)
from tests.cli import loveletter

BUDGET = "50"  # the page's (evaluation.js)


def reviewed(finished: Finished, tmp_path: Path, lang: str) -> dict[str, Any]:
    path = tmp_path / f"game-{lang}.jsonl"
    path.write_bytes(finished.log)
    ran = loveletter("analyse", str(path), "--budget", BUDGET, "--lang", lang, "--json")
    assert ran.returncode == 0, ran.stderr
    review: dict[str, Any] = orjson.loads(ran.stdout)
    return review


def evaluated(page: Any) -> None:
    wait_until(page, "() => document.getElementById('eval-panel').dataset.state === 'done'", timeout=120)


def searched(review: dict[str, Any]) -> list[dict[str, Any]]:
    """The decisions drawn: searched ones whose move played was legal there."""
    return [e for e in review["decisions"] if not e["forced"] and e["drop"] is not None]


def test_the_graph_and_each_positions_best_move_are_the_command_lines(
    site: Site, finished: Finished, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    review = reviewed(finished, tmp_path, "en")
    page = new_page()
    open_viewer(page, site, f"/replay/{finished.game}?at=1&pov=spectator")
    assert page.locator("#eval-figure").is_hidden()
    page.keyboard.press("a")
    evaluated(page)
    dots = page.evaluate(
        "() => [...document.querySelectorAll('#eval-graph circle')]"
        ".map((c) => [Number(c.dataset.at), Number(c.dataset.game)])"
    )
    expected = []
    for e in searched(review):
        played = next(m for m in e["moves"] if m["action_code"] == e["played"]["action_code"])
        expected.append([e["at"], played["game"]])
    assert [p for p, _ in sorted(dots)] == [p for p, _ in sorted(expected)]
    assert [g for _, g in sorted(dots)] == pytest.approx([g for _, g in sorted(expected)])
    assert page.locator("#eval-legend li").all_inner_texts() == ["Alice", "Bob"]
    worst = max(searched(review), key=lambda e: e["drop"])
    page.goto(f"{site.url}/replay/{finished.game}?at={worst['at']}&pov=spectator")  # a fresh page: analyse again
    wait_until(page, "() => document.body.dataset.version")
    page.click("#eval-run")
    evaluated(page)
    here = page.locator("#eval-here")
    assert here.locator(".best .move").inner_text() == worst["best"]["text"]
    assert here.locator(".played .move").inner_text() == worst["played"]["text"]
    cost = re.fullmatch(r"cost −(\d+\.\d) points — .+", here.locator(".cost").inner_text())
    assert cost is not None, here.locator(".cost").inner_text()
    # One decimal of the same figure; a half may round either way (Python rounds the binary value, a tie to even;
    # the page's Intl.NumberFormat rounds the shortest decimal, a tie to even): the run that found it had 31.25.
    assert abs(float(cost[1]) - 100 * worst["drop"]) <= 0.05 + 1e-9
    assert worst["when"] in here.inner_text()
    page.keyboard.press("ArrowRight")  # the next position: nobody decides there, or another decision
    assert at(page) == worst["at"] + 1
    follows = next((e for e in review["decisions"] if e["at"] == worst["at"] + 1), None)
    if follows is None:
        assert "Nobody decides at this position" in here.inner_text()
    else:
        assert follows["when"] in here.inner_text()


def test_in_french_by_the_keyboard_alone(
    site: Site, finished: Finished, new_page: Callable[..., Any], tmp_path: Path
) -> None:
    review = reviewed(finished, tmp_path, "fr")
    first = searched(review)[0]
    page = new_page(locale="fr-FR")
    open_viewer(page, site, f"/replay/{finished.game}?at={first['at']}&pov=0")
    assert page.locator("#eval-h").inner_text() == "Évaluation"
    page.locator("#eval-run").focus()
    page.keyboard.press("Enter")
    evaluated(page)
    here = page.locator("#eval-here")
    assert "Meilleur coup" in here.inner_text()
    assert here.locator(".best .move").inner_text() == first["best"]["text"]
    assert here.locator(".cost").inner_text().startswith(f"coût −{100 * first['drop']:.1f}".replace(".", ","))
    assert page.locator("#eval-status").inner_text().startswith(f"{len(review['decisions'])} décisions analysées")


def test_axe_finds_nothing_serious_in_the_evaluation(
    site: Site, finished: Finished, new_page: Callable[..., Any]
) -> None:
    source = (Path(pytest.importorskip("axe_playwright_python").__file__).parent / "axe.min.js").read_text()
    page = new_page()
    open_viewer(page, site, f"/replay/{finished.game}?at=5&pov=0")
    page.keyboard.press("a")
    evaluated(page)
    page.evaluate(source)
    violations = page.evaluate("async () => (await axe.run(document.getElementById('eval-panel'))).violations")
    assert [f"{v['id']} ({v['impact']})" for v in violations if v["impact"] in ("serious", "critical")] == []
