"""Screenshots of each page, 1280 wide and phone-sized, in English and in French. `make screenshots` (or
LOVELETTER_SCREENSHOTS=docs/screenshots) writes them into docs/; otherwise they go to a temporary folder, and the
test still checks that each page lays out without a horizontal scroll on a phone."""

from __future__ import annotations

from typing import Any, Callable

from tests.browser.conftest import ARMED, PHONE, WIDE, Site, play_first, wait_until

SIZES = {"wide": WIDE, "phone": PHONE}


def a_game_in_play(site: Site) -> tuple[str, str]:
    """Alice against two bots, a few turns in: answers the game id and Alice's token."""
    created = site.create(
        {
            "ruleset": "2019",
            "players": [{"name": "Alice"}, {"name": "Bruno", "bot": "heuristic"}, {"name": "Chloé", "bot": "random"}],
            "first_player": "Alice",
            "public": True,
            "turn_seconds": 600,
            "on_timeout": "bot",
        }
    )
    return created["game_id"], created["seats"][0]["token"]


def test_screenshots_of_every_page(site: Site, new_page: Callable[..., Any], shot: Callable[[Any, str], Any]) -> None:
    site.create({"ruleset": "2019", "players": [{"name": "Dora"}, {"open": True}, {"open": True}], "public": True})
    game, token = a_game_in_play(site)
    bots = [{"name": "Alice", "bot": "heuristic"}, {"name": "Bruno", "bot": "heuristic"}]
    ended = site.create({"ruleset": "2019", "players": bots})["game_id"]  # bots alone play it to its end at once
    for lang, locale in (("en", "en-GB"), ("fr", "fr-FR")):
        for size, viewport in SIZES.items():
            page = new_page(locale=locale, viewport=viewport)
            page.goto(f"{site.url}/")
            page.wait_for_selector("#open li[data-game]")
            shot(page, f"lobby-{lang}-{size}")
            page.goto(f"{site.url}/play/{game}#t={token}")
            wait_until(page, "() => document.body.dataset.version && document.getElementById('story').children.length")
            for _ in range(3 if (lang, size) == ("en", "wide") else 0):  # a few moves, so the table has cards
                if page.locator("#moves-panel").is_visible():
                    play_first(page)
            wait_until(page, "() => document.getElementById('connection').textContent !== ''")
            if page.locator("#moves-panel").is_visible() and page.locator("#hand .card.playable").count():
                wait_until(page, ARMED)  # a card pointed at: the table marks whom it may target
                page.locator("#hand .card.playable").first.click()
            shot(page, f"seat-{lang}-{size}")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{lang} {size}: the seat page scrolls sideways by {overflow}px"
            page.goto(f"{site.url}/play/{ended}")  # a finished game, as a spectator: the end panels
            page.locator("#round-end").wait_for(state="visible")
            page.locator("#game-end").wait_for(state="visible")
            shot(page, f"seat-end-{lang}-{size}")
            overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{lang} {size}: the end of a game scrolls sideways by {overflow}px"
