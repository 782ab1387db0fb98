"""The replay and dispute viewer in Chromium: stepping with the keys and the slider, switching the point of view,
never a card the point of view may not know (checked at every position against `core`'s own view and against the
referee's `GET /games/{id}/state?at=`), a tampered log's first problem, a ruling asked from the page, French, the
keyboard alone, and axe-core."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

from loveletter.core.cards import Card
from loveletter.core.catalogue import CardPlayed, Event
from loveletter.events.log import game_lines
from loveletter.replays.audit import Options, audit_lines
from tests.browser.conftest import Site, wait_until
from tests.browser.knowledge import check, published_events, snapshot
from tests.servers import COUNTESS_DEAL

ROOT = Path(__file__).resolve().parents[2]

# Alice holds the Guard and draws the Priest; Bob holds the Baron (as in test_web_seat).
GUARD_DEAL: dict[str, Any] = {
    **COUNTESS_DEAL,
    "hands": ["guard", "baron"],
    "deck": ["priest", "prince", "spy", "chancellor", "king", "handmaid", "prince", "guard", "priest", "baron",
             "chancellor", "princess", "guard", "countess", "handmaid"],
}  # fmt: skip


class Finished:
    def __init__(self, game: str, alice: str, events: list[Event], log: bytes) -> None:
        self.game, self.alice, self.events, self.log = game, alice, events, log


@pytest.fixture(scope="module")
def finished(site: Site) -> Finished:
    """Alice against the heuristic bot Bob, from the Guard deal, Alice always playing her first legal move."""
    created = site.create(
        {
            "ruleset": "2019",
            "players": [{"name": "Alice"}, {"name": "Bob", "bot": "heuristic"}],
            "first_player": "Alice",
            "scenario": {"deals": [GUARD_DEAL]},
        }
    )
    game, alice = created["game_id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {alice}"}
    for _ in range(200):
        state = httpx.get(f"{site.url}/games/{game}", headers=auth).json()
        if state["over"]:
            break
        if state["legal_moves"]:
            move = {"type": "code", "action_code": state["legal_moves"][0]["action_code"]}
            assert httpx.post(f"{site.url}/games/{game}/moves", json=move, headers=auth).status_code == 200
    log = httpx.get(f"{site.url}/games/{game}/log").content
    return Finished(game, alice, published_events(site.url, game), log)


def at(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.version)"))


def open_viewer(page: Any, site: Site, path: str) -> None:
    page.goto(site.url + path)
    wait_until(page, "() => document.body.dataset.version && !document.getElementById('viewer').hidden")


def test_the_viewer_steps_with_the_keys_and_the_slider(
    site: Site, finished: Finished, new_page: Callable[..., Any]
) -> None:
    page = new_page()
    open_viewer(page, site, f"/replay/{finished.game}?at=3&pov=spectator")
    last = len(finished.events)
    assert at(page) == 3
    assert page.locator("#where").inner_text().startswith("round 1, Alice")
    page.keyboard.press("ArrowRight")
    assert at(page) == 4
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert at(page) == 2
    page.keyboard.press("End")
    assert at(page) == last
    page.keyboard.press("ArrowRight")  # no further than the end
    assert at(page) == last
    page.keyboard.press("Home")
    assert at(page) == 1
    slider = page.locator("#at")
    slider.focus()
    page.keyboard.press("End")  # the slider's own keys
    assert at(page) == last and slider.input_value() == str(last)
    slider.fill("7")
    assert at(page) == 7
    assert "at=7" in page.url and "pov=spectator" in page.url
    page.keyboard.press("v")  # the next point of view: Alice
    wait_until(page, "() => document.body.dataset.pov === '0'")
    assert at(page) == 7 and "pov=0" in page.url
    assert page.locator("#hand [data-card]").count() >= 1
    page.keyboard.press("?")
    assert page.locator("#help").is_visible()
    page.keyboard.press("Escape")
    assert not page.locator("#help").is_visible()
    shared = page.url  # a shareable link opens the same position and point of view
    other = new_page()
    open_viewer(other, site, shared.removeprefix(site.url))
    assert at(other) == 7 and other.evaluate("document.body.dataset.pov") == "0"
    assert other.locator("#hand").inner_text() == page.locator("#hand").inner_text()


def test_no_point_of_view_shows_a_card_it_may_not_know(
    site: Site, finished: Finished, new_page: Callable[..., Any]
) -> None:
    """Every position, from the spectator and from each seat, is exactly what that seat knew (core's view, and the
    story told up to there), and Alice's matches the referee's own `GET /games/{id}/state?at=` with her token."""
    page = new_page()
    open_viewer(page, site, f"/replay/{finished.game}?at=1&pov=spectator")
    total = len(finished.events)
    auth = {"Authorization": f"Bearer {finished.alice}"}
    checked = 0
    for pov, seat in (("spectator", None), ("0", 0), ("1", 1)):
        page.select_option("#pov", pov)
        wait_until(page, "(p) => document.body.dataset.pov === p", pov)
        page.locator("#first").click()
        for position in range(1, total + 1):
            assert at(page) == position
            shown = snapshot(page)
            check(shown, finished.events, seat, "en")
            if seat == 0 and position % 5 == 0:
                served = httpx.get(f"{site.url}/games/{finished.game}/state", params={"at": position}, headers=auth)
                view = served.json()["view"]
                assert shown["hand"] == view["hand"]
                assert [s["known"] for s in shown["seats"]] == [
                    [s["known_hand"]] if s["known_hand"] else [] for s in view["seats"]
                ]
            checked += 1
            page.keyboard.press("ArrowRight")
    assert checked == 3 * total
    page.select_option("#pov", "all")  # everything, once the game is over: every hand at the end
    wait_until(page, "() => document.body.dataset.pov === 'all'")
    state = httpx.get(f"{site.url}/games/{finished.game}/state", params={"at": at(page), "full": "true"}).json()
    hands = page.locator("#players .hand-of").evaluate_all(
        "(boxes) => boxes.map((b) => [...b.querySelectorAll('[data-card]')].map((e) => e.dataset.card))"
    )
    assert hands == state["state"]["hands"]


def _tampered(log: bytes) -> tuple[bytes, int]:
    """The log with its first played card's name edited by hand: answers the log and that line's seq."""
    lines = log.split(b"\n")
    for i, line in enumerate(lines):
        if b'"type":"card_played"' in line:
            card = line.split(b'"card":"')[1].split(b'"')[0]
            other = b"princess" if card != b"princess" else b"guard"
            lines[i] = line.replace(b'"card":"' + card + b'"', b'"card":"' + other + b'"', 1)
            return b"\n".join(lines), int(line.split(b'"seq":')[1].split(b",")[0])
    raise AssertionError("no card was played")


def test_a_tampered_logs_first_problem_is_shown_with_its_rule(
    site: Site, finished: Finished, new_page: Callable[..., Any]
) -> None:
    tampered, seq = _tampered(finished.log)
    (audited,) = audit_lines(tampered.splitlines(), Options())  # what the audit itself says, independently
    first = audited.problems[0]
    page = new_page()
    page.goto(f"{site.url}/replay")
    upload = {"name": "game.jsonl", "mimeType": "application/x-ndjson", "buffer": tampered}
    page.set_input_files("#file", files=[upload])
    wait_until(page, "() => !document.getElementById('first-problem').hidden")
    assert page.locator("#verdict-text").inner_text().startswith("Invalid")
    assert page.locator("#problem-rule-id").inner_text() == first.rule_id
    assert page.locator("#problem-seq").inner_text() == str(first.seq)
    assert first.seq in (seq, seq + 1)  # the edited line, or the next whose hash no longer matches it
    assert page.locator("#problem-rule").inner_text()  # the rule's text, from core
    assert page.locator("#problem-mark").is_visible()
    page.click("#goto-problem")
    assert at(page) == min(first.seq, page.evaluate("Number(document.getElementById('at').max)"))


def test_a_ruling_asked_from_the_viewer_cites_the_rule(
    site: Site, finished: Finished, new_page: Callable[..., Any]
) -> None:
    """At event 3 Alice holds the Guard and the Priest (the deal above): naming a Guard with the Guard is refused
    by guard.guess (a hand-checked rule of 2019), and the Priest on Bob is legal."""
    page = new_page(locale="fr-FR")
    open_viewer(page, site, f"/replay/{finished.game}?at=3&pov=0")
    assert page.locator("#wi-player").input_value() == "0"  # the player to move is proposed
    page.select_option("#wi-card", "guard")
    page.select_option("#wi-target", "1")
    page.select_option("#wi-guess", "guard")
    page.click("#ask")
    ruling = page.locator("#ruling")
    wait_until(page, "() => !document.getElementById('ruling').hidden")
    assert ruling.locator(".rule-id").inner_text() == "guard.guess"
    assert "Refusé" in ruling.inner_text() and "Garde" in ruling.inner_text()
    page.select_option("#wi-card", "priest")
    page.select_option("#wi-guess", "")
    page.click("#ask")
    wait_until(page, "() => document.getElementById('ruling').classList.contains('legal')")
    assert "Permis" in ruling.inner_text()


def test_a_transcripts_dispute_settled_from_the_viewer(site: Site, new_page: Callable[..., Any]) -> None:
    """examples/reader-question.json: Thibault is protected by the Handmaid, so Claire's Prince on him after event 5
    is refused by target.protected (RULINGS §5, the example of docs/audit.md)."""
    page = new_page()
    page.goto(f"{site.url}/replay")
    page.set_input_files("#file", str(ROOT / "examples" / "reader-question.json"))
    wait_until(page, "() => document.body.dataset.version && !document.getElementById('viewer').hidden")
    assert page.locator("#verdict-text").inner_text().startswith("Valid")
    options = page.locator("#pov option").evaluate_all("(os) => os.map((o) => o.value)")
    assert options == ["spectator", "0", "1"]  # no "everything": the round is not over
    page.locator("#first").click()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    assert at(page) == 5
    page.select_option("#wi-player", "0")
    page.select_option("#wi-card", "prince")
    page.select_option("#wi-target", "1")
    page.select_option("#wi-guess", "")
    page.click("#ask")
    wait_until(page, "() => !document.getElementById('ruling').hidden")
    assert page.locator("#ruling .rule-id").inner_text() == "target.protected"
    assert "Refused" in page.locator("#ruling").inner_text() and "Rulings §5" in page.locator("#ruling").inner_text()
    ruling = page.locator("#ruling .sources a").first
    assert (ruling.inner_text(), ruling.get_attribute("href")) == ("Rulings §5", "/rulings#s5")


def test_a_chancellors_return_asked_from_the_viewer(site: Site, new_page: Callable[..., Any]) -> None:
    """Alice holds the Chancellor and draws the Prince, plays the Chancellor and draws the Guard and the Priest: at
    event 5 her decision is what to keep. Keeping a Princess she does not hold is refused (chancellor.return, her
    three cards named); keeping the Prince with the other two under the deck is legal."""
    deal = {**GUARD_DEAL, "hands": ["chancellor", "handmaid"]}
    deal["deck"] = ["prince", "guard", "priest", "baron", "spy", "countess", "king", "handmaid", "prince", "guard",
                    "priest", "baron", "chancellor", "princess", "guard"]  # fmt: skip
    deal["face_up"], deal["set_aside"] = ["guard", "guard", "spy"], "guard"
    created = site.create(
        {
            "ruleset": "2019",
            "players": [{"name": "Alice"}, {"name": "Bob", "bot": "heuristic"}],
            "first_player": "Alice",
            "scenario": {"deals": [deal]},
        }
    )
    game, auth = created["game_id"], {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    first = httpx.post(f"{site.url}/games/{game}/moves", json={"type": "play", "card": "chancellor"}, headers=auth)
    assert first.json()["version"] == 5 and first.json()["view"]["hand"] == ["prince", "guard", "priest"]
    for _ in range(200):
        state = httpx.get(f"{site.url}/games/{game}", headers=auth).json()
        if state["over"]:
            break
        if state["legal_moves"]:
            move = {"type": "code", "action_code": state["legal_moves"][0]["action_code"]}
            httpx.post(f"{site.url}/games/{game}/moves", json=move, headers=auth)
    page = new_page()
    open_viewer(page, site, f"/replay/{game}?at=5&pov=0")
    assert page.locator("#wi-kind").input_value() == "return" and page.locator("#wi-keep").is_visible()
    page.select_option("#wi-keep", "princess")
    page.select_option("#wi-bottom-0", "guard")
    page.select_option("#wi-bottom-1", "priest")
    page.click("#ask")
    wait_until(page, "() => document.getElementById('ruling').classList.contains('illegal')")
    ruling = page.locator("#ruling")
    assert ruling.locator(".rule-id").inner_text() == "chancellor.return"
    assert "(Prince, Guard, Priest)" in ruling.inner_text()
    page.select_option("#wi-keep", "prince")
    page.click("#ask")
    wait_until(page, "() => document.getElementById('ruling').classList.contains('legal')")


def test_french_story_and_keyboard_only(site: Site, finished: Finished, new_page: Callable[..., Any]) -> None:
    page = new_page(locale="fr-FR")
    open_viewer(page, site, f"/replay/{finished.game}?at=12&pov=1")
    assert page.locator("h2#controls-h").inner_text() == "Position"
    assert page.locator("label[for=pov]").inner_text() == "Point de vue"
    check(snapshot(page), finished.events, 1, "fr")  # the story told in French, Bob's cards only
    page.keyboard.press("Tab")  # the skip link, then the whole page by Tab alone
    reached = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id"))
    assert {"pov", "at", "next", "wi-card", "ask"} <= reached
    page.locator("#at").focus()
    page.keyboard.press("ArrowLeft")
    assert at(page) == 11


def test_axe_finds_nothing_serious_in_the_viewer(site: Site, finished: Finished, new_page: Callable[..., Any]) -> None:
    source = (Path(pytest.importorskip("axe_playwright_python").__file__).parent / "axe.min.js").read_text()
    found = {}
    for name, path in (("upload", "/replay"), ("game", f"/replay/{finished.game}?at=20&pov=0")):
        page = new_page()
        page.goto(site.url + path)
        if name == "game":
            wait_until(page, "() => document.body.dataset.version")
        page.evaluate(source)  # axe is given to the page by the test, never served by the app
        violations, passes = page.evaluate(
            "async () => { const r = await axe.run(document); return [r.violations, r.passes.length]; }"
        )
        assert passes > 10
        found[name] = [f"{v['id']} ({v['impact']})" for v in violations if v["impact"] in ("serious", "critical")]
    assert found == {"upload": [], "game": []}


def test_an_unfinished_game_is_not_replayed(site: Site, new_page: Callable[..., Any]) -> None:
    created = site.create({"ruleset": "2019", "players": [{"name": "Alice"}, {"name": "Bob"}]})
    page = new_page()
    page.goto(f"{site.url}/replay/{created['game_id']}")
    page.locator("#problem").wait_for(state="visible")
    assert "published when the game is over" in page.locator("#problem").inner_text()


def test_a_forged_log_under_its_old_signature_shows_every_finding_at_its_position(
    site: Site, finished: Finished, new_page: Callable[..., Any]
) -> None:
    """A Guard's guess changed to the Guard itself, the chain recomputed, the old signature line kept: the rules
    are judged still, and each finding is shown and marked at its own position — the signature at the last."""
    events = list(finished.events)
    i = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.guess is not None)
    guard = events[i]
    assert isinstance(guard, CardPlayed)
    events[i] = dataclasses.replace(guard, guess=Card("guard"))
    old_signature = finished.log.rstrip(b"\n").splitlines()[-1]
    forged = b"".join(line + b"\n" for line in game_lines(events)) + old_signature + b"\n"
    (audited,) = audit_lines(forged.splitlines(), Options())  # what the audit itself says, independently
    assert [(p.rule_id, p.seq) for p in audited.problems] == [("guard.guess", i + 1), ("log.signature", None)]
    page = new_page()
    page.goto(f"{site.url}/replay")
    page.set_input_files("#file", files=[{"name": "f.jsonl", "mimeType": "application/x-ndjson", "buffer": forged}])
    wait_until(page, "() => !document.getElementById('first-problem').hidden")
    count = int(page.evaluate("Number(document.getElementById('at').max)"))
    assert count == len(events)
    assert page.locator("#problem-rule-id").inner_text() == "guard.guess"
    assert page.locator("#problem-seq").inner_text() == str(i + 1)
    more = page.locator("#more-problems li")
    assert more.count() == 1 and "log.signature" in more.inner_text() and "end of the log" in more.inner_text()
    assert more.get_attribute("data-position") == str(count)  # the log's end, not a line past the positions
    assert page.locator("#more-marks .problem-mark").get_attribute("data-position") == str(count)
    page.click("#goto-problem")
    assert at(page) == i + 1
    more.locator("button").click()
    assert at(page) == count
