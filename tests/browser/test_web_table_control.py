"""Issue 35, "a table that feels like one": the hand is the control that chooses the card to play (no second list of
the same cards), by keyboard and by pointer; the deck is a pile of card backs with its count on it, the set-aside card
face down beside it; on a phone the story and the seat's tools fold away, on a laptop they stand beside the table. And
two defects: an organiser who gave no name played as "Me"; a player who had just joined showed "away"."""

from __future__ import annotations

from typing import Any, Callable

import httpx
import pytest

from tests.browser.conftest import PHONE, Site, wait_until
from tests.browser.test_ladder_pages import axe, focus_by_tab
from tests.browser.test_web_play import join_from_lobby
from tests.browser.test_web_seat import GUARD_DEAL, open_seat, two_seats, version
from tests.servers import COUNTESS_DEAL

LAPTOP = {"width": 1280, "height": 800}
CHOSEN = '#hand [aria-pressed="true"]'


def countess_game(site: Site) -> tuple[str, str]:
    """Alice holds the Countess and draws a Prince: the Prince cannot be played (the Countess rule)."""
    body = {"ruleset": "2019", "players": [{"name": "Alice"}, {"name": "Bob"}], "scenario": {"deals": [COUNTESS_DEAL]}}
    created = site.create(body)
    return created["game_id"], created["seats"][0]["token"]


def style(page: Any, selector: str, prop: str) -> str:
    return str(page.evaluate("([s, p]) => getComputedStyle(document.querySelector(s))[p]", [selector, prop]))


def test_the_hand_is_the_control_by_keyboard_and_by_pointer(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice = countess_game(site)
    page = new_page()
    open_seat(page, site, game, alice)
    # each card of the hand is a button, and nothing else lists the cards to play
    assert page.locator("#hand button[data-card]").evaluate_all("(bs) => bs.map((b) => b.dataset.card)") == [
        "countess",
        "prince",
    ]
    assert page.locator('input[name="card"], #choose-card, #moves [data-card]').count() == 0
    assert page.locator(CHOSEN).count() == 0  # nothing chosen for her
    prince = page.locator('#hand [data-card="prince"]')
    why = page.evaluate("(id) => document.getElementById(id).textContent", prince.get_attribute("aria-describedby"))
    assert prince.get_attribute("aria-disabled") == "true" and why == "Not playable now: you must play the Countess."
    # the keyboard alone: Tab to a card (a focus ring shows), Enter on the forbidden one says why, Space chooses
    page.locator("body").focus()
    focus_by_tab(page, '#hand [data-card="countess"]')
    assert style(page, '#hand [data-card="countess"]', "outlineStyle") == "solid"
    unchosen = style(page, '#hand [data-card="countess"]', "boxShadow")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.dataset.card") == "prince"
    page.keyboard.press("Enter")
    assert page.locator(CHOSEN).count() == 0
    wait_until(page, "() => document.getElementById('announce').textContent.includes('you must play the Countess')")
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    assert page.locator(CHOSEN).get_attribute("data-card") == "countess"
    assert style(page, CHOSEN, "boxShadow") not in (unchosen, "none")  # chosen shows, apart from the focus
    assert axe(page) == []
    # the pointer: the other way round, the forbidden card chooses nothing, the chosen one stays chosen
    prince.click(force=True)  # greyed (aria-disabled), still pointed at
    assert page.locator(CHOSEN).get_attribute("data-card") == "countess"
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)
    events = httpx.get(f"{site.url}/games/{game}/events", headers={"Authorization": f"Bearer {alice}"}).json()
    assert [e["card"] for e in events["events"] if e["type"] == "card_played"] == ["countess"]


@pytest.mark.parametrize(("locale", "said"), [("en-GB", "Deck: 14 cards"), ("fr-FR", "Pioche\u202f: 14 cartes")])
def test_the_deck_is_a_pile_of_backs_with_its_count_and_the_set_aside_card_beside_it(
    site: Site, new_page: Callable[..., Any], locale: str, said: str
) -> None:
    game, alice = countess_game(site)
    page = new_page(locale=locale)
    open_seat(page, site, game, alice)
    deck_size = httpx.get(f"{site.url}/games/{game}").json()["view"]["deck_size"]
    assert deck_size == 14
    assert page.locator("#deck-size").inner_text() == "14"  # written on the pile
    assert page.locator("#deck-text").text_content() == said  # said to a screen reader
    backs = page.locator("#deck .back")
    assert backs.count() == 4  # a few backs, not one per card
    painted = backs.first.evaluate("(b) => getComputedStyle(b).backgroundImage")
    assert "gradient" in painted and "url(" not in painted  # drawn by the stylesheet, no picture fetched
    assert page.locator("#set-aside .back").is_visible()  # 2019: one card set aside face down
    assert page.locator("#face-up [data-card]").count() == 3  # two players: three more face up
    assert "Cards in the deck" not in page.locator("#felt").inner_text()
    box = page.locator("#deck").bounding_box()
    aside = page.locator("#set-aside").bounding_box()
    assert box is not None and aside is not None and abs(box["y"] - aside["y"]) < box["height"]  # side by side
    assert axe(page) == []


def test_the_story_and_the_seat_tools_fold_away_on_a_phone_and_stand_beside_the_table_on_a_laptop(
    site: Site, new_page: Callable[..., Any]
) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL)
    phone = new_page(viewport=PHONE)
    open_seat(phone, site, game, alice)
    folds = "['story-fold', 'tools-fold'].map((id) => document.getElementById(id).open)"
    assert phone.evaluate(folds) == [False, False]
    assert phone.locator("#story li").first.is_hidden() and phone.locator("#resign").is_hidden()
    phone.locator("#story-fold > summary").click()
    assert "Round 1: Alice plays first." in phone.locator("#story").inner_text()
    phone.locator("#tools-fold > summary").click()
    assert phone.locator("#resign").is_visible() and phone.locator("#seat-link").is_visible()
    laptop = new_page(viewport=LAPTOP)
    open_seat(laptop, site, game, alice)
    table = laptop.locator("#table-panel").bounding_box()
    assert table is not None
    for side in ("#story-panel", "#side-tools"):
        box = laptop.locator(side).bounding_box()
        assert box is not None and box["x"] >= table["x"] + table["width"], side  # a column beside the table
    assert laptop.evaluate(folds) == [True, True] and laptop.locator("#resign").is_visible()


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en-GB", "Enter your name: the other players see it at the table."),
        ("fr-FR", "Entrez votre nom\u202f: les autres joueurs le voient à la table."),
    ],
)
def test_an_organiser_with_no_name_is_asked_for_it_and_no_game_is_made(
    site: Site, new_page: Callable[..., Any], locale: str, said: str
) -> None:
    page = new_page(locale=locale)
    posted: list[str] = []
    page.on("request", lambda r: posted.append(r.url) if r.method == "POST" and r.url.endswith("/games") else None)
    page.goto(f"{site.url}/")
    page.wait_for_selector("#seats select")
    page.click('#create button[type="submit"]')  # seat 1 is "me" by default, the name left empty
    wait_until(page, "() => !document.getElementById('create-error').hidden", timeout=5)
    assert page.locator("#create-error").inner_text() == said
    assert page.evaluate("document.activeElement.id") == "my-name"
    assert page.locator("#my-name").get_attribute("aria-invalid") == "true"
    page.wait_for_timeout(300)
    assert posted == [] and page.locator("#created").is_hidden()  # nothing was made
    page.fill("#my-name", "Nora")
    page.click('#create button[type="submit"]')
    page.wait_for_selector("#created:not([hidden])")
    assert page.locator("#create-error").is_hidden() and len(posted) == 1


def test_an_organiser_with_an_account_and_no_name_plays_under_the_accounts_name(
    site: Site, new_page: Callable[..., Any]
) -> None:
    made = httpx.post(f"{site.url}/accounts", json={"name": "Zélie", "kind": "person"})
    assert made.status_code in (200, 201), made.text
    account = made.json()
    page = new_page()
    page.goto(f"{site.url}/")
    held = {"key": account["key"], "account_id": account["account_id"], "name": account["name"]}
    page.evaluate("(a) => localStorage.setItem('ll.account', JSON.stringify(a))", held)
    page.reload()
    page.wait_for_selector("#seats select")
    page.click('#create button[type="submit"]')
    page.wait_for_selector("#created:not([hidden])")
    page.click("#created-go")
    wait_until(page, "() => document.body.dataset.version")
    game = page.url.split("/play/")[1].split("#")[0]
    assert httpx.get(f"{site.url}/games/{game}").json()["players"][0] == "Zélie"  # the referee's word: not "Me"
    assert page.locator("#status").inner_text().startswith("You play Zélie.")


SAMPLE = """() => {  // every 100 ms, in the page: is Bob's row taken, and does it read "away"?
  window.samples = [];
  window.setInterval(() => {
    const li = document.querySelector('#players > li[data-seat="1"]');
    const joined = !!li && li.querySelector('.name').textContent === 'Bob';
    window.samples.push({ joined, away: joined && !!li.querySelector('.tag.absent'), at: performance.now() });
  }, 100);
}"""


def test_a_player_who_just_joined_is_never_shown_away(site: Site, new_page: Callable[..., Any]) -> None:
    created = site.create({"players": [{"name": "Alice"}, {"open": True}], "public": True, "first_player": "Alice"})
    game, alice_token = created["game_id"], created["seats"][0]["token"]
    alice, bob = new_page(), new_page()  # two browsers
    open_seat(alice, site, game, alice_token)
    alice.evaluate(SAMPLE)
    join_from_lobby(bob, site, game, "Bob")
    first = wait_until(alice, "() => window.samples.find((s) => s.joined)")
    wait_until(alice, "(t) => performance.now() > t + 5000", first["at"])
    samples = [s for s in alice.evaluate("window.samples") if s["joined"] and s["at"] <= first["at"] + 5000]
    assert len(samples) >= 30  # the 5 s after she saw him join, every 100 ms
    assert [s for s in samples if s["away"]] == [], "Bob, who had just joined, was shown away"
    alice.wait_for_timeout(4_000)  # past the grace after the join: the referee's word alone, and he is there
    assert alice.locator('#players > li[data-seat="1"] .tag.present').count() == 1
