"""The table as players live it (issue 24), in two and three browsers at once: whose turn it is (highlight, title,
the optional sound and notification), the last move marked and animated unless motion is reduced, visible on a
phone without scrolling; the end of a round (who won and why, the hands, the tie-break) and of the game (winners,
favors, rematch, replay and log); the clock as m:ss with the deadline in local time; the waiting table; the seat's
link kept like a password; and the seat page's weight. Expected values are hand-checked from the deals."""

from __future__ import annotations

import gzip
import re
from datetime import datetime
from pathlib import Path
from typing import Any, Callable
from zoneinfo import ZoneInfo

import httpx

from tests.browser.conftest import PHONE, Site, outside_router, wait_until
from tests.browser.test_web_cards import STATIC, api_play, axe_serious, create
from tests.browser.test_web_seat import GUARD_DEAL, open_seat, two_seats, version

STUBS = """(() => {  // a browser that records the turn's sound and notification instead of making them
  window.beeps = 0;
  window.notes = [];
  const node = { connect: (next) => next, start() {}, stop() {}, frequency: {},
    gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } };
  window.AudioContext = class { constructor() { window.beeps += 1; this.currentTime = 0; this.destination = {}; }
    createOscillator() { return { ...node }; } createGain() { return { ...node }; } close() {} };
  window.Notification = class { constructor(title, options) { window.notes.push([title, options.body]); } };
  window.Notification.permission = "granted";
  window.Notification.requestPermission = async () => "granted";
})();"""

FRESH = """() => {  // every played card drawn as "just played" (animated), as it happens
  window.fresh = [];
  new MutationObserver(() => {
    for (const c of document.querySelectorAll('#players .front .card.fresh')) window.fresh.push(c.dataset.card);
  }).observe(document.getElementById('players'), { childList: true, subtree: true });
}"""

ANIMATION = """() => {
  const card = document.querySelector('#players .front .card.last');
  card.classList.add('fresh');
  return getComputedStyle(card).animationName;
}"""


def point_and_play(page: Any, card: str, guess: str | None = None) -> None:
    """Play `card` by pointing: the hand, the one target there is, the grid; then Play."""
    page.locator(f'#hand [data-card="{card}"]').click()
    if guess:
        page.locator(f'#guess-part button[data-guess="{guess}"]').click()
    before = version(page)
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)


def test_whose_turn_and_the_last_move_in_three_browsers(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice_token, bob_token = two_seats(site, GUARD_DEAL)
    alice = new_page()
    bob = new_page()
    bob.add_init_script(STUBS)
    watcher = new_page(viewport=PHONE)
    watcher.emulate_media(reduced_motion="reduce")
    for page, token in ((alice, alice_token), (bob, bob_token), (watcher, None)):
        open_seat(page, site, game, token)
        page.evaluate(FRESH)
    watcher.locator("#story-fold > summary").click()  # on a phone the story is folded away until opened
    watcher.evaluate("window.scrollTo(0, 0)")
    assert alice.title().startswith("▶ Your turn — ") and not bob.title().startswith("▶")
    assert bob.locator("#alert-sound").is_checked() is False and bob.locator("#alert-notify").is_checked() is False
    assert watcher.locator("#alerts").is_hidden()  # a spectator has no turn
    bob.check("#alert-sound")
    bob.check("#alert-notify")
    point_and_play(alice, "priest")
    wait_until(bob, "() => document.body.dataset.yourTurn === 'true'")
    assert bob.title().startswith("▶ Your turn — ")
    assert bob.evaluate("[document.body.dataset.alerted, window.beeps, window.notes]") == [
        "1",
        1,
        [["It is your turn.", "Alice · Bob"]],
    ]
    wait_until(alice, "() => document.body.dataset.yourTurn === 'false'")
    assert not alice.title().startswith("▶")
    for page in (alice, bob, watcher):
        wait_until(page, "() => document.querySelector('#players li[data-seat=\"1\"].turn')")
        assert page.locator("#players li.turn").count() == 1
        last = page.locator("#players .front .card.last")
        assert last.count() == 1 and last.get_attribute("data-card") == "priest"
        assert page.locator('#players li[data-seat="0"] .front .card.last').count() == 1
        assert page.evaluate("window.fresh").count("priest") >= 1  # drawn as just played
        said = [line for line in page.locator("#story li").all_inner_texts() if not line.startswith("(")]
        assert page.locator("#last-move-text").inner_text() == said[-1]  # a seat's own bracketed lines are not moves
    assert "Alice plays the Priest on Bob" in watcher.locator("#story").inner_text()
    assert bob.evaluate(ANIMATION) == "played"
    assert watcher.evaluate(ANIMATION) == "none"  # prefers-reduced-motion: no animation
    box = watcher.locator("#last-move").bounding_box()
    assert watcher.evaluate("window.scrollY") == 0 and box["y"] + box["height"] <= PHONE["height"]
    assert bob.locator('#players li[data-seat="1"] .tag.active').inner_text() == "▶ Your turn"
    assert alice.locator('#players li[data-seat="1"] .tag.active').inner_text() == "▶ plays now"


def test_the_end_of_a_round_and_of_the_game_in_three_browsers(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice_token, bob_token = two_seats(site, GUARD_DEAL)  # Alice's Guard names Bob's Baron
    alice, bob, watcher = new_page(), new_page(locale="fr-FR"), new_page()
    for page, token in ((alice, alice_token), (bob, bob_token), (watcher, None)):
        open_seat(page, site, game, token)
    point_and_play(alice, "guard", guess="baron")
    for page in (alice, bob, watcher):
        page.locator("#round-end").wait_for(state="visible")
    for page in (alice, watcher):
        assert page.locator("#round-end h2").inner_text() == "Round 1 is over"
        assert page.locator("#round-end .verdict").inner_text() == (
            "Alice wins the round (the last player left in the round)."
        )
        assert "Favors gained: Alice (round won)" in page.locator("#round-end").inner_text()
    assert bob.locator("#round-end h2").inner_text() == "La manche 1 est terminée"
    assert (
        bob.locator("#round-end .verdict").inner_text()
        == "Alice remporte la manche (le dernier joueur encore en lice)."
    )
    assert axe_serious(watcher) == []
    alice.click("#round-end-close")
    assert alice.locator("#round-end").is_hidden()
    left = httpx.post(f"{site.url}/games/{game}/resign", headers={"Authorization": f"Bearer {bob_token}"})
    assert left.status_code == 200, left.text
    for page in (alice, bob, watcher):
        page.locator("#game-end").wait_for(state="visible")
        assert page.locator("#replay-link").get_attribute("href") == f"/replay/{game}"
        assert page.locator("#log-link").get_attribute("href") == f"/games/{game}/log"
        assert page.locator("#log-link").get_attribute("download") == f"{game}.jsonl"
    assert alice.locator("#game-end .verdict").inner_text() == "Winners: Alice"
    assert bob.locator("#game-end .verdict").inner_text() == "Gagnants\u202f: Alice"
    # round 1 by her Guard, round 2 as the last player left when Bob resigned
    assert alice.locator("#game-end .final li").all_inner_texts() == ["Alice — Favors: 2", "Bob — Favors: 0"]
    assert alice.locator("#rematch").is_visible() and bob.locator("#rematch").is_visible()
    assert watcher.locator("#rematch").is_hidden()  # a spectator has no seat to take again
    assert httpx.get(site.url + alice.locator("#log-link").get_attribute("href")).status_code == 200
    assert axe_serious(alice) == []


# 2012, two players: both keep a Guard while they play what they draw, harmlessly, until the deck runs out: a tie
# on the Guard, settled by the cards played (Alice 7+2+4+3+1 = 17, Bob 6+2+4+3+1 = 16).
TIE_DEAL: dict[str, Any] = {
    "set_aside": "princess",
    "face_up": ["prince", "prince", "guard"],
    "hands": ["guard", "guard"],
    "deck": ["countess", "king", "priest", "priest", "handmaid", "handmaid", "baron", "baron", "guard", "guard"],
    "first_player": "Alice",
}
TIE_MOVES = ["countess", "king", "priest", "priest", "handmaid", "handmaid", "baron", "baron", "guard", "guard"]


def test_a_tie_at_the_deck_out_shows_the_hands_and_the_tie_break(site: Site, new_page: Callable[..., Any]) -> None:
    game, tokens = create(site, ["Alice", "Bob"], TIE_DEAL, "2012")
    alice, watcher = new_page(), new_page(viewport=PHONE)
    open_seat(alice, site, game, tokens[0])
    open_seat(watcher, site, game, None)
    for i, card in enumerate(TIE_MOVES):
        api_play(site, game, tokens[i % 2], card)
    for page in (alice, watcher):
        page.locator("#round-end").wait_for(state="visible")
        assert page.locator("#round-end .verdict").inner_text() == (
            "Alice wins the round (the highest card when the deck ran out)."
        )
        assert [" ".join(t.split()) for t in page.locator("#round-end .revealed li").all_inner_texts()] == [
            "Alice 1 Guard — total 17",
            "Bob 1 Guard — total 16",
        ]
        assert page.locator("#round-end .tie").inner_text() == (
            "Tie-break: tied on the highest card: the higher total of cards played and discarded wins"
        )
    assert axe_serious(watcher) == []


def test_the_clock_reads_minutes_and_seconds_and_the_deadline_in_local_time(
    site: Site, browser: Any, new_page: Callable[..., Any]
) -> None:
    created = site.create(
        {
            "players": [{"name": "Alice"}, {"name": "Bob"}],
            "first_player": "Alice",
            "turn_seconds": 90,
            "on_timeout": "bot",
        }
    )
    game, token = created["game_id"], created["seats"][0]["token"]
    context = browser.new_context(locale="fr-FR", timezone_id="Asia/Tokyo")
    outside, route = outside_router()
    context.route("**/*", route)
    try:
        page = context.new_page()
        open_seat(page, site, game, token)
        deadline = httpx.get(f"{site.url}/games/{game}").json()["view"]["clock"]["deadline"]["at"]
        assert re.fullmatch(r"1:[23]\d", page.locator("#clock-left").inner_text())  # 90 s: 1:30, ticking down
        local = datetime.fromtimestamp(deadline / 1000, ZoneInfo("Asia/Tokyo")).strftime("%H:%M:%S")
        assert page.locator("#clock-until").inner_text() == f"(jusqu'à {local})"
    finally:
        context.close()
    assert outside == []


def test_the_waiting_table_and_the_seat_link_kept_like_a_password(site: Site, browser: Any) -> None:
    created = site.create({"players": [{"name": "Alice"}, {"open": True}]})
    game, token = created["game_id"], created["seats"][0]["token"]
    context = browser.new_context(locale="en-GB", permissions=["clipboard-read", "clipboard-write"])
    outside, route = outside_router()
    context.route("**/*", route)
    try:
        page = context.new_page()
        open_seat(page, site, game, token)
        assert page.locator("#waiting-panel").is_visible()
        assert page.locator("#waiting-seats li").all_inner_texts() == ["Seat 1: Alice (taken)", "Seat 2: open seat"]
        link = page.locator("#seat-link")
        assert link.get_attribute("type") == "password"  # hidden by default
        assert link.input_value() == f"{site.url}/play/{game}#t={token}"
        page.click("#reveal-link")
        assert (
            link.get_attribute("type") == "text"
            and page.locator("#reveal-link").get_attribute("aria-pressed") == "true"
        )
        page.click("#copy-link")
        assert page.evaluate("navigator.clipboard.readText()") == f"{site.url}/play/{game}#t={token}"
        assert axe_serious(page) == []
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#forget-seat")
        page.wait_for_url(f"{site.url}/play/{game}")
        wait_until(page, "() => document.body.dataset.version")
        assert page.evaluate("(g) => localStorage.getItem('ll.seat.' + g)", game) is None
        assert page.locator("#status").inner_text().startswith("You are watching as a spectator.")
        assert page.locator("#seat-tools").is_hidden()
    finally:
        context.close()
    assert outside == []


def test_the_seat_pages_scripts_styles_and_art_weigh_under_150_kb_gzipped(
    site: Site, new_page: Callable[..., Any]
) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL)
    page = new_page()
    open_seat(page, site, game, alice)
    loaded = page.evaluate("performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname)")
    assets = {p for p in loaded if p.startswith("/static/") and p.endswith((".js", ".css", ".svg"))}
    assert {"/static/seat.js", "/static/moves.js", "/static/table.js", "/static/app.css"} <= assets
    art = {f"/static/{p.relative_to(STATIC)}" for p in (STATIC / "cards").rglob("*.svg")}  # every ruleset's
    sizes = {path: len(gzip.compress(httpx.get(site.url + path).content, 9)) for path in assets | art}
    total = sum(sizes.values())
    print(f"seat page: {len(sizes)} files, {total} bytes gzipped")
    assert total <= 150_000
    assert set(Path(p).name for p in assets if p.endswith(".js")) >= {"common.js", "cards.js", "ends.js", "alerts.js"}
