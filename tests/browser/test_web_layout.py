"""Issue 35's "a table that feels like one": at a laptop's 1280×800 and a phone's 390×844, the hand, every opponent,
the deck and the move's controls lie inside the viewport without scrolling, for two to six players."""

from __future__ import annotations

from typing import Any, Callable

import pytest

from tests.browser.conftest import Site
from tests.browser.test_web_seat import open_seat

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NAMES = ["Alice", "Bob", "Chloé", "Driss", "Emma", "Farid"]

BOXES = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const one = (sel) => { const e = document.querySelector(sel); return e && !e.closest('[hidden]') ? box(e) : null; };
  return {
    hand: one('#hand'),
    deck: one('#deck'),
    controls: one('#play'),
    target: one('#choose-target'),
    grid: one('#guess-part .guess-grid'),
    clock: one('#clock'),
    opponents: [...document.querySelectorAll('#players > li:not(.me)')].map(box),
    width: window.innerWidth, height: window.innerHeight, scrolled: window.scrollY,
  };
}"""


def seated(site: Site, players: int) -> tuple[str, str]:
    """A 2019 game of `players`: Alice (this browser) plays first, the others are heuristic bots."""
    seats: list[dict[str, Any]] = [{"name": "Alice"}]
    seats += [{"name": n, "bot": "heuristic"} for n in NAMES[1:players]]
    created = site.create({"ruleset": "2019", "players": seats, "first_player": "Alice"})
    return created["game_id"], created["seats"][0]["token"]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
def test_the_hand_every_opponent_the_deck_and_the_controls_fit_on_one_screen(
    site: Site, new_page: Callable[..., Any], size: dict[str, int]
) -> None:
    page = new_page(viewport=size)
    for players in range(2, 7):
        game, alice = seated(site, players)
        open_seat(page, site, game, alice)
        boxes = page.evaluate(BOXES)
        assert len(boxes["opponents"]) == players - 1
        named = [("hand", boxes["hand"]), ("deck", boxes["deck"]), ("controls", boxes["controls"])]
        named += [(f"opponent {i + 1}", b) for i, b in enumerate(boxes["opponents"])]
        outside = []
        for name, b in named:
            inside = b is not None and b[0] >= 0 and b[1] >= 0 and b[2] <= boxes["width"] and b[3] <= boxes["height"]
            if not inside:
                outside.append((name, b))
        assert outside == [], f"{players} players at {size}: outside the viewport {outside}"
