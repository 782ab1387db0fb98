"""Browser tests of the web pages: Debian's Chromium driven by Playwright against a real referee on 127.0.0.1.

Fixtures: `site` (a referee in a background thread on its own SQLite file, which a test may stop and start again
on the same port to drop every connection), `browser` (Chromium from `executable_path`), `new_page` (a page in a
fresh browser context — its own localStorage and cookies, like another person's browser — whose every request to
another host is refused and fails the test) and `shot` (a screenshot, into `LOVELETTER_SCREENSHOTS` when set, e.g.
docs/screenshots, else into the test's temporary folder).
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import uvicorn

from loveletter.events.pgcluster import free_port
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.app import create_app
from loveletter.server.settings import Settings
from tests.needs import need
from tests.servers import STARTUP_SECONDS, _Server

CHROMIUM = shutil.which("chromium")
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}


def _need_chromium() -> None:
    need("browser", None if CHROMIUM else "Debian's chromium is not installed")


class Site:
    """A referee on a fixed port of 127.0.0.1 that can be stopped (every open stream is cut) and started again
    on the same store."""

    def __init__(self, path: Path) -> None:
        self.store = SqliteStore(str(path))
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        app = create_app(Settings(log_level="warning"), self.store)
        config = uvicorn.Config(
            app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            access_log=False,
            timeout_graceful_shutdown=1,  # open event streams are cut, as a crash or a network drop would
        )
        self._server = server = _Server(config)
        self._thread = threading.Thread(target=server.run, name=f"web-{self.port}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + STARTUP_SECONDS
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the referee did not start")
            time.sleep(0.01)

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(10)
            self._server = None

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        answer = httpx.post(f"{self.url}/games", json=body)
        assert answer.status_code == 201, answer.text
        result: dict[str, Any] = answer.json()
        return result


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    _need_chromium()
    running = Site(tmp_path_factory.mktemp("web") / "referee.db")
    running.start()
    try:
        yield running
    finally:
        running.stop()
        running.store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


def outside_router() -> tuple[list[str], Callable[[Any], None]]:
    """A Playwright route handler that lets requests to 127.0.0.1 through and aborts (and lists) any other."""
    outside: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        if urlsplit(url).hostname == "127.0.0.1" or url.startswith(("data:", "blob:")):
            r.continue_()
        else:
            outside.append(url)
            r.abort()

    return outside, route


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """`new_page(locale="fr-FR", viewport=PHONE)`: a page in a browser context of its own. Any request to a host
    other than 127.0.0.1 is aborted and fails the test at its end."""
    outside, route = outside_router()
    contexts: list[Any] = []

    def make(locale: str = "en-GB", viewport: dict[str, int] | None = None) -> Any:
        context = browser.new_context(locale=locale, viewport=viewport or WIDE)
        context.route("**/*", route)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        return page

    yield make
    for context in contexts:
        context.close()
    assert outside == [], f"the pages asked another host: {outside}"


def wait_until(page: Any, expression: str, arg: Any = None, timeout: float = 15.0) -> Any:
    """Poll `expression` (a JavaScript function of `arg`) until it is truthy. Playwright's own `wait_for_function`
    evaluates its predicate with `eval`, which the pages' Content-Security-Policy rightly refuses."""
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(25)


def wait_held(page: Any, held: Callable[[], bool], timeout: float = 15.0) -> None:
    """Wait until the test's own router holds the requests `held()` looks for. The page's routes are served only
    while Playwright waits, so this waits through the page rather than sleeping."""
    deadline = time.monotonic() + timeout
    while not held():
        if time.monotonic() > deadline:
            raise AssertionError(f"the page's requests were not held after {timeout} s")
        page.wait_for_timeout(20)


def switch_language(page: Any, name: str) -> None:
    """Click the page's language link, which sets a cookie and reloads: return once the new page has loaded, so
    that nothing reads the document while it is being replaced."""
    with page.expect_navigation():
        page.get_by_role("link", name=name).click()


ARMED = "() => document.getElementById('moves').dataset.armed === 'yes'"


def play_first(page: Any) -> None:
    """Choose the first legal choice of each control, as a player pointing would once the controls have settled
    (nothing is pre-selected), play it, and wait for the answer."""
    wait_until(page, ARMED)
    cards = page.locator("#hand button.playable")  # the card to play, or the Chancellor's to keep: a card of the hand
    if cards.count() and not page.locator('#hand button[aria-pressed="true"]').count():
        cards.first.click()
    for name in ("target", "bottom"):
        group = page.locator(f'#moves input[name="{name}"]')
        if group.count() and not page.locator(f'#moves input[name="{name}"]:checked').count():
            group.first.check()
    if page.locator("#guess").count():
        page.select_option("#guess", index=1)  # the first card named; the list starts with an empty choice
    before = page.evaluate("Number(document.body.dataset.version)")
    page.click("#play")
    wait_until(page, "(v) => Number(document.body.dataset.version) > v", before)


@pytest.fixture
def shot(tmp_path: Path) -> Callable[[Any, str], Path]:
    """`shot(page, "lobby-en-wide")`: a full-page PNG screenshot."""
    folder = Path(os.environ.get("LOVELETTER_SCREENSHOTS") or tmp_path)

    def take(page: Any, name: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
