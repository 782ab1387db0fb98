"""A rule a person can look up: the referee serves its rulings (`GET /rulings`, in the visitor's language, every
anchor of docs/rulings.md on it, nothing from another host), and every answer that cites a rule's sources names
them by what they are, with links that resolve on that same referee: a refused move's problem, `POST /rulings`.
Against a real server (uvicorn in a thread, SQLite), with httpx."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.servers import COUNTESS_DEAL, serve

ROOT = Path(__file__).resolve().parent.parent
RULINGS_MD = (ROOT / "docs" / "rulings.md").read_text("utf-8")
READER = json.loads((ROOT / "examples" / "reader-question.json").read_text())
SEED_NAME = re.compile(r"\d{3}_[0-9a-f]{16}\.txt")

# countess.forced, hand-checked against core/rules.py: RULINGS §5, then the French and English 2019 rulebooks.
COUNTESS_SOURCES_EN = [
    {"text": "Rulings §5", "href": "/rulings#s5"},
    {"text": "Love Letter (2019), French rulebook", "href": "/rulings#sources"},
    {"text": "Love Letter (2019), English rules", "href": "/rulings#sources"},
]
COUNTESS_SOURCES_FR = [
    {"text": "Décisions §5", "href": "/rulings#s5"},
    {"text": "Love Letter (2019), règles françaises", "href": "/rulings#sources"},
    {"text": "Love Letter (2019), règles anglaises", "href": "/rulings#sources"},
]
# target.protected adds the reader's question on the French rules web page.
PROTECTED_SOURCES_FR = [
    *COUNTESS_SOURCES_FR,
    {"text": "une page web de règles pour l'édition 2019, avec la question d'un lecteur", "href": "/rulings#sources"},
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("rulings") / "referee.db"))
    try:
        with serve(Settings(log_level="warning"), store) as url:
            yield url
    finally:
        store.close()


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def _anchors_of_the_docs_page() -> set[str]:
    """Every `{#anchor}` docs/rulings.md gives a heading: the anchors a link into the rulings may name."""
    return set(re.findall(r"\{#([a-z0-9-]+)\}", RULINGS_MD))


def test_the_rulings_page_in_english_has_every_anchor_and_only_english(base: str) -> None:
    page = httpx.get(f"{base}/rulings", headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert '<html lang="en">' in html
    assert "<title>Rulings — Love Letter Referee</title>" in html
    anchors = _anchors_of_the_docs_page()
    assert {"sources", *(f"s{n}" for n in range(1, 13)), "s5-all-protected"} <= anchors
    assert anchors - _ids(html) == set()
    assert '<h2 id="s5">§5 The cards</h2>' in html
    assert '<h3 id="s5-all-protected">When every other player is protected</h3>' in html
    assert "Décision :" not in html and "Jeux de règles" not in html and "**EN**" not in html
    assert SEED_NAME.search(html) is None
    assert "Love Letter (2019), English rules" in html  # the sources, by name
    assert '<a href="/rulings" aria-current="page">Rulings</a>' in html  # in the header, as the current page


def test_the_rulings_page_in_french_by_the_browser_or_by_the_cookie(base: str) -> None:
    by_browser = httpx.get(f"{base}/rulings", headers={"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}).text
    by_cookie = httpx.get(f"{base}/rulings", cookies={"lang": "fr"}, headers={"Accept-Language": "en"}).text
    assert by_browser == by_cookie
    html = by_cookie
    assert '<html lang="fr">' in html
    assert "<title>Décisions d&#39;arbitrage — Arbitre de Love Letter</title>" in html
    assert _anchors_of_the_docs_page() - _ids(html) == set()
    assert '<h2 id="s5">§5 Les cartes</h2>' in html
    assert '<h3 id="s5-all-protected">Quand tous les autres joueurs sont protégés</h3>' in html
    assert '<h3 id="s11-tie-2012"><code>tie_2012</code>: une égalité que la défausse ne départage pas</h3>' in html
    assert "Decision:" not in html and "The cards" not in html and "**FR**" not in html
    english = httpx.get(f"{base}/rulings", cookies={"lang": "en"}, headers={"Accept-Language": "fr"}).text
    assert '<html lang="en">' in english  # the cookie wins over the browser


def test_the_rulings_page_is_served_offline_with_the_pages_policy(base: str) -> None:
    page = httpx.get(f"{base}/rulings")
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    assert "Cookie" in page.headers["vary"]
    outside = re.findall(r'(?:src|href)="((?:https?:)?//[^"]*)"', page.text)
    assert outside == []
    article = page.text.split('<article class="rulings">')[1].split("</article>")[0]
    links = set(re.findall(r'href="([^"]*)"', article))
    assert links and all(link.startswith("#") for link in links), links  # no docs page the referee does not serve
    assert {link[1:] for link in links} - _ids(article) == set()  # and each link inside the page lands
    css = httpx.get(f"{base}/static/app.css")
    assert css.status_code == 200 and ".rulings" in css.text
    paths = httpx.get(f"{base}/openapi.json").json()["paths"]
    assert set(paths["/rulings"]) == {"post"}  # the page is not an operation of the API


def _refused_prince(base: str, lang: str) -> httpx.Response:
    """Alice holds the Countess and draws a Prince: the rules make her play the Countess, the Prince is refused."""
    body = {"players": [{"name": "Alice"}, {"name": "Bob"}], "scenario": {"deals": [COUNTESS_DEAL]}}
    created = httpx.post(f"{base}/games", json=body).json()
    game, alice = created["game_id"], created["seats"][0]["token"]
    return httpx.post(
        f"{base}/games/{game}/moves",
        json={"type": "play", "card": "prince", "target": "Bob"},
        headers={"Authorization": f"Bearer {alice}", "Accept-Language": lang},
    )


def test_a_refused_move_names_its_rules_sources_with_links_in_english_and_french(base: str) -> None:
    en, fr = _refused_prince(base, "en"), _refused_prince(base, "fr")
    assert en.status_code == fr.status_code == 422, en.text
    assert en.json()["rule_id"] == fr.json()["rule_id"] == "countess.forced"
    assert en.json()["rule_sources"] == COUNTESS_SOURCES_EN
    assert fr.json()["rule_sources"] == COUNTESS_SOURCES_FR
    page = httpx.get(f"{base}/rulings").text
    for source in en.json()["rule_sources"]:
        path, _, anchor = source["href"].partition("#")
        assert httpx.get(base + path).status_code == 200 and anchor in _ids(page), source


def test_post_rulings_keeps_the_ids_and_adds_the_names(base: str) -> None:
    answer = httpx.post(
        f"{base}/rulings",
        json={"log": READER, "at": 5, "move": {"card": "prince", "target": "Thibault"}, "lang": "fr"},
    ).json()
    assert answer["sources"] == [
        "RULINGS §5",
        "000_91a7d2231e64ad36.txt",
        "003_0fc648c025107d8d.txt",
        "001_d78694f395ea141b.txt",
    ]
    assert answer["rule_sources"] == PROTECTED_SOURCES_FR
    english = httpx.post(
        f"{base}/rulings", json={"log": READER, "at": 5, "move": {"card": "prince", "target": "Thibault"}}
    ).json()
    assert [s["text"] for s in english["rule_sources"]] == [
        "Rulings §5",
        "Love Letter (2019), French rulebook",
        "Love Letter (2019), English rules",
        "a French rules web page for the 2019 edition, with a reader's question",
    ]
