"""Cards as cards and play by pointing (issue 24): each card drawn with the project's own art, its value, name and
effect in the page's language; a card the Countess rule forbids greyed with the reason; a move chosen by pointing at
the hand, then at a player at the table (the targets the rules allow marked, the others with the reason), then at a
card of the Guard's grid; the Chancellor's returned cards ordered by dragging and by keys. Expected values are
hand-checked from the deals below (and the effects' texts from the catalogue's wording, by hand)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from tests.browser.conftest import ARMED, Site, wait_until
from tests.browser.test_web_seat import CHANCELLOR_DEAL, open_seat, version
from tests.servers import COUNTESS_DEAL

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
AXE = "async () => { const r = await axe.run(document); return r.violations.map((v) => [v.id, v.impact]); }"


def axe_serious(page: Any) -> list[Any]:
    """axe-core's serious and critical findings on the page as it is (axe given by the test, never by the app)."""
    source = Path(pytest.importorskip("axe_playwright_python").__file__).parent / "axe.min.js"
    page.evaluate(source.read_text())
    return [v for v in page.evaluate(AXE) if v[1] in ("serious", "critical")]


def create(site: Site, names: list[str], deal: dict[str, Any], ruleset: str = "2019") -> tuple[str, list[str]]:
    body = {"ruleset": ruleset, "players": [{"name": n} for n in names], "scenario": {"deals": [deal]}}
    created = site.create(body)
    return created["game_id"], [s["token"] for s in created["seats"]]


def api_play(site: Site, game: str, token: str, card: str, **want: Any) -> None:
    """Play the first legal move of `card` (matching `want`) through the API, as another device would."""
    auth = {"Authorization": f"Bearer {token}"}
    legal = httpx.get(f"{site.url}/games/{game}", headers=auth).json()["legal_moves"]
    move = next(m for m in legal if m.get("card") == card and all(m.get(k) == v for k, v in want.items()))
    move = {k: v for k, v in move.items() if k in ("type", "card", "target", "guess")}  # not its action code
    answer = httpx.post(f"{site.url}/games/{game}/moves", json=move, headers=auth)
    assert answer.status_code == 200, answer.text


def texts(page: Any, selector: str) -> list[str]:
    return list(page.locator(selector).all_inner_texts())


def test_the_hand_is_cards_with_art_value_name_and_effect_and_the_countess_rule_greys_one(
    site: Site, new_page: Callable[..., Any]
) -> None:
    game, (alice, _) = create(site, ["Alice", "Bob"], COUNTESS_DEAL)  # Alice holds the Countess, draws a Prince
    page = new_page(locale="fr-FR")
    open_seat(page, site, game, alice)
    assert texts(page, "#hand .card .value") == ["8", "5"]
    assert texts(page, "#hand .card .name") == ["Comtesse", "Prince"]
    # the drawing comes first, the pictures as the browser fetches them: read them once each has finished loading
    # (or failed), never while one is still on its way (seen once in a fresh clone's run under load)
    wait_until(page, "[...document.querySelectorAll('#hand .card img.art')].every((i) => i.complete)")
    arts = page.locator("#hand .card img.art").evaluate_all(
        "(is) => is.map((i) => [i.getAttribute('src'), i.naturalWidth > 0])"
    )
    assert arts == [["/static/cards/court/countess.svg", True], ["/static/cards/court/prince.svg", True]]
    assert texts(page, '#hand [data-card="countess"] .effect') == [
        "Vous devez jouer cette carte si votre autre carte est le Roi ou le Prince."
    ]
    prince = page.locator('#hand [data-card="prince"]')
    assert "unplayable" in (prince.get_attribute("class") or "") and prince.get_attribute("aria-disabled") == "true"
    assert prince.locator(".reason").inner_text() == "Injouable pour l'instant : vous devez jouer la Comtesse."
    assert page.locator('#hand [data-card="countess"] .reason').count() == 0
    prince.click(force=True)  # pointing at the forbidden card (greyed, aria-disabled) chooses nothing
    assert page.locator('#hand [aria-pressed="true"]').count() == 0
    page.locator('#hand [data-card="countess"]').click()
    assert page.locator('#hand [aria-pressed="true"]').get_attribute("data-card") == "countess"
    assert "chosen" in (page.locator('#hand [data-card="countess"]').get_attribute("class") or "")
    assert axe_serious(page) == []


def test_princess_princess_has_its_own_art_and_names(site: Site, new_page: Callable[..., Any]) -> None:
    game, (alice, _) = create(site, ["Alice", "Bob"], COUNTESS_DEAL, "princess-princess")
    page = new_page()
    open_seat(page, site, game, alice)
    assert texts(page, "#hand .card .name") == ["Celeste the Unicorn", "Prince Vladric"]
    srcs = page.locator("#hand .card img.art").evaluate_all("(is) => is.map((i) => i.getAttribute('src'))")
    assert srcs == ["/static/cards/pp/countess.svg", "/static/cards/pp/prince.svg"]
    assert texts(page, '#hand [data-card="countess"] .effect') == [
        "You must play this card if your other card is the Ghost King or Prince Vladric."
    ]
    assert texts(page, '#hand [data-card="prince"] .reason') == ["Not playable now: you must play Celeste the Unicorn."]


ALL = ["spy", "guard", "priest", "baron", "handmaid", "prince", "chancellor", "king", "countess", "princess"]
EIGHT = [c for c in ALL if c not in ("spy", "chancellor")]  # 2019-classic and 2012 have neither


def test_every_card_of_every_ruleset_has_its_art_served_by_the_referee(site: Site) -> None:
    for ruleset, cards, folder in (("2019", ALL, "court"), ("2019-classic", EIGHT, "court"), ("2012", EIGHT, "court"),
                                   ("princess-princess", ALL, "pp")):  # fmt: skip
        for card in cards:
            answer = httpx.get(f"{site.url}/static/cards/{folder}/{card}.svg")
            assert answer.status_code == 200, (ruleset, card)
            assert answer.headers["content-type"].startswith("image/svg+xml"), (ruleset, card)
            svg = answer.text
            assert svg.startswith("<svg") and "href" not in svg and svg.count("http") == 1  # its namespace only
    for folder in ("court", "pp"):
        arts = sorted(p.stem for p in (STATIC / "cards" / folder).iterdir())
        assert arts == sorted(ALL)
        assert len({(STATIC / "cards" / folder / f"{a}.svg").read_bytes() for a in arts}) == 10  # ten drawings


def test_every_cards_effect_is_french_in_french() -> None:
    from loveletter.web.card_texts import EFFECTS
    from tests.french import not_french

    assert set(EFFECTS) == set(ALL) | {"chancellor.pp"}
    assert {card: not_french(text.fr, set()) for card, text in EFFECTS.items() if not_french(text.fr, set())} == {}


# Four seats; Bob plays first (a Handmaid: protected), Cleo's Guard puts Dan out, then Alice holds a Guard and
# draws a Priest.
FOUR_DEAL: dict[str, Any] = {
    "set_aside": "guard",
    "face_up": [],
    "hands": ["guard", "handmaid", "guard", "baron"],
    "deck": ["priest", "spy", "priest", "guard", "guard", "guard", "spy", "baron", "handmaid", "prince", "prince",
             "chancellor", "chancellor", "king", "countess", "princess"],
    "first_player": "Bob",
}  # fmt: skip


def tag_of(page: Any, seat: int) -> str:
    return str(page.locator(f'#players li[data-seat="{seat}"] .tag.aim').inner_text())


def test_a_guard_played_by_pointing_at_the_hand_the_table_and_the_grid(
    site: Site, new_page: Callable[..., Any]
) -> None:
    game, (alice, bob, cleo, _) = create(site, ["Alice", "Bob", "Cleo", "Dan"], FOUR_DEAL)
    api_play(site, game, bob, "handmaid")
    api_play(site, game, cleo, "guard", target=3, guess="baron")  # Dan is out
    page = new_page()
    open_seat(page, site, game, alice)
    assert page.locator("#players .tag.aim").count() == 0  # nothing chosen yet, nobody marked
    page.locator('#hand [data-card="guard"]').click()
    assert page.locator('#hand [aria-pressed="true"]').get_attribute("data-card") == "guard"
    assert tag_of(page, 2) == "can be chosen"
    assert tag_of(page, 1) == "cannot be chosen: protected"
    assert tag_of(page, 3) == "cannot be chosen: out of the round"
    assert tag_of(page, 0) == "cannot be chosen: not yourself with this card"
    assert page.locator("#players li.can-target").evaluate_all("(ls) => ls.map((l) => l.dataset.seat)") == ["2"]
    page.locator('#players li[data-seat="1"]').click()  # a protected player: nothing happens
    assert page.locator('#moves input[name="target"]:checked').count() == 1  # Cleo, the only one allowed
    page.locator('#players li[data-seat="2"]').click()
    assert page.locator('#moves input[name="target"]:checked').get_attribute("value") == "2"
    grid = page.locator("#guess-part .guess-grid button")
    named = grid.evaluate_all("(bs) => bs.map((b) => b.dataset.guess)")
    assert named == ["spy", "priest", "baron", "handmaid", "prince", "chancellor", "king", "countess", "princess"]
    assert grid.evaluate_all("(bs) => bs.map((b) => b.tabIndex)") == [-1] * 9  # the list is the keyboard's path
    page.locator('#guess-part button[data-guess="king"]').click()
    assert page.locator("#guess").input_value() == "king"
    assert page.locator('button[data-guess="king"]').get_attribute("aria-pressed") == "true"
    assert axe_serious(page) == []
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)
    events = httpx.get(f"{site.url}/games/{game}/events", headers={"Authorization": f"Bearer {alice}"}).json()
    mine = [e for e in events["events"] if e["type"] == "card_played" and e["player"] == 0]
    assert [(e["card"], e["target"], e["guess"]) for e in mine] == [("guard", 2, "king")]


def order_of(page: Any) -> list[str]:
    return list(page.locator("#order li").evaluate_all("(ls) => ls.map((l) => l.dataset.order)"))


def test_the_chancellors_cards_are_ordered_by_dragging_and_by_keys(site: Site, new_page: Callable[..., Any]) -> None:
    game, (alice, _) = create(site, ["Alice", "Bob"], CHANCELLOR_DEAL)
    page = new_page()
    open_seat(page, site, game, alice)
    page.locator('#hand [data-card="chancellor"]').click()
    before = version(page)
    page.click("#play")
    wait_until(
        page, "(v) => Number(document.body.dataset.version) > v && document.querySelector('#bottom-part')", before
    )
    wait_until(page, ARMED)
    page.locator('#hand [data-card="priest"]').click()  # the card kept, pointed at in the hand
    assert page.locator('#hand button[aria-pressed="true"]').get_attribute("data-card") == "priest"
    first = order_of(page)
    assert sorted(first) == ["guard", "prince"]
    assert page.locator('#moves input[name="bottom"]:checked').count() == 0  # no order chosen for her
    page.drag_and_drop("#order li:nth-child(2)", "#order li:nth-child(1)")
    assert order_of(page) == first[::-1]
    assert page.locator('#moves input[name="bottom"]:checked').get_attribute("value") == ",".join(first[::-1])
    page.locator("#order li").first.focus()
    page.keyboard.press("ArrowDown")  # back again, by keys
    assert order_of(page) == first
    assert page.evaluate("document.activeElement.dataset.order") == first[1]  # the focus follows the card moved
    assert page.locator('#moves input[name="bottom"]:checked').get_attribute("value") == ",".join(first)
    assert axe_serious(page) == []
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)
    events = httpx.get(f"{site.url}/games/{game}/events", headers={"Authorization": f"Bearer {alice}"}).json()
    returned = [(e["kept"], e["bottom"]) for e in events["events"] if e["type"] == "chancellor_returned"]
    assert returned == [("priest", first)]
