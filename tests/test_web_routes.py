"""The web pages' server side, without a browser: the French of every word the pages print, the language chosen,
the seat page's story route (each seat's story is its own) and presence (a seat with an open event stream)."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from loveletter.web.words import WORDS
from tests.french import not_french
from tests.servers import COUNTESS_DEAL, serve

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("web") / "referee.db"))
    try:
        with serve(Settings(log_level="warning"), store) as url:
            yield url
    finally:
        store.close()


def test_every_word_of_the_pages_is_french_in_french() -> None:
    allowed = {"API", "Love", "Letter"}
    wrong = {key: not_french(text.fr, allowed) for key, text in WORDS.items()}
    assert {key: words for key, words in wrong.items() if words} == {}
    assert all(text.en and text.fr for text in WORDS.values())


def test_one_read_only_catalogue_holds_every_pages_words_whatever_is_imported() -> None:
    """The viewer's and the statistics page's words are in the catalogue before `web.viewer` is imported (it once
    added them itself), and nobody can add or change one."""
    probe = (
        "import sys\n"
        "from loveletter.web.words import WORDS\n"
        "assert not any(name.startswith('loveletter.web.viewer') for name in sys.modules)\n"
        "print(sorted(WORDS))"
    )
    alone = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert alone.returncode == 0, alone.stderr
    assert alone.stdout.strip() == str(sorted(WORDS))
    assert {"replay.title", "stats.title", "lobby.title", "seat.title"} <= set(WORDS)
    with pytest.raises(TypeError):
        WORDS["replay.title"] = WORDS["lobby.title"]  # type: ignore[index]


IN_TEMPLATE = r"""\bt\[\s*["']([^"']+)["']\s*\]"""
IN_SCRIPT = r"""\bt\(\s*["'`]([^"'`]+)["'`]"""


def test_every_word_a_page_or_its_script_asks_for_is_in_the_catalogue() -> None:
    """The templates' `t["key"]` and the scripts' `t("key")` (keys built at run time, `${…}`, set aside)."""
    asked = set()
    for template in (ROOT / "web" / "templates").glob("*.html"):
        asked |= {(template.name, key) for key in re.findall(IN_TEMPLATE, template.read_text())}
    for script in (ROOT / "web" / "static").glob("*.js"):
        asked |= {(script.name, key) for key in re.findall(IN_SCRIPT, script.read_text())}
    assert len(asked) > 150  # the pages' words, not a pattern that matches nothing
    assert sorted((page, key) for page, key in asked if key not in WORDS and "${" not in key) == []


def test_the_language_is_the_cookie_else_the_browsers(base: str) -> None:
    def lang(**headers: str) -> str:
        html = httpx.get(base + "/", headers=headers).text
        return html.split('<html lang="', 1)[1][:2]

    assert lang() == "en"
    assert lang(**{"accept-language": "fr-CA,fr;q=0.9,en;q=0.5"}) == "fr"
    assert lang(**{"accept-language": "fr", "cookie": "lang=en"}) == "en"
    assert lang(**{"cookie": "lang=fr"}) == "fr"
    assert lang(**{"cookie": "lang=xx", "accept-language": "en"}) == "en"  # a cookie we never set is ignored
    switched = httpx.get(base + "/lang/fr", params={"next": "/play/g_x"})
    assert switched.status_code == 303 and "lang=fr" in switched.headers["set-cookie"]
    assert switched.headers["location"] == "/play/g_x"
    for elsewhere in ("//evil.example/", "/\\evil.example/", "https://evil.example/", "evil"):
        assert httpx.get(base + "/lang/en", params={"next": elsewhere}).headers["location"] == "/"


def test_bad_requests_to_the_pages_are_problems_not_crashes(base: str) -> None:
    page = {"accept-language": "fr", "accept": "text/html,application/xhtml+xml,*/*;q=0.8"}  # what a browser sends
    unknown = httpx.get(base + "/play/g_doesnotexist", headers=page)
    assert unknown.status_code == 404 and unknown.headers["content-type"].startswith("text/html")
    assert "il n'y a pas de partie" in unknown.text.replace("&#39;", "'")
    assert httpx.get(base + "/play/%00").status_code in (400, 404)
    program = httpx.get(base + "/play/g_doesnotexist")  # no text/html in Accept: the usual problem
    assert program.status_code == 404 and program.headers["content-type"] == "application/problem+json"
    assert httpx.get(base + "/web/games/g_doesnotexist/story").status_code == 404
    created = httpx.post(base + "/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}]}).json()
    bad_lang = httpx.get(f"{base}/web/games/{created['game_id']}/story", params={"lang": "de"})
    assert bad_lang.status_code == 422
    wrong_token = httpx.get(
        f"{base}/web/games/{created['game_id']}/story", headers={"Authorization": "Bearer not-a-seat"}
    )
    assert wrong_token.status_code == 403


def test_each_seat_reads_its_own_story_and_a_spectator_the_tables(base: str) -> None:
    body = {
        "players": [{"name": "Alice"}, {"name": "Bob"}],
        "scenario": {"deals": [COUNTESS_DEAL]},
        "first_player": "Alice",
    }
    created = httpx.post(base + "/games", json=body).json()
    game, (alice, bob) = created["game_id"], [s["token"] for s in created["seats"]]

    def story(token: str | None, lang: str = "en") -> list[str]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        answer = httpx.get(f"{base}/web/games/{game}/story", params={"lang": lang}, headers=headers)
        assert answer.status_code == 200
        lines: list[str] = answer.json()["lines"]
        return lines

    # hand-checked from the deal: Alice holds the Countess and draws the Prince; Bob holds the Handmaid
    assert any("Alice is dealt the Countess" in line for line in story(alice))
    assert any("Alice draws the Prince" in line for line in story(alice))
    assert not any("Countess" in line or "Prince" in line for line in story(bob))
    assert any("Bob is dealt the Handmaid" in line for line in story(bob))
    assert not any("Countess" in line or "Handmaid" in line or "Prince" in line for line in story(None))
    assert any("Alice reçoit la Comtesse" in line for line in story(alice, "fr"))


def test_a_seat_is_present_while_its_event_stream_is_open(base: str) -> None:
    created = httpx.post(base + "/games", json={"players": [{"name": "Ann"}, {"name": "Bo"}]}).json()
    game, ann = created["game_id"], created["seats"][0]["token"]

    def present() -> list[bool]:
        answer: list[bool] = httpx.get(f"{base}/web/games/{game}/presence").json()["present"]
        return answer

    def comes_to(expected: list[bool]) -> None:
        """Wait until the presence is `expected`, then check that the story says the same (read once it holds:
        read while a stream opens or closes, the two answers may fall on either side of the change)."""
        deadline = time.monotonic() + 30  # a bound for a busy machine, not a wait
        while present() != expected:
            assert time.monotonic() < deadline, present()
            time.sleep(0.02)
        assert httpx.get(f"{base}/web/games/{game}/story").json()["present"] == expected

    comes_to([False, False])
    with httpx.Client(timeout=10) as client:
        request = client.build_request("GET", f"{base}/games/{game}/stream", params={"token": ann})
        stream = client.send(request, stream=True)
        watcher = client.send(client.build_request("GET", f"{base}/games/{game}/stream"), stream=True)
        assert stream.status_code == 200 and watcher.status_code == 200
        comes_to([True, False])  # Ann's stream makes her present; a spectator's counts for nobody
        stream.close()
        comes_to([False, False])  # gone once her stream is closed
        watcher.close()
