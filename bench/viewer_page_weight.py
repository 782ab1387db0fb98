"""The replay viewer's and the statistics page's weight, and the viewer's time to its first position, in Chromium.

Starts the referee as `make run` does (uvicorn, one worker, a fresh SQLite store), has three heuristic bots play a
game to its end, then opens `/replay/<game>` --loads times, each in a fresh browser context (an empty cache):

- **Weight**: every script and stylesheet each page loads, compressed with gzip -9 as a server or proxy would send
  it, added up (the seat page's budget, 150 KB, is the yardstick).
- **First position drawn**: from the start of navigation to the moment the viewer has drawn its first position (a
  `performance.mark` set after the log, `POST /replays/views` and `POST /audits` have answered and the table and
  story are drawn): the HTML, every asset, the log's download, the server's views of every position and the audit.
- **Views answer**: the size of `POST /replays/views` for that game (every position of one point of view).

    python bench/viewer_page_weight.py --loads 10
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.browser_referee import chromium_path, referee  # noqa: E402

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


def assets_of(page: Any, url: str) -> dict[str, bytes]:
    loaded: list[str] = []
    page.on("response", lambda r: loaded.append(r.url) if r.request.resource_type in ("script", "stylesheet") else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return {asset: httpx.get(asset).content for asset in loaded}


def report(name: str, assets: dict[str, bytes], port: int) -> None:
    raw = sum(len(b) for b in assets.values())
    packed = sum(len(gzip.compress(b, 9)) for b in assets.values())
    print(f"{name}: {len(assets)} scripts and stylesheets")
    for asset, body in sorted(assets.items()):
        print(f"  {asset.split(str(port), 1)[1]:<22} {len(body):>7,} bytes, {len(gzip.compress(body, 9)):>6,} gzip")
    print(f"{name} JS+CSS: {raw:,} bytes, {packed:,} bytes compressed (gzip -9); budget 150 KB: "
          f"{'met' if packed <= 150_000 else 'MISSED'}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--loads", type=int, default=10, help="viewer loads, each in a fresh browser context")
    args = ap.parse_args()
    chromium = chromium_path()
    from playwright.sync_api import sync_playwright

    with referee("viewer-weight-") as (base, port):
        bots = [{"name": n, "bot": "heuristic"} for n in ("Alice", "Bruno", "Chloé")]
        game = httpx.post(f"{base}/games", json={"ruleset": "2019", "players": bots}).json()["game_id"]
        log = httpx.get(f"{base}/games/{game}/log").text
        events = len(log.strip().splitlines()) - 2
        start = time.perf_counter()
        views = httpx.post(f"{base}/replays/views", json={"log": log, "pov": 0}, timeout=60)
        views_ms = (time.perf_counter() - start) * 1000
        drawn: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            report("stats page", assets_of(context.new_page(), f"{base}/stats"), port)
            viewer_assets = assets_of(context.new_page(), f"{base}/replay")
            context.close()
            for n in range(args.loads):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                page.goto(f"{base}/replay/{game}?pov={n % 3}")  # a new point of view each time: no cached answer
                deadline = time.monotonic() + 30
                while not page.evaluate("performance.getEntriesByName('ll:replay-drawn').length"):
                    if time.monotonic() > deadline:
                        raise SystemExit("the viewer never drew its first position")
                    page.wait_for_timeout(5)
                drawn.append(page.evaluate("performance.getEntriesByName('ll:replay-drawn')[0].startTime"))
                context.close()
            browser.close()
    report("replay viewer", viewer_assets, port)
    body = views.content
    print(f"POST /replays/views, one point of view of a {events}-event game: {len(body):,} bytes "
          f"({len(gzip.compress(body, 9)):,} gzip), {views_ms:.0f} ms the first time")  # fmt: skip
    order = list(drawn)
    drawn.sort()
    print(f"viewer's first position drawn (navigation start to table and story, log, views and audit included), "
          f"{len(drawn)} cold loads: median {statistics.median(drawn):.0f} ms, max {drawn[-1]:.0f} ms "
          f"(each: {', '.join(f'{d:.0f}' for d in order)} ms; the first three compute their point of view, "
          "later ones find it cached)")  # fmt: skip


if __name__ == "__main__":
    main()
