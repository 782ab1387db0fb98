"""Names everywhere: a card written by id, English or French name, or themed name, is read the same way by
transcripts, rulings and the HTTP move body (`"card": "Servante"` is the Handmaid)."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.api.moves import RefereeApp
from loveletter.events.sqlite_store import SqliteStore
from loveletter.replays.rulings import explain
from loveletter.replays.transcript import expand
from loveletter.server.app import create_app
from loveletter.server.settings import Settings
from tests.cli import ROOT
from tests.test_http_games import SCENARIO

READER_QUESTION = json.loads((ROOT / "examples" / "reader-question.json").read_text())


@pytest.fixture
def app(tmp_path: Path) -> Iterator[RefereeApp]:
    store = SqliteStore(str(tmp_path / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", key_path=str(tmp_path / "key"), log_level="warning")
    built = create_app(settings, store)
    assert isinstance(built, RefereeApp)
    try:
        yield built
    finally:
        store.close()


async def _moves(app: RefereeApp, *bodies: dict[str, Any], short: bool) -> list[httpx.Response]:
    """Create a scenario game (Ann holds Guard + Baron, Bob the Priest) and post Ann's moves."""
    saved = app.moves
    app.moves = saved if short else None
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test")
    try:
        created = await client.post(
            "/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "scenario": SCENARIO, "first_player": "Ann"}
        )
        game = created.json()
        headers = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        return [await client.post(f"/games/{game['game_id']}/moves", json=b, headers=headers) for b in bodies]
    finally:
        app.moves = saved
        await client.aclose()


@pytest.mark.parametrize("short", [True, False])
def test_the_move_body_reads_french_and_english_card_names(app: RefereeApp, short: bool) -> None:
    servante, garde = asyncio.run(
        _moves(
            app,
            {"type": "play", "card": "Servante"},  # a name: judged by the rules (Ann holds no Handmaid)
            {"type": "play", "card": "Garde", "target": "Bob", "guess": "Servante"},
            short=short,
        )
    )
    assert servante.status_code == 422, servante.text
    assert servante.json()["code"] == "card_not_in_hand"  # a rules refusal, not an unreadable body
    assert garde.status_code == 200, garde.text


@pytest.mark.parametrize("short", [True, False])
def test_a_card_that_is_no_name_at_all_is_still_an_invalid_body(app: RefereeApp, short: bool) -> None:
    (joker,) = asyncio.run(_moves(app, {"type": "play", "card": "Joker"}, short=short))
    assert joker.status_code == 422 and joker.json()["code"] == "invalid_request"


@pytest.mark.parametrize("card", ["princess", "Princess", "Princesse", "princesse", "Ogre"])
def test_rulings_read_every_name_of_a_card(card: str) -> None:
    events = expand(READER_QUESTION).events
    ruling = explain(events, 5, {"card": card}, "fr")
    assert ruling.legal and ruling.rule_id == "princess.eliminated"


def test_transcripts_read_themed_names_in_every_ruleset() -> None:
    doc = copy.deepcopy(READER_QUESTION)
    doc["rounds"][0]["turns"][0]["play"] = "Oliver the Dragon"
    doc["rounds"][0]["turns"][1].update(play="Prince Vladric", target="Claire")
    assert expand(doc).ok
    doc["ruleset"] = "princess-princess"
    doc["rounds"][0]["turns"][0]["play"] = "Oliver le dragon"
    assert expand(doc).ok


def test_a_card_id_is_read_without_folding_and_as_folding_would() -> None:
    """`card_named` looks an exact key up first; that is only right because every key is its own folded form."""
    from loveletter.replays.names import _CARD_NAMES, _fold_name, card_named

    assert all(_fold_name(key) == key for key in _CARD_NAMES)
    assert card_named("guard") is card_named(" GUARD ") is card_named("Garde")
