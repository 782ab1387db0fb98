"""Two referee worker processes on one PostgreSQL database serve one game consistently."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from loveletter.core.commands import StartGame
from loveletter.core.decide import decide
from loveletter.core.state import INITIAL
from loveletter.events.postgres_store import PostgresStore
from loveletter.events.store import Append, ConflictError
from loveletter.server.settings import Settings
from tests.servers import (
    ADMIN,
    ServerProcess,
    admin_log,
    client,
    create_game,
    log_events,
    play_game,
    read_sse,
    serve,
    sse_items,
    verify_log,
)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)


@pytest.fixture(scope="module")
def workers(pg_url: str) -> Iterator[tuple[str, str]]:  # noqa: F811
    a = ServerProcess(pg_url, admin_token=ADMIN)
    b = ServerProcess(pg_url, admin_token=ADMIN)
    try:
        a.wait_ready()
        b.wait_ready()
        yield a.url, b.url
    finally:
        for worker in (a, b):
            if worker.proc.poll() is None:
                worker.proc.terminate()  # both shut down at once
        a.stop()
        b.stop()


def test_two_workers_serve_one_game_and_streams_cross_workers(workers: tuple[str, str], tmp_path: Path) -> None:
    a, b = workers
    created = create_game(b, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}])
    gid = created["game_id"]
    streamed: list[dict[str, Any]] = []
    listener = threading.Thread(target=lambda: streamed.extend(read_sse(a, f"/games/{gid}/stream")))
    listener.start()
    answers = play_game([a, b], created, random.Random(99))
    listener.join(timeout=30)
    assert not listener.is_alive(), "the stream on worker A did not see the game end"
    versions = [created["version"]] + [ans["version"] for _, ans in answers]
    for (_, ans), before in zip(answers, versions, strict=False):
        assert [e["seq"] for e in ans["events"]] == list(range(before + 1, ans["version"] + 1))
    data = admin_log(a, gid)
    assert admin_log(b, gid) == data
    assert verify_log(data, tmp_path).finished
    assert len(log_events(data)) == versions[-1]
    # A's stream saw every event, including those of moves posted to B, in order.
    assert [int(m["id"]) for m in streamed] == list(range(1, versions[-1] + 1))
    with client(a) as c:
        assert [m["data"] for m in streamed] == c.get(f"/games/{gid}/events").json()["events"]


def test_the_same_move_raced_on_both_workers_is_recorded_once(workers: tuple[str, str]) -> None:
    a, b = workers
    created = create_game(a, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    gid, ann = created["game_id"], created["seats"][0]["token"]
    for url in (a, b):  # both workers have the game cached at the same version
        with client(url, ann) as c:
            mine = c.get(f"/games/{gid}").json()
    body = {"type": "code", "action_code": mine["legal_moves"][0]["action_code"]}
    barrier = threading.Barrier(4)

    def post(url: str) -> Any:
        with client(url, ann) as c:
            barrier.wait()
            return c.post(f"/games/{gid}/moves", json=body, headers={"If-Match": f'"{mine["version"]}"'})

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(post, [a, b, a, b]))
    statuses = sorted(r.status_code for r in answers)
    assert statuses.count(200) == 1 and set(statuses) <= {200, 409, 412}, [r.text for r in answers]
    winner = next(r for r in answers if r.status_code == 200).json()
    with client(b) as c:
        events = c.get(f"/games/{gid}/events").json()
    assert events["version"] == winner["version"] == mine["version"] + len(winner["events"])


DEAL = {
    "set_aside": "princess",
    "face_up": ["chancellor", "chancellor", "countess"],
    "hands": ["handmaid", "priest"],
    "deck": ["guard"] * 6 + ["spy", "spy", "priest", "baron", "baron", "handmaid", "prince", "prince", "king"],
    "first_player": "Ann",
}


def test_a_worker_that_has_not_heard_of_a_move_yet_still_judges_the_next_one(
    workers: tuple[str, str], request: pytest.FixtureRequest
) -> None:
    a, _ = workers
    url = request.getfixturevalue("pg_url")
    created = create_game(a, [{"name": "Ann"}, {"name": "Bob"}], scenario={"deals": [DEAL]})
    gid = created["game_id"]
    ann, bob = (s["token"] for s in created["seats"])
    deaf = PostgresStore(url, listen=False)  # a worker whose notification is late (deterministically: never)
    try:
        with serve(Settings(database_url=url, log_level="warning"), deaf) as slow:
            with client(slow, bob) as c:
                assert c.get(f"/games/{gid}").json()["your_turn"] is False  # cached here
            with client(a, ann) as c:
                moved = c.post(f"/games/{gid}/moves", json={"type": "play", "card": "handmaid"})
            assert moved.status_code == 200 and moved.json()["view"]["active"] == 1
            version = moved.json()["version"]
            with client(slow, bob) as c:
                r = c.post(
                    f"/games/{gid}/moves",
                    json={"type": "play", "card": "priest"},  # Ann is protected: no effect
                    headers={"If-Match": f'"{version}"'},
                )
            assert r.status_code == 200, r.text
    finally:
        deaf.close()


def test_a_worker_whose_writer_remembers_an_overtaken_version_fails_only_that_append(pg_url: str) -> None:  # noqa: F811
    """Each worker's writer remembers the last (seq, hash) it wrote, to skip a query per append; another worker
    may have appended since. Its row then collides, and only the overtaken append of the batch fails."""
    events = list(decide(INITIAL, StartGame("2019", ("Ann", "Bob"))))
    here, there = PostgresStore(pg_url, listen=False), PostgresStore(pg_url, listen=False)
    try:
        raced, quiet = ("g_" + uuid.uuid4().hex for _ in range(2))
        here.create(raced, {}, events)
        here.create(quiet, {}, events)
        assert there.append(raced, 1, events) == 2  # the other worker moves first
        batch = [Append(raced, 1, events), Append(quiet, 1, events)]
        outcomes = here._write_batch(batch)  # one batch, as the group committer would write it
        assert isinstance(outcomes[0], ConflictError) and outcomes[1] == 2
        assert [seq for seq, _ in here.load(raced)] == [1, 2] and [seq for seq, _ in here.load(quiet)] == [1, 2]
        assert here.append(raced, 2, events) == 3  # it knows better now
        assert here.hashes(raced) == there.hashes(raced)
    finally:
        here.close()
        there.close()


def test_two_workers_record_each_clock_timeout_once(workers: tuple[str, str], tmp_path: Path) -> None:
    """Both workers keep every clock (each took it up from the store or heard of it): when a deadline passes, both
    try to record the timeout at the same version, and the store lets exactly one through."""
    import time

    from loveletter.replays.replay import check

    a, b = workers
    created = create_game(a, [{"name": "Ann"}, {"name": "Bob"}], turn_seconds=1, on_timeout="bot")
    gid = created["game_id"]
    with client(b) as c:  # worker b hears of the game and keeps its clock too
        assert c.get(f"/games/{gid}").json()["view"]["clock"]["deadline"] is not None
    # Nobody moves: the clocks run out one after another, the bot moving for each seat. Wait until two have (each
    # a second after the last, however long a busy machine takes), then judge the whole log.
    deadline = time.monotonic() + 60
    while True:
        with client(a, ADMIN) as c:
            events = log_events(c.get(f"/games/{gid}/log").content)
        kinds = [type(e).TYPE for e in events]
        ran_out = [i for i, kind in enumerate(kinds) if kind == "clock_ran_out"]
        if len(ran_out) >= 2 and kinds[-1] != "clock_ran_out":  # the last timeout's move is recorded with it
            break
        assert time.monotonic() < deadline, f"two clocks did not run out in 60 s: {kinds}"
        time.sleep(0.2)
    assert len(events) > 4
    for i in ran_out:  # each timeout answers one clock_set of its own, and is followed by that seat's move
        assert kinds[:i].count("clock_set") >= len([j for j in ran_out if j <= i])
        # the seat's pending decision, made by the bot: a card, or a Chancellor's return
        assert kinds[i + 1] in ("card_played", "chancellor_returned") and events[i + 1].player == events[i].player
    assert check(events).problems == []


def test_the_lobby_stream_tells_news_made_on_another_worker(workers: tuple[str, str]) -> None:
    a, b = workers
    seen: list[tuple[str, dict[str, Any]]] = []
    ready = threading.Event()
    box: dict[str, str] = {}

    def listen() -> None:
        with client(a) as c, c.stream("GET", "/lobby/stream", timeout=30) as r:
            ready.set()
            for item in sse_items(r):
                seen.append((item["event"], item["data"]))
                if any(kind == "game_started" and data["game_id"] == box.get("g") for kind, data in seen):
                    return

    listener = threading.Thread(target=listen)
    listener.start()
    assert ready.wait(10)
    import time

    time.sleep(0.3)
    created = create_game(b, [{"name": "Ann"}, {"open": True}], public=True)
    box["g"] = created["game_id"]
    with client(b) as c:
        assert c.post(f"/games/{created['game_id']}/join", json={"name": "Bob"}).status_code == 200
    listener.join(20)
    assert not listener.is_alive(), "worker a's lobby stream missed worker b's news"
    assert [kind for kind, data in seen if data["game_id"] == box["g"]] == ["game_opened", "game_started"]
