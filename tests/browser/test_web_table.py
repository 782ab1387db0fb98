"""The table as players live it, one test per defect of issue 24: no move played blind by a double-click, no
viewer's copy served to another, the names of players who joined, the invite shown until the seats are full."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from tests.browser.conftest import ARMED, Site, wait_until
from tests.browser.test_web_play import create_from_lobby
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
    for path in (f"/games/{game}", f"/games/{game}/events", f"/web/games/{game}/story"):  # what the pages read
        answer = httpx.get(site.url + path, headers={"Authorization": f"Bearer {bob}"})
        assert answer.headers["cache-control"] == "private, no-cache" and answer.headers["vary"] == "Authorization"


BLIND_CLICKS = """() => {
  window.blind = [];
  const hand = document.getElementById('hand');
  const chosen = () => hand.querySelectorAll('[aria-pressed="true"]').length
    + document.querySelectorAll('#moves input:checked').length;
  new MutationObserver(() => {  // the instant new controls are drawn: a click lands on their first card
    const first = hand.querySelector('button.playable');
    if (!first) return;
    window.blind.push({ before: chosen() });
    first.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));
    window.blind.push({ after: chosen() });
  }).observe(hand, { childList: true });
}"""


def test_a_second_click_never_plays_the_next_turn_blind(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice, _ = two_seats(site, GUARD_DEAL, bob_bot=True)
    page = new_page()
    open_seat(page, site, game, alice)
    assert page.locator('#hand [aria-pressed="true"]').count() == 0  # nothing chosen for her
    page.evaluate(BLIND_CLICKS)
    page.locator('#hand [data-card="priest"]').click()
    assert page.locator('#moves input[name="target"]:checked').count() == 1  # Bob, the only target
    before = version(page)
    page.click("#play")
    # the bot answers at once: her next move's controls are drawn under the pointer, and it clicks again
    wait_until(page, "(v) => Number(document.body.dataset.version) > v + 1 && document.querySelector('#play')", before)
    page.click("#play")
    assert page.evaluate("window.blind") == [{"before": 0}, {"after": 0}]  # the click on a fresh card: ignored
    events = httpx.get(f"{site.url}/games/{game}/events", headers={"Authorization": f"Bearer {alice}"}).json()
    played = [e for e in events["events"] if e["type"] == "card_played" and e["player"] == 0]
    assert len(played) == 1, played  # one move, the one she chose
    assert page.locator("#hand .card").count() == 2 and version(page) == events["version"]
    wait_until(page, ARMED)  # a moment later the controls take her choice
    page.locator("#hand button.playable").first.click()
    assert page.locator('#hand [aria-pressed="true"]').count() == 1


def test_a_player_who_joined_is_named_in_the_viewer_and_the_lobby(site: Site, new_page: Callable[..., Any]) -> None:
    created = site.create({"players": [{"name": "Alice"}, {"open": True}], "public": True, "first_player": "Alice"})
    game, alice = created["game_id"], created["seats"][0]["token"]
    joined = httpx.post(f"{site.url}/games/{game}/join", json={"name": "Bob"})
    assert joined.status_code in (200, 201), joined.text
    left = httpx.post(f"{site.url}/games/{game}/resign", headers={"Authorization": f"Bearer {alice}"})
    assert left.status_code == 200, left.text  # Alice leaves: Bob, who joined, wins
    lobby = new_page()
    lobby.goto(f"{site.url}/")
    finished = lobby.locator(f'#finished li[data-game="{game}"]')
    finished.wait_for()
    assert "won by Bob" in finished.inner_text()
    viewer = new_page(locale="fr-FR")
    viewer.goto(f"{site.url}/replay/{game}")
    wait_until(viewer, "() => !document.getElementById('viewer').hidden")
    assert viewer.locator("#heading").inner_text() == "Alice · Bob"
    povs = viewer.locator("#pov option").evaluate_all("(os) => os.map((o) => o.textContent)")
    assert "Alice" in povs and "Bob" in povs, povs


AXE = "async () => { const r = await axe.run(document); return r.violations.map((v) => [v.id, v.impact]); }"


def test_a_long_story_is_reached_by_keyboard_and_french_is_typeset(site: Site, new_page: Callable[..., Any]) -> None:
    axe = Path(pytest.importorskip("axe_playwright_python").__file__).parent / "axe.min.js"
    bots = [{"name": "Alice", "bot": "heuristic"}, {"name": "Bob", "bot": "heuristic"}]
    game = site.create({"ruleset": "2019", "players": bots})["game_id"]  # bots alone play it to its end at once
    wait_until_over = "() => document.body.dataset.over === 'true'"
    page = new_page(locale="fr-FR")
    page.goto(f"{site.url}/play/{game}")
    wait_until(page, wait_until_over)
    story = page.locator("#story")
    assert story.evaluate("(s) => s.scrollHeight > s.clientHeight")  # long enough to scroll
    page.evaluate(axe.read_text())
    serious = [v for v in page.evaluate(AXE) if v[1] in ("serious", "critical")]
    assert serious == [], serious
    assert story.get_attribute("tabindex") == "0" and story.get_attribute("aria-labelledby") == "story-h"
    story.focus()
    assert page.evaluate("document.activeElement.id") == "story"
    status = page.locator("#status").inner_text()
    assert "Gagnants\u202f: " in status, status  # French typography: a narrow no-break space before the colon
    assert "Gagnants:" not in status
    assert "manche 0" not in story.inner_text().lower()


def test_the_statistics_page_counts_bots_from_one(site: Site, new_page: Callable[..., Any]) -> None:
    page = new_page()
    page.goto(f"{site.url}/stats")
    labels = page.locator("#bots label")
    labels.first.wait_for()
    assert labels.all_inner_texts()[:2] == ["Bot of seat 1", "Bot of seat 2"]


SEATED = "() => document.body.dataset.waiting === 'false' && document.querySelectorAll('#hand .card').length"


def test_the_organiser_sees_the_waiting_table_and_the_invite_until_the_seats_are_full(
    site: Site, new_page: Callable[..., Any]
) -> None:
    host = new_page()
    game = create_from_lobby(host, site, "Ann", ["me", "open", "none", "none"])  # then Play, as people do
    wait_until(host, "() => document.body.dataset.waiting === 'true'")
    status = host.locator("#status").inner_text()
    assert "Waiting for players" in status and "1 open seat" in status, status
    assert host.locator("#hand-panel").is_hidden() and host.locator("#deck").is_hidden()  # no "deck 0"
    invite = host.locator("#invites input").first
    link = invite.input_value()
    assert link.startswith(f"{site.url}/#join={game}&invite=")
    host.goto(f"{site.url}/")
    assert host.locator(f'#mine li[data-game="{game}"] .invites input').first.input_value() == link  # My games too
    friend = new_page(locale="fr-FR")
    friend.goto(f"{site.url}/play/{game}")  # before joining, a stranger's look: no invite
    wait_until(friend, "() => document.body.dataset.version")
    assert friend.locator("#invites-panel").is_hidden() and friend.locator("#invites li").count() == 0
    friend.goto(link)
    friend.fill("#invite-name", "Jules")
    friend.click('#join-invite button[type="submit"]')
    friend.wait_for_url(f"**/play/{game}#t=*")
    wait_until(friend, SEATED)
    assert friend.locator("#invites-panel").is_hidden()
    host.goto(f"{site.url}/play/{game}")
    wait_until(host, SEATED)
    assert host.locator("#invites-panel").is_hidden() and host.locator("#deck").is_visible()
    assert "Jules" in host.locator("#heading").inner_text()
    host.goto(f"{site.url}/")
    host.locator(f'#mine li[data-game="{game}"]').wait_for()
    assert host.locator(f'#mine li[data-game="{game}"] .invites').count() == 0  # the seats are full: forgotten
