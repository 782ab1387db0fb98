"""A person's evening in the browser (issue 35, docs/web.md "An account in the browser"): two people make accounts in
the lobby, ask for a quick rated game and are paired, each page opening the game by itself, and play it to its end
by pointing, each seeing the rating change `GET /ladder` then shows; a challenge made from an account's page appears
live on the other person's lobby, which declines one and accepts the next; a third browser watches the game. The same
evening in French, and once by keyboard alone (the challenge then answered on a seat page: every page of the account
hears of it). axe-core finds no serious issue in any new state of the pages; nothing is asked of another host."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import httpx

from tests.browser.conftest import PHONE, Site, wait_until
from tests.browser.evening import (
    NNBSP,
    ON_A_SEAT,
    french_typography,
    grid_button,
    make_account,
    play_to_the_end,
    seat_of,
)
from tests.browser.test_ladder_pages import axe, focus_by_tab
from tests.browser.test_web_table_live import STUBS

SIDEWAYS = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


def unique(stem: str) -> str:
    return f"{stem}{uuid.uuid4().hex[:4]}"


def watch(page: Any, url: str, account_id: str, game: str, word: str) -> None:
    """A third browser finds the game on a player's page ("Playing now") and watches it as a spectator."""
    page.goto(f"{url}/accounts/{account_id}")
    page.wait_for_selector(f'#playing li[data-game="{game}"]')
    assert not page.locator("#challenge-form").is_visible()  # no account here: nothing to challenge with
    with page.expect_navigation():
        page.locator(f'#playing li[data-game="{game}"] a', has_text=word).click()
    wait_until(page, ON_A_SEAT)
    assert page.url.endswith(f"/play/{game}") and page.locator("#hand-panel").is_hidden()


def test_two_people_are_paired_for_a_rated_game_play_it_and_see_their_ratings_move(
    site: Site, new_page: Callable[..., Any]
) -> None:
    ann, bob, watcher = new_page(), new_page(), new_page()
    a = make_account(ann, site.url, unique("Ann"), check_axe=True)
    b = make_account(bob, site.url, unique("Bob"))

    # a search started, shown live, and cancelled: the seek is withdrawn on the referee
    grid_button(ann, "2012", 2, 60).click()
    ann.wait_for_selector("#seeking:not([hidden])")
    text = ann.locator("#seeking-text").inner_text()
    assert text.startswith("Looking for an opponent…") and "original edition" in text and "1\u00a0min a turn" in text
    first = ann.evaluate("() => JSON.parse(localStorage.getItem('ll.seek')).seek_id")
    seek = httpx.get(f"{site.url}/seeks/{first}").json()
    assert (seek["status"], seek["account_id"], seek["ruleset"], seek["rated"], seek["turn_seconds"]) == (
        "open", a["account_id"], "2012", True, 60)  # fmt: skip
    assert ann.locator("#quick-grid button:enabled").count() == 0
    assert axe(ann) == [], "looking for an opponent"
    ann.click("#seek-cancel")
    wait_until(ann, "() => document.getElementById('seeking').hidden")
    assert httpx.get(f"{site.url}/seeks/{first}").json()["status"] == "cancelled"
    assert ann.locator("#quick-news").inner_text() == "Search cancelled."

    # both ask for the same game: paired, and each page opens it by itself on its own seat
    grid_button(ann, "2019", 2, 86_400).click()
    ann.wait_for_selector("#seeking:not([hidden])")
    sought = ann.evaluate("() => JSON.parse(localStorage.getItem('ll.seek')).seek_id")
    grid_button(bob, "2019", 2, 86_400).click()
    game = seat_of(ann)
    assert seat_of(bob) == game
    paired = httpx.get(f"{site.url}/seeks/{sought}").json()
    assert (paired["status"], paired["game_id"], paired["seat"]) == ("paired", game, 0)
    assert httpx.get(f"{site.url}/games/{game}").json()["players"] == [a["name"], b["name"]]
    assert ann.locator("#status").inner_text().startswith(f"You play {a['name']}.")
    assert bob.locator("#status").inner_text().startswith(f"You play {b['name']}.")
    assert ann.evaluate("() => localStorage.getItem('ll.seek')") is None
    watch(watcher, site.url, a["account_id"], game, "Watch")

    # played to its end by pointing: each page shows each rating before and after, as the ladder has it
    moves = play_to_the_end([ann, bob])
    ladder = {r["account_id"]: r for r in httpx.get(f"{site.url}/ladder", params={"limit": 100}).json()["ratings"]}
    assert {a["account_id"], b["account_id"]} <= set(ladder) and moves >= 4
    for page in (ann, bob, watcher):
        wait_until(page, "() => document.getElementById('rating-change')?.dataset.done === 'yes'", timeout=20)
        rows = page.locator("#rating-change li[data-account]")
        shown = {r.get_attribute("data-account"): (r.get_attribute("data-before"), r.get_attribute("data-after"),
                                                    r.inner_text()) for r in rows.all()}  # fmt: skip
        for who in (a, b):
            before, after, line = shown[who["account_id"]]
            rung = ladder[who["account_id"]]
            assert float(before or "nan") == 25.0 and float(after or "nan") == rung["mu"] and rung["games"] == 1
            assert line.startswith(who["name"]) and f"25.0 → {rung['mu']:.1f}" in line, line
        assert "A rematch is not rated." in page.locator("#rating-change").inner_text()
    assert axe(ann) == [], "a rated game's end"
    # the rematch the seat page offers (each player's seat kept by token): a game that is not rated, as it says
    assert watcher.locator("#rematch").is_hidden() and bob.locator("#rematch").is_visible()
    ann.click("#rematch")
    again = seat_of(ann, left=game)
    started = httpx.get(f"{site.url}/games/{again}/events").json()["events"][0]
    assert started["type"] == "game_started" and not started.get("rated")


def test_a_challenge_from_an_account_page_is_answered_live_in_the_other_lobby_in_french(
    site: Site, new_page: Callable[..., Any]
) -> None:
    ann, bob, watcher = new_page(locale="fr-FR"), new_page(locale="fr-FR"), new_page(locale="fr-FR")
    bob.add_init_script(STUBS)  # Bob's browser records the sound and the notification instead of making them
    a = make_account(ann, site.url, unique("Anaïs"))
    b = make_account(bob, site.url, unique("Basile"), check_axe=True)
    assert french_typography(bob.locator("#me-panel").inner_text() + bob.locator("#quick").inner_text()) == []
    assert not bob.is_checked("#challenge-sound") and not bob.is_checked("#challenge-notify")  # off by default
    bob.check("#challenge-sound")
    bob.check("#challenge-notify")
    assert bob.evaluate("() => JSON.parse(localStorage.getItem('ll.alerts.challenge'))") == {
        "sound": True,
        "notify": True,
    }

    # from Bob's page, Ann challenges him to a 2012 game, not rated; Bob's lobby hears of it live and declines it
    ann.goto(f"{site.url}/accounts/{b['account_id']}")
    ann.wait_for_selector("#challenge-form:not([hidden])")
    assert ann.locator("#challenge-h").inner_text() == f"Défier {b['name']}"
    assert axe(ann) == [], "the challenge form"
    ann.select_option("#challenge-ruleset", "2012")
    ann.uncheck("#challenge-rated")
    ann.click("#challenge-send")
    wait_until(ann, "() => document.getElementById('challenge-note').textContent !== ''")
    assert ann.locator("#challenge-note").inner_text() == (
        f"Défi envoyé{NNBSP}: la partie s'ouvrira d'elle-même quand {b['name']} l'acceptera."
    )
    ann.wait_for_selector("#challenges li.outgoing")
    assert ann.locator("#challenges li.outgoing").inner_text().startswith(f"{b['name']} n'a pas encore répondu")
    bob.wait_for_selector("#challenges li.incoming")  # no reload: the account's stream
    line = bob.locator("#challenges li.incoming .who").inner_text()
    assert line == f"{a['name']} vous défie — Love Letter (édition originale, 16 cartes) — non classée", line
    wait_until(bob, "() => window.beeps === 1 && window.notes.length === 1")
    assert bob.evaluate("() => window.notes[0]") == ["Nouveau défi", line]
    assert axe(bob) == [], "a challenge received"
    first = bob.locator("#challenges li.incoming").get_attribute("data-challenge")
    bob.locator("#challenges li.incoming button.decline").click()
    wait_until(bob, "() => !document.querySelector('#challenges li.incoming')")
    assert httpx.get(f"{site.url}/challenges/{first}").json()["status"] == "declined"
    ann.wait_for_selector("#account-news:not(:empty)")
    assert ann.locator("#account-news").inner_text() == f"{b['name']} a refusé votre défi."
    told = ann.locator("#challenge-note").inner_text() + ann.locator("#account-bar").inner_text()
    assert french_typography(told) == []

    # the next one, rated: accepted in Bob's lobby, and both pages open the game (Ann's from Bob's account page)
    ann.select_option("#challenge-ruleset", "2019")
    ann.check("#challenge-rated")
    ann.click("#challenge-send")
    bob.wait_for_selector("#challenges li.incoming")
    assert bob.locator("#challenges li.incoming .who").inner_text().endswith("— classée")
    wait_until(bob, "() => window.beeps === 2")
    second = bob.locator("#challenges li.incoming").get_attribute("data-challenge")
    bob.locator("#challenges li.incoming button.accept").click()
    game = seat_of(bob)
    assert seat_of(ann) == game
    accepted = httpx.get(f"{site.url}/challenges/{second}").json()
    assert (accepted["status"], accepted["game_id"], accepted["rated"]) == ("accepted", game, True)
    assert httpx.get(f"{site.url}/games/{game}").json()["players"] == [a["name"], b["name"]]
    assert ann.locator("#status").inner_text().startswith(f"Vous jouez {a['name']}.")
    watch(watcher, site.url, b["account_id"], game, "Regarder")


def test_an_account_made_paired_challenged_and_left_by_keyboard_alone(site: Site, new_page: Callable[..., Any]) -> None:
    ann, bob = new_page(), new_page(viewport=PHONE)
    ann.add_init_script(STUBS)  # she never asks for a sound or a notification: none is made
    a = make_account(ann, site.url, unique("Kay"), keyboard=True)
    b = make_account(bob, site.url, unique("Lee"), keyboard=True)
    assert bob.evaluate(SIDEWAYS) <= 0  # a phone's lobby, with an account: no sideways scroll

    # a search by keyboard: the focus goes to Cancel, then back to the button it came from
    button = '#quick-grid button[data-ruleset="2019"][data-players="2"][data-seconds="20"]'
    focus_by_tab(ann, button)
    ann.keyboard.press("Enter")
    wait_until(ann, "() => document.activeElement.id === 'seek-cancel'")
    seek = ann.evaluate("() => JSON.parse(localStorage.getItem('ll.seek')).seek_id")
    ann.keyboard.press("Enter")
    wait_until(ann, "(b) => document.activeElement === document.querySelector(b)", button)
    assert httpx.get(f"{site.url}/seeks/{seek}").json()["status"] == "cancelled"
    classic = '#quick-grid button[data-ruleset="2019-classic"]'
    for page in (ann, bob):
        focus_by_tab(page, classic)
        page.keyboard.press("Enter")
    game = seat_of(ann)
    assert seat_of(bob) == game

    # Bob challenges Ann from her page; Ann, on her seat page, hears of it and accepts it by keyboard
    bob.goto(f"{site.url}/accounts/{a['account_id']}")
    bob.wait_for_selector("#challenge-form:not([hidden])")
    assert bob.evaluate(SIDEWAYS) <= 0
    focus_by_tab(bob, "#challenge-send")
    bob.keyboard.press("Enter")
    ann.wait_for_selector("#challenges li.incoming")
    assert f"/play/{game}#t=" in ann.url  # still at her table: every page of the account hears of a challenge
    assert ann.evaluate("() => [window.beeps, window.notes.length, document.body.dataset.challengeAlerts]") == [
        0, 0, "1"]  # fmt: skip
    assert axe(ann) == [], "a challenge received on a seat page"
    focus_by_tab(ann, "#challenges li.incoming button.accept", most=200)
    ann.keyboard.press("Enter")
    challenged = seat_of(ann, left=game)
    assert challenged != game and seat_of(bob) == challenged
    assert httpx.get(f"{site.url}/games/{challenged}").json()["players"] == [b["name"], a["name"]]

    # leaving asks first: "Stay" keeps the account, the second answer forgets the key in this browser only
    ann.goto(f"{site.url}/")
    ann.wait_for_selector("#account-held")
    focus_by_tab(ann, "#account-forget")
    ann.keyboard.press("Enter")
    assert ann.evaluate("() => document.activeElement.id") == "account-leave-text"
    assert "cannot give it back" in ann.locator("#account-leave-text").inner_text()
    assert axe(ann) == [], "leaving, asked first"
    focus_by_tab(ann, "#account-leave-no")
    ann.keyboard.press("Enter")
    assert ann.evaluate("() => [document.activeElement.id, localStorage.getItem('ll.account') !== null]") == [
        "account-forget",
        True,
    ]
    ann.keyboard.press("Enter")
    focus_by_tab(ann, "#account-leave-yes")
    ann.keyboard.press("Enter")
    wait_until(ann, "() => document.activeElement.id === 'account-name'")
    assert ann.evaluate("() => localStorage.getItem('ll.account')") is None and ann.locator("#me").is_hidden()
    assert httpx.get(f"{site.url}/accounts/{a['account_id']}").json()["active"]  # nothing changed on the referee

    # on another device, the key pasted by keyboard is the same account again
    other = new_page()
    other.goto(f"{site.url}/")
    focus_by_tab(other, "#account-key-input")
    other.keyboard.type(a["key"])
    other.keyboard.press("Enter")
    other.wait_for_selector("#account-held")
    assert other.locator("#account-held a").inner_text() == a["name"]
    assert other.locator("#me").get_attribute("href") == f"/accounts/{a['account_id']}"
