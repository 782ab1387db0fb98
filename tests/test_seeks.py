"""Seeks (issue 25, docs/accounts.md): the pairing rule on hand-checked queues; on a real server over both stores, two
accounts' seeks paired into a game kept for them and told on their streams, a seek withdrawn, the refusals and the
rate limit per account; two PostgreSQL workers pairing a seek sent to one with a seek sent to the other; and seeks
left open by a referee that stopped, paired by the next one as their window widens though no new seek comes (a
SQLite referee restarted; a PostgreSQL worker that never received a seek)."""

from __future__ import annotations

import random
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from loveletter.client import Client
from loveletter.client.account_models import Seek
from loveletter.core.catalogue import GameEnded, GameStarted, SeatJoined
from loveletter.events.accounts import SeekRow
from loveletter.events.postgres_store import PostgresStore
from loveletter.events.sqlite_store import SqliteStore
from loveletter.events.store import EventStore
from loveletter.referee import seeks as seeks_module
from loveletter.referee.seeks import WIDEN, WINDOW, pairings, window
from loveletter.server.settings import Settings
from tests.servers import (  # noqa: F401  (fixture)
    ADMIN,
    Server,
    ServerProcess,
    admin_log,
    log_events,
    play_game,
    read_sse,
    serve,
    server_fixture,
)
from tests.stores import own_database, pg_url  # noqa: F401  (fixtures)
from tests.test_bots_online import Served
from tests.test_challenges import account, code, post


def row(seek: str, account_id: str, mu: float, created: int, players: int = 2, rated: bool = True) -> SeekRow:
    return SeekRow(seek, account_id, "2019", players, None, rated, mu, "open", None, created)


def test_the_window_widens_half_a_point_a_second_from_two() -> None:
    assert [window(ms) for ms in (0, 1000, 4000, 30_000, -5)] == [2.0, 2.5, 4.0, 17.0, 2.0]


def test_pairings_take_the_oldest_seek_and_the_oldest_close_enough() -> None:
    now = 10_000
    queue = [
        row("s1", "ann", 25.0, now),  # waited 0 s: window 2
        row("s2", "bob", 30.0, now),  # 5 away from Ann: too far for her now
        row("s3", "ann", 25.5, now),  # Ann's second seek: never at her own table
        row("s4", "cid", 26.9, now),  # 1.9 away: Ann's partner
        row("s5", "dan", 31.0, now),  # 1 away from Bob: his
        row("s6", "eve", 40.0, now),  # nobody near: waits
    ]
    assert [[s.seek_id for s in t] for t in pairings(queue, now)] == [["s1", "s4"], ["s2", "s5"]]
    # Bob has waited 12 s: his window is 8, so Eve (10 away) still waits; at 16 s (window 10) she is his
    old = [row("b", "bob", 30.0, 0), row("e", "eve", 40.0, 0)]
    assert pairings(old, 12_000) == []
    assert [[s.seek_id for s in t] for t in pairings(old, 16_000)] == [["b", "e"]]
    # a three-seat seek waits for two others of its kind; an unrated seek pairs with no rated one
    three = [row("t1", "ann", 25, 0, 3), row("u", "bob", 25, 0, rated=False), row("t2", "cid", 25, 0, 3)]
    assert pairings(three, 0) == []
    assert [[s.seek_id for s in t] for t in pairings([*three, row("t3", "dan", 25, 0, 3)], 0)] == [["t1", "t2", "t3"]]


def seek(url: str, key: str, **body: object) -> httpx.Response:
    return post(url, "/seeks", {"key": key, **body})


def test_two_seeks_are_paired_into_a_game_kept_for_both_and_told_on_their_streams(server: Server) -> None:
    url = server.url
    ann, bob = account(url, "Qann"), account(url, "Qbob")
    first = seek(url, ann["key"], ruleset="2012", rated=True)
    assert first.status_code == 201, first.text
    mine = first.json()
    assert (mine["status"], mine["account_id"], mine["rating"], mine["game_id"]) == (
        "open",
        ann["account_id"],
        25.0,
        None,
    )
    second = seek(url, bob["key"], ruleset="2012", rated=True).json()
    assert second["status"] == "paired" and second["seat"] == 1
    game = second["game_id"]
    assert httpx.get(f"{url}/seeks/{mine['seek_id']}").json() | {"created": 0} == {
        **mine, "status": "paired", "game_id": game, "seat": 0, "created": 0}  # fmt: skip
    seats = []
    for who, seat, s in ((ann, 0, mine), (bob, 1, second)):
        told = read_sse(url, f"/accounts/{who['account_id']}/stream", who["key"], limit=2)
        assert [e["event"] for e in told] == ["seek_paired", "game_started"]
        assert told[0]["data"] | {"at": 0} == {"type": "seek_paired", "seek_id": s["seek_id"], "game_id": game,
                                               "seat": seat, "at": 0}  # fmt: skip
        assert told[1]["data"] | {"at": 0} == {"type": "game_started", "game_id": game, "seat": seat, "joined": False,
                                               "ruleset": "2012", "players": 2, "rated": True,
                                               "seek_id": s["seek_id"], "at": 0}  # fmt: skip
        joined = post(url, f"/games/{game}/join", {"name": who["name"], "account_key": who["key"]})
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == seat
        seats.append({"seat": seat, "token": joined.json()["token"]})
    play_game(url, {"game_id": game, "seats": seats}, random.Random(5))
    events = log_events(admin_log(url, game))
    assert isinstance(events[0], GameStarted) and events[0].rated and any(isinstance(e, GameEnded) for e in events)
    joins = [e.account for e in events if isinstance(e, SeatJoined)]
    assert [j.account for j in joins if j is not None] == [ann["account_id"], bob["account_id"]]


def test_a_seek_withdrawn_and_the_refusals(server: Server) -> None:
    url = server.url
    ann, bob = account(url, "Wann"), account(url, "Wbob")
    mine = seek(url, ann["key"], ruleset="princess-princess", players=2).json()
    path = f"/seeks/{mine['seek_id']}"
    assert code(httpx.delete(url + path, headers={"Authorization": f"Bearer {bob['key']}"})) == (
        403, "account_key_rejected")  # fmt: skip
    gone = httpx.delete(url + path, headers={"Authorization": f"Bearer {ann['key']}"})
    assert gone.status_code == 200 and gone.json()["status"] == "cancelled"
    assert code(httpx.delete(url + path, headers={"Authorization": f"Bearer {ann['key']}"})) == (409, "seek_closed")
    assert seek(url, bob["key"], ruleset="princess-princess").json()["status"] == "open"  # nothing to pair with
    assert code(httpx.get(f"{url}/seeks/s_AAAAAAAAAAAAAAAA")) == (404, "seek_not_found")
    assert code(httpx.get(f"{url}/seeks/nonsense")) == (404, "seek_not_found")
    assert code(seek(url, "ak_nope")) == (403, "account_key_rejected")
    assert code(seek(url, ann["key"], players=1))[0] == 422


def test_one_account_seeking_too_often_is_refused(server: Server) -> None:
    url = server.url
    ann = account(url, "Rann")
    answers: list[httpx.Response] = []
    start = time.monotonic()
    while not answers or answers[-1].status_code == 201:  # until refused, however slow the machine
        answers.append(seek(url, ann["key"], ruleset="2019-classic", players=5))
        assert len(answers) <= 100, answers[-1].text
    elapsed = time.monotonic() - start
    # A burst of ten, then one every two seconds: the tokens that came back while the seeks were sent, no more.
    assert 10 <= len(answers) - 1 <= 10 + int(elapsed * 0.5) + 1, (len(answers), elapsed)
    assert code(answers[-1]) == (429, "seeks_rate_limited") and int(answers[-1].headers["Retry-After"]) >= 1
    for a in answers[:-1]:
        httpx.delete(f"{url}/seeks/{a.json()['seek_id']}", headers={"Authorization": f"Bearer {ann['key']}"})


@pytest.fixture(scope="module")
def workers(pg_url: str) -> Iterator[tuple[str, str]]:  # noqa: F811
    a, b = ServerProcess(pg_url, admin_token=ADMIN), ServerProcess(pg_url, admin_token=ADMIN)
    try:
        yield a.wait_ready().url, b.wait_ready().url
    finally:
        a.stop()
        b.stop()


def test_a_seek_on_one_worker_pairs_with_a_seek_on_the_other(workers: tuple[str, str]) -> None:
    a, b = workers
    ann, bob = account(a, "Pann"), account(b, "Pbob")
    mine = seek(a, ann["key"], ruleset="2019", players=2, turn_seconds=600).json()
    assert mine["status"] == "open"
    theirs = seek(b, bob["key"], ruleset="2019", players=2, turn_seconds=600).json()
    assert theirs["status"] == "paired"
    # worker a tells Ann (the event was written by worker b)
    told = read_sse(a, f"/accounts/{ann['account_id']}/stream", ann["key"], limit=2)
    assert [(e["event"], e["data"]["game_id"], e["data"]["seat"]) for e in told] == [
        ("seek_paired", theirs["game_id"], 0), ("game_started", theirs["game_id"], 0)]  # fmt: skip
    assert httpx.get(f"{a}/seeks/{mine['seek_id']}").json()["game_id"] == theirs["game_id"]


KIND = {"ruleset": "2019", "players": 2, "turn_seconds": 3571, "rated": True}
"""Seeks of a kind (its odd clock) no other test seeks: they pair only with each other."""


def two_seeks_apart(url: str) -> tuple[Seek, Seek, float]:
    """Two open seeks that cannot pair yet: Bob has resigned two rated games to Ann, so their ratings are about 9.3
    apart, and a window reaches that some 14.6 s after the first seek. The seeks, and those seconds."""
    ann, bob = account(url, "Hann"), account(url, "Hbob")
    with Client(url) as c:
        for _ in range(2):
            taken = c.accept(c.challenge(bob["key"], ann["name"], rated=True).challenge_id, ann["key"])
            c.seat(c.join_as(taken.game_id, bob["key"]).token).resign(taken.game_id)
        first, second = c.seek(ann["key"], **KIND), c.seek(bob["key"], **KIND)  # type: ignore[arg-type]
    gap = first.rating - second.rating
    assert (first.status, second.status) == ("open", "open") and gap > 9, (first, second)
    return first, second, (gap - WINDOW) / WIDEN


def left_open(store: EventStore, *seeks: Seek) -> None:
    """The stopped referee left `seeks` open (it had no time to pair them): read in its store."""
    try:
        assert {s.seek_id for s in seeks} <= {s.seek_id for s in store.open_seeks()}
    finally:
        store.close()


def paired_after(url: str, first: Seek, second: Seek, wait: float) -> None:
    """The referee at `url`, which never received the seeks, pairs them, once their window allows it."""
    deadline = time.monotonic() + wait + 60
    while (now := httpx.get(f"{url}/seeks/{first.seek_id}").json())["status"] == "open":
        assert time.monotonic() < deadline, "the seeks left open were never paired"
        time.sleep(0.2)
    assert now["status"] == "paired" and httpx.get(f"{url}/seeks/{second.seek_id}").json()["game_id"] == now["game_id"]
    started = log_events(admin_log(url, now["game_id"]))[0]
    assert isinstance(started, GameStarted) and started.rated
    assert started.at - first.created >= wait * 1000 - 1  # by the widened window, not before


def test_seeks_left_open_by_a_stopped_referee_are_paired_by_the_next(tmp_path: Path) -> None:
    database = tmp_path / "referee.db"
    referee = Served(database).start()
    try:
        first, second, wait = two_seeks_apart(referee.url)
        referee.stop(signal.SIGTERM)
        left_open(SqliteStore(str(database)), first, second)
        paired_after(referee.start().url, first, second, wait)  # the same file; no new seek
    finally:
        referee.stop(signal.SIGKILL)


def test_a_worker_that_never_received_a_seek_pairs_those_left_open(own_database: str) -> None:  # noqa: F811
    received = ServerProcess(own_database, admin_token=ADMIN).wait_ready()
    try:
        first, second, wait = two_seeks_apart(received.url)
    finally:
        received.proc.kill()  # killed at once: no time to pair them
        received.stop()
    left_open(PostgresStore(own_database), first, second)
    with ServerProcess(own_database, admin_token=ADMIN) as other:
        paired_after(other.url, first, second, wait)


def test_a_worker_running_all_along_pairs_the_seeks_of_a_worker_that_died(own_database: str) -> None:  # noqa: F811
    # Worker B starts before any seek exists; A receives both seeks and is killed before their window opens. B
    # never receives a seek, yet pairs them: it keeps looking at the queue while idle.
    with ServerProcess(own_database, admin_token=ADMIN) as other:
        received = ServerProcess(own_database, admin_token=ADMIN).wait_ready()
        try:
            first, second, wait = two_seeks_apart(received.url)
        finally:
            received.proc.kill()
            received.stop()
        paired_after(other.url, first, second, wait)


def test_seeks_claimed_by_a_worker_that_died_before_making_their_game_wait_and_are_paired_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker claims a table's seeks, then creates its game: killed between the two, it leaves the seeks paired
    into a game that will never exist (written here straight into the store, as that worker left them). Nobody is
    sent to that game: the seeks read as still waiting; and a sweep gives them back to the queue once they have been
    so for `STRANDED_SECONDS` (1 s here), so they are paired into a real game."""
    monkeypatch.setattr(seeks_module, "STRANDED_SECONDS", 1.0)
    store = SqliteStore(str(tmp_path / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", admin_token=ADMIN, log_level="warning")
    with serve(settings, store) as url:
        ann, bob = account(url, "Gann"), account(url, "Gbob")
        now = int(time.time() * 1000)
        for n, who in enumerate((ann, bob)):
            ghost = SeekRow(
                f"s_strandedseek{n:04d}", who["account_id"], "2019", 2, 1234, True, 25.0, "paired", "g_ghost", now
            )
            store.create_seek(ghost)
        waiting = httpx.get(f"{url}/seeks/s_strandedseek0000").json()
        assert (waiting["status"], waiting.get("game_id"), waiting.get("seat")) == ("open", None, None), waiting
        deadline = time.monotonic() + 60
        while (first := httpx.get(f"{url}/seeks/s_strandedseek0000").json())["status"] != "paired":
            assert time.monotonic() < deadline, "the stranded seeks were never given back and paired"
            time.sleep(0.2)
        second = httpx.get(f"{url}/seeks/s_strandedseek0001").json()
        assert first["game_id"] == second["game_id"] != "g_ghost" and {first["seat"], second["seat"]} == {0, 1}
        started = log_events(admin_log(url, first["game_id"]))[0]
        assert isinstance(started, GameStarted) and started.ruleset == "2019" and len(started.players) == 2
        assert store.meta("g_ghost") is None and store.gameless_seeks() == []


class _ClaimedOnArrival(SqliteStore):
    """A store on which another worker's sweep claims each new seek the moment it is written, for a game that worker
    has not made yet; `given_back_after` seconds later it gives the seek back to the queue (None: never)."""

    given_back_after: float | None = None

    def create_seek(self, row: SeekRow) -> None:
        super().create_seek(row)
        game = "g_otherworker" + row.seek_id[-3:]
        assert self.claim_seeks([row.seek_id], game)
        if self.given_back_after is not None:
            threading.Timer(self.given_back_after, self.unpair_seek, (row.seek_id, game, True)).start()


def test_a_new_seeks_answer_waits_for_a_claim_under_way_and_no_longer_than_claim_wait_seconds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seek another worker claimed as it arrived is answered once that claim is settled (here: given back after
    0.6 s, well within a wait of 10 s), not while it is under way; a claim never settled holds the answer
    `CLAIM_WAIT_SECONDS` (1 s here) and no longer. Either way the seeker is told the truth: open, no game to go to."""
    store = _ClaimedOnArrival(str(tmp_path / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", admin_token=ADMIN, log_level="warning")
    with serve(settings, store) as url:
        seeker = account(url, "Waits", "person")
        client = Client(url)
        for given_back_after, wait, least, most in ((0.6, 10.0, 0.55, 9.0), (None, 1.0, 0.95, 9.0)):
            store.given_back_after = given_back_after
            monkeypatch.setattr(seeks_module, "CLAIM_WAIT_SECONDS", wait)
            start = time.monotonic()
            answer = client.seek(seeker["key"])
            waited = time.monotonic() - start
            assert (answer.status, answer.game_id) == ("open", None), answer
            assert least <= waited <= most, (given_back_after, waited)
            if given_back_after is not None:
                client.cancel_seek(answer.seek_id, seeker["key"])  # back in the queue: withdrawn before the next
