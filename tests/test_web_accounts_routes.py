"""An account in the browser, without a browser (issue 35, docs/web.md "An account in the browser"): the lobby's quick
pairing grid is seeks the referee takes, every page carries the account's bar and script, and the new words are
French as French is printed (a narrow no-break space before « : ; ! ? » and inside the quotes), with no name put
where French would elide it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from loveletter.web.quick import QUICK, clock, quick_pairings, titles
from loveletter.web.words import WORDS
from loveletter.web.words_accounts import ACCOUNT_WORDS
from loveletter.web.words_lobby import LOBBY_WORDS
from tests.servers import serve

ROOT = Path(__file__).resolve().parent.parent
HTML = {"accept": "text/html"}
NNBSP = "\u202f"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("web") / "referee.db"))
    try:
        with serve(Settings(log_level="warning"), store) as url:
            yield url
    finally:
        store.close()


def person(base: str, name: str) -> dict[str, str]:
    made = httpx.post(f"{base}/accounts", json={"name": name, "kind": "person"})
    assert made.status_code == 201, made.text
    return dict(made.json())


def test_each_button_of_the_grid_is_a_rated_seek_the_referee_takes(base: str) -> None:
    """The lobby draws one button per pairing, in both languages; each button's seek is accepted (ruleset, table size
    and clock within the API's bounds), rated, and can be withdrawn."""
    en = httpx.get(f"{base}/", headers=HTML).text
    fr = httpx.get(f"{base}/", headers={**HTML, "accept-language": "fr"}).text
    drawn = re.findall(r'data-ruleset="([^"]+)" data-players="(\d)" data-seconds="(\d+)"', en)
    assert [(r, int(p), int(s)) for r, p, s in drawn] == list(QUICK)
    assert "2 players · 1\u00a0min a turn" in en and "4 joueurs · 1\u00a0min par tour" in fr
    assert "Play a rated game" in en and "Jouer une partie classée" in fr
    zoe = person(base, "Zoé Grid")
    for ruleset, players, seconds in QUICK:
        body = {"key": zoe["key"], "ruleset": ruleset, "players": players, "turn_seconds": seconds, "rated": True}
        made = httpx.post(f"{base}/seeks", json=body)
        assert made.status_code == 201, made.text
        seek = made.json()
        assert (seek["ruleset"], seek["players"], seek["turn_seconds"], seek["rated"], seek["status"]) == (
            ruleset, players, seconds, True, "open")  # fmt: skip
        gone = httpx.delete(f"{base}/seeks/{seek['seek_id']}", headers={"authorization": f"Bearer {zoe['key']}"})
        assert gone.status_code == 200 and gone.json()["status"] == "cancelled"


def test_every_page_carries_the_accounts_bar_and_script(base: str) -> None:
    """Challenges reach every page of the account: each page has the bar (hidden until there is news), the header's
    link to the account, me.js, and the rulesets' titles a challenge is named by."""
    someone = person(base, "Bar Tender")
    host = httpx.post(f"{base}/games", json={"players": [{"name": "A"}, {"name": "B", "bot": "random"}]}).json()
    for path in ("/", "/ladder", f"/accounts/{someone['account_id']}", f"/play/{host['game_id']}", "/replay",
                 "/stats", "/rulings"):  # fmt: skip
        page = httpx.get(base + path, headers=HTML)
        assert page.status_code == 200, path
        text = page.text
        assert '<aside id="account-bar" class="account-bar" aria-labelledby="account-bar-h" hidden>' in text, path
        assert '<script type="module" src="/static/me.js"></script>' in text and 'id="me"' in text, path
        data = json.loads(text.split('<script type="application/json" id="page-data">', 1)[1].split("</script>")[0])
        assert data["ruleset_titles"] == titles("en"), path
    for script in ("me.js", "lobby_account.js", "account_challenge.js", "rated_end.js"):
        served = httpx.get(f"{base}/static/{script}")
        assert served.status_code == 200 and "javascript" in served.headers["content-type"], script
    account = httpx.get(f"{base}/accounts/{someone['account_id']}", headers=HTML).text
    assert 'id="challenge-form"' in account and 'id="playing"' in account


def test_the_accounts_french_words_are_printed_as_french_is() -> None:
    """The new words, and the accounts' words of issue 25 beside them (web/words_accounts.py, set right here)."""
    wrong = {}
    for key, text in ACCOUNT_WORDS.items():
        fr = text.fr
        bad = [m.group(0) for m in re.finditer(r". [:;!?]|« |«[^\u202f]| »|[^\u202f]»", fr)]
        bad += [m.group(0) for m in re.finditer(r"\S[:;!?](?=\s|$)", fr)]  # glued to the word before it
        if bad:
            wrong[key] = bad
    assert wrong == {}
    assert sum(NNBSP in t.fr for t in LOBBY_WORDS.values()) >= 8  # the rule is met, not dodged
    for key, text in LOBBY_WORDS.items():
        assert text.en.count("{name}") == text.fr.count("{name}"), key
        assert not re.search(r"\b(de|le|la|que) \{name\}", text.fr), key  # would elide before a vowel
        assert text.en.strip() == text.en and text.fr.strip() == text.fr, key
    assert set(LOBBY_WORDS) <= set(WORDS)  # in the pages' one catalogue


def test_every_new_word_is_used_by_a_page_a_script_or_the_grid() -> None:
    sources = "".join(p.read_text() for p in (ROOT / "web").rglob("*") if p.suffix in (".html", ".js", ".py"))
    sources = sources.replace((ROOT / "web" / "words_lobby.py").read_text(), "")
    unused = [key for key in LOBBY_WORDS if f'"{key}"' not in sources and f"'{key}'" not in sources]
    assert unused == []


def test_clocks_and_titles_read_as_people_say_them() -> None:
    assert [clock(s, "en") for s in (5, 20, 60, 300, 86_400, 172_800)] == [
        "5\u00a0s", "20\u00a0s", "1\u00a0min", "5\u00a0min", "1\u00a0day", "2\u00a0days"]  # fmt: skip
    assert [clock(s, "fr") for s in (86_400, 172_800)] == ["1\u00a0jour", "2\u00a0jours"]
    assert titles("fr")["2012"] == "Love Letter (édition originale, 16 cartes)"
    grid = quick_pairings("fr")
    assert grid[0] == {"ruleset": "2019", "players": 2, "turn_seconds": 20, "title": "Love Letter (2019, 21 cartes)",
                       "table": "2 joueurs · 20\u00a0s par tour"}  # fmt: skip
    assert len({(b["ruleset"], b["players"], b["turn_seconds"]) for b in grid}) == len(grid)  # no button twice
