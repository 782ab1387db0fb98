"""Issue 24's last items, as players would meet them: the same seat open on two devices (two browser contexts with
the same seat link) is told so on each, and on nobody else's page; the story's deadlines read in the viewer's own
time zone while the API keeps its words; the replay viewer offers the log (a game of this server) or the very file
it was given. Expected values come from the API's own answers and Python's time zones, not from the page."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Callable
from zoneinfo import ZoneInfo

import httpx

from tests.browser.conftest import Site, outside_router, wait_until
from tests.browser.test_viewer import Finished, finished, open_viewer  # noqa: F401 (a fixture)
from tests.browser.test_web_cards import axe_serious
from tests.browser.test_web_seat import open_seat, two_seats

SHOWN = "() => !document.getElementById('elsewhere').hidden"
GONE = "() => document.getElementById('elsewhere').hidden"


def presence(site: Site, game: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{site.url}/web/games/{game}/presence", headers=headers)
    assert answer.status_code == 200, answer.text
    assert "private" in answer.headers["cache-control"]  # it depends on the credential
    result: dict[str, Any] = answer.json()
    return result


def test_the_same_seat_open_on_two_devices_is_told_to_that_seat_alone(site: Site, new_page: Callable[..., Any]) -> None:
    game, alice_token, bob_token = two_seats(site)
    assert bob_token is not None
    alice = new_page()
    bob = new_page()
    watcher = new_page()
    for page, token in ((alice, alice_token), (bob, bob_token), (watcher, None)):
        open_seat(page, site, game, token)
    wait_until(alice, "() => document.querySelectorAll('#players .present').length === 2")
    before = presence(site, game)  # what a spectator (or anyone without a token) reads
    assert before == {"present": [True, True]}
    for page in (alice, bob, watcher):
        assert page.locator("#elsewhere").is_hidden()

    phone = new_page(locale="fr-FR")  # Alice's second device, the same seat link
    open_seat(phone, site, game, alice_token)
    wait_until(phone, SHOWN)  # at once: the first device's stream is open
    assert phone.locator("#elsewhere").inner_text() == "Ce siège est aussi ouvert sur un autre appareil."
    wait_until(alice, SHOWN, timeout=12)  # at the next presence round (every 5 s)
    assert alice.locator("#elsewhere").inner_text() == "This seat is also open on another device."
    assert axe_serious(alice) == [] and axe_serious(phone) == []
    assert phone.evaluate("document.body.dataset.version") == alice.evaluate("document.body.dataset.version")

    # nobody else learns anything new: not Bob, not a spectator, not the pages' answers to them
    assert presence(site, game) == before
    assert presence(site, game, alice_token)["elsewhere"] is True  # asked from no page: Alice's pages are others
    bob.wait_for_timeout(5500)  # a presence round for everyone
    assert bob.locator("#elsewhere").is_hidden() and watcher.locator("#elsewhere").is_hidden()

    phone.context.close()  # the second device goes away
    wait_until(alice, GONE, timeout=12)
    assert presence(site, game) == before  # Alice is still here, from her first device
    answer = httpx.get(f"{site.url}/web/games/{game}/story", headers={"Authorization": f"Bearer {alice_token}"})
    assert answer.json()["elsewhere"] is True  # a request naming no page counts Alice's one page as another
    assert "elsewhere" not in httpx.get(f"{site.url}/web/games/{game}/story").json()


def _local(ms: int, zone: str, lang: str) -> str:
    """The deadline as the page's locale shows it (en-GB: 26/11/2026, 18:14:04; fr-FR: 26/11/2026 18:14:04)."""
    when = datetime.fromtimestamp(ms / 1000, ZoneInfo(zone))
    return when.strftime("%d/%m/%Y, %H:%M:%S" if lang == "en" else "%d/%m/%Y %H:%M:%S")


def test_the_storys_deadlines_read_in_the_viewers_time_zone(site: Site, browser: Any) -> None:
    created = site.create(
        {
            "players": [{"name": "Alice"}, {"name": "Bob"}],
            "first_player": "Alice",
            "turn_seconds": 900,
            "on_timeout": "bot",
        }
    )
    game, token = created["game_id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for locale, zone, lang in (("en-GB", "America/New_York", "en"), ("fr-FR", "Asia/Kolkata", "fr")):
        told = httpx.get(f"{site.url}/web/games/{game}/story?lang={lang}", headers=auth).json()
        (deadline_text, deadline), *_ = told["times"].items()
        assert deadline_text == datetime.fromtimestamp(deadline / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        said = [line.strip() for line in told["lines"]]
        assert any(deadline_text in line for line in said)  # the API still says it in UTC
        expected = [line.replace(deadline_text, _local(deadline, zone, lang)) for line in said]
        context = browser.new_context(locale=locale, timezone_id=zone)
        outside, route = outside_router()
        context.route("**/*", route)
        try:
            page = context.new_page()
            open_seat(page, site, game, token)
            shown = page.locator("#story li").all_inner_texts()
            assert shown == expected
            assert not any("UTC" in line for line in shown)
            stamp = page.locator("#story li time").first.get_attribute("datetime")
            assert datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() * 1000 == deadline
            clock = datetime.fromtimestamp(deadline / 1000, ZoneInfo(zone)).strftime("%H:%M:%S")
            assert clock in page.locator("#clock-until").inner_text()  # the clock agrees with the story
        finally:
            context.close()
        assert outside == []


def test_the_viewer_offers_the_log_it_shows(site: Site, finished: Finished, new_page: Callable[..., Any]) -> None:  # noqa: F811
    page = new_page()
    open_viewer(page, site, f"/replay/{finished.game}")
    link = page.locator("#download-log")
    assert link.inner_text() == "Download the log"
    assert link.get_attribute("href") == f"/games/{finished.game}/log"
    with page.expect_download() as got:
        link.click()
    assert got.value.suggested_filename == f"{finished.game}.jsonl"
    assert Path(got.value.path()).read_bytes() == finished.log

    uploaded = new_page(locale="fr-FR")
    uploaded.goto(f"{site.url}/replay")
    assert uploaded.locator("#download-log").is_hidden()
    upload = {"name": "partie.jsonl", "mimeType": "application/x-ndjson", "buffer": finished.log}
    uploaded.set_input_files("#file", files=[upload])
    wait_until(uploaded, "() => document.body.dataset.version && !document.getElementById('viewer').hidden")
    link = uploaded.locator("#download-log")
    assert link.inner_text() == "Télécharger ce fichier"
    assert axe_serious(uploaded) == []
    with uploaded.expect_download() as got:
        link.click()
    assert got.value.suggested_filename == "partie.jsonl"
    assert Path(got.value.path()).read_bytes() == finished.log  # the very file, byte for byte
