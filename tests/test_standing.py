"""An account's standing over real HTTP (api/routes/standing.py, docs/accounts.md "On the web"): its rating after each
rated game, its win rate and its head-to-head equal a computation made here from the downloaded logs with OpenSkill
itself; the chart's last point is the ladder's rating; `POST /accounts/holder` finds an account by its key only."""

from __future__ import annotations

import dataclasses
import random
import uuid
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from loveletter.core.catalogue import FavorGained, GameEnded, GameStarted
from loveletter.events.store import Append
from loveletter.play.ladder import NotCounted, rated_game
from tests.servers import Server, log_events, play_game, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)
from tests.test_ladder import account, created, log_of


def expected_from_logs(logs: list[bytes], who: str) -> dict[str, Any]:
    """The history, wins and head-to-head of `who`, straight from the logs: each table size a ladder of its own,
    games in the order they began, the winners ranked first, then by favor tokens gained (these games have no
    resignations)."""
    model = PlackettLuce(tau=0.0)
    games = []
    for log in logs:
        events = log_events(log)
        started, ended = events[0], [e for e in events if isinstance(e, GameEnded)]
        assert isinstance(started, GameStarted)
        if not started.rated or not ended:
            continue
        seats = [a.account if a else "" for a in started.accounts]
        game_id = log.split(b'"game_id":"', 1)[1].split(b'"', 1)[0].decode()
        favors = [sum(1 for e in events if isinstance(e, FavorGained) and e.player == s) for s in range(len(seats))]
        games.append((started.at, game_id, len(seats), seats, set(ended[0].winners), favors))
    ratings: dict[tuple[int, str], Any] = {}
    points: dict[int, list[tuple[str, float, float]]] = {}
    wins = played = 0
    h2h: dict[str, list[int]] = {}
    for _, game_id, size, seats, winners, favors in sorted(games):
        teams = [[ratings.get((size, a)) or model.rating()] for a in seats]
        keys = [(s in winners, favors[s]) for s in range(size)]
        ranks = [1 + sum(other > mine for other in keys) for mine in keys]
        for a, (after,) in zip(seats, model.rate(teams, ranks=ranks), strict=True):
            ratings[(size, a)] = after
        if who in seats:
            me = seats.index(who)
            mine = ratings[(size, who)]
            points.setdefault(size, []).append((game_id, mine.mu, mine.sigma))
            played += 1
            wins += me in winners
            for s, other in enumerate(seats):
                if s != me:
                    row = h2h.setdefault(other, [0, 0, 0])
                    row[0] += 1
                    row[1] += me in winners and s not in winners
                    row[2] += s in winners and me not in winners
    return {"points": points, "games": played, "wins": wins, "h2h": h2h}


def test_an_accounts_history_is_the_fold_of_its_rated_logs(server: Server) -> None:
    rng = random.Random(2025)
    ann, bob, cy = (account(server.url, s, k) for s, k in (("Ann", "person"), ("Bob", "bot"), ("Cy", "person")))
    keys = [a["key"] for a in (ann, bob, cy)]
    ids = [a["account_id"] for a in (ann, bob, cy)]
    every = []
    for seats in [(0, 1), (1, 0), (0, 2), (2, 1), (0, 1), (0, 1, 2), (2, 0, 1)]:
        made = created(server.url, {"rated": True, "players": [{"account_key": keys[s]} for s in seats]})
        play_game(server.url, made, rng)
        every.append(made["game_id"])
    unrated = created(server.url, {"players": [{"account_key": keys[0]}, {"account_key": keys[1]}]})
    play_game(server.url, unrated, rng)
    logs = [log_of(server.url, g) for g in [*every, unrated["game_id"]]]

    for who in ids:
        answer = httpx.get(f"{server.url}/accounts/{who}/history")
        assert answer.status_code == 200, answer.text
        got = answer.json()
        want = expected_from_logs(logs, who)
        assert got["account_id"] == who and got["games"] == want["games"] and got["wins"] == want["wins"]
        assert got["win_rate"] == pytest.approx(want["wins"] / want["games"])
        charted = {lad["players"]: lad for lad in got["ladders"]}
        assert set(charted) == set(want["points"]) == {2, 3}
        for size, points in want["points"].items():
            served = charted[size]["points"]
            assert [p["game_id"] for p in served] == [g for g, _, _ in points]
            for p, (_, mu, sigma) in zip(served, points, strict=True):
                assert p["mu"] == pytest.approx(mu, rel=1e-12) and p["sigma"] == pytest.approx(sigma, rel=1e-12)
        # the chart ends where the account's ladder rating is
        ratings = {(r["ruleset"], r["players"]): r for r in httpx.get(f"{server.url}/accounts/{who}").json()["ratings"]}
        for lad in got["ladders"]:
            assert lad["points"][-1]["mu"] == ratings[(lad["ruleset"], lad["players"])]["mu"]
        met = {o["account_id"]: [o["games"], o["wins"], o["losses"]] for o in got["opponents"]}
        assert met == want["h2h"]
        names = {a["account_id"]: a["name"] for a in (ann, bob, cy)}
        assert all(o["name"] == names[o["account_id"]] for o in got["opponents"])


def test_a_listed_game_that_does_not_count_is_passed_over_by_the_ladder_and_the_history_alike(server: Server) -> None:
    """The store's list of finished rated games may name one whose log the fold does not count (here a rated game
    whose two seats are one account, which no referee seats today: a record kept from before). The ladder, the
    account's page and its history all pass over it and agree. Before they were one fold, the history skipped
    such a game while the ladder's own fold raised on it: `GET /ladder` and `GET /accounts/{id}` answered 500."""
    rng = random.Random(33)
    ann, bob = account(server.url, "Ann", "person"), account(server.url, "Bob", "bot")
    made = created(server.url, {"rated": True, "players": [{"account_key": ann["key"]}, {"account_key": bob["key"]}]})
    play_game(server.url, made, rng)
    log = log_of(server.url, made["game_id"])
    events = log_events(log)
    started = events[0]
    assert isinstance(started, GameStarted) and started.accounts[0] is not None
    twice = dataclasses.replace(started, accounts=(started.accounts[0], started.accounts[0]))
    listed = "g_" + uuid.uuid4().hex[:16]
    meta = server.store.meta(made["game_id"])
    assert meta is not None
    server.store.submit(
        Append(listed, 0, [twice, *events[1:]], create=meta, rated=(started.ruleset, 2, int(started.at or 0)))
    ).result(timeout=30)
    with pytest.raises(NotCounted, match="each a different account"):
        rated_game(listed, [e for _, e in server.store.load(listed)])

    ladder = httpx.get(f"{server.url}/ladder", params={"ruleset": "2019", "players": 2, "limit": 100})
    assert ladder.status_code == 200, ladder.text
    rungs = {r["account_id"]: r for r in ladder.json()["ratings"]}
    want = expected_from_logs([log], ann["account_id"])
    (point,) = want["points"][2]
    assert rungs[ann["account_id"]]["games"] == rungs[bob["account_id"]]["games"] == 1
    assert rungs[ann["account_id"]]["mu"] == pytest.approx(point[1], rel=1e-12)
    page = httpx.get(f"{server.url}/accounts/{ann['account_id']}")
    assert page.status_code == 200, page.text
    (rating,) = page.json()["ratings"]
    history = httpx.get(f"{server.url}/accounts/{ann['account_id']}/history")
    assert history.status_code == 200, history.text
    got = history.json()
    assert (got["games"], got["wins"]) == (want["games"], want["wins"]) == (1, want["wins"])
    (chart,) = got["ladders"]
    assert [p["game_id"] for p in chart["points"]] == [made["game_id"]]
    assert chart["points"][-1]["mu"] == rating["mu"] == rungs[ann["account_id"]]["mu"]


def test_an_account_with_no_rated_game_and_one_that_does_not_exist(server: Server) -> None:
    new = account(server.url, "Dee", "bot")
    got = httpx.get(f"{server.url}/accounts/{new['account_id']}/history").json()
    assert got == {"account_id": new["account_id"], "games": 0, "wins": 0, "win_rate": None, "ladders": [],
                   "opponents": []}  # fmt: skip
    missing = httpx.get(f"{server.url}/accounts/a_AAAAAAAAAAAAAAAA/history")
    assert missing.status_code == 404 and missing.json()["code"] == "account_not_found"
    assert httpx.get(f"{server.url}/accounts/nope/history").status_code == 404


def test_the_holder_of_a_key(server: Server) -> None:
    made = account(server.url, "Eve", "person")
    found = httpx.post(f"{server.url}/accounts/holder", json={"key": made["key"]})
    assert found.status_code == 200, found.text
    assert found.json()["account_id"] == made["account_id"] and found.json()["name"] == made["name"]
    assert made["key"] not in found.text and found.headers["cache-control"] == "no-store"
    wrong = httpx.post(f"{server.url}/accounts/holder", json={"key": "ak_" + "x" * 43})
    assert wrong.status_code == 403 and wrong.json()["code"] == "account_key_rejected"
    assert httpx.post(f"{server.url}/accounts/holder", json={}).status_code == 422
