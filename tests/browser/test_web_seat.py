"""The seat page's promises one by one: a refused move shows its rule; a dropped stream resumes without a reload;
a turn played with the keyboard alone; the language of cards, rules and story; axe-core finds nothing serious; and
the guard that fails any request to another host really catches one."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from tests.browser.conftest import ARMED, PHONE, Site, switch_language, wait_until
from tests.servers import COUNTESS_DEAL

# Alice holds the Guard and draws the Priest; Bob holds the Baron.
GUARD_DEAL: dict[str, Any] = {
    **COUNTESS_DEAL,
    "hands": ["guard", "baron"],
    "deck": ["priest", "prince", "spy", "chancellor", "king", "handmaid", "prince", "guard", "priest", "baron",
             "chancellor", "princess", "guard", "countess", "handmaid"],
}  # fmt: skip

# Alice holds the Chancellor and draws the Prince; playing it, she draws the Guard and the Priest.
CHANCELLOR_DEAL: dict[str, Any] = {
    **COUNTESS_DEAL,
    "hands": ["chancellor", "handmaid"],
    "deck": ["prince", "guard", "priest", "baron", "spy", "countess", "king", "handmaid", "prince", "guard",
             "priest", "baron", "chancellor", "princess", "guard"],
}  # fmt: skip


def two_seats(site: Site, deal: dict[str, Any] | None = None, bob_bot: bool = False) -> tuple[str, str, str | None]:
    bob: dict[str, Any] = {"name": "Bob", "bot": "heuristic"} if bob_bot else {"name": "Bob"}
    body: dict[str, Any] = {"ruleset": "2019", "players": [{"name": "Alice"}, bob], "first_player": "Alice"}
    if deal is not None:
        body["scenario"] = {"deals": [deal]}
    created = site.create(body)
    tokens = [s.get("token") for s in created["seats"]]
    return created["game_id"], tokens[0], tokens[1]


def open_seat(page: Any, site: Site, game: str, token: str | None) -> None:
    page.goto(f"{site.url}/play/{game}" + (f"#t={token}" if token else ""))
    wait_until(page, "() => document.body.dataset.version && document.getElementById('story').dataset.version")
    wait_until(page, ARMED)  # the controls take the pointer a moment after they are drawn


DRAWN = """(v) => Number(document.body.dataset.version) === v
  && Number(document.getElementById('story').dataset.version) >= v"""
"""The page drew version `v` and a story at least that new: state and story are fetched apart, and a story fetched a
moment before the move was recorded is told again at the next event."""


def version(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.version)"))


def test_a_refused_move_shows_its_rule_id_and_text(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL)
    page = new_page(locale="fr-FR")
    open_seat(page, site, game, alice)
    page.locator('#hand [data-card="guard"]').click()
    options = page.locator("#guess option").evaluate_all("(os) => os.map((o) => o.value)")
    assert "guard" not in options  # only legal guesses are offered…
    page.locator("#guess option").first.evaluate("(o) => { o.value = 'guard'; }")  # …so force one, as a stale page
    before = version(page)
    page.click("#play")
    alert = page.locator("#problem")
    alert.wait_for(state="visible")
    assert alert.get_attribute("role") == "alert"
    assert alert.locator(".rule-id").inner_text() == "guard.guess"
    text = alert.inner_text()
    assert "Garde" in text and "Règle" in text  # the rule's own French text, from core
    sources = alert.locator(".sources a").evaluate_all("(as) => as.map((a) => [a.textContent, a.getAttribute('href')])")
    assert sources == [
        ["Décisions §5", "/rulings#s5"],
        ["Love Letter (2019), règles françaises", "/rulings#sources"],
        ["Love Letter (2019), règles anglaises", "/rulings#sources"],
    ]  # guard.guess's sources, by hand from core/rules.py, each a link the referee itself serves
    assert alert.locator(".sources").inner_text() == (
        "Sources : Décisions §5 ; Love Letter (2019), règles françaises ; Love Letter (2019), règles anglaises"
    )
    assert version(page) == before
    assert httpx.get(f"{site.url}/games/{game}").json()["version"] == before  # nothing was recorded


def test_a_dropped_stream_resumes_without_a_reload(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL)
    page = new_page()
    open_seat(page, site, game, alice)
    wait_until(page, "() => document.getElementById('connection').textContent === 'Live'")
    page.evaluate("() => { window.notReloaded = true; }")
    site.stop()  # every connection is cut, as by a crash or a lost network
    wait_until(page, "() => document.getElementById('connection').textContent.startsWith('Connection lost')")
    site.start()
    move = {"type": "play", "card": "priest", "target": "Bob"}  # Alice moves from another device meanwhile
    answer = httpx.post(f"{site.url}/games/{game}/moves", json=move, headers={"Authorization": f"Bearer {alice}"})
    assert answer.status_code == 200, answer.text
    new_version = answer.json()["version"]
    wait_until(page, DRAWN, new_version, timeout=20)
    assert page.evaluate("window.notReloaded") is True
    wait_until(page, "() => document.getElementById('connection').textContent === 'Live'")
    assert "Alice plays the Priest on Bob" in page.locator("#story").inner_text()
    assert page.locator('#players li[data-seat="1"] .known [data-card="baron"]').count() == 1  # what she saw


IN_HAND = "() => document.activeElement.matches('#hand button[data-card]')"


def test_one_turn_with_the_keyboard_alone(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL, bob_bot=True)
    page = new_page(viewport=PHONE)
    open_seat(page, site, game, alice)
    page.locator("body").focus()
    for _ in range(60):  # Tab from the top of the page to the move's first control: a card of the hand
        page.keyboard.press("Tab")
        if page.evaluate(IN_HAND):
            break
    else:
        pytest.fail("Tab never reached the move controls")
    assert page.evaluate("document.activeElement.dataset.card") == "guard"
    page.keyboard.press("Tab")  # from the Guard to the Priest
    assert page.evaluate("document.activeElement.dataset.card") == "priest"
    page.keyboard.press("Space")  # the Priest chosen, as its card shows
    assert page.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    page.keyboard.press("Tab")  # the target: Bob, the only one
    assert page.evaluate("document.activeElement.name") == "target"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "play"
    before = version(page)
    page.keyboard.press("Enter")
    wait_until(page, "(v) => Number(document.getElementById('story').dataset.version) > v", before)
    told = page.locator("#story").text_content()  # folded away on a phone: its text, not drawn until opened
    assert "Alice plays the Priest on Bob" in told
    said = wait_until(page, "() => document.getElementById('announce').textContent")  # the aria-live line
    assert "Alice plays the Priest on Bob" in said
    # the bot has answered: Alice's next move is drawn with the focus back on its first control
    wait_until(page, IN_HAND)
    assert page.locator('#hand [aria-pressed="true"]').count() == 0  # nothing chosen for her
    assert page.locator("#moves input:checked").count() == 0
    page.keyboard.press("Space")  # her choice: the first card
    page.keyboard.press("Tab")
    if page.evaluate(IN_HAND):  # past her other card
        page.keyboard.press("Tab")
    if page.evaluate("document.activeElement.name") == "target":
        if not page.evaluate("document.activeElement.checked"):  # several targets (a Prince): none chosen for her
            page.keyboard.press("Space")
        page.keyboard.press("Tab")
    if page.evaluate("document.activeElement.id") == "guess":
        page.keyboard.press("ArrowDown")  # from the empty choice to the first card named
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "play"
    before = version(page)
    page.keyboard.press("Enter")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)


def hand_cards(page: Any) -> list[list[str]]:
    """Each card of the hand as [value, name] (the card also shows its art and its effect)."""
    cards = page.locator("#hand .card").evaluate_all(
        "(cs) => cs.map((c) => [c.querySelector('.value').textContent, c.querySelector('.name').textContent])"
    )
    return list(cards)


def test_french_cards_rules_and_story(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL)
    page = new_page(locale="fr-FR")
    open_seat(page, site, game, alice)
    assert hand_cards(page) == [["1", "Garde"], ["2", "Prêtre"]]
    assert "Manche 1" in page.locator("#story").inner_text()
    switch_language(page, "English")
    wait_until(page, "() => document.documentElement.lang === 'en' && document.body.dataset.version")
    assert page.url.endswith(f"#t={alice}")  # the seat is kept across the switch
    assert hand_cards(page) == [["1", "Guard"], ["2", "Priest"]]


def test_the_chancellor_keeps_one_and_returns_two_in_the_chosen_order(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, CHANCELLOR_DEAL)
    page = new_page()
    open_seat(page, site, game, alice)
    faces = page.locator("#face-up [data-card]").evaluate_all("(cs) => cs.map((c) => c.dataset.card)")
    assert faces == ["guard", "guard", "spy"]  # a two-player game's face-up cards
    page.locator('#hand [data-card="chancellor"]').click()
    assert page.locator("#target-part input").count() == 0  # the Chancellor has no target
    before = version(page)
    page.click("#play")
    drawn = "(v) => Number(document.body.dataset.version) > v && document.querySelector('#bottom-part')"
    wait_until(page, drawn, before)
    wait_until(page, ARMED)
    keeps = page.locator("#hand button.playable").evaluate_all("(bs) => bs.map((b) => b.dataset.card)")
    assert sorted(keeps) == ["guard", "priest", "prince"]
    page.locator('#hand button[data-card="priest"]').click()  # the card kept: pointed at in the hand
    orders = page.locator('#moves input[name="bottom"]').evaluate_all("(is) => is.map((i) => i.value)")
    assert sorted(orders) == ["guard,prince", "prince,guard"]
    page.check('#moves input[name="bottom"][value="prince,guard"]')
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)
    events = httpx.get(f"{site.url}/games/{game}/events", headers={"Authorization": f"Bearer {alice}"}).json()
    returned = [e for e in events["events"] if e["type"] == "chancellor_returned"]
    assert [(e["kept"], e["bottom"]) for e in returned] == [("priest", ["prince", "guard"])]
    assert page.locator("#hand").inner_text().split()[:2] == ["2", "Priest"]


def test_resigning_asks_first_then_leaves_the_game(site: Site, new_page: Callable[..., Any]) -> None:
    game, _, bob = two_seats(site, GUARD_DEAL)
    page = new_page()
    open_seat(page, site, game, bob)
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("#resign")
    assert httpx.get(f"{site.url}/games/{game}").json()["over"] is False  # dismissed: nothing happens
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    wait_until(page, "() => document.body.dataset.over === 'true'")
    assert page.locator('#players li[data-seat="1"] .tag.gone').count() == 1
    assert "Winners: Alice" in page.locator("#status").inner_text()
    assert page.locator("#resign").is_hidden()


def test_axe_finds_nothing_serious(site: Site, new_page: Callable[..., Any]) -> None:
    axe_min_js = Path(pytest.importorskip("axe_playwright_python").__file__).parent / "axe.min.js"
    source = axe_min_js.read_text()
    game, alice, _ = two_seats(site, GUARD_DEAL)
    found: dict[str, list[str]] = {}
    for name, path in (("lobby", "/"), ("seat", f"/play/{game}#t={alice}"), ("spectator", f"/play/{game}")):
        page = new_page()
        page.goto(site.url + path)
        if name != "lobby":
            wait_until(page, "() => document.body.dataset.version")
        else:
            wait_until(page, "() => document.querySelector('#open li')")
        page.evaluate(source)  # axe is given to the page by the test, never served by the app
        run = "async () => { const r = await axe.run(document); return [r.violations, r.passes.length]; }"
        violations, passes = page.evaluate(run)
        assert passes > 10, f"{name}: axe checked next to nothing"
        found[name] = [f"{v['id']} ({v['impact']})" for v in violations if v["impact"] in ("serious", "critical")]
        print(name, "axe: passes", passes, "other findings", [(v["id"], v["impact"]) for v in violations])
    assert found == {"lobby": [], "seat": [], "spectator": []}


def test_the_host_guard_catches_a_request_elsewhere(browser: Any) -> None:
    from tests.browser.conftest import outside_router

    outside, route = outside_router()
    context = browser.new_context()
    context.route("**/*", route)
    page = context.new_page()
    page.set_content('<img src="http://elsewhere.example/pixel.png" alt="">')
    deadline = time.monotonic() + 15
    while not outside and time.monotonic() < deadline:  # the guard sees the request when Playwright hands it over
        page.wait_for_timeout(25)
    context.close()
    assert outside == ["http://elsewhere.example/pixel.png"]
