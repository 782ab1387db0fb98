"""The statistics page in Chromium: a small simulation run from the page, its progress, and its charts checked bar by
bar against the same simulation run here (the engine is deterministic by seed) and against rounds counted here from
its log; a simulation's log opened from a file; French; axe-core."""

from __future__ import annotations

import io
import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import pytest

from loveletter.core.catalogue import RoundStarted
from loveletter.events.log import read_games
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, simulate
from tests.browser.conftest import Site, wait_until

CONFIG = Config("2019", 3, 40, 5, ("heuristic", "random", "random"))

BARS = """(id) => [...document.querySelectorAll(`#${id} rect.bar`)].map((r) => ({
  label: r.dataset.label, value: Number(r.dataset.value), width: Number(r.getAttribute('width')),
  low: Number(r.nextElementSibling?.dataset.low ?? NaN), high: Number(r.nextElementSibling?.dataset.high ?? NaN),
}))"""


def expected() -> tuple[dict[str, Any], Counter[int], bytes]:
    """The simulation run here: its figures, each game's number of rounds counted from its log, and the log."""
    out = io.BytesIO()
    figures = statistics(simulate(CONFIG, out))
    games = read_games(out.getvalue().splitlines())
    rounds = Counter(sum(isinstance(e, RoundStarted) for e in g.events) for g in games)
    return figures, rounds, out.getvalue()


def run_from_the_page(page: Any, site: Site) -> None:
    page.goto(f"{site.url}/stats")
    page.fill("#players", "3")
    page.dispatch_event("#players", "change")
    page.fill("#games", str(CONFIG.games))
    page.fill("#seed", str(CONFIG.seed))
    for seat, bot in enumerate(CONFIG.bots):
        page.select_option(f"#bot-{seat}", bot)
    page.click("#start")
    page.locator("#results").wait_for(state="visible", timeout=60_000)


def check_charts(page: Any, figures: dict[str, Any], rounds: Counter[int] | None) -> None:
    def values(chart: str) -> list[dict[str, Any]]:
        bars: list[dict[str, Any]] = page.evaluate(BARS, chart)
        return bars

    seat = values("chart-seat")
    assert [b["value"] for b in seat] == pytest.approx([r["rate"] for r in figures["win_rate"]["by_seat"]])
    bounds = [x for b in seat for x in (b["low"], b["high"])]
    assert bounds == pytest.approx([x for r in figures["win_rate"]["by_seat"] for x in (r["low"], r["high"])])
    widths = [b["width"] for b in seat]  # drawn to scale: a win rate of 1 is the whole plot's width
    assert widths == pytest.approx([b["value"] * 210 for b in seat], abs=0.01)
    by_bot = [r["rate"] for r in figures["win_rate"]["by_bot"]]
    assert [b["value"] for b in values("chart-bot")] == pytest.approx(by_bot)
    assert [b["value"] for b in values("chart-favors")] == pytest.approx([r["per_game"] for r in figures["favors"]])
    elims = values("chart-eliminations")
    assert [b["value"] for b in elims] == pytest.approx([r["per_game"] for r in figures["eliminations"]])
    if rounds is not None:
        drawn = {int(b["label"]): int(b["value"]) for b in values("chart-rounds")}
        assert drawn == dict(rounds) and sum(drawn.values()) == CONFIG.games


def test_a_simulation_run_from_the_page_draws_its_figures(site: Site, new_page: Callable[..., Any]) -> None:
    figures, rounds, _ = expected()
    page = new_page()
    run_from_the_page(page, site)
    assert page.locator("#progress").evaluate("(p) => [p.value, p.max]") == [CONFIG.games, CONFIG.games]
    assert page.locator("#progress-text").inner_text() == f"{CONFIG.games} / {CONFIG.games}"
    check_charts(page, figures, rounds)
    table = page.locator("#chart-seat table").inner_text()
    assert "seat 0 (heuristic)" in table and "%" in table


def test_a_simulation_log_opened_from_a_file(site: Site, new_page: Callable[..., Any], tmp_path: Path) -> None:
    figures, rounds, log = expected()
    page = new_page(locale="fr-FR")
    page.goto(f"{site.url}/stats")
    upload = {"name": "simulation.jsonl", "mimeType": "application/x-ndjson", "buffer": log}
    page.set_input_files("#file", files=[upload])
    page.locator("#results").wait_for(state="visible")
    check_charts(page, figures, rounds)
    text = page.locator("#results").inner_text()
    assert "Taux de victoire par siège" in text and "siège 0 (heuristique)" in text
    assert "," in page.locator("#chart-favors table td").first.inner_text()  # a French decimal comma


def test_a_refused_simulation_says_why(site: Site, new_page: Callable[..., Any]) -> None:
    page = new_page(locale="fr-FR")
    page.goto(f"{site.url}/stats")
    page.locator("#games").evaluate("(i) => { i.max = '999999'; i.value = '999999'; }")  # past the page's own bound
    page.click("#start")
    page.locator("#problem").wait_for(state="visible")
    assert "de 1 à 5000 parties" in page.locator("#problem").inner_text()


def test_axe_finds_nothing_serious_on_the_statistics_page(site: Site, new_page: Callable[..., Any]) -> None:
    source = (Path(pytest.importorskip("axe_playwright_python").__file__).parent / "axe.min.js").read_text()
    page = new_page()
    page.goto(f"{site.url}/stats")
    _, _, log = expected()
    page.set_input_files("#file", files=[{"name": "s.jsonl", "mimeType": "application/x-ndjson", "buffer": log}])
    page.locator("#results").wait_for(state="visible")
    page.evaluate(source)  # axe is given to the page by the test, never served by the app
    violations, passes = page.evaluate(
        "async () => { const r = await axe.run(document); return [r.violations, r.passes.length]; }"
    )
    assert passes > 10
    assert [f"{v['id']} ({v['impact']})" for v in violations if v["impact"] in ("serious", "critical")] == []


def test_keyboard_only_run(site: Site, new_page: Callable[..., Any]) -> None:
    page = new_page()
    page.goto(f"{site.url}/stats")
    page.locator("#games").focus()
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    wait_until(page, "() => document.getElementById('games').value === '5'")
    page.locator("#start").focus()
    page.keyboard.press("Enter")
    page.locator("#results").wait_for(state="visible", timeout=60_000)
    assert page.locator("#progress-text").inner_text() == "5 / 5"


def test_a_simulation_report_opened_from_a_file(site: Site, new_page: Callable[..., Any]) -> None:
    """`loveletter simulate --json`'s report is drawn as it is (it holds no rounds histogram: the mean alone)."""
    figures, _, _ = expected()
    report = json.dumps(figures).encode()
    page = new_page()
    page.goto(f"{site.url}/stats")
    page.set_input_files("#file", files=[{"name": "report.json", "mimeType": "application/json", "buffer": report}])
    page.locator("#results").wait_for(state="visible")
    check_charts(page, figures, None)
    assert page.locator("#chart-rounds rect.bar").count() == 0
    mean = figures["per_game"]["rounds"]["per_game"]
    assert page.locator("#chart-rounds").inner_text().splitlines()[-1].startswith(f"mean: {round(mean, 2):g} (95%: ")
