"""Issue 35's "a table that feels like one" in a busy moment, not only at a game's start: a clock running, a few
cards played, a seat protected and one out, two cards of the deck known, and a Guard chosen in the hand with its
target and its grid of card names open. At a laptop's 1280×800 and a phone's 390×844, in English and in French, the
hand, every opponent, the deck, the grid and Play lie inside the viewport together, the page scrolled to its top.
And the Chancellor's second decision played with the hand as its control, by pointing and by the keyboard alone."""

from __future__ import annotations

from typing import Any, Callable

import httpx
import pytest

from tests.browser.conftest import ARMED, Site, wait_until
from tests.browser.test_web_cards import axe_serious
from tests.browser.test_web_layout import BOXES
from tests.browser.test_web_seat import CHANCELLOR_DEAL, open_seat, two_seats, version

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
NAMES = ["Alice", "Bruno", "Chloé", "Driss", "Emma", "Farid"]

# Alice plays the Chancellor (draws a Guard, then a Spy and a Handmaid: keeps the Guard, returns the other two, so
# she knows the deck's last two cards), Bruno his Handmaid (protected), Chloé her Priest on Alice; with four or six,
# Driss's Baron puts Chloé out; with six, Emma's Guard misses Farid, who must play the Countess. Alice then draws a
# second Guard. The rest of the 2019 deck (21 cards) follows in any order.
DECK = ["spy"] * 2 + ["guard"] * 6 + ["priest", "baron", "handmaid", "prince", "chancellor"] * 2
DECK += ["king", "countess", "princess"]
HEADS: dict[int, tuple[list[str], list[str]]] = {  # the hands, the deck's first cards
    3: (["chancellor", "handmaid", "priest"], ["guard", "spy", "handmaid", "priest", "spy", "guard"]),
    4: (
        ["chancellor", "handmaid", "priest", "baron"],
        ["guard", "spy", "handmaid", "priest", "spy", "prince", "guard"],
    ),
    6: (
        ["chancellor", "handmaid", "priest", "baron", "king", "prince"],
        ["guard", "spy", "handmaid", "priest", "spy", "prince", "guard", "countess", "guard"],
    ),
}


def deal(players: int) -> dict[str, Any]:
    hands, head = HEADS[players]
    rest = list(DECK)
    for card in [*hands, *head, "guard"]:
        rest.remove(card)
    return {"set_aside": "guard", "face_up": [], "hands": hands, "deck": head + rest, "first_player": "Alice"}


MOVES: dict[int, list[tuple[int, dict[str, Any]]]] = {
    3: [
        (0, {"type": "play", "card": "chancellor"}),
        (0, {"type": "return", "keep": "guard", "bottom": ["spy", "handmaid"]}),
        (1, {"type": "play", "card": "handmaid"}),
        (2, {"type": "play", "card": "priest", "target": 0}),
    ],
}
MOVES[4] = [*MOVES[3], (3, {"type": "play", "card": "baron", "target": 2})]
MOVES[6] = [
    *MOVES[4],
    (4, {"type": "play", "card": "guard", "target": 5, "guess": "baron"}),
    (5, {"type": "play", "card": "countess"}),
]


def busy(site: Site, players: int) -> tuple[str, str]:
    """A 2019 game of `players` with a clock, played up to Alice's second turn (the moves above): the game and
    Alice's token."""
    created = site.create(
        {
            "ruleset": "2019",
            "players": [{"name": n} for n in NAMES[:players]],
            "first_player": "Alice",
            "turn_seconds": 600,
            "on_timeout": "bot",
            "scenario": {"deals": [deal(players)]},
        }
    )
    game, tokens = created["game_id"], [s["token"] for s in created["seats"]]
    for seat, move in MOVES[players]:
        answer = httpx.post(
            f"{site.url}/games/{game}/moves", json=move, headers={"Authorization": f"Bearer {tokens[seat]}"}
        )
        assert answer.status_code == 200, (seat, move, answer.text)
    return game, tokens[0]


def outside(boxes: dict[str, Any]) -> list[Any]:
    named = [(k, boxes[k]) for k in ("hand", "deck", "target", "grid", "controls", "clock")]
    named += [(f"opponent {i + 1}", b) for i, b in enumerate(boxes["opponents"])]
    return [
        (name, [round(x) for x in b] if b else b)
        for name, b in named
        if b is None or b[0] < 0 or b[1] < 0 or b[2] > boxes["width"] or b[3] > boxes["height"]
    ]


def choose_the_guard(page: Any) -> None:
    wait_until(page, ARMED)
    page.locator('#hand button[data-card="guard"]').first.click()
    if not page.locator('#moves input[name="target"]:checked').count():  # more than one allowed: point at one
        page.locator("#players li.can-target").first.click()
    page.locator("#guess-part .guess-grid").wait_for(state="visible")
    page.evaluate("window.scrollTo(0, 0)")


CASES = [(LAPTOP, lang, n) for lang in ("en-GB", "fr-FR") for n in (3, 6)]
CASES += [(PHONE, lang, n) for lang in ("en-GB", "fr-FR") for n in (3, 4, 6)]


@pytest.mark.parametrize(
    ("size", "locale", "players"), CASES, ids=[f"{s['width']}x{s['height']}-{lang}-{n}" for s, lang, n in CASES]
)
def test_a_busy_turn_fits_on_one_screen(
    site: Site, new_page: Callable[..., Any], size: dict[str, int], locale: str, players: int
) -> None:
    game, alice = busy(site, players)
    page = new_page(locale=locale, viewport=size)
    open_seat(page, site, game, alice)
    assert page.locator("#clock").is_visible()
    assert page.locator("#deck-known [data-card]").count() == 2
    choose_the_guard(page)
    boxes = page.evaluate(BOXES)
    assert len(boxes["opponents"]) == players - 1
    assert boxes["scrolled"] == 0
    out = outside(boxes)
    assert out == [], f"{players} players at {size} in {locale}: outside the viewport {out}"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_a_busy_turn_on_a_phone_says_everything_to_a_screen_reader(
    site: Site, new_page: Callable[..., Any], locale: str
) -> None:
    """The short marks drawn on a phone keep their words: a seat that cannot be chosen says why, the one that can
    says so, and axe-core finds nothing serious."""
    game, alice = busy(site, 4)
    page = new_page(locale=locale, viewport=PHONE)
    open_seat(page, site, game, alice)
    choose_the_guard(page)
    english = locale == "en-GB"
    aims = page.locator("#players .tag.aim").evaluate_all(
        "(ts) => ts.map((t) => [t.closest('li').dataset.seat, t.textContent, t.title])"
    )
    protected = "cannot be chosen: protected" if english else "ne peut pas être ciblé\u202f: protégé"
    assert ["1", protected, protected] in aims
    can = "can be chosen" if english else "peut être ciblé"
    assert ["3", can, can] in aims
    assert axe_serious(page) == []


# -- the Chancellor's second decision: the hand is the control for the card kept --------------------------------


def returned(site: Site, game: str, token: str) -> list[tuple[str, list[str]]]:
    events = httpx.get(f"{site.url}/games/{game}/events", headers={"Authorization": f"Bearer {token}"}).json()
    return [(e["kept"], e["bottom"]) for e in events["events"] if e["type"] == "chancellor_returned"]


def pressed(page: Any) -> list[str]:
    return list(page.locator('#hand button[aria-pressed="true"]').evaluate_all("(bs) => bs.map((b) => b.dataset.card)"))


KEEP_STEP = "(v) => Number(document.body.dataset.version) > v && document.querySelector('#bottom-part')"


def test_the_chancellors_card_kept_is_pointed_at_in_the_hand(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, CHANCELLOR_DEAL)
    page = new_page()
    open_seat(page, site, game, alice)
    page.locator('#hand button[data-card="chancellor"]').click()
    before = version(page)
    page.click("#play")
    wait_until(page, KEEP_STEP, before)
    wait_until(page, ARMED)
    cards = page.locator("#hand button[data-card]")
    assert sorted(cards.evaluate_all("(bs) => bs.map((b) => b.dataset.card)")) == ["guard", "priest", "prince"]
    assert cards.evaluate_all("(bs) => bs.map((b) => b.getAttribute('aria-pressed'))") == ["false"] * 3
    assert page.locator('#moves input[name="keep"]').count() == 0  # no second list of the same cards
    assert page.locator('#moves input[name="bottom"]').count() == 0  # the order follows the card kept
    page.click("#play")  # nothing chosen yet: nothing is sent
    assert returned(site, game, alice) == []
    page.locator('#hand button[data-card="guard"]').click()
    assert pressed(page) == ["guard"]
    orders = page.locator('#moves input[name="bottom"]').evaluate_all("(is) => is.map((i) => i.value)")
    assert sorted(orders) == ["priest,prince", "prince,priest"]
    page.locator('#hand button[data-card="priest"]').click()  # changed her mind: the orders follow
    assert pressed(page) == ["priest"]
    orders = page.locator('#moves input[name="bottom"]').evaluate_all("(is) => is.map((i) => i.value)")
    assert sorted(orders) == ["guard,prince", "prince,guard"]
    page.check('#moves input[name="bottom"][value="prince,guard"]')
    assert axe_serious(page) == []
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)
    assert returned(site, game, alice) == [("priest", ["prince", "guard"])]
    view = httpx.get(f"{site.url}/games/{game}", headers={"Authorization": f"Bearer {alice}"}).json()["view"]
    assert view["hand"] == ["priest"]
    assert [k["card"] for k in sorted(view["deck_known"], key=lambda k: k["from_top"])] == ["prince", "guard"]


def tab_to(page: Any, selector: str, presses: int = 40) -> None:
    for _ in range(presses):
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    if page.evaluate("(s) => document.activeElement.matches(s)", selector):
        return
    pytest.fail(f"Tab never reached {selector}")


def test_the_chancellors_card_kept_and_order_with_the_keyboard_alone(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, CHANCELLOR_DEAL)
    page = new_page(locale="fr-FR", viewport=PHONE)
    open_seat(page, site, game, alice)
    page.locator("body").focus()
    tab_to(page, '#hand button[data-card="chancellor"]')
    page.keyboard.press("Space")
    tab_to(page, "#play", 5)
    before = version(page)
    page.keyboard.press("Enter")
    wait_until(page, KEEP_STEP, before)
    wait_until(page, "() => document.activeElement.matches('#hand button[data-card]')")  # back to the hand
    assert "garder" in page.locator("#hand-hint").inner_text()  # what the hand's buttons do now, said
    tab_to(page, '#hand button[data-card="prince"]', 3)
    page.keyboard.press("Enter")
    assert pressed(page) == ["prince"]
    assert page.evaluate("document.activeElement.dataset.card") == "prince"  # the focus stays on the card
    first = page.locator("#order li").evaluate_all("(ls) => ls.map((l) => l.dataset.order)")
    assert sorted(first) == ["guard", "priest"]
    tab_to(page, "#order li", 6)
    page.keyboard.press("ArrowDown")  # the first card moved down: the other goes under the deck first
    chosen = first[::-1]
    assert page.locator('#moves input[name="bottom"]:checked').get_attribute("value") == ",".join(chosen)
    tab_to(page, "#play", 6)
    before = version(page)
    page.keyboard.press("Enter")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)
    assert returned(site, game, alice) == [("prince", chosen)]
