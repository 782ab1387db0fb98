"""Who sat where (issue 25, docs/accounts.md): a seat created or joined with an account key records the account's
public id and kind in the log (`game_started.accounts`, `seat_joined.account`), the log still replays and audits,
the account lists the game, and a rated game takes accounts only, each once. On a real server over both stores."""

from __future__ import annotations

import random
import uuid
from pathlib import Path
from typing import Any

import httpx
import orjson

from loveletter.core.catalogue import GameStarted, SeatAccount, SeatJoined
from loveletter.events.codec import decode, encode
from loveletter.replays.audit import Options, audit_bytes
from tests.servers import Server, admin_log, log_events, play_game, server_fixture, verify_log  # noqa: F401
from tests.stores import pg_url  # noqa: F401  (fixture)


def account(url: str, stem: str, kind: str = "person") -> dict[str, Any]:
    made = httpx.post(f"{url}/accounts", json={"name": f"{stem}{uuid.uuid4().hex[:6]}", "kind": kind})
    assert made.status_code == 201, made.text
    return dict(made.json())


def post(url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(url + path, json=body, timeout=30)


def refused(answer: httpx.Response, status: int, code: str, **facts: str) -> None:
    assert answer.status_code == status, answer.text
    problem = answer.json()
    assert problem["code"] == code and all(problem[k] == v for k, v in facts.items()), problem


def test_seats_created_with_accounts_are_in_the_log_which_still_audits(server: Server, tmp_path: Path) -> None:
    ann, bot = account(server.url, "Ann"), account(server.url, "Robo", "bot")
    answer = post(
        server.url, "/games", {"players": [{"account_key": ann["key"]}, {"account_key": bot["key"]}, {"name": "Cy"}]}
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    seats = created["seats"]
    assert [s["name"] for s in seats] == [ann["name"], bot["name"], "Cy"]  # an account's seat plays under its name
    assert [s.get("account") for s in seats] == [ann["account_id"], bot["account_id"], None]
    assert [s.get("account_kind") for s in seats] == ["person", "bot", None]
    play_game(server.url, created, random.Random(7))
    log = admin_log(server.url, created["game_id"])
    for key in (ann["key"], bot["key"]):
        assert key.encode() not in log
    started = log_events(log)[0]
    assert isinstance(started, GameStarted) and not started.rated
    assert started.accounts == (SeatAccount(ann["account_id"], "person"), SeatAccount(bot["account_id"], "bot"), None)
    verify_log(log, tmp_path)
    report = audit_bytes(log, "accounts", Options(require_signature=True))
    assert [g.valid for g in report.games] == [True], report.as_dict()
    for who in (ann, bot):
        page = httpx.get(f"{server.url}/accounts/{who['account_id']}").json()
        assert page["games"] == [created["game_id"]]


def test_an_open_seat_joined_with_an_account_says_so_in_its_seat_joined(server: Server, tmp_path: Path) -> None:
    zed = account(server.url, "Zed", "bot")
    created = post(server.url, "/games", {"players": [{"name": "Host"}, {"open": True}], "public": True}).json()
    game = created["game_id"]
    joined = post(server.url, f"/games/{game}/join", {"name": "ignored", "account_key": zed["key"]})
    assert joined.status_code == 200, joined.text
    said = joined.json()
    assert (said["name"], said["account"], said["account_kind"]) == (zed["name"], zed["account_id"], "bot")
    events = log_events(admin_log(server.url, game))
    join = next(e for e in events if isinstance(e, SeatJoined))
    assert join.account == SeatAccount(zed["account_id"], "bot") and join.name == zed["name"]
    line = orjson.loads(orjson.dumps(encode(join)))
    assert line["account"] == {"account": zed["account_id"], "kind": "bot"}
    assert httpx.get(f"{server.url}/accounts/{zed['account_id']}").json()["games"] == [game]
    listing = httpx.get(f"{server.url}/games", params={"status": "running"}).json()["games"]
    assert any(g["game_id"] == game for g in listing)


def test_an_old_seat_joined_line_reads_and_writes_as_it_was() -> None:
    old = {"type": "seat_joined", "v": 1, "player": 1, "name": "Bea", "at": 5}
    event = decode(old)
    assert event == SeatJoined(1, "Bea", 5) and encode(event) == old
    started = {"type": "game_started", "v": 1, "ruleset": "2019", "players": ["A", "B"], "options": {},
               "first_player": None, "scenario": False, "seed_commitment": None}  # fmt: skip
    assert encode(decode(started)) == started


def test_a_wrong_key_takes_no_seat(server: Server) -> None:
    ghost = {"players": [{"account_key": "ak_" + "x" * 43}, {"name": "B"}]}
    refused(post(server.url, "/games", ghost), 403, "account_key_rejected")
    created = post(server.url, "/games", {"players": [{"name": "Host"}, {"open": True}], "public": True}).json()
    refused(post(server.url, f"/games/{created['game_id']}/join", {"name": "J", "account_key": "ak_no"}), 403,
            "account_key_rejected")  # fmt: skip


def test_a_rated_game_takes_accounts_only_each_once(server: Server) -> None:
    one, two = account(server.url, "One"), account(server.url, "Two", "bot")
    rule = "rated_rule"
    for players in (
        [{"account_key": one["key"]}, {"name": "Guest"}],
        [{"account_key": one["key"]}, {"name": "Bot", "bot": "heuristic"}],
    ):
        refused(post(server.url, "/games", {"rated": True, "players": players}), 422, "rated_refused",
                **{rule: "every_seat_an_account"})  # fmt: skip
    twice = [{"account_key": one["key"]}, {"account_key": one["key"]}]
    refused(post(server.url, "/games", {"rated": True, "players": twice}), 422, "rated_refused",
            **{rule: "one_seat_per_account"})  # fmt: skip
    deal = {"set_aside": "guard", "face_up": ["guard", "guard", "spy"], "hands": ["countess", "handmaid"],
            "deck": ["prince", "guard", "priest", "baron", "spy", "chancellor", "king", "handmaid", "prince", "guard",
                     "priest", "baron", "chancellor", "princess", "guard"]}  # fmt: skip
    scenario = {"rated": True, "players": [{"account_key": one["key"]}, {"account_key": two["key"]}],
                "scenario": {"deals": [deal]}}  # fmt: skip
    refused(post(server.url, "/games", scenario), 422, "rated_refused", **{rule: "shuffled_deals"})
    # an open seat of a rated game: taken with an account, not the one already seated
    made = post(server.url, "/games", {"rated": True, "public": True,
                                       "players": [{"account_key": one["key"]}, {"open": True}]})  # fmt: skip
    assert made.status_code == 201, made.text
    game = made.json()["game_id"]
    lobby = httpx.get(f"{server.url}/games", params={"status": "open"}, timeout=30).json()["games"]
    assert [g["rated"] for g in lobby if g["game_id"] == game] == [True]  # the lobby shows a rated game as such
    plain = post(server.url, "/games", {"public": True, "players": [{"name": "Ann"}, {"open": True}]}).json()
    lobby = httpx.get(f"{server.url}/games", params={"status": "open"}, timeout=30).json()["games"]
    assert [g["rated"] for g in lobby if g["game_id"] == plain["game_id"]] == [False]
    refused(post(server.url, f"/games/{game}/join", {"name": "Anon"}), 422, "rated_refused",
            **{rule: "every_seat_an_account"})  # fmt: skip
    refused(post(server.url, f"/games/{game}/join", {"name": "x", "account_key": one["key"]}), 422, "rated_refused",
            **{rule: "one_seat_per_account"})  # fmt: skip
    joined = post(server.url, f"/games/{game}/join", {"name": "x", "account_key": two["key"]})
    assert joined.status_code == 200, joined.text
    started = log_events(admin_log(server.url, game))[0]
    assert isinstance(started, GameStarted) and started.rated
    assert started.accounts == (SeatAccount(one["account_id"], "person"), None)
    # at an unrated table the rules refuse it too: the two seats would have one name
    again = post(server.url, "/games", {"players": twice})
    assert again.status_code == 422 and again.json()["rule_id"] == "setup.players", again.text
