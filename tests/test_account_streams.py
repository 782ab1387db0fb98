"""Account event streams (issue 25, docs/accounts.md) on a real server over both stores: a challenge received, declined
and accepted is told on each account's stream, in order, resumable after any id (`Last-Event-ID` or `?after=`), and
only the account's own key reads it."""

from __future__ import annotations

import httpx

from loveletter.events.postgres_store import PostgresStore
from loveletter.server.settings import Settings
from tests.servers import Server, read_sse, serve, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)
from tests.test_challenges import account, code, post


def test_challenges_are_told_on_both_streams_and_resume_after_any_id(server: Server) -> None:
    url = server.url
    ann, bob = account(url, "Sann", "person"), account(url, "Sbob")
    first = post(url, "/challenges", {"key": ann["key"], "to": bob["account_id"]}).json()
    assert post(url, f"/challenges/{first['challenge_id']}/decline", {"key": bob["key"]}).status_code == 200
    second = post(url, "/challenges", {"key": ann["key"], "to": bob["name"], "rated": True}).json()
    accepted = post(url, f"/challenges/{second['challenge_id']}/accept", {"key": bob["key"]}).json()
    game = accepted["game_id"]

    bobs = read_sse(url, f"/accounts/{bob['account_id']}/stream", bob["key"], limit=3)
    assert [e["event"] for e in bobs] == ["challenge_received", "challenge_received", "game_started"]
    assert [e["data"]["challenge"]["challenge_id"] for e in bobs[:2]] == [first["challenge_id"], second["challenge_id"]]
    assert bobs[2]["data"] | {"at": 0} == {
        "type": "game_started", "game_id": game, "ruleset": "2019", "players": 2, "rated": True,
        "challenge_id": second["challenge_id"], "seat": 1, "joined": True, "at": 0,
    }  # fmt: skip
    anns = read_sse(url, f"/accounts/{ann['account_id']}/stream", ann["key"], limit=3)
    assert [e["event"] for e in anns] == ["challenge_declined", "challenge_accepted", "game_started"]
    assert anns[0]["data"]["challenge"]["status"] == "declined"
    assert (anns[1]["data"]["challenge"]["status"], anns[1]["data"]["challenge"]["game_id"]) == ("accepted", game)
    assert (anns[2]["data"]["seat"], anns[2]["data"]["joined"]) == (0, False)
    ids = [int(e["id"]) for e in anns]
    assert ids == sorted(ids) and len(set(ids)) == 3
    # resumed after the first event, by header or by query: the same two events, nothing lost or repeated
    path = f"/accounts/{ann['account_id']}/stream"
    again = read_sse(url, path, ann["key"], limit=2, **{"Last-Event-ID": str(ids[0])})
    assert [e["id"] for e in again] == [str(i) for i in ids[1:]]
    later = read_sse(url, f"/accounts/{ann['account_id']}/stream?after={ids[1]}", ann["key"], limit=1)
    assert [e["id"] for e in later] == [str(ids[2])]


def test_only_the_accounts_own_key_reads_its_stream(server: Server) -> None:
    url = server.url
    ann, bob = account(url, "Kann"), account(url, "Kbob")
    path = f"/accounts/{ann['account_id']}/stream"
    headers = {"Authorization": f"Bearer {bob['key']}"}
    assert code(httpx.get(url + path, headers=headers)) == (403, "account_key_rejected")
    assert code(httpx.get(url + path)) == (403, "account_key_rejected")
    assert code(httpx.get(f"{url}/accounts/a_AAAAAAAAAAAAAAAA/stream", headers=headers))[0] in (403, 404)


def test_a_stream_whose_store_closes_under_it_ends_cleanly(pg_url: str) -> None:  # noqa: F811
    # A worker stopping closes its store while account streams are open: the next read of a stream fails. The stream
    # must end as a stream ends (the chunked body closed; the client resumes from its last id), not be cut off
    # mid-body by an error after its answer has started (what a stopping worker did, found by a repeated run).
    store = PostgresStore(pg_url)
    settings = Settings(database_url=pg_url, log_level="critical", create_rate=0, move_rate=0)
    try:
        with serve(settings, store) as url:
            ann = account(url, "Cann")
            path = f"{url}/accounts/{ann['account_id']}/stream"
            mine = {"Authorization": f"Bearer {ann['key']}"}
            with (
                httpx.stream("GET", path, headers=mine, timeout=30) as told,
                httpx.stream("GET", f"{url}/lobby/stream", timeout=30) as lobby,
            ):
                assert told.status_code == lobby.status_code == 200
                store.close()
                for r in (told, lobby):
                    body = b"".join(r.iter_bytes())  # raises RemoteProtocolError if the body is cut off
                    assert b"event:" not in body
    finally:
        store.close()
