"""The OpenAPI pages in a real browser (Debian's Chromium, driven by Playwright), with the network cut off: every
asset comes from the referee, so Swagger UI and ReDoc render every operation with no internet at all."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.needs import need
from tests.servers import serve

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _chromium() -> None:
    need("browser", None if CHROMIUM else "Debian's chromium is not installed")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("browser") / "referee.db"))
    try:
        with serve(Settings(log_level="warning"), store) as url:
            yield url
    finally:
        store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


def offline_page(browser: object, outside: list[str]) -> object:
    """A page whose every request to a host other than 127.0.0.1 is refused (and written down)."""
    page = browser.new_page()  # type: ignore[attr-defined]

    def route(r: object) -> None:
        url = r.request.url  # type: ignore[attr-defined]
        if urlsplit(url).hostname == "127.0.0.1" or url.startswith(("data:", "blob:")):
            r.continue_()  # type: ignore[attr-defined]
        else:
            outside.append(url)
            r.abort()  # type: ignore[attr-defined]

    page.route("**/*", route)
    return page


def test_swagger_ui_renders_every_operation_offline(browser: object, base: str) -> None:
    outside: list[str] = []
    page = offline_page(browser, outside)
    page.goto(f"{base}/docs")  # type: ignore[attr-defined]
    page.wait_for_selector(".opblock", timeout=20_000)  # type: ignore[attr-defined]
    paths = page.locator(".opblock-summary-path").all_inner_texts()  # type: ignore[attr-defined]
    assert len(paths) >= 20 and any("/games/{game_id}/join" in p.replace("\u200b", "") for p in paths), paths
    assert outside == []


def test_redoc_renders_the_api_offline(browser: object, base: str) -> None:
    outside: list[str] = []
    page = offline_page(browser, outside)
    page.goto(f"{base}/redoc")  # type: ignore[attr-defined]
    page.get_by_text("/games/{game_id}/join").first.wait_for(timeout=30_000)  # type: ignore[attr-defined]
    assert "Love Letter Referee" in page.title()  # type: ignore[attr-defined]
    assert outside == []


def test_the_pages_name_no_outside_host(base: str) -> None:
    import re

    import httpx

    for path in ("/docs", "/redoc"):
        answer = httpx.get(f"{base}{path}")
        assert answer.headers["content-security-policy"].startswith("default-src 'self'")
        html = answer.text
        refs = re.findall(r'(?:src|href)="([^"]+)"', html)
        assert refs and all(ref.startswith("/assets/docs/") for ref in refs), refs
        assert "googleapis" not in html and "cdn" not in html.lower()
