"""Two people in two browsers (their own storage, their own language) meet in the lobby and play a whole game
against the server's bot, clicking the controls the seat page offers; at every state each page shows exactly what
its seat may know, checked against the published log folded by `core`."""

from __future__ import annotations

import time
from typing import Any, Callable

from tests.browser.conftest import PHONE, Site, wait_until
from tests.browser.knowledge import check, published_events, snapshot


def create_from_lobby(page: Any, site: Site, name: str, kinds: list[str], ruleset: str = "2019") -> str:
    """Fill the lobby's form (one kind per seat: me, open, heuristic, random, none) and open the seat page."""
    page.goto(f"{site.url}/")
    page.select_option("#ruleset", ruleset)
    page.fill("#my-name", name)
    for i, kind in enumerate(kinds):
        page.select_option(f"#seat-{i}", kind)
    page.click('#create button[type="submit"]')
    page.wait_for_selector("#created:not([hidden])")
    page.click("#created-go")
    page.wait_for_selector("body[data-version]")
    return str(page.url.split("/play/")[1].split("#")[0])


def join_from_lobby(page: Any, site: Site, game: str, name: str) -> None:
    page.goto(f"{site.url}/")
    row = page.locator(f'#open li[data-game="{game}"]')
    row.locator("input").fill(name)
    row.locator('button[type="submit"]').click()
    page.wait_for_url(f"**/play/{game}#t=*")
    page.wait_for_selector("body[data-version]")


def version(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.version || 0)"))


def over(page: Any) -> bool:
    return bool(page.evaluate("document.body.dataset.over === 'true'"))


def play_default(page: Any) -> None:
    """Play whatever the controls hold by default (the first legal choice of each), and wait for the answer."""
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)


def test_two_browsers_play_a_whole_game_against_a_bot_and_see_only_what_they_may(
    site: Site, new_page: Callable[..., Any]
) -> None:
    ann = new_page(locale="en-GB")
    game = create_from_lobby(ann, site, "Ann", ["me", "open", "heuristic", "none"], "2019-classic")
    bob = new_page(locale="fr-FR", viewport=PHONE)
    join_from_lobby(bob, site, game, "Bob")
    pages = [(ann, 0, "en"), (bob, 1, "fr")]
    shots: list[tuple[int, str, dict[str, Any]]] = []
    deadline = time.monotonic() + 90
    moves = 0
    while not (over(ann) and over(bob)):
        assert time.monotonic() < deadline, f"the game did not end ({moves} moves)"
        for page, _, _ in pages:
            if not over(page) and page.locator("#moves-panel").is_visible():
                play_default(page)
                moves += 1
            shots.extend((s, lg, snapshot(p)) for p, s, lg in pages)
        if not any(p.locator("#moves-panel").is_visible() for p, _, _ in pages):
            ann.wait_for_timeout(50)  # the other page is catching up with the stream
    assert moves >= 6
    assert "Winners" in ann.locator("#status").inner_text()
    assert "Gagnants" in bob.locator("#status").inner_text()
    events = published_events(site.url, game)
    for page, seat, lang in pages:  # the final state too, after both pages settled
        wait_until(page, "(n) => Number(document.getElementById('story').dataset.version) === n", len(events))
        shots.append((seat, lang, snapshot(page)))
    for seat, lang, shown in shots:
        check(shown, events, seat, lang)
    print(f"{moves} moves, {len(events)} events, {len(shots)} snapshots checked")
    assert len({(seat, shown["version"]) for seat, _, shown in shots}) >= moves
