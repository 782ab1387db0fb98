"""The table as players live it, one test per defect of issue 24: no move played blind by a double-click, no
viewer's copy served to another, the names of players who joined, the invite shown until the seats are full."""

from __future__ import annotations

from typing import Any, Callable

import httpx

from tests.browser.conftest import Site, wait_until
from tests.browser.test_web_seat import GUARD_DEAL, open_seat, two_seats, version


def test_a_spectators_copy_is_never_served_to_a_seat_in_the_same_browser(site: Site, browser: Any) -> None:
    game, _, bob = two_seats(site, GUARD_DEAL)
    context = browser.new_context(locale="en-GB")
    try:
        watcher = context.new_page()
        open_seat(watcher, site, game, None)  # no seat of this game in this browser yet: a spectator's copy
        assert watcher.locator("#hand-panel").is_hidden()
        mine = context.new_page()
        open_seat(mine, site, game, bob)  # Bob's own link, in the same browser: his hand, his seat
        wait_until(mine, "() => document.querySelectorAll('#hand .card').length === 1")
        assert mine.locator('#hand [data-card="baron"]').count() == 1
        assert mine.locator("#status").inner_text().startswith("You play Bob.")
    finally:
        context.close()
