"""Secrecy over HTTP (RULINGS §10): every JSON a seat or a spectator receives — game views, move answers, /events,
the /stream — is checked against the true state folded from the admin's full log. Another seat's hand appears only
where the seat legitimately knows it, as its own events (hand_seen, hands_compared, hands_traded) told it."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from loveletter.core.evolve import fold
from loveletter.core.state import GameState
from loveletter.events.codec import encode
from tests.servers import (
    Server,
    admin_log,
    client,
    create_game,
    log_events,
    play_game,
    read_sse,
    server_fixture,  # noqa: F401  (fixture)
)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)

VIEW_KEYS = {
    "seat",
    "ruleset",
    "options",
    "round",
    "phase",
    "active",
    "deck_size",
    "set_aside_face_down",
    "face_up",
    "seats",
    "hand",
    "deck_known",
    "unseen",
    "round_winners",
    "winners",
    "version",
    "clock",
    "aborted",
}
SEAT_KEYS = {"seat", "name", "favors", "in_round", "protected", "hand_size", "front", "known_hand", "in_game", "open"}
BASE = {"type", "v", "seq"}
# What a seat that may not see an event is left with (our own statement of RULINGS §10, not the server's code).
REDACTED = {
    "round_started": BASE | {"round", "first_player", "first_player_rule", "face_up", "deck_size", "hand"},
    "turn_started": BASE | {"player"},
    "card_drawn": BASE | {"player", "source"},
    "chancellor_drew": BASE | {"player", "count"},
    "chancellor_returned": BASE | {"player", "count"},
    "hand_seen": BASE | {"player", "target"},
    "hands_compared": BASE | {"player", "target"},
    "hands_traded": BASE | {"player", "target"},
}


def sees_all_of(full: dict[str, Any], seat: int | None) -> bool:
    kind = full["type"]
    if kind == "round_started":
        return False
    if kind in ("hands_compared", "hands_traded"):
        return seat in (full["player"], full["target"])
    if kind in REDACTED:
        return seat == full["player"]
    return True


class Knowledge:
    """What one seat knows of the others' hands, derived only from the events that seat was sent."""

    def __init__(self, seat: int | None, n: int) -> None:
        self.seat, self.known = seat, [None] * n
        self.seq = 0

    def see(self, e: dict[str, Any]) -> None:
        assert e["seq"] == self.seq + 1, "events arrive in order, none missing"
        self.seq = e["seq"]
        k, me = self.known, self.seat
        kind = e["type"]
        if kind == "round_started":
            self.known = [None] * len(k)
        elif kind in ("hand_discarded", "player_eliminated", "chancellor_returned", "card_played"):
            if kind != "card_played" or k[e["player"]] == e["card"]:
                k[e["player"]] = None
        elif kind == "hand_seen" and me == e["player"]:
            k[e["target"]] = e["card"]
        elif kind == "hands_compared" and me in (e["player"], e["target"]):
            if me == e["player"]:
                k[e["target"]] = e["target_card"]
            else:
                k[e["player"]] = e["player_card"]
        elif kind == "hands_traded":
            p, t = e["player"], e["target"]
            k[p], k[t] = k[t], k[p]
            if me == p:
                k[t] = e["player_card"]
            elif me == t:
                k[p] = e["target_card"]


class Auditor:
    """Checks every payload a viewer received against the true log."""

    def __init__(self, full: list[Any]) -> None:
        self.full = full
        self.encoded = [{**encode(e), "seq": i} for i, e in enumerate(full, start=1)]
        self.states: list[GameState] = []
        state = fold([])
        for e in full:
            state = fold([e], state)
            self.states.append(state)
        self.checked = {"view": 0, "event": 0, "known": 0}

    def state(self, version: int) -> GameState:
        return self.states[version - 1]

    def event(self, e: dict[str, Any], seat: int | None) -> None:
        full = self.encoded[e["seq"] - 1]
        assert e["type"] == full["type"]
        self.checked["event"] += 1
        if sees_all_of(full, seat):
            assert e == full, (seat, e, full)
            return
        assert set(e) <= REDACTED[e["type"]], (seat, e)
        for key in set(e) & set(full):
            assert e[key] == full[key], (seat, key, e, full)
        if e["type"] == "round_started":
            assert e["deck_size"] == len(full["deck"])
            if seat is None:
                assert "hand" not in e
            else:
                assert e["hand"] == full["hands"][seat]

    def events(self, events: list[dict[str, Any]], seat: int | None) -> Knowledge:
        knowledge = Knowledge(seat, len(self.full[0].players))
        for e in events:
            self.event(e, seat)
            knowledge.see(e)
        return knowledge

    def view(self, v: dict[str, Any], seat: int | None, knowledge: Knowledge | None = None) -> None:
        self.checked["view"] += 1
        state = self.state(v["version"])
        assert set(v) == VIEW_KEYS, set(v) ^ VIEW_KEYS
        assert v["seat"] == seat
        assert v["hand"] == ([c.value for c in state.hands[seat]] if seat is not None else [])
        assert v["deck_size"] == len(state.deck)
        for j, s in enumerate(v["seats"]):
            assert set(s) == SEAT_KEYS
            assert s["hand_size"] == len(state.hands[j])
            if j == seat or seat is None:
                assert s["known_hand"] is None
                continue
            truth = state.knows[seat][j]
            assert s["known_hand"] == (truth.value if truth else None)
            if s["known_hand"] is not None:
                self.checked["known"] += 1
                assert s["known_hand"] in [c.value for c in state.hands[j]], "a known hand is true"
            if knowledge is not None:
                assert knowledge.seq == v["version"]
                assert s["known_hand"] == knowledge.known[j], (seat, j, s, knowledge.known)
        if seat is None:
            assert v["deck_known"] == []
        for known in v["deck_known"]:
            assert state.deck[known["from_top"]].value == known["card"]


def _lobby_game(url: str, names: list[str]) -> tuple[dict[str, Any], str]:
    """A public game of open seats, each taken by a stranger from the lobby: (its seats as `play_game` takes them,
    the organiser's token)."""
    opened = create_game(url, [{"open": True} for _ in names], public=True)
    seats = []
    with client(url) as c:
        for name in names:
            r = c.post(f"/games/{opened['game_id']}/join", json={"name": name})
            assert r.status_code == 200, r.text
            seats.append({"seat": r.json()["seat"], "name": name, "token": r.json()["token"], "bot": None})
    return {"game_id": opened["game_id"], "seats": seats}, opened["organiser_token"]


@pytest.mark.parametrize("table", ["named", "lobby"])
def test_no_seat_ever_sees_another_seats_hand_unless_its_own_cards_showed_it(server: Server, table: str) -> None:
    """Every payload each seat, a spectator and the organiser receive — views, moves' answers, /events, streams —
    against the true log; a lobby game's seats are taken by strangers, and its organiser reads as a spectator."""
    ruleset = "2019"
    names = ["Ann", "Bob", "Cid"]
    if table == "named":
        created = create_game(server.url, [{"name": n} for n in names], ruleset=ruleset)
        organiser = created["organiser_token"]
    else:
        created, organiser = _lobby_game(server.url, names)
    gid = created["game_id"]
    tokens: dict[Any, str | None] = {s["seat"]: s["token"] for s in created["seats"]}
    tokens[None] = None
    tokens["organiser"] = organiser
    received: list[tuple[Any, str, dict[str, Any]]] = []  # (viewer, kind, json)
    streams: dict[Any, list[dict[str, Any]]] = {}

    def listen(viewer: int | None) -> None:
        streams[viewer] = read_sse(server.url, f"/games/{gid}/stream", tokens[viewer])

    listeners = [threading.Thread(target=listen, args=(v,)) for v in tokens]
    for t in listeners:
        t.start()
    watchers = {v: client(server.url, tok) for v, tok in tokens.items()}

    def observe(seat: int, kind: str, data: dict[str, Any]) -> None:
        received.append((seat, kind, data))
        if kind != "move":
            return
        for viewer, c in watchers.items():  # after every move, everybody looks
            received.append((viewer, "game", c.get(f"/games/{gid}").json()))
            received.append((viewer, "events", c.get(f"/games/{gid}/events").json()))

    try:
        play_game(server.url, created, random.Random(f"secrecy{ruleset}{server.kind}"), observe=observe)
    finally:
        for c in watchers.values():
            c.close()
    for t in listeners:
        t.join(timeout=30)
        assert not t.is_alive(), "the stream did not close after game_ended"

    auditor = Auditor(log_events(admin_log(server.url, gid)))
    received = [(None if viewer == "organiser" else viewer, kind, data) for viewer, kind, data in received]
    for viewer, kind, data in received:
        if kind == "game":
            assert data["your_turn"] == (viewer is not None and data["view"]["active"] == viewer)
            if viewer is None:
                assert data["legal_moves"] == []
            auditor.view(data["view"], viewer)
        elif kind == "move":
            for e in data["events"]:
                auditor.event(e, viewer)
            auditor.view(data["view"], viewer)
            for m in data["legal_moves"]:  # only the seat's own cards
                assert m.get("card", m.get("keep")) in data["view"]["hand"]
        else:
            knowledge = auditor.events(data["events"], viewer)
            assert data["version"] == knowledge.seq
    # /events and the views at the same version agree on what each viewer knows.
    by_version: dict[tuple[int | None, int], dict[str, Any]] = {}
    for viewer, kind, data in received:
        if kind == "events":
            by_version[(viewer, data["version"])] = data
    for viewer, kind, data in received:
        if kind == "game" and (viewer, data["version"]) in by_version:
            events = by_version[(viewer, data["version"])]["events"]
            auditor.view(data["view"], viewer, auditor.events(events, viewer))
    # Each stream delivered every event once, id = seq, redacted for its viewer exactly like /events.
    final_events = {}
    for key, tok in tokens.items():
        viewer = None if key == "organiser" else key
        with client(server.url, tok) as c:
            final_events[key] = c.get(f"/games/{gid}/events").json()["events"]
        sse = streams[key]
        assert [int(m["id"]) for m in sse] == list(range(1, len(auditor.full) + 1))
        assert [m["data"] for m in sse] == final_events[key]
        assert [m["event"] for m in sse] == [e["type"] for e in final_events[key]]
        assert [m["event"] for m in sse[-2:]] == ["game_ended", "seed_revealed"]
        auditor.events([m["data"] for m in sse], viewer)
    assert final_events["organiser"] == final_events[None]  # the organiser reads what a spectator reads
    assert auditor.checked["view"] > 100 and auditor.checked["event"] > 1000
    if ruleset == "2019":
        assert any(e["type"] in ("hand_seen", "hands_compared", "hands_traded") for e in final_events[0])


def test_the_spectator_sees_no_hand_no_deck_and_no_set_aside_card_before_the_round_ends(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], first_player=0)
    gid = created["game_id"]
    with client(server.url) as c:
        game = c.get(f"/games/{gid}").json()
        events = c.get(f"/games/{gid}/events").json()["events"]
    assert game["legal_moves"] == [] and game["your_turn"] is False
    assert game["view"]["hand"] == [] and game["view"]["deck_known"] == []
    assert game["view"]["set_aside_face_down"] is True and game["view"]["deck_size"] > 0
    assert all(s["known_hand"] is None for s in game["view"]["seats"])
    round_started = next(e for e in events if e["type"] == "round_started")
    assert set(round_started) == BASE | {"round", "first_player", "first_player_rule", "face_up", "deck_size"}
    turn = next(e for e in events if e["type"] == "turn_started")
    assert "card" not in turn
    auditor = Auditor(log_events(admin_log(server.url, gid)))
    auditor.events(events, None)
    auditor.view(game["view"], None)
