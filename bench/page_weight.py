"""The seat page's weight and render time, measured in Debian's Chromium (headless, driven by Playwright).

Starts the referee as `make run` does (uvicorn, one worker, a fresh SQLite store), creates a game of three seats
(one person, two bots) and plays a few turns so the table has cards on it, then opens that person's seat page
--loads times, each in a fresh browser context (an empty cache, as a first visit).

- **Weight**: every script and stylesheet the page loads (the page's own modules and its one stylesheet) and the
  card art of every ruleset (web/static/cards/, more than one page ever draws), each compressed with gzip -9 as a
  server or proxy would send it, added up; the budget is 150 KB. The referee itself serves them uncompressed over
  loopback.
- **Render time**: from the start of navigation to the moment the page has drawn the seat's hand, moves, table
  and story for the first time (a `performance.mark` the page sets after its first two API answers are drawn),
  so it includes the HTML, every asset, `GET /games/{id}`, the story, and layout; the budget is 1 s. First
  contentful paint is printed beside it.

    python bench/page_weight.py --loads 20
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
ART = ROOT / "loveletter" / "web" / "static" / "cards"

import httpx  # noqa: E402

from bench.browser_referee import chromium_path, referee  # noqa: E402

ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]  # fmt: skip


def a_game(base: str) -> tuple[str, str]:
    body = {
        "ruleset": "2019",
        "players": [{"name": "Alice"}, {"name": "Bruno", "bot": "heuristic"}, {"name": "Chloé", "bot": "heuristic"}],
        "first_player": "Alice",
    }
    created = httpx.post(f"{base}/games", json=body).json()
    game, token = created["game_id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(3):  # a few turns of Alice (the bots answer at once)
        state = httpx.get(f"{base}/games/{game}", headers=auth).json()
        if state["over"] or not state["legal_moves"]:
            break
        move = {"type": "code", "action_code": state["legal_moves"][0]["action_code"]}
        httpx.post(f"{base}/games/{game}/moves", json=move, headers=auth).raise_for_status()
    return game, token


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--loads", type=int, default=20, help="page loads, each in a fresh browser context")
    args = ap.parse_args()
    chromium = chromium_path()
    from playwright.sync_api import sync_playwright

    with referee("page-weight-") as (base, port):
        game, token = a_game(base)
        url = f"{base}/play/{game}#t={token}"
        renders: list[float] = []
        paints: list[float] = []
        assets: dict[str, bytes] = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=ARGS)
            for _ in range(args.loads):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                loaded: list[str] = []

                def seen(response: Any, loaded: list[str] = loaded) -> None:
                    if response.request.resource_type in ("script", "stylesheet"):
                        loaded.append(response.url)

                page.on("response", seen)
                page.goto(url)
                deadline = time.monotonic() + 10
                while not page.evaluate("performance.getEntriesByName('ll:rendered').length"):
                    if time.monotonic() > deadline:
                        raise SystemExit("the seat page never finished drawing")
                    page.wait_for_timeout(5)
                renders.append(page.evaluate("performance.getEntriesByName('ll:rendered')[0].startTime"))
                fcp = page.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime")
                if fcp:
                    paints.append(fcp)
                for asset in loaded:
                    assets.setdefault(asset, httpx.get(asset).content)
                context.close()
            browser.close()
        art = {f"/static/cards/{p.relative_to(ART).as_posix()}": p for p in sorted(ART.rglob("*.svg"))}
        drawn = {base + path: httpx.get(base + path).content for path in art}

    raw = sum(len(b) for b in assets.values())
    packed = sum(len(gzip.compress(b, 9)) for b in assets.values())
    print(f"seat page scripts and stylesheets: {len(assets)} files")
    for asset, body in sorted(assets.items()):
        print(f"  {asset.split(str(port), 1)[1]:<22} {len(body):>7,} bytes, {len(gzip.compress(body, 9)):>6,} gzip")
    art_raw = sum(len(b) for b in drawn.values())
    art_packed = sum(len(gzip.compress(b, 9)) for b in drawn.values())
    print(f"JS+CSS: {raw:,} bytes, {packed:,} bytes compressed (gzip -9)")
    print(f"card art, every ruleset's: {len(drawn)} files, {art_raw:,} bytes, {art_packed:,} bytes compressed")
    total = packed + art_packed
    verdict = "met" if total <= 150_000 else "MISSED"
    print(f"JS+CSS+art: {raw + art_raw:,} bytes, {total:,} bytes compressed (gzip -9); budget 150 KB: {verdict}")
    renders.sort()
    p95 = renders[min(len(renders) - 1, int(0.95 * len(renders)))]
    print(
        f"seat page drawn (navigation start to hand, moves, table and story drawn), {len(renders)} cold loads: "
        f"median {statistics.median(renders):.0f} ms, p95 {p95:.0f} ms, max {renders[-1]:.0f} ms; "
        f"budget 1000 ms: {'met' if renders[-1] <= 1000 else 'MISSED'}"
    )
    if paints:
        print(f"first contentful paint: median {statistics.median(paints):.0f} ms")


if __name__ == "__main__":
    main()
