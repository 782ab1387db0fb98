"""Screenshots of the replay viewer and the statistics page, 1280 wide and phone-sized, in English and in French
(`make screenshots` writes them into docs/screenshots/); each page must lay out without a sideways scroll."""

from __future__ import annotations

import io
from typing import Any, Callable

from loveletter.play.simulate import Config, simulate
from tests.browser.conftest import PHONE, WIDE, Site, wait_until

SIZES = {"wide": WIDE, "phone": PHONE}


def a_finished_game(site: Site) -> str:
    created = site.create(
        {
            "ruleset": "2019",
            "players": [{"name": "Alice", "bot": "heuristic"}, {"name": "Bruno", "bot": "heuristic"},
                        {"name": "Chloé", "bot": "random"}],
        }
    )  # fmt: skip
    return str(created["game_id"])


def test_screenshots_of_the_viewer_and_the_statistics(
    site: Site, new_page: Callable[..., Any], shot: Callable[[Any, str], Any]
) -> None:
    game = a_finished_game(site)
    log = io.BytesIO()
    simulate(Config("2019", 4, 200, 1, ("heuristic", "heuristic", "random", "random")), log)
    for lang, locale in (("en", "en-GB"), ("fr", "fr-FR")):
        for size, viewport in SIZES.items():
            page = new_page(locale=locale, viewport=viewport)
            page.goto(f"{site.url}/replay/{game}?at=40&pov=1")
            wait_until(page, "() => document.body.dataset.version")
            page.select_option("#wi-kind", "play")  # the game is new each run: at 40 a Chancellor may be pending
            page.select_option("#wi-card", "guard")
            page.select_option("#wi-target", "0")
            page.select_option("#wi-guess", "guard")
            page.click("#ask")
            wait_until(page, "() => !document.getElementById('ruling').hidden")
            shot(page, f"replay-{lang}-{size}")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{lang} {size}: the viewer scrolls sideways by {overflow}px"
            page.goto(f"{site.url}/stats")
            upload = {"name": "simulation.jsonl", "mimeType": "application/x-ndjson", "buffer": log.getvalue()}
            page.set_input_files("#file", files=[upload])
            page.locator("#results").wait_for(state="visible")
            shot(page, f"stats-{lang}-{size}")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{lang} {size}: the statistics page scrolls sideways by {overflow}px"
