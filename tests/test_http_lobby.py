"""The lobby on a real server (SQLite and PostgreSQL): open seats, invites, joining, resigning, aborting, clocks.

The referee's time source is a fake clock the tests move by hand: a deadline passes when the test says, never by
sleeping through it; the referee's clock keeper looks at the time source at least once a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.server.settings import Settings
from tests.servers import ADMIN, COUNTESS_DEAL, admin_log, client, log_events, open_test_store, serve, sse_items
from tests.stores import pg_url  # noqa: F401  (fixture)

T0 = 1_790_000_000_000


class FakeClock:
    """Unix milliseconds that move only when a test calls `advance`."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)


class Lobby:
    def __init__(self, base: str, clock: FakeClock, kind: str) -> None:
        self.base, self.clock, self.kind = base, clock, kind


@pytest.fixture(name="lobby", scope="module", params=["sqlite", "postgres"])
def lobby_fixture(request: pytest.FixtureRequest) -> Iterator[Lobby]:
    store = open_test_store(request.param, request)
    clock = FakeClock()
    settings = Settings(admin_token=ADMIN, log_level="warning", create_rate=0, move_rate=0)
    try:
        with serve(settings, store, clock=clock) as base:
            yield Lobby(base, clock, request.param)
    finally:
        store.close()


def create(base: str, players: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    with client(base) as c:
        r = c.post("/games", json={"players": players, **body})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def join(base: str, game_id: str, **body: Any) -> httpx.Response:
    with client(base) as c:
        return c.post(f"/games/{game_id}/join", json=body)


def version(base: str, game_id: str) -> int:
    with client(base) as c:
        return int(c.get(f"/games/{game_id}").json()["version"])


def wait_for(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the referee did not act in time"
        time.sleep(0.05)


def play_out(base: str, game_id: str, tokens: dict[int, str], each: Callable[[], None] = lambda: None) -> dict:
    """Play legal moves (the first listed) for whoever is to play until the game ends; the final spectator view."""
    clients = {seat: client(base, token) for seat, token in tokens.items()}
    try:
        for _ in range(2000):
            each()
            game = clients[0].get(f"/games/{game_id}").json()
            if game["over"]:
                return game
            active = game["view"]["active"]
            mover = clients[active].get(f"/games/{game_id}").json()
            move = mover["legal_moves"][0]
            r = clients[active].post(
                f"/games/{game_id}/moves", json={"type": "code", "action_code": move["action_code"]}
            )
            assert r.status_code == 200, r.text
    finally:
        for c in clients.values():
            c.close()
    raise AssertionError("the game did not end")


# -- joining ----------------------------------------------------------------------------------------------------


def test_four_strangers_join_a_public_game_from_the_lobby_and_none_reads_another_hand(lobby: Lobby) -> None:
    created = create(lobby.base, [{"open": True}] * 4, public=True)
    game_id, organiser = created["game_id"], created["organiser_token"]
    assert all(seat["open"] and len(seat["invite"]) >= 22 for seat in created["seats"])  # ≥ 128 bits
    with client(lobby.base) as c:
        listed = c.get("/games", params={"status": "open"}).json()["games"]
    mine = next(g for g in listed if g["game_id"] == game_id)
    assert mine["open_seats"] == 4 and mine["status"] == "open" and "organiser_token" not in mine
    tokens = {}
    for name in ("Ann", "Bob", "Cid", "Dee"):
        r = join(lobby.base, game_id, name=name)
        assert r.status_code == 200, r.text
        tokens[r.json()["seat"]] = r.json()["token"]
    assert sorted(tokens) == [0, 1, 2, 3] and len(set(tokens.values())) == 4
    with client(lobby.base) as c:
        assert game_id not in [g["game_id"] for g in c.get("/games", params={"status": "open"}).json()["games"]]
        running = c.get("/games", params={"status": "running"}).json()["games"]
    assert next(g for g in running if g["game_id"] == game_id)["seats"][2]["name"] == "Cid"
    late = join(lobby.base, game_id, name="Eve")
    assert (late.status_code, late.json()["code"]) == (409, "game_full")

    # One client each for the whole game (a new client per check cost more than the game: 40 s of a busy machine).
    anyone, org = client(lobby.base), client(lobby.base, organiser)
    seats = {seat: client(lobby.base, token) for seat, token in tokens.items()}

    def nobody_reads_another_hand() -> None:
        spectator = anyone.get(f"/games/{game_id}").json()
        as_organiser = org.get(f"/games/{game_id}").json()
        assert as_organiser == spectator  # the organiser reads what a spectator reads, no more
        assert spectator["view"]["hand"] == [] and spectator["legal_moves"] == []
        assert org.get(f"/games/{game_id}/events").json() == anyone.get(f"/games/{game_id}/events").json()
        for seat, c in seats.items():
            v = c.get(f"/games/{game_id}").json()["view"]
            assert v["seat"] == seat
            for other in v["seats"]:  # a hand is known only after one's own card showed it
                if other["seat"] != seat and other["known_hand"] is not None:
                    assert v["round"] >= 1

    try:
        final = play_out(lobby.base, game_id, tokens, nobody_reads_another_hand)
    finally:
        for c in (anyone, org, *seats.values()):
            c.close()
    assert final["view"]["winners"]
    events = log_events(admin_log(lobby.base, game_id))
    assert [type(e).TYPE for e in events[:5]] == ["game_started", *["seat_joined"] * 4]


def test_an_invite_is_used_once_and_a_full_game_takes_nobody(lobby: Lobby) -> None:
    created = create(lobby.base, [{"name": "Ann"}, {"open": True}, {"open": True}])
    game_id = created["game_id"]
    first, second = created["seats"][1]["invite"], created["seats"][2]["invite"]
    before = version(lobby.base, game_id)
    refusals = [
        (join(lobby.base, game_id, name="Bob"), 401, "invite_required"),
        (join(lobby.base, game_id, name="Bob", invite="not-an-invite"), 403, "invite_rejected"),
        (join(lobby.base, game_id, name="Ann", invite=first), 422, "name_taken"),
    ]
    for r, status, code in refusals:
        assert (r.status_code, r.json()["code"]) == (status, code), r.text
        assert r.headers["content-type"].startswith("application/problem+json")
    assert version(lobby.base, game_id) == before  # refused: the log is unchanged
    assert join(lobby.base, game_id, name="Bob", invite=first).status_code == 200
    again = join(lobby.base, game_id, name="Bo", invite=first)
    assert (again.status_code, again.json()["code"]) == (409, "invite_used")
    assert join(lobby.base, game_id, name="Cid", invite=second).status_code == 200
    full = join(lobby.base, game_id, name="Dee", invite=second)
    assert (full.status_code, full.json()["code"]) == (409, "invite_used")
    with client(lobby.base) as c:  # invite-only: never listed
        assert game_id not in [g["game_id"] for g in c.get("/games", params={"limit": 100}).json()["games"]]


def test_the_lobby_pages_newest_first_and_refuses_a_made_up_cursor(lobby: Lobby) -> None:
    made = [create(lobby.base, [{"open": True}, {"open": True}], public=True, ruleset="2012")["game_id"]]
    for _ in range(4):
        lobby.clock.advance(1)
        made.append(create(lobby.base, [{"open": True}, {"open": True}], public=True, ruleset="2012")["game_id"])
    seen: list[str] = []
    cursor = None
    with client(lobby.base) as c:
        while True:
            params = {"ruleset": "2012", "status": "open", "limit": 2, **({"cursor": cursor} if cursor else {})}
            page = c.get("/games", params=params).json()
            seen += [g["game_id"] for g in page["games"]]
            cursor = page["next"]
            if cursor is None:
                break
        assert [g for g in seen if g in made] == made[::-1]
        bad = c.get("/games", params={"cursor": "bm9wZQ"})
        assert (bad.status_code, bad.json()["code"]) == (400, "invalid_cursor")


# -- leaving ------------------------------------------------------------------------------------------------------


CHANCELLOR_DEAL: dict[str, Any] = {
    "set_aside": "princess",
    "face_up": [],
    "hands": ["guard", "priest", "baron"],
    "deck": ["chancellor", "king", "countess", "spy", "guard", "guard", "guard", "guard", "guard", "priest", "baron",
             "handmaid", "handmaid", "prince", "prince", "chancellor", "spy"],
    "first_player": "Ann",
}  # fmt: skip


def test_a_resignation_with_a_chancellor_decision_pending_follows_rulings_12(lobby: Lobby) -> None:
    created = create(
        lobby.base, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], scenario={"deals": [CHANCELLOR_DEAL]}
    )
    game_id = created["game_id"]
    ann, bob = created["seats"][0]["token"], created["seats"][1]["token"]
    with client(lobby.base, ann) as c:
        r = c.post(f"/games/{game_id}/moves", json={"type": "play", "card": "chancellor"})
        assert r.status_code == 200 and r.json()["view"]["phase"] == "chancellor"
        resigned = c.post(f"/games/{game_id}/resign")
    assert resigned.status_code == 200, resigned.text
    events = resigned.json()["events"]
    assert events[0] == {
        "type": "player_resigned",
        "v": 1,
        "seq": events[0]["seq"],
        "player": 0,
        "cards": ["guard", "king", "countess"],  # the kept card and the two drawn, face up
        "reason": "resigned",
        "at": lobby.clock.now,
    }
    assert events[1]["type"] == "turn_started" and events[1]["player"] == 1
    with client(lobby.base, ann) as c:
        body = {"type": "return", "keep": "king", "bottom": ["guard", "countess"]}
        move = c.post(f"/games/{game_id}/moves", json=body)
        assert (move.status_code, move.json()["rule_id"]) == (422, "leave.gone")
    with client(lobby.base, bob) as c:
        view = c.get(f"/games/{game_id}").json()["view"]
    assert (
        view["active"] == 1
        and not view["seats"][0]["in_game"]
        and view["seats"][0]["front"]
        == [
            "chancellor",
            "guard",
            "king",
            "countess",
        ]
    )


def test_only_the_organiser_aborts_and_nothing_is_played_after(lobby: Lobby) -> None:
    created = create(lobby.base, [{"name": "Alice"}, {"name": "Bob"}], scenario={"deals": [COUNTESS_DEAL]})
    game_id, alice = created["game_id"], created["seats"][0]["token"]
    with client(lobby.base, alice) as c:
        refused = c.post(f"/games/{game_id}/abort")
        assert (refused.status_code, refused.json()["code"]) == (403, "not_organiser")
    with client(lobby.base, created["organiser_token"]) as c:
        assert c.post(f"/games/{game_id}/abort").status_code == 200
        assert c.post(f"/games/{game_id}/abort").json()["code"] == "game_over"
    with client(lobby.base, alice) as c:
        game = c.get(f"/games/{game_id}").json()
        assert game["over"] and game["view"]["winners"] == [] and game["view"]["aborted"]
        late = c.post(f"/games/{game_id}/moves", json={"type": "play", "card": "countess"})
        assert (late.status_code, late.json()["code"]) == (422, "game_over")
    events = log_events(admin_log(lobby.base, game_id))
    assert [type(e).TYPE for e in events[-2:]] == ["game_aborted", "seed_revealed"]


# -- clocks -------------------------------------------------------------------------------------------------------


def test_a_clock_timeout_under_bot_lets_the_heuristic_bot_decide(lobby: Lobby) -> None:
    created = create(
        lobby.base,
        [{"name": "Alice"}, {"name": "Bob"}],
        scenario={"deals": [COUNTESS_DEAL]},
        turn_seconds=30,
        on_timeout="bot",
    )
    game_id, alice = created["game_id"], created["seats"][0]["token"]
    with client(lobby.base, alice) as c:
        clock = c.get(f"/games/{game_id}").json()["view"]["clock"]
    assert clock == {"turn_seconds": 30, "on_timeout": "bot", "deadline": {"seat": 0, "at": lobby.clock.now + 30_000}}
    before = version(lobby.base, game_id)
    lobby.clock.advance(29)
    time.sleep(1.5)  # the keeper looks at least once a second: nothing is due yet
    assert version(lobby.base, game_id) == before
    lobby.clock.advance(1)
    wait_for(lambda: version(lobby.base, game_id) > before)
    with client(lobby.base) as c:
        new = c.get(f"/games/{game_id}/events", params={"after": before}).json()["events"]
    kinds = [(e["type"], e.get("player")) for e in new]
    # Alice must play the Countess (she holds the Prince): the bot's move is hers, marked by the clock
    assert kinds[:3] == [("clock_ran_out", 0), ("card_played", 0), ("turn_started", 1)]
    assert new[1]["card"] == "countess" and kinds[-1] == ("clock_set", 1)


def test_a_clock_timeout_under_resign_ends_a_two_player_game(lobby: Lobby) -> None:
    created = create(lobby.base, [{"name": "Alice"}, {"name": "Bob"}], turn_seconds=5, on_timeout="resign")
    game_id = created["game_id"]
    with client(lobby.base) as c:
        active = c.get(f"/games/{game_id}").json()["view"]["active"]
    lobby.clock.advance(6)
    with client(lobby.base) as c:
        wait_for(lambda: c.get(f"/games/{game_id}").json()["over"])
        view = c.get(f"/games/{game_id}").json()["view"]
    assert view["winners"] == [1 - active] and not view["seats"][active]["in_game"]


def test_a_clock_survives_a_restart_between_its_deadline_being_set_and_passing(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    from loveletter.events.sqlite_store import SqliteStore

    path = str(tmp_path / "restart.db")
    clock = FakeClock()
    settings = Settings(admin_token=ADMIN, log_level="warning", create_rate=0, move_rate=0)
    store = SqliteStore(path)
    try:
        with serve(settings, store, clock=clock) as base:
            created = create(base, [{"name": "Alice"}, {"name": "Bob"}], turn_seconds=30, on_timeout="resign")
            game_id = created["game_id"]
    finally:
        store.close()
    clock.advance(31)  # the deadline passes while no referee runs
    store = SqliteStore(path)
    try:
        with serve(settings, store, clock=clock) as base:
            with client(base) as c:
                wait_for(lambda: c.get(f"/games/{game_id}").json()["over"])
            kinds = [type(e).TYPE for e in log_events(admin_log(base, game_id))]
    finally:
        store.close()
    assert "clock_ran_out" in kinds and "player_resigned" in kinds


# -- the lobby's news ---------------------------------------------------------------------------------------------


def test_the_lobby_stream_tells_a_game_opening_filling_starting_and_finishing(lobby: Lobby) -> None:
    import threading

    news: list[tuple[int, str, dict[str, Any]]] = []
    connected = threading.Event()

    def listen(after: int | None, until: Callable[[list[tuple[int, str, dict[str, Any]]]], bool]) -> None:
        path = "/lobby/stream" + (f"?after={after}" if after is not None else "")
        with client(lobby.base) as c, c.stream("GET", path, timeout=30) as r:
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
            connected.set()
            for item in sse_items(r):
                news.append((int(item["id"]), item["event"], item["data"]))
                if until(news):
                    return

    def finished(game_id: str) -> Callable[[list[tuple[int, str, dict[str, Any]]]], bool]:
        return lambda seen: any(kind == "game_finished" and data["game_id"] == game_id for _, kind, data in seen)

    box: dict[str, str] = {}
    listener = threading.Thread(target=lambda: listen(None, lambda seen: "g" in box and finished(box["g"])(seen)))
    listener.start()
    assert connected.wait(10)
    time.sleep(0.3)  # the stream has read the feed's head: what follows is news
    created = create(lobby.base, [{"open": True}, {"open": True}, {"name": "Ann"}], public=True)
    box["g"] = game_id = created["game_id"]
    assert join(lobby.base, game_id, name="Bob").status_code == 200
    assert join(lobby.base, game_id, name="Cid").status_code == 200
    with client(lobby.base, created["organiser_token"]) as c:
        assert c.post(f"/games/{game_id}/abort").status_code == 200
    listener.join(20)
    assert not listener.is_alive(), "the lobby stream did not tell the game's end"
    mine = [(i, kind, data) for i, kind, data in news if data["game_id"] == game_id]
    assert [kind for _, kind, _ in mine] == ["game_opened", "seat_filled", "game_started", "game_finished"]
    assert [data["open_seats"] for _, _, data in mine] == [2, 1, 0, 0] and mine[-1][2]["aborted"]
    assert "organiser_token" not in str(mine) and all("invite" not in data for _, _, data in mine)
    # resuming after the first item replays the rest, in order, with the same ids
    news.clear()
    connected.clear()
    listen(mine[0][0], finished(game_id))
    assert [(i, kind) for i, kind, data in news if data["game_id"] == game_id] == [(i, k) for i, k, _ in mine[1:]]


# -- rematch ------------------------------------------------------------------------------------------------------


def test_a_rematch_seats_the_same_players_rotated_each_with_a_seat_nobody_else_can_take(lobby: Lobby) -> None:
    created = create(lobby.base, [{"name": "Ann"}, {"name": "Bot", "bot": "heuristic"}, {"open": True}], public=True)
    game_id = created["game_id"]
    joined = join(lobby.base, game_id, name="Cid").json()
    ann = created["seats"][0]["token"]
    with client(lobby.base, ann) as c:
        early = c.post(f"/games/{game_id}/rematch")
        assert (early.status_code, early.json()["code"]) == (409, "game_not_over")
    play_out(lobby.base, game_id, {0: ann, 2: joined["token"]})
    with client(lobby.base, ann) as c:
        first = c.post(f"/games/{game_id}/rematch").json()
        again = c.post(f"/games/{game_id}/rematch")
    new_id = first["game_id"]
    assert first["seat"] == 1 and first["name"] == "Ann"  # Ann sat at 0: she sits at 1 now
    assert (again.status_code, again.json()["code"]) == (409, "invite_used")  # her seat is taken, by her
    with client(lobby.base) as c:
        assert c.get(f"/games/{game_id}").json()["rematch"] == new_id  # linked from the finished game
        waiting = c.get(f"/games/{new_id}").json()
        assert waiting["players"] == ["", "Ann", "Bot"] and waiting["bots"] == [None, None, "heuristic"]
    stranger = join(lobby.base, new_id, name="Eve")  # Cid's seat is kept for Cid
    assert (stranger.status_code, stranger.json()["code"]) == (409, "game_full")
    with client(lobby.base, created["organiser_token"]) as c:  # the organiser creates nothing twice, takes no seat
        assert c.post(f"/games/{game_id}/rematch").json() == {"game_id": new_id, "rematch_of": game_id}
    with client(lobby.base, joined["token"]) as c:
        cid = c.post(f"/games/{game_id}/rematch").json()
    assert cid["game_id"] == new_id and cid["seat"] == 0
    with client(lobby.base, cid["token"]) as c:
        view = c.get(f"/games/{new_id}").json()["view"]
    # Dealt, every seat being taken: Cid holds a card or two — or none, if the bot, first to play, has already
    # knocked Cid out of the round (the game goes on without waiting for this test).
    assert view["round"] == 1 and view["seat"] == 0
    cid_in_round = view["seats"][0]["in_round"]
    assert len(view["hand"]) in ((1, 2) if cid_in_round else (0,)), view
    with client(lobby.base, first["token"]) as c:
        assert c.get(f"/games/{new_id}").json()["view"]["seat"] == 1
