"""Click → other seat's page: how long after a player clicks Play the other player's seat page shows the move,
measured in Debian's Chromium (headless, driven by Playwright) against a referee on 127.0.0.1 (issue 24).

Starts the referee as `make run` does (uvicorn, one worker, a fresh SQLite store), creates two-player games of two
people, and opens each seat's page in a browser context of its own, as two players on two machines would. Then,
move after move, the page whose turn it is chooses its first legal move (by its controls: a card, a target, a
guess, a Chancellor's keep) and Play is clicked with the mouse; the time runs from that click (the click event's
own time stamp) to the moment the other seat's page has drawn the new version (`body[data-version]` changed: the
page sets it once the view, the hand, the moves, the table and the story are drawn). Both pages read one clock
(`performance.timeOrigin + performance.now()`); a new game starts when one ends, until `--moves` are measured.

Where the time goes, for the other seat's page (medians): the event reaching its stream (`EventSource`), the wait
before it asks for the new state, its two requests (`GET /games/{id}` and the story), and the drawing after them.
Each page is instrumented by an init script that wraps `EventSource` and `fetch` to note times; the pages
themselves are the ones the referee serves.

    python bench/seat_latency.py --moves 100
    python bench/seat_latency.py --moves 100 --page-wait 0   # an experiment: see below

`--page-wait MS` is an experiment, not a measure of the page as served: the seat page waits 60 ms after an event
reaches its stream before it asks for the new state (it gathers the events of one append into one refresh), and
this serves the page's script with that wait replaced by `MS`, to show what the wait costs. It fails if the script
no longer has that wait.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.browser_referee import chromium_path, referee  # noqa: E402

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--disable-renderer-backgrounding",
        "--disable-background-timer-throttling", "--disable-backgrounding-occluded-windows"]  # fmt: skip

# Notes, on one clock shared by the pages, when the page's stream hands it an event, when each request starts and
# its answer's headers arrive, when the page sets a new version, and when Play is clicked.
PROBE = """
(() => {
  const now = () => performance.timeOrigin + performance.now();
  const notes = (window.__ll = { sse: [], fetches: [], versions: [], clicks: [] });
  const Source = window.EventSource;
  window.EventSource = class extends Source {
    addEventListener(type, listener, options) {
      super.addEventListener(type, (event) => {
        notes.sse.push([Number(event.lastEventId), now()]);
        listener.call(this, event);
      }, options);
    }
  };
  const fetched = window.fetch.bind(window);
  window.fetch = async (resource, init) => {
    const start = now();
    const answer = await fetched(resource, init);
    notes.fetches.push([String(resource), (init && init.method) || "GET", start, now()]);
    return answer;
  };
  document.addEventListener("click", (event) => {
    if (event.target && event.target.id === "play") notes.clicks.push(performance.timeOrigin + event.timeStamp);
  }, true);
  document.addEventListener("DOMContentLoaded", () => {
    new MutationObserver(() => {
      notes.versions.push([Number(document.body.dataset.version), now()]);
    }).observe(document.body, { attributes: true, attributeFilter: ["data-version"] });
  });
})();
"""

# The first legal move by the page's own controls: each first choice, in the order the controls appear.
CHOOSE = """
() => {
  const pick = (name) => {
    const input = document.querySelector(`#moves input[name="${name}"]`);
    if (input && !document.querySelector(`#moves input[name="${name}"]:checked`)) {
      input.checked = true;
      input.dispatchEvent(new Event("change", { bubbles: true }));
    }
  };
  // the card to play, or to keep after a Chancellor, is a card of the hand (a button), unless one is chosen already
  const card = document.querySelector("#hand button.playable");
  if (card && !document.querySelector('#hand button[aria-pressed="true"]')) card.click();
  pick("bottom"); // after the Chancellor: the orders follow the card kept in the hand
  pick("target");
  const guess = document.querySelector("#guess");
  if (guess && !guess.value) guess.value = guess.options[1].value;
}
"""

READY = """
() => document.getElementById("moves").dataset.armed === "yes" && !!document.getElementById("play")
  && !document.getElementById("moves").dataset.busy
"""


def new_game(base: str) -> tuple[str, list[str]]:
    body = {"ruleset": "2019", "players": [{"name": "Alice"}, {"name": "Bruno"}]}
    created = httpx.post(f"{base}/games", json=body).json()
    return created["game_id"], [s["token"] for s in created["seats"]]


def version(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.version || 0)"))


def first_after(pairs: list[list[float]], key: float, at: float = float("-inf")) -> float | None:
    """The time of the first note whose first item is beyond `key`, noted at or after `at`."""
    times = [t for k, t in pairs if k > key and t >= at]
    return min(times) if times else None


WAIT = re.compile(r"(window\.setTimeout\(\(\) => \{ soon = null; refresh\(\); \}, )60(\))")
"""The seat page's wait between an event and its refresh (`--page-wait` replaces it)."""


def with_wait(wait: int) -> Callable[[Any], None]:
    """A Playwright route handler that serves the seat page's script with its 60 ms wait set to `wait`."""

    def serve(route: Any) -> None:
        script, found = WAIT.subn(rf"\g<1>{wait}\g<2>", route.fetch().text())
        if found != 1:
            raise SystemExit("--page-wait: web/static/seat.js no longer has its 60 ms wait before a refresh")
        route.fulfill(body=script, content_type="text/javascript")

    return serve


def measure_game(
    browser: Any,
    base: str,
    game: str,
    tokens: list[str],
    rows: list[dict[str, float]],
    want: int,
    page_wait: int | None = None,
) -> None:
    """Play one game through the two seat pages, adding a row per measured move, until it ends or `want` rows."""
    # bypass_csp: the page allows only its own scripts, and Playwright's waits evaluate theirs
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}, bypass_csp=True) for _ in tokens]
    pages = []
    for context, token in zip(contexts, tokens, strict=True):
        context.add_init_script(PROBE)
        if page_wait is not None:
            context.route("**/static/seat.js", with_wait(page_wait))
        page = context.new_page()
        page.goto(f"{base}/play/{game}#t={token}")
        page.wait_for_function("performance.getEntriesByName('ll:rendered').length > 0", timeout=15_000)
        pages.append(page)
    try:
        while len(rows) < want:
            state = httpx.get(f"{base}/games/{game}").json()
            if state["over"]:
                return
            now = state["version"]
            for page in pages:  # both pages up to date before the click
                page.wait_for_function(f"Number(document.body.dataset.version) >= {now}", timeout=15_000)
            mover = state["view"]["active"]
            page, other = pages[mover], pages[1 - mover]
            page.wait_for_function(READY, timeout=15_000)
            page.evaluate(CHOOSE)
            before = version(other)
            page.click("#play")
            other.wait_for_function(f"Number(document.body.dataset.version) > {before}", timeout=15_000)
            clicked = page.evaluate("window.__ll.clicks.at(-1)")
            notes = other.evaluate("window.__ll")
            shown = first_after(notes["versions"], before, clicked)
            heard = first_after(notes["sse"], before, clicked)
            asks = [f for f in notes["fetches"] if f[2] >= (heard or clicked) and "/presence" not in f[0]]
            own = page.evaluate("window.__ll.fetches.filter((f) => f[0].endsWith('/moves')).at(-1)")
            if shown is None or heard is None or not asks:
                continue  # not a move the other page drew from its stream (cannot happen; skipped, not guessed)
            asked = min(f[2] for f in asks)
            answered = max(f[3] for f in asks if f[2] < shown)
            rows.append(
                {
                    "total": shown - clicked,
                    "post": own[3] - own[2],
                    "stream": heard - clicked,
                    "wait": asked - heard,
                    "requests": answered - asked,
                    "draw": shown - answered,
                }
            )
    finally:
        for context in contexts:
            context.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--moves", type=int, default=100, help="moves to measure (two-player games, as many as needed)")
    ap.add_argument("--page-wait", type=int, default=None, help="an experiment: the seat page's 60 ms wait, in ms")
    args = ap.parse_args()
    chromium = chromium_path()
    from playwright.sync_api import sync_playwright

    rows: list[dict[str, float]] = []
    started = time.monotonic()
    with referee("seat-latency-") as (base, _port), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=ARGS)
        games = 0
        while len(rows) < args.moves:
            game, tokens = new_game(base)
            games += 1
            measure_game(browser, base, game, tokens, rows, args.moves, args.page_wait)
        browser.close()

    totals = sorted(r["total"] for r in rows)
    p90 = totals[min(len(totals) - 1, int(0.9 * len(totals)))]
    wait = "" if args.page_wait is None else f", the seat page's wait set to {args.page_wait} ms (an experiment)"
    print(f"{len(rows)} moves in {games} games ({time.monotonic() - started:.0f} s){wait}")
    print(
        f"click on Play → the other seat's page shows the move: median {statistics.median(totals):.0f} ms, "
        f"p90 {p90:.0f} ms, max {totals[-1]:.0f} ms; goal 100 ms (median): "
        f"{'met' if statistics.median(totals) <= 100 else 'MISSED'}"
    )
    parts = ("post", "stream", "wait", "requests", "draw")
    said = {
        "post": "the mover's POST /moves (its answer)",
        "stream": "click → the event reaches the other page's stream",
        "wait": "the event → the other page asks for the state",
        "requests": "its GET /games/{id} and story, until both answered",
        "draw": "answers → the page has drawn the new version",
    }
    for part in parts:
        print(f"  {said[part]:<52} median {statistics.median(r[part] for r in rows):6.1f} ms")


if __name__ == "__main__":
    main()
