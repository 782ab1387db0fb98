"""Nothing waits for ever (issue 34, docs/operations.md): on a real server, a game two seeks paired whose other account
never joins ends unplayed at its join deadline, with its reason in the log, across a restart of the referee; the
account that was there goes back to the queue and the staying bot that held it (`--at-once 1`) plays its next game;
a lobby game's open seat expires; a challenge nobody answers expires. Each deadline is a setting, shortened here to
seconds."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson

from loveletter.client import Client
from loveletter.core.catalogue import GameAborted, GameEnded, GameStarted, SeatJoined
from loveletter.events.sqlite_store import SqliteStore
from loveletter.play.harness import load, play
from loveletter.server.settings import Settings
from tests.servers import ADMIN, admin_log, log_events, read_sse, serve
from tests.test_bots_online import Served, finished, staying
from tests.test_challenges import account, post


def wait_for(what: str, done: Callable[[], Any], seconds: float = 60) -> Any:
    """The first true value of `done()`, asked every 50 ms: a wait for a condition, bounded by a generous time."""
    deadline = time.monotonic() + seconds
    while not (found := done()):
        assert time.monotonic() < deadline, what
        time.sleep(0.05)
    return found


def aborted(events: list[Any]) -> list[Any] | None:
    """The log up to its `game_aborted`, if it has one."""
    ends = [i for i, e in enumerate(events) if isinstance(e, GameAborted)]
    return events[: ends[0] + 1] if ends else None


def test_an_unjoined_paired_game_ends_unplayed_and_the_staying_bot_plays_its_next(tmp_path: Path) -> None:
    served = Served(tmp_path / "referee.db", join_seconds="3", clock_poll="0.2").start()
    bot_state = tmp_path / "bot.json"
    proc = None
    try:
        url = served.url
        bot, ghost, real = account(url, "Stay"), account(url, "Ghost", "person"), account(url, "Real", "person")
        proc = staying(url, bot["key"], bot_state, "--seek", "--at-once", "1", "--games", "2")
        c = Client(url)
        wait_for("the bot did not seek", lambda: bot_state.exists() and orjson.loads(bot_state.read_bytes())["seeks"])
        # the ghost is paired with the bot, and never takes its seat; the bot takes its own at once
        sought = c.seek(ghost["key"])
        game_id = wait_for("no pairing", lambda: c.get_seek(sought.seek_id).game_id)
        wait_for("the bot did not join", lambda: game_id in orjson.loads(bot_state.read_bytes())["games"])
        # the referee restarts meanwhile: the deadline is in the log and the store, not in a process
        served.stop()
        served.start()
        events = wait_for(
            "the unfilled game was not aborted",
            lambda: aborted(log_events(admin_log(url, game_id))),
        )
        first, last = events[0], events[-1]  # (the log goes on: the server seed is revealed)
        assert isinstance(first, GameStarted) and first.join_by is not None
        assert last == GameAborted(last.at, "seats_unfilled") and last.at >= first.join_by
        joined = [e.player for e in events if isinstance(e, SeatJoined)]
        assert len(joined) == 1 and joined[0] != c.get_seek(sought.seek_id).seat  # the bot sat, the ghost did not
        # the ghost's seek expired; the bot's went back to the queue with its place (its time)
        assert c.get_seek(sought.seek_id).status == "expired"
        ghost_told = read_sse(url, f"/accounts/{ghost['account_id']}/stream", ghost["key"], limit=3)
        unfilled = [e["data"] for e in ghost_told if e["event"] == "game_unfilled"]
        assert [(u["game_id"], u["requeued"]) for u in unfilled] == [(game_id, False)]
        bot_seek = wait_for("the bot's seek is not back", lambda: orjson.loads(bot_state.read_bytes())["seeks"])
        assert len(bot_seek) == 1 and c.get_seek(bot_seek[0]).status in ("open", "paired")
        # a real player seeks: paired with the bot's seek at once, plays it to the end
        mine = c.seek(real["key"])
        second = wait_for("the bot's seek did not pair again", lambda: c.get_seek(mine.seek_id).game_id)
        assert second != game_id and c.get_seek(bot_seek[0]).game_id == second
        seat = c.join_as(second, real["key"])
        played = play(Client(url, token=seat.token), second, load("random"))
        assert played.over and not played.view.aborted
        out = finished(proc)
        assert out.count(" over (") == 2, out
        assert isinstance(log_events(admin_log(url, second))[-2], GameEnded)
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
        served.stop()


def test_a_lobby_games_open_seat_and_an_unanswered_challenge_expire(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "referee.db"))
    settings = Settings(
        admin_token=ADMIN, log_level="warning", open_seat_seconds=2, challenge_seconds=2, clock_poll=0.1
    )
    try:
        with serve(settings, store) as url:
            made = post(url, "/games", {"players": [{"name": "Ann"}, {"open": True}], "public": True})
            assert made.status_code == 201, made.text
            game_id, invite = made.json()["game_id"], made.json()["seats"][1]["invite"]
            listed = httpx.get(f"{url}/games?status=open").json()["games"]
            join_by = next(g for g in listed if g["game_id"] == game_id)["join_by"]
            assert join_by is not None and 0 < join_by - time.time() * 1000 <= 2000
            ann, bob = account(url, "Chal", "person"), account(url, "Lenged", "person")
            challenge = post(url, "/challenges", {"key": ann["key"], "to": bob["account_id"]}).json()
            assert challenge["expires"] == challenge["created"] + 2000
            events = wait_for(
                "the open seat did not expire",
                lambda: aborted(log_events(admin_log(url, game_id))),
            )
            assert events[-1].reason == "seats_unfilled" and events[-1].at >= join_by
            late = post(url, f"/games/{game_id}/join", {"name": "Bob", "invite": invite})
            assert late.status_code in (409, 422) and late.json()["code"] in ("game_over", "seats_expired"), late.text
            finished = httpx.get(f"{url}/games?status=finished").json()["games"]
            assert any(g["game_id"] == game_id and g["aborted"] for g in finished)
            # the challenge: past its time, it cannot be accepted, says it expired, and its challenger is told
            wait_for("the challenge did not expire", lambda: time.time() * 1000 >= challenge["expires"])
            accepted = post(url, f"/challenges/{challenge['challenge_id']}/accept", {"key": bob["key"]})
            assert accepted.status_code == 409 and accepted.json()["code"] == "challenge_closed", accepted.text
            assert "expired" in accepted.json()["detail"]
            shown = httpx.get(f"{url}/challenges/{challenge['challenge_id']}").json()
            assert shown["status"] == "expired" and shown["game_id"] is None
            assert httpx.get(f"{url}/accounts/{bob['account_id']}/challenges").json()["challenges"] == []
            told = read_sse(url, f"/accounts/{ann['account_id']}/stream", ann["key"], limit=1)
            assert [e["event"] for e in told] == ["challenge_expired"]
    finally:
        store.close()
