"""What the browser tests of an account in the browser share (tests/browser/test_web_accounts.py, issue 35): a
person makes an account in the lobby, by pointing or by keyboard; a page waits for the game made for it; two pages
play a game to its end by pointing."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx

from tests.browser.conftest import play_first, wait_until
from tests.browser.test_ladder_pages import axe, focus_by_tab

ON_A_SEAT = "() => location.pathname.startsWith('/play/') && document.body.dataset.version !== undefined"
SEAT_URL = re.compile(r"/play/g_[A-Za-z0-9_-]+#t=")
OVER = "() => document.body.dataset.over === 'true'"
NNBSP = "\u202f"
COPIED = "JSON.parse(document.getElementById('page-data').textContent).words['lobby.copied']"


def make_account(page: Any, url: str, name: str, *, keyboard: bool = False, check_axe: bool = False) -> dict[str, str]:
    """Make an account named `name` in the lobby of `page`: the key is shown once, copied with its button (the
    clipboard holds it), said to be the only way to play as the account, then kept by this browser alone."""
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    page.goto(f"{url}/")
    page.wait_for_selector("#account-name")
    assert page.locator("#quick-grid button:enabled").count() == 0 and page.locator("#quick-need").is_visible()
    if check_axe:
        assert axe(page) == [], "the lobby with no account"
    if keyboard:
        focus_by_tab(page, "#account-name")
        page.keyboard.type(name)
        page.keyboard.press("Enter")
    else:
        page.fill("#account-name", name)
        page.click("#account-make button[type=submit]")
    page.wait_for_selector("#account-new-key")
    key = page.input_value("#account-new-key")
    assert page.evaluate("() => document.activeElement.id") == "account-copy"  # one key press from the clipboard
    if keyboard:
        page.keyboard.press("Enter")
    else:
        page.click("#account-copy")
    wait_until(page, f"() => document.getElementById('account-copy').textContent === {COPIED}")
    wait_until(page, "(k) => navigator.clipboard.readText().then((t) => t === k)", key)
    lost = page.locator("#account-key-lost").inner_text()
    assert ("nobody can give it back" in lost) or ("personne ne peut la rendre" in lost), lost
    holder = httpx.post(f"{url}/accounts/holder", json={"key": key})
    assert holder.status_code == 200 and holder.json()["name"] == name and holder.json()["kind"] == "person"
    if check_axe:
        assert axe(page) == [], "the key shown once"
    if keyboard:
        focus_by_tab(page, "#account-kept")
        page.keyboard.press("Enter")
    else:
        page.click("#account-kept")
    page.wait_for_selector("#account-held")
    account = {"key": key, "account_id": holder.json()["account_id"], "name": name}
    # shown once: never again in full; kept by this browser; who you are, on the lobby and in the header
    assert key not in page.content() and key[:7] in page.locator("#account-held").inner_text()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('ll.account')).key") == key
    assert page.locator("#account-held a").get_attribute("href") == f"/accounts/{account['account_id']}"
    assert page.locator("#me").inner_text().endswith(name)
    assert page.locator("#quick-grid button:enabled").count() == page.locator("#quick-grid button").count() > 0
    return account


def seat_of(page: Any, timeout: float = 20.0, left: str | None = None) -> str:
    """Wait until `page` has opened a game on a seat of its own (another than `left`), its hand dealt or its other
    seats awaited: the game's id."""
    page.wait_for_url(  # a seat's page, with its token, not a spectator's
        lambda url: SEAT_URL.search(url) is not None and (left is None or f"/play/{left}#" not in url),
        timeout=timeout * 1000,
    )
    page.wait_for_load_state()
    wait_until(page, ON_A_SEAT, timeout=timeout)
    wait_until(page, "() => !document.getElementById('hand-panel').hidden || document.body.dataset.waiting === 'true'")
    return str(page.url.split("/play/")[1].split("#")[0])


def grid_button(page: Any, ruleset: str, players: int, seconds: int) -> Any:
    return page.locator(
        f'#quick-grid button[data-ruleset="{ruleset}"][data-players="{players}"][data-seconds="{seconds}"]'
    )


def play_to_the_end(pages: list[Any], seconds: float = 180.0) -> int:
    """Each page plays its turns by pointing (the first legal choice of each control) until the game is over."""
    deadline = time.monotonic() + seconds
    moves = 0
    while not all(page.evaluate(OVER) for page in pages):
        assert time.monotonic() < deadline, f"the game did not end ({moves} moves)"
        for page in pages:
            if not page.evaluate(OVER) and page.locator("#moves-panel").is_visible():
                play_first(page)
                moves += 1
            else:
                page.wait_for_timeout(20)
    return moves


def french_typography(text: str) -> list[str]:
    """The places in a French text where a plain space stands before « : ; ! ? » or inside the quotes."""
    wrong = [f"{text[max(0, i - 12) : i + 2]!r}" for i, c in enumerate(text) if c in ":;!?" and text[i - 1 : i] == " "]
    wrong += [f"{text[i : i + 12]!r}" for i, c in enumerate(text) if c == "«" and text[i + 1 : i + 2] != NNBSP]
    wrong += [f"{text[max(0, i - 12) : i + 1]!r}" for i, c in enumerate(text) if c == "»" and text[i - 1 : i] != NNBSP]
    return wrong
