"""Challenges between accounts (issue 25, docs/accounts.md), on a real server over both stores: one declined, one
accepted and played to the end as a rated game by both accounts (the challenger taking the seat kept for it), and
the refusals: a challenge to oneself, by the wrong account, accepted twice, to nobody."""

from __future__ import annotations

import random
import uuid
from typing import Any

import httpx

from loveletter.core.catalogue import GameStarted, SeatAccount
from tests.servers import Server, admin_log, log_events, play_game, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)


def account(url: str, stem: str, kind: str = "bot") -> dict[str, Any]:
    made = httpx.post(f"{url}/accounts", json={"name": f"{stem}{uuid.uuid4().hex[:6]}", "kind": kind})
    assert made.status_code == 201, made.text
    return dict(made.json())


def post(url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(url + path, json=body, timeout=30)


def code(answer: httpx.Response) -> tuple[int, str]:
    return answer.status_code, answer.json().get("code", "")


def test_a_challenge_declined_and_one_accepted_then_played(server: Server) -> None:
    url = server.url
    ann, bob = account(url, "Ann", "person"), account(url, "Bob")
    # by name, whatever its case: Bob sees it among his open challenges
    sent = post(url, "/challenges", {"key": ann["key"], "to": bob["name"].upper(), "rated": True})
    assert sent.status_code == 201, sent.text
    first = sent.json()
    assert first["challenger"] == {"account_id": ann["account_id"], "name": ann["name"], "kind": "person"}
    assert first["challenged"]["account_id"] == bob["account_id"]
    assert (first["status"], first["rated"], first["players"], first["game_id"]) == ("open", True, 2, None)
    pending = httpx.get(f"{url}/accounts/{bob['account_id']}/challenges").json()["challenges"]
    assert [c["challenge_id"] for c in pending] == [first["challenge_id"]]
    declined = post(url, f"/challenges/{first['challenge_id']}/decline", {"key": bob["key"]})
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert httpx.get(f"{url}/accounts/{bob['account_id']}/challenges").json()["challenges"] == []
    assert code(post(url, f"/challenges/{first['challenge_id']}/accept", {"key": bob["key"]})) == (
        409,
        "challenge_closed",
    )

    second = post(url, "/challenges", {"key": ann["key"], "to": bob["account_id"], "rated": True}).json()
    cid = second["challenge_id"]
    assert code(post(url, f"/challenges/{cid}/accept", {"key": ann["key"]})) == (403, "account_key_rejected")
    accepted = post(url, f"/challenges/{cid}/accept", {"key": bob["key"]})
    assert accepted.status_code == 200, accepted.text
    mine = accepted.json()
    assert (mine["seat"], mine["name"]) == (1, bob["name"])
    assert code(post(url, f"/challenges/{cid}/accept", {"key": bob["key"]})) == (409, "challenge_closed")
    seen = httpx.get(f"{url}/challenges/{cid}").json()
    assert (seen["status"], seen["game_id"]) == ("accepted", mine["game_id"])
    game = seen["game_id"]
    # the seat is kept for Ann: nobody else takes it, she does with her key (the game is not public: no invite)
    carl = account(url, "Carl")
    assert code(post(url, f"/games/{game}/join", {"name": "Carl", "account_key": carl["key"]}))[0] == 401
    joined = post(url, f"/games/{game}/join", {"name": "Ann", "account_key": ann["key"]})
    assert joined.status_code == 200, joined.text
    assert (joined.json()["seat"], joined.json()["account"]) == (0, ann["account_id"])
    seats = [{"seat": 0, "token": joined.json()["token"]}, {"seat": 1, "token": mine["token"]}]
    play_game(url, {"game_id": game, "seats": seats}, random.Random(3))
    started = log_events(admin_log(url, game))[0]
    assert isinstance(started, GameStarted) and started.rated
    assert started.accounts == (None, SeatAccount(bob["account_id"], "bot"))  # Ann's is in her seat_joined
    ladder = httpx.get(f"{url}/ladder", params={"ruleset": "2019", "players": 2, "limit": 100}).json()["ratings"]
    assert {ann["account_id"], bob["account_id"]} <= {r["account_id"] for r in ladder}


def test_challenges_refused(server: Server) -> None:
    url = server.url
    ann = account(url, "Solo")
    assert code(post(url, "/challenges", {"key": ann["key"], "to": ann["account_id"]})) == (422, "challenge_refused")
    assert code(post(url, "/challenges", {"key": ann["key"], "to": "Nobody At All"})) == (404, "account_not_found")
    assert code(post(url, "/challenges", {"key": "ak_nope", "to": ann["name"]})) == (403, "account_key_rejected")
    assert code(httpx.get(f"{url}/challenges/c_AAAAAAAAAAAAAAAA")) == (404, "challenge_not_found")
    assert code(httpx.get(f"{url}/challenges/nonsense")) == (404, "challenge_not_found")
    gone = account(url, "Gone")
    assert post(url, f"/accounts/{gone['account_id']}/key/revoke", {"key": gone["key"]}).status_code == 200
    assert code(post(url, "/challenges", {"key": ann["key"], "to": gone["name"]})) == (422, "challenge_refused")


def test_a_name_that_is_no_text_is_refused_as_such(server: Server) -> None:
    """A lone surrogate (which JSON lets through, and UTF-8 cannot carry) in `to`: the body is refused before anything
    echoes it (422 in both languages, never a 500)."""
    ann = account(server.url, "Esc")
    body = b'{"key": "%s", "to": "Bo\\ud800b"}' % ann["key"].encode()
    for lang in ("en", "fr"):
        answer = httpx.post(f"{server.url}/challenges", content=body,
                            headers={"Content-Type": "application/json", "Accept-Language": lang})  # fmt: skip
        assert code(answer) == (422, "invalid_request"), answer.text


def test_an_accepted_challenge_names_its_game_only_once_the_game_exists(server: Server) -> None:
    """Accepting settles the challenge with its game's id, then creates the game: a reader in between (the page of
    the challenger polling, the docs' walk) must not be sent to a game that is not there yet — the challenge still
    reads open, with no game, as the store's row stands between the two steps (written here straight into it)."""
    ann, bob = account(server.url, "Wann"), account(server.url, "Wbob")
    made = post(server.url, "/challenges", {"key": ann["key"], "to": bob["account_id"]})
    assert made.status_code == 201, made.text
    challenge = made.json()["challenge_id"]
    assert server.store.settle_challenge(challenge, "accepted", "g_notmadeyet0001")  # type: ignore[attr-defined]
    read = httpx.get(f"{server.url}/challenges/{challenge}").json()
    assert (read["status"], read["game_id"]) == ("open", None), read
    listed = httpx.get(f"{server.url}/games/g_notmadeyet0001")
    assert listed.status_code == 404  # the game the row names does not exist: the reader was right not to go there


def test_accepting_again_finishes_an_acceptance_stopped_half_way(server: Server) -> None:
    """A worker that stops between settling the challenge and creating its game leaves it reading open: accepting it
    again (after `FINISH_WAIT_SECONDS`, the game still absent) creates the game under the id recorded, and the
    challenger joins it with its key; one more acceptance is then refused as for any accepted challenge."""
    ann, bob = account(server.url, "Sann", "person"), account(server.url, "Sbob")
    challenge = post(server.url, "/challenges", {"key": ann["key"], "to": bob["account_id"]}).json()["challenge_id"]
    assert server.store.settle_challenge(challenge, "accepted", "g_halfaccepted0001")  # type: ignore[attr-defined]
    assert httpx.get(f"{server.url}/challenges/{challenge}").json()["status"] == "open"
    assert code(post(server.url, f"/challenges/{challenge}/accept", {"key": ann["key"]})) == (
        403,
        "account_key_rejected",
    )
    finished = post(server.url, f"/challenges/{challenge}/accept", {"key": bob["key"]})
    assert finished.status_code == 200, finished.text
    mine = finished.json()
    assert (mine["game_id"], mine["seat"], mine["name"]) == ("g_halfaccepted0001", 1, bob["name"])
    seen = httpx.get(f"{server.url}/challenges/{challenge}").json()
    assert (seen["status"], seen["game_id"]) == ("accepted", "g_halfaccepted0001")
    joined = post(server.url, "/games/g_halfaccepted0001/join", {"name": "Ann", "account_key": ann["key"]})
    assert joined.status_code == 200, joined.text
    assert (joined.json()["seat"], joined.json()["account"]) == (0, ann["account_id"])
    before = admin_log(server.url, "g_halfaccepted0001")
    assert code(post(server.url, f"/challenges/{challenge}/accept", {"key": bob["key"]})) == (409, "challenge_closed")
    assert admin_log(server.url, "g_halfaccepted0001") == before
