"""`POST /games` with a chosen `server_seed` (duplicate deals for tournaments): the admin only. The chosen seed is
still committed to by `game_started` and revealed at the end, so anyone auditing the log sees it; anyone else is
refused with 403 and nothing is created; a malformed seed is a 422."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.servers import ADMIN, Server, admin_log, client, log_events, server_fixture, verify_log  # noqa: F401
from tests.stores import pg_url  # noqa: F401  (fixture)

SEED = "5e" * 32
BOTS = [{"name": "A", "bot": "heuristic"}, {"name": "B", "bot": "heuristic"}]


def test_the_admin_deals_a_game_from_a_chosen_server_seed(server: Server, tmp_path: Path) -> None:
    with client(server.url, ADMIN) as admin:
        r = admin.post("/games", json={"players": BOTS, "server_seed": SEED})
    assert r.status_code == 201, r.text
    data = admin_log(server.url, r.json()["game_id"])
    events = log_events(data)
    started = next(e for e in events if type(e).TYPE == "game_started")
    assert started.seed_commitment == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    assert [e.seed for e in events if type(e).TYPE == "seed_revealed"] == [SEED]
    verify_log(data, tmp_path)  # every deck re-derived from the revealed seed


def test_the_same_seed_deals_the_same_decks(server: Server) -> None:
    decks = []
    with client(server.url, ADMIN) as admin:
        for _ in range(2):
            r = admin.post("/games", json={"players": BOTS, "server_seed": SEED})
            assert r.status_code == 201, r.text
            events = log_events(admin_log(server.url, r.json()["game_id"]))
            decks.append(next(e.deck for e in events if type(e).TYPE == "round_started"))
    assert decks[0] == decks[1]


def test_anyone_else_is_refused_and_nothing_is_created(server: Server) -> None:
    body = {"players": BOTS, "server_seed": SEED, "public": True}
    with client(server.url) as anyone:
        before = anyone.get("/games", params={"limit": 100}).json()["games"]
        for token in (None, "not-the-admin"):
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            r = anyone.post("/games", json=body, headers=headers)
            assert r.status_code == 403, r.text
            assert r.headers["content-type"].startswith("application/problem+json")
            assert r.json()["code"] == "admin_required"
        assert anyone.get("/games", params={"limit": 100}).json()["games"] == before


def test_a_malformed_seed_is_a_422(server: Server) -> None:
    with client(server.url, ADMIN) as admin:
        for seed in ("5e" * 31, "5E" * 32, "zz" * 32, 42):
            r = admin.post("/games", json={"players": BOTS, "server_seed": seed})
            assert r.status_code == 422, (seed, r.text)
            assert r.headers["content-type"].startswith("application/problem+json")
