"""The site's frame: the lobby at `/` in the browser's language, the switch that remembers another, the header's
links, a strict Content-Security-Policy, /docs still there, and not one request to another host."""

from __future__ import annotations

from typing import Any, Callable

import httpx

from tests.browser.conftest import Site, switch_language


def test_the_lobby_opens_in_the_browsers_language_and_the_switch_is_remembered(
    site: Site, new_page: Callable[..., Any]
) -> None:
    page = new_page(locale="fr-FR")
    page.goto(f"{site.url}/")
    assert page.locator("html").get_attribute("lang") == "fr"
    assert page.locator("h1").inner_text() == "Salon"
    switch_language(page, "English")
    page.wait_for_function("document.documentElement.lang === 'en'")
    assert page.locator("h1").inner_text() == "Lobby"
    page.goto(f"{site.url}/stats")  # remembered on every page, against the browser's French
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("navigation").get_by_role("link", name="Lobby").is_visible()
    english = new_page(locale="en-US")
    english.goto(f"{site.url}/")
    assert english.locator("h1").inner_text() == "Lobby"


def test_every_page_has_a_strict_policy_and_docs_stay(site: Site) -> None:
    for path in ("/", "/replay", "/stats"):
        answer = httpx.get(site.url + path)
        assert answer.status_code == 200
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "script-src 'self';" in policy and "unsafe" not in policy
    assert httpx.get(site.url + "/docs").status_code == 200
    assert httpx.get(site.url + "/redoc").status_code == 200
    assert httpx.get(site.url + "/lang/fr", params={"next": "//elsewhere.example/"}).headers["location"] == "/"
    assert "/" not in httpx.get(site.url + "/openapi.json").json()["paths"]
