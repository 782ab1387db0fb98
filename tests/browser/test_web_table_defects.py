"""Issue 35's defects of the seat page, one test each, each failing on the page before its fix."""

from __future__ import annotations

from typing import Any, Callable

import httpx

from tests.browser.conftest import Site, wait_held, wait_until
from tests.browser.test_web_seat import GUARD_DEAL, open_seat, two_seats, version


def test_last_move_names_a_move_never_the_rounds_opening(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL)
    page = new_page()
    open_seat(page, site, game, alice)
    assert "Round 1: Alice plays first." in page.locator("#story").inner_text()
    assert page.locator("#last-move").is_hidden()  # nothing was played yet: no line of the story is a move
    page.locator('#hand [data-card="priest"]').click()
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.getElementById('story').dataset.version) > v", before)
    wait_until(page, "() => !document.getElementById('last-move').hidden")
    told = page.locator("#last-move-text").inner_text()
    assert told.startswith("Round 1, turn 1 — Alice plays the Priest on Bob"), told


def test_a_waiting_table_shows_no_deck_no_open_seat_twice_and_no_resign(
    site: Site, new_page: Callable[..., Any]
) -> None:
    created = site.create({"players": [{"name": "Alice"}, {"open": True}]})
    page = new_page()
    open_seat(page, site, created["game_id"], created["seats"][0]["token"])
    assert page.locator("#waiting-panel").is_visible()
    assert page.locator("#table-panel .felt").is_hidden()  # no deck, not even an empty bar, before the deal
    open_row = page.locator('#players > li[data-seat="1"]').inner_text()
    assert open_row.count("open seat") == 1, open_row
    assert page.locator("#seat-tools").is_visible() and page.locator("#resign").is_hidden()


def test_after_the_game_ends_no_row_reads_away(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, bob = two_seats(site, GUARD_DEAL)
    pages = [new_page(), new_page()]
    for page, token in zip(pages, (alice, bob), strict=True):
        open_seat(page, site, game, token)
    page = pages[1]
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    for each in pages:
        wait_until(each, "() => document.body.dataset.over === 'true'")
    each.wait_for_timeout(6_000)  # past the page's presence poll (5 s), after every stream of the game has closed
    for each in pages:
        assert each.locator("#players .tag.absent").count() == 0, each.locator("#players").inner_text()


def test_two_moves_in_one_drawing_outline_the_last_one(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, bob = two_seats(site, GUARD_DEAL)
    page = new_page()
    open_seat(page, site, game, alice)
    held: list[Any] = []
    holding = [True]

    def hold(route: Any) -> None:
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    page.route(f"{site.url}/games/{game}", hold)  # the page's state is held: both moves land in one drawing
    for token, move in (
        (alice, {"type": "play", "card": "priest", "target": 1}),
        (bob, {"type": "play", "card": "prince", "target": 0}),
    ):
        answer = httpx.post(f"{site.url}/games/{game}/moves", json=move, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
    wait_held(page, lambda: bool(held))
    holding[0] = False
    for route in held:
        route.continue_()
    wait_until(page, "() => document.querySelectorAll('#players .front .card').length === 3")
    wait_until(page, "() => document.querySelector('#players .front .card.last')")
    outlined = page.locator("#players .front .card.last")
    assert outlined.count() == 1
    assert outlined.evaluate("(c) => [c.closest('li[data-seat]').dataset.seat, c.dataset.card]") == ["1", "prince"]
