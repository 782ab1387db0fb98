"""Server-sent events over a real socket: live delivery with `id:` = seq, resumption with Last-Event-ID, and the
stream's end after game_ended."""

from __future__ import annotations

import random

import orjson

from tests.servers import (
    Server,
    client,
    create_game,
    play_game,
    read_sse,
    server_fixture,  # noqa: F401  (fixture)
)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)


def test_the_stream_delivers_moves_live(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    gid, version = created["game_id"], created["version"]
    ann, bob = (s["token"] for s in created["seats"])
    with client(server.url, ann) as c:
        mine = c.get(f"/games/{gid}").json()
    with (
        client(server.url, bob) as watcher,
        watcher.stream("GET", f"/games/{gid}/stream", params={"after": version}) as r,
    ):
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["cache-control"] == "no-cache"
        with client(server.url, ann) as c:  # posted while the stream waits
            moved = c.post(
                f"/games/{gid}/moves", json={"type": "code", "action_code": mine["legal_moves"][0]["action_code"]}
            )
        assert moved.status_code == 200
        new = moved.json()["version"]
        got: list[dict[str, str]] = []
        block: dict[str, str] = {}
        for line in r.iter_lines():
            if line.startswith(":"):
                continue
            if line:
                name, _, value = line.partition(": ")
                block[name] = value
                continue
            got.append(block)
            block = {}
            if int(got[-1]["id"]) == new:
                break
    assert [int(b["id"]) for b in got] == list(range(version + 1, new + 1))
    datas = [orjson.loads(b["data"]) for b in got]
    assert [d["seq"] for d in datas] == [int(b["id"]) for b in got]
    assert [d["type"] for d in datas] == [b["event"] for b in got]
    with client(server.url, bob) as c:  # the stream's events are Bob's /events
        assert datas == c.get(f"/games/{gid}/events", params={"after": version}).json()["events"]


def test_a_stream_resumes_after_last_event_id(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], first_player=1)
    gid = created["game_id"]
    bob = created["seats"][1]["token"]
    first = read_sse(server.url, f"/games/{gid}/stream", bob, limit=2)
    assert [int(m["id"]) for m in first] == [1, 2]
    resumed = read_sse(server.url, f"/games/{gid}/stream", bob, limit=1, Last_Event_ID=first[-1]["id"])
    assert int(resumed[0]["id"]) == 3 and resumed[0]["data"]["seq"] == 3
    by_query = read_sse(server.url, f"/games/{gid}/stream?after=1", bob, limit=1)
    assert int(by_query[0]["id"]) == 2
    header_wins = read_sse(server.url, f"/games/{gid}/stream?after=0", bob, limit=1, Last_Event_ID="2")
    assert int(header_wins[0]["id"]) == 3
    # a token in the query string (for EventSource, which cannot send headers) gives the seat's own view
    round_started = read_sse(server.url, f"/games/{gid}/stream?token={bob}", limit=2)[1]["data"]
    assert round_started["type"] == "round_started" and "hand" in round_started
    assert "hand" not in read_sse(server.url, f"/games/{gid}/stream", limit=2)[1]["data"]


def test_a_stream_closes_after_game_ended(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Hal", "bot": "heuristic"}])
    gid = created["game_id"]
    play_game(server.url, created, random.Random(5))
    with client(server.url) as c:
        version = c.get(f"/games/{gid}").json()["version"]
    everything = read_sse(server.url, f"/games/{gid}/stream")  # returns only because the server closes it
    assert [int(m["id"]) for m in everything] == list(range(1, version + 1))
    assert [m["event"] for m in everything[-2:]] == ["game_ended", "seed_revealed"]
    tail = read_sse(server.url, f"/games/{gid}/stream", Last_Event_ID=str(version - 2))
    assert [m["event"] for m in tail] == ["game_ended", "seed_revealed"]
    assert read_sse(server.url, f"/games/{gid}/stream", Last_Event_ID=str(version)) == []


def test_a_name_with_a_unicode_line_separator_stays_one_event_for_the_client_library(server: Server) -> None:
    """JSON leaves U+2028 and U+0085 raw, and httpx's line reader (under httpx-sse, our client's) ends lines at
    them: the referee escapes them, so each event still reaches the client whole, name intact."""
    from loveletter.client import Client

    name = "Ann\u2028Lee\x85Ma"
    created = create_game(server.url, [{"name": name}, {"name": "Bob", "bot": "random"}])
    with Client(server.url, token=created["seats"][0]["token"]) as alice:
        first = next(iter(alice.stream(created["game_id"])))
        assert first.type == "game_started" and first.raw["players"][0] == name
