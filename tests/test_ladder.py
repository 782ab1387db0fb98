"""Rated games and the ladder (issue 25, docs/accounts.md), on a real server over both stores: accounts play rated
games to the end; `GET /ladder` (read page by page) equals exactly what `loveletter ratings` computes from the
downloaded logs, and both equal an independent computation with the rating library from the logs' results."""

from __future__ import annotations

import random
import uuid
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from openskill.models import PlackettLuce

from loveletter.core.catalogue import GameEnded, GameStarted
from loveletter.play.ladder import NotCounted, rated_game
from tests.cli import loveletter
from tests.servers import ADMIN, Server, log_events, play_game, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)


def account(url: str, stem: str, kind: str) -> dict[str, Any]:
    made = httpx.post(f"{url}/accounts", json={"name": f"{stem}{uuid.uuid4().hex[:6]}", "kind": kind})
    assert made.status_code == 201, made.text
    return dict(made.json())


def created(url: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(f"{url}/games", json=body, timeout=30)
    assert answer.status_code == 201, answer.text
    return dict(answer.json())


def log_of(url: str, game_id: str) -> bytes:
    answer = httpx.get(f"{url}/games/{game_id}/log", headers={"Authorization": f"Bearer {ADMIN}"}, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.content


def whole_ladder(url: str, ruleset: str, players: int) -> list[dict[str, Any]]:
    """Every rung of a ladder, read two at a time through `next`."""
    rungs: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"ruleset": ruleset, "players": players, "limit": 2}
        if cursor is not None:
            params["cursor"] = cursor
        page = httpx.get(f"{url}/ladder", params=params).json()
        assert page["ratings"] and len(page["ratings"]) <= 2, page
        rungs += page["ratings"]
        cursor = page["next"]
        if cursor is None:
            return rungs


def independent(logs: list[bytes], players: int) -> dict[str, tuple[float, float, int]]:
    """The ratings computed straight with openskill from the logs: finished rated games of `players` seats, in the
    order their logs say they began; the winner(s) ranked first (these games have no resignations), no drift."""
    model = PlackettLuce(tau=0.0)
    games = []
    for log in logs:
        events = log_events(log)
        started = events[0]
        assert isinstance(started, GameStarted)
        ended = [e for e in events if isinstance(e, GameEnded)]
        if not started.rated or not ended or len(started.players) != players:
            continue
        seats = [a.account if a else "" for a in started.accounts] or [""] * players
        for e in events:
            if type(e).TYPE == "seat_joined" and e.account is not None:  # type: ignore[union-attr]
                seats[e.player] = e.account.account  # type: ignore[union-attr]
        ranks = [1 if seat in ended[0].winners else 2 for seat in range(players)]
        game_id = orjson.loads(log.splitlines()[0])["game_id"]
        games.append((started.at, game_id, seats, ranks))
    ratings: dict[str, Any] = {}
    counts: dict[str, int] = {}
    for _, _, seats, ranks in sorted(games, key=lambda g: (g[0], g[1])):
        teams = [[ratings.get(a) or model.rating()] for a in seats]
        for account, (after,) in zip(seats, model.rate(teams, ranks=ranks), strict=True):
            ratings[account] = after
            counts[account] = counts.get(account, 0) + 1
    return {a: (r.mu, r.sigma, counts[a]) for a, r in ratings.items()}


def test_the_ladder_is_the_fold_of_the_rated_logs(server: Server, tmp_path: Path) -> None:
    rng = random.Random(25)
    ann, bot, cat = (account(server.url, s, k) for s, k in (("Ann", "person"), ("Bot", "bot"), ("Cat", "bot")))
    keys = {a["account_id"]: a["key"] for a in (ann, bot, cat)}
    ids = list(keys)
    games: list[str] = []
    for a, b in [(0, 1), (1, 2), (2, 0), (0, 1), (2, 1), (0, 2)]:
        made = created(server.url, {"rated": True, "players": [{"account_key": keys[ids[a]]},
                                                                {"account_key": keys[ids[b]]}]})  # fmt: skip
        play_game(server.url, made, rng)
        games.append(made["game_id"])
    # a seat joined from the lobby, with a key
    made = created(server.url, {"rated": True, "public": True,
                                "players": [{"open": True}, {"account_key": keys[ids[1]]}]})  # fmt: skip
    joined = httpx.post(f"{server.url}/games/{made['game_id']}/join", json={"name": "x", "account_key": keys[ids[0]]})
    assert joined.status_code == 200, joined.text
    play_game(server.url, {**made, "seats": [{"seat": 0, "token": joined.json()["token"]}, made["seats"][1]]}, rng)
    games.append(made["game_id"])
    # what the ladder leaves out: an aborted rated game, an unrated game between accounts, a three-seat rated game
    aborted = created(server.url, {"rated": True, "players": [{"account_key": keys[ids[0]]},
                                                              {"account_key": keys[ids[2]]}]})  # fmt: skip
    stop = httpx.post(f"{server.url}/games/{aborted['game_id']}/abort",
                      headers={"Authorization": f"Bearer {aborted['organiser_token']}"})  # fmt: skip
    assert stop.status_code == 200, stop.text
    unrated = created(server.url, {"players": [{"account_key": keys[ids[0]]}, {"account_key": keys[ids[1]]}]})
    play_game(server.url, unrated, rng)
    three = created(
        server.url, {"rated": True, "ruleset": "2019", "players": [{"account_key": k} for k in keys.values()]}
    )
    play_game(server.url, three, rng)
    every = [*games, aborted["game_id"], unrated["game_id"], three["game_id"]]
    logs = [log_of(server.url, g) for g in every]

    # the shared server may hold other tests' rated games: compare the accounts of this test
    served = [r for r in whole_ladder(server.url, "2019", 2) if r["account_id"] in keys]
    assert len(served) == 3 and sum(r["games"] for r in served) == 2 * len(games)

    # `loveletter ratings` over the logs, given in another order and split in two files
    first, second = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    first.write_bytes(b"".join(logs[5:]))
    second.write_bytes(b"".join(reversed(logs[:5])))
    run = loveletter("ratings", "--json", str(first), str(second))
    assert run.returncode == 0, run.stderr
    computed = orjson.loads(run.stdout)
    ladders = {(lad["ruleset"], lad["players"]): lad for lad in computed["ladders"]}
    assert set(ladders) == {("2019", 2), ("2019", 3)}
    assert ladders[("2019", 2)]["games"] == len(games)
    assert len(computed["skipped"]) == 2  # the aborted game and the unrated one
    mine = ladders[("2019", 2)]["ratings"]
    ranked = [{k: v for k, v in r.items() if k != "rank"} for r in mine]
    assert ranked == [{k: v for k, v in r.items() if k != "rank"} for r in served]  # to the last bit
    assert [r["mu"] for r in served] == sorted((r["mu"] for r in served), reverse=True)

    # both equal openskill's own figures from the logs' results
    expected = independent(logs, 2)
    for rung in served:
        mu, sigma, count = expected[rung["account_id"]]
        assert rung["mu"] == pytest.approx(mu, rel=1e-12) and rung["sigma"] == pytest.approx(sigma, rel=1e-12)
        assert rung["games"] == count
        assert rung["name"] == next(a["name"] for a in (ann, bot, cat) if a["account_id"] == rung["account_id"])

    # an account's page shows its place on each ladder
    page = httpx.get(f"{server.url}/accounts/{ann['account_id']}").json()
    by_ladder = {(r["ruleset"], r["players"]): r for r in page["ratings"]}
    ours = next(r for r in served if r["account_id"] == ann["account_id"])
    assert by_ladder[("2019", 2)]["mu"] == ours["mu"] and by_ladder[("2019", 2)]["games"] == ours["games"]
    assert ("2019", 3) in by_ladder
    pairs = [(0, 1), (1, 2), (2, 0), (0, 1), (2, 1), (0, 2), (0, 1)]
    sat = [g for g, pair in zip(games, pairs, strict=True) if 0 in pair]
    assert set(page["games"]) == {*sat, aborted["game_id"], unrated["game_id"], three["game_id"]}


def test_what_the_fold_does_not_count() -> None:
    with pytest.raises(NotCounted, match="not a rated game"):
        rated_game("g", [])


def test_a_ladder_cursor_not_given_by_the_ladder_is_refused(server: Server) -> None:
    answer = httpx.get(f"{server.url}/ladder", params={"cursor": "x1"})
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_cursor"
    empty = httpx.get(f"{server.url}/ladder", params={"ruleset": "2012", "players": 4}).json()
    assert empty == {"ruleset": "2012", "players": 4, "games": 0, "ratings": [], "next": None}
