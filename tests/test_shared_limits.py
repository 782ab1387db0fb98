"""One set of limits (issue 34, docs/operations.md): two workers of one referee on PostgreSQL, each its own process
and port, refuse together the burst that one alone refuses — game creations per address, moves per seat token, and
the routes' own limit on creating accounts — because the buckets are kept in the store. With the limits kept per
process (`LOVELETTER_SHARED_LIMITS=false`), the same requests get twice the allowance: the test can fail."""

from __future__ import annotations

import uuid

import httpx
import pytest

from tests.servers import ADMIN, ServerProcess
from tests.stores import own_database, pg_url  # noqa: F401  (fixtures)

BURST = 4


def workers(database: str, shared: bool) -> list[ServerProcess]:
    # rates so slow that no token comes back during the test: each burst is all there is
    settings = {"admin_token": ADMIN, "create_rate": "0.0001", "create_burst": str(BURST), "move_rate": "0.0001",
                "move_burst": str(BURST), "creation_refill": "0.0001",
                "shared_limits": str(shared).lower()}  # fmt: skip
    made = [ServerProcess(database, **settings) for _ in range(2)]
    for worker in made:
        worker.wait_ready()
    return made


def statuses(urls: list[str], send: object, count: int) -> list[int]:
    """`count` requests, alternating between the workers: their statuses."""
    out = []
    for n in range(count):
        with httpx.Client(base_url=urls[n % len(urls)], timeout=30) as http:
            out.append(send(http).status_code)  # type: ignore[operator]
    return out


@pytest.mark.parametrize("shared", [True, False], ids=["shared", "per-process"])
def test_two_workers_refuse_the_burst_one_worker_refuses(own_database: str, shared: bool) -> None:  # noqa: F811
    both = workers(own_database, shared)
    try:
        urls = [w.url for w in both]
        allowance = BURST if shared else 2 * BURST
        two = {"players": [{"name": "Ann"}, {"name": "Bob"}]}
        # moves: per seat token (each an illegal move, refused by the rules when the limit lets it through)
        with httpx.Client(base_url=urls[0]) as http:
            game = http.post("/games", json=two)  # the first creation of this address: one token of its burst
        assert game.status_code == 201, game.text
        token = game.json()["seats"][1]["token"]
        path = f"/games/{game.json()['game_id']}/moves"
        wrong = {"type": "code", "action_code": 999_999}  # no such move: refused by the rules, whoever is to play
        moved = statuses(urls, lambda h: h.post(path, json=wrong, headers={"Authorization": f"Bearer {token}"}),
                         3 * BURST)  # fmt: skip
        assert moved.count(429) == 3 * BURST - allowance, moved
        assert all(s in (409, 422) for s in moved if s != 429), moved
        # games: per client address (one token already spent on the game above, from the first worker)
        created = statuses(urls, lambda h: h.post("/games", json=two), 3 * BURST)
        assert created.count(201) == allowance - 1 and created.count(429) == 3 * BURST - allowance + 1, created
        # accounts: the route's own limit, per address (30 at once)
        made = statuses(urls, lambda h: h.post("/accounts", json={"name": f"L{uuid.uuid4().hex[:8]}"}), 64)
        accounts = 30 if shared else 60
        assert made.count(201) == accounts and made.count(429) == 64 - accounts, made
    finally:
        for worker in both:
            worker.stop()
