"""The lobby and the replay viewer as a player meets them (issue 35): a spectator delay asked for from the lobby's form
by keyboard alone, which the referee records and a spectator's page then keeps to; "My games" saying what each game
is (ruleset, who sits there, how it stands, when it was made) for this browser's games and for an account's, within
a small number of requests; and the viewer's cards drawn with the seat page's art. In English and French, axe-core
finding nothing serious in any of these states."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from typing import Any, Callable
from urllib.parse import parse_qs, urlsplit

import httpx

from loveletter.core.rulesets import RULESETS
from tests.browser.conftest import Site, switch_language, wait_until
from tests.browser.test_ladder_pages import axe, focus_by_tab
from tests.browser.test_web_spectator_delay import DELAY, _delayed, _play_first_legal_move

NNBSP = "\u202f"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _resign(site: Site, game: str, token: str) -> None:
    answer = httpx.post(f"{site.url}/games/{game}/resign", headers=_auth(token))
    assert answer.status_code == 200, answer.text


def _two(site: Site, first: dict[str, Any], second: dict[str, Any]) -> tuple[str, list[str]]:
    created = site.create({"players": [first, second]})
    return created["game_id"], [seat.get("token", "") for seat in created["seats"]]


def _asked(url: str) -> str:
    """A request's path and query, as the list of what a page asked is kept."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _mine(page: Any, game: str) -> Any:
    return page.locator(f'#mine li[data-game="{game}"]')


def _settled(page: Any, games: list[str]) -> None:
    """Wait until My games lists every one of `games` with what it is (its state said)."""
    wait_until(
        page,
        "(gs) => gs.every((g) => document.querySelector(`#mine li[data-game='${g}'] .state`))",
        games,
    )


def test_a_spectator_delay_asked_for_in_the_lobby_by_keyboard_is_kept_to(
    site: Site, new_page: Callable[..., Any]
) -> None:
    page = new_page(locale="fr-FR")
    page.goto(f"{site.url}/")
    page.wait_for_selector("#seat-1")
    field = page.locator("#spectator-delay")
    assert page.locator("label[for=spectator-delay]").inner_text() == "Retard des spectateurs, en coups"
    hint = page.locator(f"#{field.get_attribute('aria-describedby')}")
    assert hint.is_visible() and f"Vide{NNBSP}: sans retard" in hint.inner_text()
    focus_by_tab(page, "#my-name")
    page.keyboard.type("Alice")
    focus_by_tab(page, "#spectator-delay")
    page.keyboard.type(str(DELAY))
    page.keyboard.press("Enter")  # the form is sent from the field, as any form is
    page.wait_for_selector("#created:not([hidden])")
    assert axe(page) == []

    game = page.locator("#created-go").get_attribute("href").split("/play/")[1].split("#")[0]
    alice = page.evaluate("(g) => localStorage.getItem(`ll.seat.${g}`)", game)
    invite = parse_qs(urlsplit(page.locator("#invite-links input").first.input_value()).fragment)["invite"][0]
    joined = httpx.post(f"{site.url}/games/{game}/join", json={"name": "Bob", "invite": invite})
    assert joined.status_code == 200, joined.text
    tokens = [alice, joined.json()["token"]]

    # the referee recorded it: the log's first event, among the rule options
    events = httpx.get(f"{site.url}/games/{game}/events", headers=_auth(alice)).json()["events"]
    assert events[0]["type"] == "game_started" and events[0]["options"]["spectator_delay"] == str(DELAY)

    watcher = new_page()
    watcher.goto(f"{site.url}/play/{game}")
    wait_until(watcher, "() => document.body.dataset.version")
    for _ in range(3):
        _play_first_legal_move(site, game, tokens)
        live, seen = _delayed(site, game, alice)
        assert seen < live
        wait_until(watcher, f"() => Number(document.body.dataset.version) === {seen}")

    # an empty field asks for nothing: the game is live for everyone
    page.goto(f"{site.url}/")
    page.fill("#my-name", "Alice")
    page.click('#create button[type="submit"]')
    page.wait_for_selector("#created:not([hidden])")
    plain = page.locator("#created-go").get_attribute("href").split("/play/")[1].split("#")[0]
    started = httpx.get(f"{site.url}/games/{plain}/events").json()["events"][0]
    assert "spectator_delay" not in started["options"]


def test_my_games_say_what_each_game_of_this_browser_is(site: Site, new_page: Callable[..., Any]) -> None:
    page = new_page()
    page.goto(f"{site.url}/")
    page.wait_for_selector("#seat-1")
    page.fill("#my-name", "Alice")
    page.click('#create button[type="submit"]')  # Alice and an open seat, made here
    page.wait_for_selector("#created:not([hidden])")
    waiting = page.locator("#created-go").get_attribute("href").split("/play/")[1].split("#")[0]
    made_at = time.time() * 1000
    playing, playing_tokens = _two(site, {"name": "Alice"}, {"name": "Bob"})
    won, won_tokens = _two(site, {"name": "Alice"}, {"name": "Carol"})
    lost, lost_tokens = _two(site, {"name": "Alice"}, {"name": "Dan"})
    _resign(site, won, won_tokens[1])
    _resign(site, lost, lost_tokens[0])
    for game, token in ((playing, playing_tokens[0]), (won, won_tokens[0]), (lost, lost_tokens[0])):
        page.goto(f"{site.url}/play/{game}#t={token}")  # the seat's link, opened once: this browser holds the seat
        page.wait_for_selector("body[data-version]")

    page.goto("about:blank")  # the seat page closed: what is asked from here on is the lobby's
    asked: list[str] = []
    page.on("request", lambda r: asked.append(_asked(r.url)))
    page.goto(f"{site.url}/")
    games = [waiting, playing, won, lost]
    _settled(page, games)
    title = RULESETS["2019"].title_in("en")
    expected = {
        waiting: ("with (open)", "waiting for players"),
        playing: ("with Bob", "playing"),
        won: ("with Carol", "over: won"),
        lost: ("with Dan", "over: lost"),
    }
    for game, (who, state) in expected.items():
        row = _mine(page, game)
        link = row.locator("a").first
        assert link.inner_text() == f"{title} — {who}"
        assert row.locator(".state").inner_text() == state
        assert game not in row.inner_text()  # no raw id shown
        token = page.evaluate("(g) => localStorage.getItem(`ll.seat.${g}`)", game)
        assert link.get_attribute("href") == f"{site.url}/play/{game}#t={token}"
    created = _mine(page, waiting).locator("time")
    when = datetime.fromisoformat(created.get_attribute("datetime").replace("Z", "+00:00"))
    assert abs(when.timestamp() * 1000 - made_at) < 120_000
    now = datetime.now(UTC)
    assert created.inner_text().startswith("created ") and str(now.year) in created.inner_text()
    assert axe(page) == []

    # within a small number of requests: one per game and refresh, a finished game read once
    page.wait_for_timeout(300)
    refreshes = sum(1 for path in asked if path == "/games?status=open&limit=20")
    assert refreshes >= 1
    for game in (won, lost):
        assert asked.count(f"/games/{game}") == 1, asked
    for game in (waiting, playing):
        assert 1 <= asked.count(f"/games/{game}") <= refreshes, asked

    switch_language(page, "Français")
    _settled(page, games)
    assert _mine(page, won).locator(".state").inner_text() == f"terminée{NNBSP}: gagnée"
    assert _mine(page, playing).locator("a").first.inner_text() == f"{RULESETS['2019'].title_in('fr')} — avec Bob"
    assert _mine(page, waiting).locator("time").inner_text().startswith("créée le ")


def test_my_games_say_what_each_game_of_an_account_is(site: Site, new_page: Callable[..., Any]) -> None:
    made = httpx.post(f"{site.url}/accounts", json={"name": f"Zoe{uuid.uuid4().hex[:4]}", "kind": "person"})
    assert made.status_code == 201, made.text
    account = made.json()
    playing, _ = _two(site, {"account_key": account["key"]}, {"name": "Bob"})
    won, won_tokens = _two(site, {"account_key": account["key"]}, {"name": "Carol"})
    _resign(site, won, won_tokens[1])
    page = new_page(locale="fr-FR")  # another browser: it holds no seat, only the account's key, pasted
    asked: list[str] = []
    page.on("request", lambda r: asked.append(_asked(r.url)))
    page.goto(f"{site.url}/")
    page.wait_for_selector("#account-key-input")
    focus_by_tab(page, "#account-key-input")
    page.keyboard.type(account["key"])
    page.keyboard.press("Enter")
    wait_until(page, "() => document.getElementById('account-held') !== null")
    _settled(page, [playing, won])
    listed = [li.get_attribute("data-game") for li in page.locator("#mine li[data-game]").all()]
    assert listed == [won, playing]  # newest first
    title = RULESETS["2019"].title_in("fr")
    assert _mine(page, playing).locator("a").first.inner_text() == f"{title} — avec Bob"
    assert _mine(page, playing).locator(".state").inner_text() == "en cours"
    assert _mine(page, won).locator("a").first.inner_text() == f"{title} — avec Carol"
    assert _mine(page, won).locator(".state").inner_text() == f"terminée{NNBSP}: gagnée"
    assert _mine(page, won).locator("a").first.get_attribute("href") == f"{site.url}/play/{won}"  # to watch it
    assert _mine(page, won).locator("time").inner_text().startswith("créée le ")
    assert f"/accounts/{account['account_id']}/games?limit=20" in asked
    assert f"/games/{playing}" not in asked and f"/games/{won}" not in asked  # the account's one answer says it all
    assert axe(page) == []


def _finished(site: Site, ruleset: str) -> str:
    created = site.create(
        {"ruleset": ruleset, "players": [{"name": "Ann", "bot": "heuristic"}, {"name": "Ben", "bot": "random"}]}
    )
    game = str(created["game_id"])
    deadline = time.monotonic() + 30
    while not httpx.get(f"{site.url}/games/{game}").json()["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    return game


ART = """() => [...document.querySelectorAll('#viewer [data-card]')].map((c) => {
  const img = c.querySelector('img.art');
  return [c.dataset.card, img ? new URL(img.src).pathname : null, img ? img.complete && img.naturalWidth > 0 : false,
    c.querySelector('.value')?.textContent ?? null, c.querySelector('.name')?.textContent ?? null];
})"""
ZONES = """() => ['#players .front', '#deck-all', '#set-aside', '#players .hand-of', '#hand', '#unseen', '#face-up']
  .filter((z) => document.querySelector(`${z} [data-card] img.art`))"""
DRAWN = "() => [...document.querySelectorAll('#viewer img.art')].every((i) => i.complete)"


def test_the_viewer_draws_its_cards_with_the_seat_pages_art(site: Site, new_page: Callable[..., Any]) -> None:
    """Every card the viewer shows, in every zone, is the seat page's card: its set's art (loaded), value and name;
    from every point of view, at the first twelve positions of a 2019 game and of a Princess Princess one."""
    for ruleset, art, locale, lang in (("2019", "court", "en-GB", "en"), ("princess-princess", "pp", "fr-FR", "fr")):
        game = _finished(site, ruleset)
        rs = RULESETS[ruleset]
        names = {str(c): (str(rs.values[c]), rs.name(c, lang)) for c in rs.cards}
        for pov in ("all", "0"):
            page = new_page(locale=locale)
            page.goto(f"{site.url}/replay/{game}?at=1&pov={pov}")
            wait_until(page, "() => document.body.dataset.version && !document.getElementById('viewer').hidden")
            zones: set[str] = set()
            for position in range(1, 13):
                wait_until(page, "(p) => document.body.dataset.version === String(p)", position)
                wait_until(page, DRAWN)
                for card, src, loaded, value, name in page.evaluate(ART):
                    assert src == f"/static/cards/{art}/{card}.svg" and loaded, (ruleset, pov, position, card, src)
                    assert (value, name) == names[card], (ruleset, pov, position, card)
                zones |= set(page.evaluate(ZONES))
                if position == 6:
                    assert axe(page) == []
                page.keyboard.press("ArrowRight")
            if pov == "all":
                assert {"#players .front", "#deck-all", "#set-aside", "#players .hand-of", "#unseen"} <= zones, zones
            else:
                assert {"#players .front", "#hand", "#unseen"} <= zones, zones


DECK_LINE = """() => {
  const count = document.getElementById('deck-size'), line = count.parentElement, r = count.getBoundingClientRect();
  const box = line.getBoundingClientRect();
  const inside = r.width > 0 && r.left >= box.left && r.right <= box.right && r.top >= box.top
    && r.bottom <= box.bottom;
  return {text: count.textContent, words: line.textContent, inside,
    deck: document.querySelectorAll('#deck-all > li').length};
}"""


def test_the_viewers_deck_count_is_written_on_its_own_line(site: Site, new_page: Callable[..., Any]) -> None:
    """« Cartes dans la pioche : 9 » — the count in its line, not drawn over the page's corner by the seat page's pile
    style, equal to the cards the omniscient view lists in the deck; in English and in French."""
    game = _finished(site, "2019")
    for locale, words in (("en-GB", "Cards in the deck: "), ("fr-FR", f"Cartes dans la pioche{NNBSP}: ")):
        page = new_page(locale=locale)
        page.goto(f"{site.url}/replay/{game}?at=8&pov=all")
        wait_until(page, "() => document.body.dataset.version === '8' && !document.getElementById('viewer').hidden")
        line = page.evaluate(DECK_LINE)
        assert line["text"].isdigit() and line["inside"], line
        assert line["words"] == words + line["text"], line
        assert int(line["text"]) == line["deck"] > 0, line
