"""The spectator delay over real HTTP (issue 24): spectators see the running game N moves behind on every route
that shows it (the view and its ETag, the events, the stream, the state, the seat page's story), the seats see
every move at once, everyone sees everything once the game is over, the delay is in the log's options, and a bad
value is a 422 problem."""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from loveletter.replays.audit import Options as AuditOptions
from loveletter.replays.audit import audit_bytes
from loveletter.replays.narrative import narrate
from tests.servers import (
    Server,
    admin_log,
    client,
    create_game,
    log_events,
    play_game,
    server_fixture,  # noqa: F401  (fixture)
    sse_items,
    verify_log,
)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)

MOVES = ("card_played", "chancellor_returned")


def hidden_part_is_right(types: list[str], shown: int, delay: int) -> bool:
    """The events a spectator does not see (`types[shown:]`, `types` every event's type so far) are exactly the
    last `delay` moves and what followed them: they begin with a move (unless none is hidden) and hold `delay`
    moves, or every move if fewer were made."""
    hidden = types[shown:]
    moves = sum(t in MOVES for t in types)
    if moves == 0:
        return not hidden
    return hidden[0] in MOVES and sum(t in MOVES for t in hidden) == min(delay, moves)


class Stream:
    """A spectator's event stream read in a thread: each event with the time it arrived."""

    def __init__(self, url: str, game_id: str) -> None:
        self.items: list[tuple[float, dict[str, Any]]] = []
        self.arrived = threading.Condition()
        self.done = False
        self._thread = threading.Thread(target=self._read, args=(url, game_id), daemon=True)
        self._thread.start()

    def _read(self, url: str, game_id: str) -> None:
        with client(url) as c, c.stream("GET", f"/games/{game_id}/stream", params={"after": 0}) as r:
            assert r.status_code == 200
            for item in sse_items(r):
                with self.arrived:
                    self.items.append((time.monotonic(), item))
                    self.arrived.notify_all()
        with self.arrived:
            self.done = True
            self.arrived.notify_all()

    def wait_for(self, seq: int, timeout: float = 10) -> None:
        """Until the event `seq` has arrived (or the stream has closed)."""
        with self.arrived:
            ok = self.arrived.wait_for(
                lambda: self.done or any(int(i["id"]) >= seq for _, i in self.items), timeout=timeout
            )
        assert ok, f"the spectator's stream never sent event {seq}"

    def join(self) -> None:
        self._thread.join(timeout=20)
        assert not self._thread.is_alive()


@pytest.mark.parametrize(
    "delay,players",
    [
        (3, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Hal", "bot": "heuristic"}]),  # a bot adds moves to a POST
        (1, [{"name": "Ann"}, {"name": "Bob"}]),
    ],
)
def test_a_spectator_never_sees_a_move_before_n_later_moves_exist(
    server: Server, tmp_path: Path, delay: int, players: list[dict[str, Any]]
) -> None:
    created = create_game(server.url, players, spectator_delay=delay, first_player="Ann")
    gid = created["game_id"]
    ann = created["seats"][0]["token"]
    stream = Stream(server.url, gid)
    spectator, seat, admin = client(server.url), client(server.url, ann), client(server.url, server.admin)
    posted: list[tuple[float, int]] = []  # when each POST began, and how many events the spectator may see after
    checked: list[int] = []

    def check(who: int, kind: str, answer: dict[str, Any]) -> None:
        if kind == "game":
            posted.append((time.monotonic(), -1))  # the seat's next POST follows at once
            return
        # nothing is in flight: the game stands at `answer["version"]`, the POST's answer
        version = answer["version"]
        types = [e["type"] for e in seat.get(f"/games/{gid}/events").json()["events"]]
        assert len(types) == version
        mine = seat.get(f"/games/{gid}").json()
        assert mine["version"] == version  # a seat sees the move at once
        got = spectator.get(f"/games/{gid}")
        shown = got.json()["version"]
        assert got.headers["etag"] == f'"{shown}-w"'
        assert got.json()["legal_moves"] == [] and got.json()["your_turn"] is False
        if mine["over"]:
            assert shown == version
        else:
            assert hidden_part_is_right(types, shown, delay), (types[shown:], delay)
        assert spectator.get(f"/games/{gid}", headers={"If-None-Match": f'"{shown}-w"'}).status_code == 304
        events = spectator.get(f"/games/{gid}/events").json()
        assert events["version"] == shown and [e["seq"] for e in events["events"]] == list(range(1, shown + 1))
        state = spectator.get(f"/games/{gid}/state").json()
        assert state["at"] == state["version"] == shown
        if shown < version:
            assert spectator.get(f"/games/{gid}/state", params={"at": shown + 1}).status_code == 422
            assert spectator.get(f"/games/{gid}/log").status_code == 403  # the viewer's download: not before the end
        story = spectator.get(f"/web/games/{gid}/story", params={"lang": "en"}).json()
        everything = log_events(admin_log(server.url, gid))
        assert story["version"] == shown and story["lines"] == narrate(everything[:shown], "en")
        # a POST began before these checks' time: the spectator's stream has sent up to `shown`, no further
        posted[-1] = (posted[-1][0], shown)
        stream.wait_for(shown)
        checked.append(shown)

    try:
        answers = play_game(server.url, created, random.Random(f"delay{delay}{server.kind}"), observe=check)
        stream.join()
    finally:
        for c in (spectator, seat, admin):
            c.close()
    assert checked and checked[-1] == answers[-1][1]["version"]

    # the stream: every event once, in order, to the end; each sent while the game stood where the spectator's
    # view allowed it (an event that arrived after the k-th POST began was visible after that POST at the latest)
    ids = [int(item["id"]) for _, item in stream.items]
    assert ids == list(range(1, answers[-1][1]["version"] + 1))
    for arrived, item in stream.items:
        allowed = [shown for began, shown in posted if began <= arrived]
        bound = allowed[-1] if allowed else created["version"]
        assert int(item["id"]) <= bound, (item["id"], bound)

    data = admin_log(server.url, gid)
    header = data.split(b"\n", 1)[0]
    assert b'"spectator_delay":"%d"' % delay in header  # in the log's options, header and game_started
    assert log_events(data)[0].options["spectator_delay"] == str(delay)
    assert verify_log(data, tmp_path).finished  # the replay accepts it, and so does the audit
    audit = audit_bytes(data, "delayed", AuditOptions(require_signature=True))
    assert audit.exit_code == 0 and audit.verdict == "valid", audit.as_dict()


def test_without_a_delay_spectators_see_at_once_and_the_options_are_unchanged(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann")
    gid = created["game_id"]
    with client(server.url, created["seats"][0]["token"]) as ann, client(server.url) as spectator:
        move = ann.get(f"/games/{gid}").json()["legal_moves"][0]
        moved = ann.post(f"/games/{gid}/moves", json={"type": "code", "action_code": move["action_code"]}).json()
        seen = spectator.get(f"/games/{gid}").json()
    assert seen["version"] == moved["version"]
    assert "spectator_delay" not in seen["view"]["options"]


def test_the_delay_is_also_taken_among_the_options(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], options={"spectator_delay": "2"})
    with client(server.url) as spectator:
        seen = spectator.get(f"/games/{created['game_id']}").json()
    assert seen["view"]["options"]["spectator_delay"] == "2"


@pytest.mark.parametrize(
    "body",
    [
        {"spectator_delay": -1},
        {"spectator_delay": 101},
        {"spectator_delay": "3"},
        {"spectator_delay": 2.5},
        {"spectator_delay": True},
        {"spectator_delay": 2, "options": {"spectator_delay": "2"}},
        {"options": {"spectator_delay": "many"}},
        {"options": {"spectator_delay": "101"}},
    ],
)
def test_a_bad_spectator_delay_is_a_422_problem(server: Server, body: dict[str, Any]) -> None:
    with client(server.url) as c:
        r = c.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], **body})
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert "spectator_delay" in r.text


def test_a_spectator_sees_the_setup_at_once_and_everything_once_the_game_is_aborted(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann", spectator_delay=2)
    gid, start = created["game_id"], created["version"]
    with client(server.url, created["seats"][0]["token"]) as ann, client(server.url) as spectator:
        seen = spectator.get(f"/games/{gid}").json()
        assert seen["version"] == start and seen["view"]["round"] == 1  # the deal, before any move: shown
        move = ann.get(f"/games/{gid}").json()["legal_moves"][0]
        moved = ann.post(f"/games/{gid}/moves", json={"type": "code", "action_code": move["action_code"]}).json()
        assert moved["version"] > start
        assert spectator.get(f"/games/{gid}").json()["version"] == start  # one move of two: nothing more
        assert spectator.get(f"/games/{gid}/events", params={"after": start}).json()["events"] == []
        with client(server.url, created["organiser_token"]) as organiser:
            assert organiser.get(f"/games/{gid}").json()["version"] == start  # no seat: a spectator
            assert organiser.post(f"/games/{gid}/abort").status_code == 200
        final = ann.get(f"/games/{gid}").json()
        seen = spectator.get(f"/games/{gid}").json()
    assert seen["over"] and seen["version"] == final["version"]  # over: everything public, to everyone
