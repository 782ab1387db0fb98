"""Bots that stay online (`loveletter bot run … --account-key … --stay`, play/online.py) on a real server over both
stores: two bot accounts seek, are paired and play four rated games to the end, and their ladder equals OpenSkill's
own figures from the downloaded logs and `loveletter ratings` over them; a bot killed mid-game and started again
finishes its game; a bot whose referee is stopped mid-game (SIGTERM, SIGKILL) and started again on the same file and
port picks its game up and plays it to its end; Ctrl-C resigns the games under way when asked, or finishes them
while accepting nothing new; a staying bot declines the challenge its settings refuse and accepts the one they
allow."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
import time
from contextlib import suppress
from pathlib import Path

import httpx
import orjson
import pytest

from loveletter.client import Client
from loveletter.core.catalogue import CardPlayed, PlayerResigned
from loveletter.events.pgcluster import free_port
from loveletter.play.harness import load, play
from tests.cli import SCRIPT, loveletter
from tests.servers import (  # noqa: F401  (fixture)
    ADMIN,
    ROOT,
    STARTUP_SECONDS,
    Server,
    admin_log,
    log_events,
    server_fixture,
    verify_log,
)
from tests.stores import pg_url  # noqa: F401  (fixture)
from tests.test_challenges import account, post
from tests.test_ladder import independent, log_of, whole_ladder


def staying(url: str, key: str, state: Path, *more: str, bot: str = "heuristic") -> subprocess.Popen[str]:
    args = [str(SCRIPT), "bot", "run", bot, "--server", url, "--stay", "--state", str(state), *more]
    env = {**os.environ, "LOVELETTER_ACCOUNT_KEY": key, "LOVELETTER_LANG": "en"}  # its lines, as read below
    return subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(proc: subprocess.Popen[str], timeout: float = 240) -> str:
    """The staying bot's output once it has exited by itself, with status 0 (what it said, if it did not in time)."""
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"the bot did not exit in {timeout} s; it said:\n{out[-3000:]}\n{err[-3000:]}") from None
    assert proc.returncode == 0, err[-3000:]
    return out


class Served:
    """`loveletter serve` on one SQLite file and one port, as a user runs it: stopped by a signal, started again on
    the same file and port (what a bot sees of a referee restarting)."""

    def __init__(self, database: Path, **settings: str) -> None:
        self.database = database
        self.settings = {f"LOVELETTER_{k.upper()}": v for k, v in settings.items()}
        self.said = database.with_suffix(".stderr")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Served:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOVELETTER_") or k == "LOVELETTER_KEY_PATH"}
        env.update(LOVELETTER_ADMIN_TOKEN=ADMIN, LOVELETTER_LOG_LEVEL="warning", LOVELETTER_CREATE_RATE="0",
                   LOVELETTER_MOVE_RATE="0", **self.settings)  # fmt: skip
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        command = [str(SCRIPT), "serve", "--database-url", f"sqlite:///{self.database}", "--port", str(self.port)]
        with self.said.open("ab") as said:
            self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=said, stderr=said)
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert self.proc.poll() is None, self.said.read_text()[-3000:]
            with suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            assert time.monotonic() < deadline, f"the referee on port {self.port} did not start"
            time.sleep(0.05)

    def stop(self, how: int = signal.SIGTERM) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(how)
            try:
                self.proc.wait(timeout=60)
            finally:
                if self.proc.poll() is None:
                    self.proc.kill()
                    self.proc.wait()


def ends_the_game(events: list[object]) -> bool:
    """Whether the log ends with the game's end: after its last move, `game_ended` (then only the seed revealed)."""
    last = max(i for i, e in enumerate(events) if isinstance(e, CardPlayed))
    return [type(e).__name__ for e in events[last + 1 :]][-2:] == ["GameEnded", "SeedRevealed"]


def seek_the_bot(c: Client, key: str, state: Path, ruleset: str) -> tuple[str, int]:
    """Seek a game of `ruleset` that the staying bot of `state` seeks too: the game and my seat, once the bot has
    its seat (its state file says so)."""
    sought = c.seek(key, ruleset=ruleset)
    deadline = time.monotonic() + 60
    while sought.game_id is None:
        assert time.monotonic() < deadline
        time.sleep(0.1)
        sought = c.get_seek(sought.seek_id)
    while not state.exists() or sought.game_id not in orjson.loads(state.read_bytes())["games"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert sought.seat is not None
    return sought.game_id, sought.seat


def test_two_staying_bots_play_four_rated_games_and_the_ladder_is_their_fold(server: Server, tmp_path: Path) -> None:
    url = server.url
    one, two = account(url, "Stay"), account(url, "Put")
    bots = [staying(url, a["key"], tmp_path / f"{n}.json", "--seek", "--rated", "--games", "4")
            for n, a in enumerate((one, two))]  # fmt: skip
    outs = [finished(b) for b in bots]
    assert all(o.count(" over (") == 4 and o.count(": started\n") == 4 for o in outs), outs
    for out, who in zip(outs, (one, two), strict=True):  # it says where it is online, first
        assert out.startswith(f"online as {who['name']} ({who['account_id']}) at {url}\n"), out
    games = httpx.get(f"{url}/accounts/{one['account_id']}").json()["games"]
    assert len(games) == 4 and httpx.get(f"{url}/accounts/{two['account_id']}").json()["games"] == games
    logs = [log_of(url, g) for g in games]
    served = [r for r in whole_ladder(url, "2019", 2) if r["account_id"] in (one["account_id"], two["account_id"])]
    assert [r["games"] for r in served] == [4, 4]
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


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_resigns_the_games_under_way_when_asked(server: Server, tmp_path: Path, how: int) -> None:
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
        proc.send_signal(
            how
        )  # SIGINT even where the tests run as a background job, which ignores it (the bot resets it)
        out = finished(proc, timeout=STARTUP_SECONDS)  # a cap for a loaded machine: it ends as soon as the bot exits
        assert "stopping: resign 1 game(s)" in out
        final = seat.game(game)
        assert final.over and tuple(final.view.winners) == (sought.seat,)  # the bot resigned: I win


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_a_staying_bot_plays_on_after_its_referee_restarts(tmp_path: Path, how: int) -> None:
    referee = Served(tmp_path / "referee.db", stream_keep_alive="0.5").start()  # keep-alives on the idle streams
    bot = None
    try:
        url = referee.url
        me, it = account(url, "Rme", "person"), account(url, "Rit")
        state = tmp_path / "bot.json"
        bot = staying(url, it["key"], state, "--seek", "--games", "1", "--ruleset", "2012")
        with Client(url) as c:
            game, mine = seek_the_bot(c, me["key"], state, "2012")
            seat = c.seat(c.join_as(game, me["key"]).token)
            deadline = time.monotonic() + 60
            while not (now := seat.game(game)).your_turn:  # the game under way, the bot waiting for my move
                assert time.monotonic() < deadline and not now.over
                time.sleep(0.05)
            time.sleep(2)  # a slow opponent: keep-alives come on the bot's streams
            referee.stop(how)
            referee.start()  # the same file, the same port
            time.sleep(2)
            final = play(seat, game, load("random", 11))  # my moves after the restart: the bot must answer them
        out = finished(bot)
        assert f"game {game} over (1 finished)" in out, out
        about = [line for line in out.splitlines() if line.startswith(f"game {game}: ")]
        assert about[0] == f"game {game}: started", out  # then only the referee's absence, never an error
        assert all(re.fullmatch(r"game \S+: referee unreachable \(.+\): trying again in \d+ s", a) for a in about[1:])
        data = httpx.get(f"{url}/games/{game}/log", headers={"Authorization": f"Bearer {ADMIN}"}).content
        events = log_events(data)
        verify_log(data, tmp_path)  # every move the referee took is legal, the log signed and whole
        assert final.over and ends_the_game(events)
        assert not any(isinstance(e, PlayerResigned) for e in events)
        after = events[now.version :]
        assert any(isinstance(e, CardPlayed) and e.player == 1 - mine for e in after), "the bot never moved again"
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
            bot.communicate()
        referee.stop(signal.SIGKILL)


def test_ctrl_c_finishes_the_games_under_way_and_takes_no_new_one(server: Server, tmp_path: Path) -> None:
    url = server.url
    me, it, other = account(url, "Fme", "person"), account(url, "Fit"), account(url, "Fot", "person")
    state = tmp_path / "bot.json"
    proc = staying(url, it["key"], state, "--on-stop", "finish")
    try:
        asked = post(url, "/challenges", {"key": me["key"], "to": it["name"], "ruleset": "2012"}).json()
        deadline = time.monotonic() + 60
        while (now := httpx.get(f"{url}/challenges/{asked['challenge_id']}").json())["status"] == "open":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert now["status"] == "accepted", now
        game = now["game_id"]
        with Client(url) as c:
            seat = c.seat(c.join_as(game, me["key"]).token)
            while not state.exists() or game not in orjson.loads(state.read_bytes())["games"]:
                assert time.monotonic() < deadline
                time.sleep(0.05)
            proc.send_signal(signal.SIGINT)
            assert proc.stdout is not None
            said = [proc.stdout.readline() for _ in range(3)]  # what it did, then "stopping" once it takes nothing new
            assert said == [f"online as {it['name']} ({it['account_id']}) at {url}\n", f"game {game}: started\n",
                            "stopping: finish 1 game(s)\n"], said  # fmt: skip
            late = post(url, "/challenges", {"key": other["key"], "to": it["name"], "ruleset": "2012"}).json()
            final = play(seat, game, load("random", 4))
        out = finished(proc, timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert final.over and f"game {game} over (1 finished)" in out
    assert out.rstrip().endswith("stopped: 1 game(s) finished")  # and it exited 0 (`finished`)
    events = log_events(log_of(url, game))
    assert ends_the_game(events) and not any(isinstance(e, PlayerResigned) for e in events)
    assert httpx.get(f"{url}/challenges/{late['challenge_id']}").json()["status"] == "open"  # never accepted
    assert httpx.get(f"{url}/accounts/{it['account_id']}").json()["games"] == [game]


CRASHING = """
from loveletter.client import Game, LegalMove


class Bot:
    def __init__(self) -> None:
        self.moves = 0

    def choose(self, game: Game) -> LegalMove:
        self.moves += 1
        if self.moves > 1:
            raise ZeroDivisionError("a bug on the second move")
        return game.legal_moves[0]
"""


def test_a_staying_bot_whose_code_fails_resigns_that_game_and_says_why(server: Server, tmp_path: Path) -> None:
    # RULINGS §12: a bot that fails loses its seat by resignation, as over HTTP a crashed bot's seat does; the
    # traceback is shown, and the staying bot goes on (here it was asked for one game, so it then stops, status 0).
    url = server.url
    me, it = account(url, "Bme", "person"), account(url, "Bit")
    (tmp_path / "crashing.py").write_text(CRASHING)
    state = tmp_path / "bot.json"
    bot = staying(url, it["key"], state, "--seek", "--games", "1", bot=f"{tmp_path / 'crashing.py'}:Bot")
    with Client(url) as c:
        game, mine = seek_the_bot(c, me["key"], state, "2019")
        seat = c.seat(c.join_as(game, me["key"]).token)
        player = threading.Thread(target=play, args=(seat, game, load("heuristic", 1)))
        player.start()
        out = finished(bot)
        player.join(timeout=120)
        events = log_events(admin_log(url, game))
    assert f"game {game}: the bot failed, its seat resigns" in out, out
    assert "Traceback (most recent call last)" in out and "ZeroDivisionError: a bug on the second move" in out
    resigned = [e for e in events if isinstance(e, PlayerResigned)]
    assert [e.player for e in resigned] == [1 - mine]
    assert sum(1 for e in events if isinstance(e, CardPlayed) and e.player == 1 - mine) == 1
    assert f"game {game} over (1 finished)" in out
