"""Faults below the server: the database on a full file system, and PostgreSQL restarting under load.

A move the store cannot record is answered 503 `store_unavailable` with Retry-After (before: 500); every move that
was acknowledged (200) is in the game's log afterwards, nothing half-written is ever served, and the referee recovers
by itself when space returns or the database is back — no restart of the referee.

The full disk is a small tmpfs mounted by the test (as root; CI runs as root, and there a missing capability fails
instead of skipping).
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.api.problems import TITLES
from loveletter.events.log import read_games
from loveletter.events.pgcluster import PostgresUnavailable, TempCluster
from loveletter.events.postgres_store import PostgresStore
from loveletter.events.sqlite_store import SqliteStore
from loveletter.events.store import EventStore
from loveletter.replays.replay import check
from loveletter.server.settings import Settings
from tests.needs import need
from tests.reliability.guarded import guarded_serve
from tests.servers import ADMIN

TWO = [{"name": "Ann"}, {"name": "Bob"}]


def unavailable(reason: str, kind: str = "root") -> None:
    """Fail for want of a capability, saying how to get it, unless its kind was skipped by name (tests/needs.py)."""
    need(kind, reason)


@pytest.fixture
def small_fs(tmp_path: Path) -> Iterator[Path]:
    """A 16 MiB tmpfs of its own, unmounted afterwards."""
    if os.geteuid() != 0:
        unavailable("mounting a tmpfs needs root")
    mount = tmp_path / "fs"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(mount)], capture_output=True)
    if done.returncode != 0:
        unavailable(f"cannot mount a tmpfs: {done.stderr.decode().strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(path: Path) -> None:
    """Write `path` until the file system is full."""
    chunk = b"\0" * (64 * 1024)
    with open(path, "wb", buffering=0) as out:
        while True:
            try:
                out.write(chunk)
            except OSError as exc:
                assert exc.errno == errno.ENOSPC, exc
                break
        with contextlib.suppress(OSError):
            while out.write(b"\0"):  # to the last byte
                pass


class Player:
    """Plays games over HTTP the way a client would, keeping every acknowledged answer."""

    def __init__(self, url: str, seed: int) -> None:
        self.http = httpx.Client(base_url=url, timeout=20)
        self.rng = random.Random(seed)
        self.acknowledged: dict[str, list[tuple[int, dict[str, Any]]]] = {}  # game -> [(seat, answer)]
        self.tokens: dict[str, list[str]] = {}
        self.statuses: list[int] = []

    def create(self) -> httpx.Response:
        r = self.http.post("/games", json={"players": TWO})
        if r.status_code == 201:
            created = r.json()
            self.tokens[created["game_id"]] = [s["token"] for s in created["seats"]]
            self.acknowledged[created["game_id"]] = []
        return r

    def move(self, gid: str) -> httpx.Response | None:
        """One move of whoever is to play (None once the game is over)."""
        view = self.http.get(f"/games/{gid}")
        if view.status_code != 200:
            return view
        game = view.json()
        if game["over"]:
            return None
        seat = game["view"]["active"]
        auth = {"Authorization": f"Bearer {self.tokens[gid][seat]}"}
        mine = self.http.get(f"/games/{gid}", headers=auth)
        if mine.status_code != 200:
            return mine
        choice = self.rng.choice(mine.json()["legal_moves"])
        r = self.http.post(
            f"/games/{gid}/moves",
            json={"type": "code", "action_code": choice["action_code"]},
            headers={**auth, "If-Match": mine.headers["etag"]},
        )
        self.statuses.append(r.status_code)
        if r.status_code == 200:
            self.acknowledged[gid].append((seat, r.json()))
        return r

    def close(self) -> None:
        self.http.close()


def assert_unavailable(r: httpx.Response) -> None:
    assert r.status_code == 503, (r.status_code, r.text)
    assert r.headers["content-type"] == "application/problem+json"
    assert r.headers["retry-after"].isdigit() and int(r.headers["retry-after"]) >= 1
    body = r.json()
    assert body["code"] == "store_unavailable" and body["title"] == TITLES["store_unavailable"].en


def assert_nothing_lost(url: str, player: Player, store: EventStore) -> None:
    """Every acknowledged move's events are in the log, as its seat was told them; every log replays clean."""
    with httpx.Client(base_url=url, timeout=20) as http:
        for gid, answers in player.acknowledged.items():
            for seat, answer in answers:
                token = player.tokens[gid][seat]
                first = answer["events"][0]["seq"]
                seen = http.get(
                    f"/games/{gid}/events", params={"after": first - 1}, headers={"Authorization": f"Bearer {token}"}
                ).json()["events"]
                assert seen[: len(answer["events"])] == answer["events"], (gid, first)
            log = http.get(f"/games/{gid}/log", headers={"Authorization": f"Bearer {ADMIN}"})
            assert log.status_code == 200
            (game,) = read_games(log.content.splitlines())
            result = check(game)
            assert result.problems == [], (gid, result.problems)
            assert [seq for seq, _ in store.load(gid)] == list(range(1, len(game.entries) + 1))


# -- a full disk ------------------------------------------------------------------------------------------------


def test_a_full_disk_answers_503_loses_nothing_and_recovers(small_fs: Path) -> None:
    store = SqliteStore(str(small_fs / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", admin_token=ADMIN, log_level="critical")
    try:
        with guarded_serve(settings, store) as url:
            player = Player(url, seed=1)
            games = []
            for _ in range(3):
                r = player.create()
                assert r.status_code == 201, r.text
                games.append(r.json()["game_id"])
            for gid in games:
                for _ in range(3):
                    assert player.move(gid) is not None
            assert set(player.statuses) == {200}
            filler = small_fs / "filler"
            fill(filler)

            refused = None
            for attempt in range(60):  # the first append that needs a new page of the WAL fails
                r = player.move(games[attempt % 3])
                assert r is not None and r.status_code in (200, 503), (r.status_code, r.text)
                if r.status_code == 503:
                    refused = (games[attempt % 3], r)
                    break
            assert refused is not None, "the full disk never refused a move"
            gid, r = refused
            assert_unavailable(r)
            fr = player.http.post("/games", json={"players": TWO}, headers={"Accept-Language": "fr"})
            assert fr.status_code == 503 and fr.json()["title"] == TITLES["store_unavailable"].fr
            # nothing half-written: what is served is exactly what was acknowledged, cached or read from the file
            for game in games:
                version = player.http.get(f"/games/{game}").json()["version"]
                stored = store.load(game)
                assert [seq for seq, _ in stored] == list(range(1, version + 1))
                answers = player.acknowledged[game]
                assert version == answers[-1][1]["version"]

            filler.unlink()  # space returns: the very next move is recorded, without restarting anything
            r = player.move(gid)
            assert r is not None and r.status_code == 200, r.text
            for game in games:  # and every game plays on to its end
                while player.move(game) is not None:
                    assert player.statuses[-1] == 200
            assert_nothing_lost(url, player, store)
            player.close()
    finally:
        store.close()


# -- PostgreSQL restarting under load ----------------------------------------------------------------------------


@pytest.fixture
def cluster() -> Iterator[TempCluster]:
    """A throwaway cluster of this test's own, which it stops and starts."""
    pg = TempCluster()
    try:
        pg.start()
    except PostgresUnavailable as exc:
        pg.stop()
        unavailable(f"PostgreSQL not available: {exc}", "postgres")
    try:
        yield pg
    finally:
        pg.stop()


def test_a_postgresql_restart_under_load(cluster: TempCluster) -> None:
    store = PostgresStore(cluster.url)
    settings = Settings(database_url=cluster.url, admin_token=ADMIN, log_level="critical")
    stop = threading.Event()
    outage = threading.Event()
    failures: list[str] = []
    during: list[int] = []
    recovered: list[float] = []
    try:
        with guarded_serve(settings, store) as url:
            players = [Player(url, seed=k) for k in range(4)]

            def play(player: Player) -> None:
                try:
                    gid = None
                    while not stop.is_set():
                        r = player.create() if gid is None else player.move(gid)
                        if r is None:  # the game is over: a new one
                            gid = None
                            continue
                        if outage.is_set():
                            during.append(r.status_code)
                        if r.status_code in (200, 201):
                            if r.status_code == 201:
                                gid = r.json()["game_id"]
                            if not outage.is_set() and during and not recovered:
                                recovered.append(time.monotonic())
                            continue
                        if r.status_code == 503:
                            assert_unavailable(r)
                            time.sleep(0.1)
                        elif r.status_code not in (409, 412, 422):
                            failures.append(f"{r.status_code} {r.text}")
                except Exception as exc:  # reported below, with the others
                    failures.append(repr(exc))

            def acknowledged() -> int:
                # list(): the players' threads add games meanwhile; the copy is taken at once
                return sum(len(a) for p in players for a in list(p.acknowledged.values()))

            def wait_for(what: str, done: Callable[[], bool], seconds: float = 30) -> None:
                """Wait for a condition the players' threads bring about, however slow a busy machine is."""
                deadline = time.monotonic() + seconds
                while not done():
                    assert time.monotonic() < deadline and not failures, f"{what} (failures: {failures[:3]})"
                    time.sleep(0.05)

            threads = [threading.Thread(target=play, args=(p,)) for p in players]
            for t in threads:
                t.start()
            try:
                wait_for("no move was acknowledged before the outage", lambda: acknowledged() >= 4)
                before = acknowledged()
                outage.set()
                cluster.stop_server()
                wait_for("no 503 during the outage", lambda: 503 in during)  # the players met the outage
                # alive but not ready: a balancer's health check takes this host out until its store answers
                assert httpx.get(url + "/healthz", timeout=10).status_code == 200
                not_ready = httpx.get(url + "/readyz", timeout=10)
                assert not_ready.status_code == 503, not_ready.text
                assert not_ready.json()["ready"] is False and not_ready.json()["store"]["ready"] is False
                assert not_ready.json()["store"]["error"]
                cluster.start_server()
                outage.clear()
                wait_for("service did not resume after the database came back", lambda: bool(recovered))
                wait_for("no move acknowledged after the outage", lambda: acknowledged() > before)
            finally:
                stop.set()
                for t in threads:
                    t.join(timeout=30)
            assert failures == [], failures[:5]
            assert 503 in during, f"no 503 during the outage: {sorted(set(during))}"
            assert set(during) <= {200, 201, 409, 412, 422, 503}
            assert recovered, "service did not resume after the database came back"
            ready = httpx.get(url + "/readyz", timeout=10)
            assert ready.status_code == 200 and ready.json()["ready"] is True, ready.text
            assert ready.json()["store"] == {"kind": "PostgresStore", "ready": True, "ms": ready.json()["store"]["ms"]}
            after = acknowledged()
            assert after > before
            for player in players:
                assert_nothing_lost(url, player, store)
                player.close()
    finally:
        store.close()
