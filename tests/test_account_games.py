"""An account's games over real HTTP (`GET /accounts/{id}/games`, docs/accounts.md "On the web"), on SQLite and
PostgreSQL: newest first in the order the test created them, each with its other seats, its result for this
account, whether it is rated and, for a finished rated game, the rating before and after it — the ladder's figures
read by the test after each game, and OpenSkill's own run in the test. Results are arranged by resigning (the seat
that leaves a two-seat game loses it) and aborting, so nothing depends on the shuffle."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from tests.servers import ADMIN, Server, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)
from tests.test_ladder import account, created


def made_at(url: str, body: dict[str, Any]) -> tuple[dict[str, Any], int, int]:
    """A new game, with the test's clock (Unix ms) just before and just after it was created."""
    before = int(time.time() * 1000)
    game = created(url, body)
    return game, before, int(time.time() * 1000)


def resign(url: str, game: dict[str, Any], seat: int) -> None:
    (token,) = [s["token"] for s in game["seats"] if s["seat"] == seat]
    answer = httpx.post(f"{url}/games/{game['game_id']}/resign", headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text


def rung(url: str, account_id: str) -> tuple[float, float]:
    ladder = httpx.get(f"{url}/ladder", params={"ruleset": "2019", "players": 2, "limit": 100}).json()
    (mine,) = [r for r in ladder["ratings"] if r["account_id"] == account_id]
    return mine["mu"], mine["sigma"]


def test_an_accounts_games_newest_first_from_its_point_of_view(server: Server) -> None:
    url = server.url
    ann, bob, cy = (account(url, s, k) for s, k in (("Ann", "person"), ("Bob", "bot"), ("Cy", "person")))
    me = ann["account_id"]
    seats = [{"account_key": ann["key"]}]

    won, *won_at = made_at(url, {"rated": True, "players": [*seats, {"account_key": bob["key"]}]})
    resign(url, won, 1)  # Bob leaves: Ann wins
    after_won = rung(url, me)
    lost, *lost_at = made_at(url, {"rated": True, "players": [{"account_key": cy["key"]}, *seats]})
    resign(url, lost, 1)  # Ann leaves: Cy wins
    after_lost = rung(url, me)
    guest = {"name": "Guest", "bot": "heuristic"}
    playing, *playing_at = made_at(url, {"players": [*seats, guest]})
    aborted, *aborted_at = made_at(url, {"players": [*seats, guest]})
    stop = httpx.post(f"{url}/games/{aborted['game_id']}/abort", headers={"Authorization": f"Bearer {ADMIN}"})
    assert stop.status_code == 200, stop.text
    waiting, *waiting_at = made_at(url, {"rated": True, "players": [*seats, {"open": True}]})

    answer = httpx.get(f"{url}/accounts/{me}/games")
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert got["account_id"] == me and got["total"] == 5
    games = got["games"]
    order = [waiting, aborted, playing, lost, won]
    assert [g["game_id"] for g in games] == [g["game_id"] for g in order]  # newest first
    times = [waiting_at, aborted_at, playing_at, lost_at, won_at]
    for g, (low, high) in zip(games, times, strict=True):
        assert low <= g["created"] <= high, (g["game_id"], low, g["created"], high)
        assert (g["ruleset"], g["players"]) == ("2019", 2)
    assert [g["status"] for g in games] == ["waiting", "aborted", "playing", "lost", "won"]
    assert [g["rated"] for g in games] == [True, False, False, True, True]
    assert [g["seats"] for g in games] == [[0], [0], [0], [1], [0]]
    guest_seat = {"seat": 1, "name": "Guest", "account_id": None, "kind": None}
    assert [g["opponents"] for g in games] == [
        [],  # the open seat is nobody yet
        [guest_seat],
        [guest_seat],
        [{"seat": 0, "name": cy["name"], "account_id": cy["account_id"], "kind": "person"}],
        [{"seat": 1, "name": bob["name"], "account_id": bob["account_id"], "kind": "bot"}],
    ]

    # the rating changes: the ladder's figures after each game, and OpenSkill's own from the start
    model = PlackettLuce(tau=0.0)
    fresh = model.rating()
    (first,), _ = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])  # Ann beat a newcomer
    _, (second,) = model.rate([[model.rating()], [model.rating(mu=first.mu, sigma=first.sigma)]], ranks=[1, 2])
    assert (fresh.mu, fresh.sigma) == (25.0, pytest.approx(25 / 3))
    assert after_won == (pytest.approx(first.mu, rel=1e-12), pytest.approx(first.sigma, rel=1e-12))
    assert after_lost == (pytest.approx(second.mu, rel=1e-12), pytest.approx(second.sigma, rel=1e-12))
    assert first.mu > 25.0 and second.mu < first.mu
    changes = [g["rating"] for g in games]
    assert changes[:3] == [None, None, None]  # not rated, or not over
    assert changes[4] == {"before": {"mu": 25.0, "sigma": pytest.approx(25 / 3)},
                          "after": {"mu": after_won[0], "sigma": after_won[1]}}  # fmt: skip
    assert changes[3] == {"before": {"mu": after_won[0], "sigma": after_won[1]},
                          "after": {"mu": after_lost[0], "sigma": after_lost[1]}}  # fmt: skip

    # the other side of the same game
    (bobs,) = httpx.get(f"{url}/accounts/{bob['account_id']}/games").json()["games"]
    assert (bobs["game_id"], bobs["status"], bobs["seats"]) == (won["game_id"], "lost", [1])
    assert bobs["rating"]["before"] == {"mu": 25.0, "sigma": pytest.approx(25 / 3)}

    # a page of the newest; the account's list of ids stays oldest first
    two = httpx.get(f"{url}/accounts/{me}/games", params={"limit": 2}).json()
    assert [g["game_id"] for g in two["games"]] == [waiting["game_id"], aborted["game_id"]] and two["total"] == 5
    ids = httpx.get(f"{url}/accounts/{me}").json()["games"]
    assert ids == [g["game_id"] for g in reversed(order)]


@pytest.mark.parametrize("limit", ["0", "501", "-1", "ten", "1.5", ""])
def test_a_bad_limit_is_a_problem_not_an_error(server: Server, limit: str) -> None:
    who = account(server.url, "Dee", "bot")
    answer = httpx.get(f"{server.url}/accounts/{who['account_id']}/games", params={"limit": limit})
    assert answer.status_code == 422, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_an_account_with_no_game_and_one_that_does_not_exist(server: Server) -> None:
    who = account(server.url, "Eve", "person")
    got = httpx.get(f"{server.url}/accounts/{who['account_id']}/games").json()
    assert got == {"account_id": who["account_id"], "total": 0, "games": []}
    missing = httpx.get(f"{server.url}/accounts/a_AAAAAAAAAAAAAAAA/games")
    assert missing.status_code == 404 and missing.json()["code"] == "account_not_found"
    assert missing.headers["content-type"].startswith("application/problem+json")
    assert httpx.get(f"{server.url}/accounts/nope/games").status_code == 404
