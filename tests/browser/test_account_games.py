"""An account's games on its page in Chromium (issue 35, docs/web.md "An account in the browser"), in English and
French: newest first, each with its date in the page's language, its ruleset and table size, its other seats (a link
to each one's account), its result for this account, whether it is rated, the rating change of a finished rated game
(the ladder's figures, read by the test after each game) and its replay link; "1 rated game" in the singular;
axe-core finds nothing serious. The results are arranged by resigning and aborting, so nothing depends on the
shuffle."""

from __future__ import annotations

import time
import uuid
from datetime import datetime
from typing import Any, Callable
from zoneinfo import ZoneInfo

import httpx
import pytest

from tests.browser.conftest import PHONE, Site, wait_until
from tests.browser.test_ladder_pages import axe

LOADED = "() => document.body.dataset.loaded === 'yes'"
NNBSP = "\u202f"
MONTHS_FR = ["janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."]
MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def account(site: Site, stem: str, kind: str) -> dict[str, Any]:
    answer = httpx.post(f"{site.url}/accounts", json={"name": f"{stem}{uuid.uuid4().hex[:4]}", "kind": kind})
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def resign(site: Site, game: dict[str, Any], seat: int) -> None:
    (token,) = [s["token"] for s in game["seats"] if s["seat"] == seat]
    answer = httpx.post(f"{site.url}/games/{game['game_id']}/resign", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text


def rung(site: Site, account_id: str) -> float:
    ladder = httpx.get(f"{site.url}/ladder", params={"ruleset": "2019", "players": 2, "limit": 100}).json()
    (mine,) = [r["mu"] for r in ladder["ratings"] if r["account_id"] == account_id]
    return float(mine)


@pytest.fixture(scope="module")
def played(site: Site) -> dict[str, Any]:
    """Zoé's games, oldest first: a rated game she won (Robo resigned), a rated one she lost (she resigned), and an
    unrated one against a guest bot, still being played; each game's creation time by the test's clock."""
    zoe, robo, cy = account(site, "Zoé", "person"), account(site, "Robo", "bot"), account(site, "Cy", "person")
    out: dict[str, Any] = {"zoe": zoe, "robo": robo, "cy": cy, "games": [], "times": [], "mu": []}
    bodies = [
        {"rated": True, "players": [{"account_key": zoe["key"]}, {"account_key": robo["key"]}]},
        {"rated": True, "players": [{"account_key": cy["key"]}, {"account_key": zoe["key"]}]},
        {"players": [{"account_key": zoe["key"]}, {"name": "Guest", "bot": "heuristic"}]},
    ]
    for n, body in enumerate(bodies):
        before = time.time()
        game = site.create(body)
        out["times"].append((before, time.time()))
        out["games"].append(game)
        if n < 2:
            resign(site, game, 1)  # Robo leaves the first, Zoé the second
            out["mu"].append(rung(site, zoe["account_id"]))
    return out


def shown_day(seconds: float, zone: str, locale: str) -> tuple[str, ...]:
    """The day a person reads for `seconds` in the browser's time zone, as "29 Nov 2026" or « 29 nov. 2026 »
    (September is "Sep" or "Sept", as ICU versions differ)."""
    day = datetime.fromtimestamp(seconds, ZoneInfo(zone))
    months = MONTHS_FR if locale == "fr-FR" else MONTHS_EN
    spelled = ["Sep", "Sept"] if locale != "fr-FR" and day.month == 9 else [months[day.month - 1]]
    return tuple(f"{day.day} {month} {day.year}" for month in spelled)


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_the_games_newest_first_each_with_its_facts(
    site: Site, played: dict[str, Any], new_page: Callable[..., Any], locale: str
) -> None:
    fr = locale == "fr-FR"
    zoe, robo, cy = played["zoe"], played["robo"], played["cy"]
    won, lost, playing = played["games"]
    page = new_page(locale=locale)
    page.goto(f"{site.url}/accounts/{zoe['account_id']}")
    wait_until(page, LOADED)

    rows = page.locator("#games tbody tr")
    assert [r.get_attribute("data-game") for r in rows.all()] == [
        playing["game_id"],
        lost["game_id"],
        won["game_id"],
    ]
    # the other seat: a link to its account when it has one
    opponents = [r.locator(".opponents") for r in rows.all()]
    assert opponents[0].inner_text().strip() == "Guest" and opponents[0].locator("a").count() == 0
    for cell, who in ((opponents[1], cy), (opponents[2], robo)):
        link = cell.locator("a")
        assert link.inner_text() == who["name"]
        assert link.get_attribute("href") == f"/accounts/{who['account_id']}"
    # the result, and whether it is rated
    results = [r.locator(".result").inner_text().strip() for r in rows.all()]
    assert results == (["en cours", "perdue", "gagnée"] if fr else ["playing", "lost", "won"])
    rated = [r.locator(".rated").inner_text().strip() for r in rows.all()]
    assert rated[0] == ("non classée" if fr else "unrated")
    # the rating change: 25.0 → the ladder's mu after the first game, then → after the second
    first, second = played["mu"]
    sign = "+" if second >= first else "−"

    def figure(mu: float) -> str:
        text = f"{mu:.1f}"
        return text.replace(".", ",") if fr else text

    want_won = f"{figure(25.0)} → {figure(first)} (+{figure(first - 25.0)})"
    want_lost = f"{figure(first)} → {figure(second)} ({sign}{figure(abs(second - first))})"
    assert want_won in rated[2], rated[2]
    assert want_lost in rated[1], rated[1]
    assert rated[2].startswith(f"classée{NNBSP}: " if fr else "rated: "), rated[2]  # French typography
    # the replay link
    for row, game in zip(rows.all(), (playing, lost, won), strict=True):
        link = row.locator("a.replay")
        assert link.get_attribute("href") == f"/replay/{game['game_id']}"
    # the date the game was created, in the page's language and the browser's time zone; its ruleset and table size
    zone = page.evaluate("() => Intl.DateTimeFormat().resolvedOptions().timeZone")
    for row, (low, high) in zip(rows.all(), reversed(played["times"]), strict=True):
        when = row.locator("time")
        stamp = when.get_attribute("datetime") or ""
        assert low - 0.001 <= datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() <= high + 0.001
        assert when.inner_text().startswith(shown_day(low, zone, locale)), when.inner_text()
        title = "Love Letter (2019, 21 cartes)" if fr else "Love Letter (2019, 21 cards)"
        assert row.locator("td").nth(1).inner_text() == f"{title} — {'2 joueurs' if fr else '2 players'}"
    heads = page.locator("#games thead th").all_inner_texts()
    assert heads[0] == ("Créée le" if fr else "Created")

    # the win rate's words agree with their numbers: one won, two rated games
    record = page.locator("#record").inner_text()
    assert ("1 gagnée sur 2 parties classées" if fr else "1 won of 2 rated games") in record, record
    assert axe(page) == [], locale


@pytest.fixture(scope="module")
def lone(site: Site) -> dict[str, Any]:
    """One rated game of the 2012 rules, alone on its ladder: Bob resigned, Ann won."""
    ann, bob = account(site, "Ann", "person"), account(site, "Bob", "bot")
    game = site.create(
        {"ruleset": "2012", "rated": True, "players": [{"account_key": ann["key"]}, {"account_key": bob["key"]}]}
    )
    resign(site, game, 1)
    return ann


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_one_rated_game_is_singular(
    site: Site, lone: dict[str, Any], new_page: Callable[..., Any], locale: str
) -> None:
    fr = locale == "fr-FR"
    one = "1 partie classée" if fr else "1 rated game"
    page = new_page(locale=locale, viewport=PHONE)
    page.goto(f"{site.url}/accounts/{lone['account_id']}")
    wait_until(page, LOADED)
    record = page.locator("#record").inner_text()
    assert record.endswith("1 gagnée sur 1 partie classée" if fr else "1 won of 1 rated game"), record
    assert one in page.locator("#charts svg text").all_text_contents()
    assert page.locator("#games tbody tr .result").inner_text().strip() == ("gagnée" if fr else "won")
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    assert axe(page) == [], locale
    # the ladder's summary counts its games in the same words
    page.goto(f"{site.url}/ladder?ruleset=2012&players=2")
    wait_until(page, LOADED)
    summary = page.locator("#summary").inner_text()
    assert summary == ("1 partie classée prise en compte" if fr else "1 rated game folded"), summary
