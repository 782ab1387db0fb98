"""Bots that stay online (`loveletter bot run … --account-key … --stay`, play/online.py) on a real server over both
stores: two bot accounts seek, are paired and play ten rated games to the end, and their ladder equals OpenSkill's
own figures from the downloaded logs and `loveletter ratings` over them; a bot killed mid-game and started again
finishes its game; Ctrl-C resigns the games under way when asked; a staying bot declines the challenge its
settings refuse and accepts the one they allow."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import httpx
import orjson
import pytest

from loveletter.client import Client
from loveletter.play.harness import load, play
from tests.cli import SCRIPT, loveletter
from tests.servers import ROOT, Server, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)
from tests.test_challenges import account, post
from tests.test_ladder import independent, log_of, whole_ladder


def staying(url: str, key: str, state: Path, *more: str) -> subprocess.Popen[str]:
    args = [str(SCRIPT), "bot", "run", "heuristic", "--server", url, "--stay", "--state", str(state), *more]
    env = {**os.environ, "LOVELETTER_ACCOUNT_KEY": key}
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(proc: subprocess.Popen[str], timeout: float = 240) -> str:
    out, err = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, err[-3000:]
    return out


def test_two_staying_bots_play_ten_rated_games_and_the_ladder_is_their_fold(server: Server, tmp_path: Path) -> None:
    url = server.url
    one, two = account(url, "Stay"), account(url, "Put")
    bots = [staying(url, a["key"], tmp_path / f"{n}.json", "--seek", "--rated", "--games", "10")
            for n, a in enumerate((one, two))]  # fmt: skip
    outs = [finished(b) for b in bots]
    assert all(o.count(" over (") == 10 for o in outs), outs
    games = httpx.get(f"{url}/accounts/{one['account_id']}").json()["games"]
    assert len(games) == 10 and httpx.get(f"{url}/accounts/{two['account_id']}").json()["games"] == games
    logs = [log_of(url, g) for g in games]
    served = [r for r in whole_ladder(url, "2019", 2) if r["account_id"] in (one["account_id"], two["account_id"])]
    assert [r["games"] for r in served] == [10, 10]
    expected = independent(logs, 2)
    for rung in served:
        mu, sigma, count = expected[rung["account_id"]]
        assert (rung["mu"], rung["sigma"], rung["games"]) == (pytest.approx(mu, rel=1e-12),
                                                              pytest.approx(sigma, rel=1e-12), count)  # fmt: skip
    path = tmp_path / "logs.jsonl"
    path.write_bytes(b"".join(logs))
    run = loveletter("ratings", "--json", str(path))
    assert run.returncode == 0, run.stderr
    (ladder,) = orjson.loads(run.stdout)["ladders"]
    strip = [{k: v for k, v in r.items() if k != "rank"} for r in ladder["ratings"]]
    assert strip == [{k: v for k, v in r.items() if k != "rank"} for r in served]  # to the last bit


def test_a_bot_killed_mid_game_and_started_again_finishes_it(server: Server, tmp_path: Path) -> None:
    url = server.url
    me, it = account(url, "Kme", "person"), account(url, "Kit")
    state = tmp_path / "bot.json"
    first = staying(url, it["key"], state, "--seek", "--games", "1", "--ruleset", "2012")
    with Client(url) as c:
        sought = c.seek(me["key"], ruleset="2012")
        deadline = time.monotonic() + 60
        while sought.game_id is None:
            assert time.monotonic() < deadline
            time.sleep(0.1)
            sought = c.get_seek(sought.seek_id)
        game = sought.game_id
        while not state.exists() or game not in orjson.loads(state.read_bytes())["games"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)  # killed: no chance to tidy anything
        first.communicate(timeout=30)
        seat = c.seat(c.join_as(game, me["key"]).token)
        mine = threading.Thread(target=play, args=(seat, game, load("heuristic", 1)))
        mine.start()
        again = staying(url, it["key"], state, "--seek", "--games", "1", "--ruleset", "2012")
        out = finished(again)
        mine.join(timeout=120)
        assert f"game {game} over" in out
        assert seat.game(game).over


def test_a_staying_bot_declines_by_its_settings_and_accepts_otherwise(server: Server, tmp_path: Path) -> None:
    url = server.url
    ann, bot = account(url, "Cann", "person"), account(url, "Cbot")
    proc = staying(url, bot["key"], tmp_path / "bot.json", "--unrated", "--games", "1")
    try:
        refused = post(url, "/challenges", {"key": ann["key"], "to": bot["name"], "rated": True}).json()
        wanted = post(url, "/challenges", {"key": ann["key"], "to": bot["name"]}).json()
        deadline = time.monotonic() + 60
        seen = {}
        while {seen.get(c, "open") for c in (refused["challenge_id"], wanted["challenge_id"])} & {"open"}:
            assert time.monotonic() < deadline
            time.sleep(0.1)
            seen = {c: httpx.get(f"{url}/challenges/{c}").json()["status"]
                    for c in (refused["challenge_id"], wanted["challenge_id"])}  # fmt: skip
        assert seen == {refused["challenge_id"]: "declined", wanted["challenge_id"]: "accepted"}
        game = httpx.get(f"{url}/challenges/{wanted['challenge_id']}").json()["game_id"]
        with Client(url) as c:
            final = play(c.seat(c.join_as(game, ann["key"]).token), game, load("random", 7))
        assert final.over
        assert f"game {game} over" in finished(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_ctrl_c_resigns_the_games_under_way_when_asked(server: Server, tmp_path: Path) -> None:
    url = server.url
    me, it = account(url, "Ime", "person"), account(url, "Iit")
    state = tmp_path / "bot.json"
    proc = staying(url, it["key"], state, "--seek", "--ruleset", "princess-princess", "--on-stop", "resign")
    with Client(url) as c:
        sought = c.seek(me["key"], ruleset="princess-princess")
        deadline = time.monotonic() + 60
        while sought.game_id is None:
            assert time.monotonic() < deadline
            time.sleep(0.1)
            sought = c.get_seek(sought.seek_id)
        game = sought.game_id
        while not state.exists() or game not in orjson.loads(state.read_bytes())["games"]:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        seat = c.seat(c.join_as(game, me["key"]).token)  # the bot's seat is taken; mine too: the game is under way
        proc.send_signal(signal.SIGINT)
        out = finished(proc, timeout=60)
        assert "stopping: resign 1 game(s)" in out
        final = seat.game(game)
        assert final.over and tuple(final.view.winners) == (sought.seat,)  # the bot resigned: I win
