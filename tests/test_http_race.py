"""Concurrent requests that cannot all be legal: exactly one wins, the others are refused, one batch is appended."""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from tests.servers import Server, client, create_game, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)

N = 6


def race(requests: list[Callable[[httpx.Client], httpx.Response]], clients: list[httpx.Client]) -> list[httpx.Response]:
    barrier = threading.Barrier(len(requests))

    def one(i: int) -> httpx.Response:
        barrier.wait()
        return requests[i](clients[i])

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(one, range(len(requests))))


def events(srv: Server, gid: str) -> dict[str, Any]:
    with client(srv.url) as c:
        out: dict[str, Any] = c.get(f"/games/{gid}/events").json()
    return out


def new_game(srv: Server) -> tuple[str, str, str, dict[str, Any]]:
    created = create_game(srv.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    ann, bob = (s["token"] for s in created["seats"])
    with client(srv.url, ann) as c:
        mine = c.get(f"/games/{created['game_id']}").json()
    return created["game_id"], ann, bob, mine


def assert_one_batch(srv: Server, gid: str, before: dict[str, Any], winner: httpx.Response) -> None:
    after = events(srv, gid)
    answer = winner.json()
    assert after["version"] == answer["version"] == before["version"] + len(answer["events"])
    assert after["events"][: len(before["events"])] == before["events"]
    assert [e["seq"] for e in after["events"]] == list(range(1, after["version"] + 1))


@pytest.mark.parametrize("different_moves", [False, True])
def test_copies_of_the_active_seats_request_with_one_if_match(server: Server, different_moves: bool) -> None:
    gid, ann, _, mine = new_game(server)
    before = events(server, gid)
    codes = [m["action_code"] for m in mine["legal_moves"]]
    headers = {"If-Match": f'"{mine["version"]}"'}

    def post(i: int) -> Callable[[httpx.Client], httpx.Response]:
        code = codes[i % len(codes)] if different_moves else codes[0]
        return lambda c: c.post(f"/games/{gid}/moves", json={"type": "code", "action_code": code}, headers=headers)

    clients = [client(server.url, ann) for _ in range(N)]
    try:
        answers = race([post(i) for i in range(N)], clients)
    finally:
        for c in clients:
            c.close()
    statuses = sorted(r.status_code for r in answers)
    assert statuses.count(200) == 1 and set(statuses) <= {200, 409, 412}, statuses
    for r in answers:
        if r.status_code != 200:
            assert r.headers["content-type"] == "application/problem+json"
            assert r.json()["code"] in ("stale_version", "conflict")
    assert_one_batch(server, gid, before, next(r for r in answers if r.status_code == 200))


def test_both_seats_racing_with_the_version_they_saw(server: Server) -> None:
    gid, ann, bob, mine = new_game(server)
    before = events(server, gid)
    headers = {"If-Match": f'"{mine["version"]}"'}
    ann_move = {"type": "code", "action_code": mine["legal_moves"][0]["action_code"]}
    bob_move = {"type": "play", "card": "guard", "target": 0, "guess": "priest"}
    clients = [client(server.url, ann), client(server.url, bob)] * 3
    try:
        answers = race(
            [
                lambda c, i=i: c.post(f"/games/{gid}/moves", json=ann_move if i % 2 == 0 else bob_move, headers=headers)
                for i in range(6)
            ],
            clients,
        )
    finally:
        for c in clients:
            c.close()
    statuses = [r.status_code for r in answers]
    assert statuses.count(200) == 1 and statuses[::2].count(200) == 1, statuses
    assert all(s in (409, 412) for s in statuses[1::2]), statuses  # Bob's: out of turn, or stale
    assert_one_batch(server, gid, before, next(r for r in answers if r.status_code == 200))


def test_parallel_retries_with_one_idempotency_key_append_once(server: Server) -> None:
    gid, ann, _, mine = new_game(server)
    before = events(server, gid)
    body = {"type": "code", "action_code": mine["legal_moves"][0]["action_code"]}
    clients = [client(server.url, ann) for _ in range(N)]
    try:
        answers = race(
            [lambda c: c.post(f"/games/{gid}/moves", json=body, headers={"Idempotency-Key": "same"})] * N, clients
        )
    finally:
        for c in clients:
            c.close()
    assert [r.status_code for r in answers] == [200] * N, [r.text for r in answers]
    assert len({r.content for r in answers}) == 1
    assert sum("idempotent-replayed" not in r.headers for r in answers) == 1
    assert_one_batch(server, gid, before, answers[0])
