"""Whole games played over HTTP against a real uvicorn server, on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from loveletter.core.catalogue import GameStarted, RoundStarted
from loveletter.core.evolve import fold
from loveletter.core.views import view
from tests.servers import (
    Server,
    admin_log,
    client,
    create_game,
    log_events,
    play_game,
    server_fixture,  # noqa: F401  (fixture)
    verify_log,
)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)


def final_views_match(srv: Server, created: dict[str, Any], events: list[Any]) -> None:
    """What every seat and the spectator see at the end is the view of the state the admin log folds to."""
    final = fold(events)
    assert final.over
    gid = created["game_id"]
    for s in created["seats"]:
        with client(srv.url, s["token"]) as c:
            got = c.get(f"/games/{gid}").json()
        seat = s["seat"] if s["token"] else None
        assert got["over"] and got["version"] == final.seq and got["legal_moves"] == []
        assert got["view"] == orjson.loads(orjson.dumps(view(final, seat).as_dict()))
        assert [final.players[w] for w in final.winners] == [got["players"][w] for w in got["view"]["winners"]]


@pytest.mark.parametrize("ruleset,players", [("2019", 2), ("2012", 3), ("2019-classic", 4)])
def test_humans_play_a_whole_game_over_http(server: Server, tmp_path: Path, ruleset: str, players: int) -> None:
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    created = create_game(server.url, [{"name": n} for n in names], ruleset=ruleset)
    assert created["ruleset"] == ruleset and created["scenario"] is False and created["version"] >= 2
    assert all(s["token"] and not s["bot"] for s in created["seats"])
    answers = play_game(server.url, created, random.Random(f"{ruleset}{server.kind}"))
    assert answers and all(a["view"]["seat"] == s for s, a in answers)
    assert answers[-1][1]["view"]["winners"] and [e["type"] for e in answers[-1][1]["events"][-2:]] == [
        "game_ended",
        "seed_revealed",
    ]

    data = admin_log(server.url, created["game_id"])
    report = verify_log(data, tmp_path)
    assert report.finished and report.game_id == created["game_id"] and report.ruleset == ruleset
    events = log_events(data)
    assert len(events) == answers[-1][1]["version"]
    final_views_match(server, created, events)
    # Once the game is over the log is public (no token needed), byte for byte the admin's.
    with client(server.url) as c:
        assert c.get(f"/games/{created['game_id']}/log").content == data


def test_a_game_with_bot_seats(server: Server, tmp_path: Path) -> None:
    players = [{"name": "Ann"}, {"name": "Rob", "bot": "random"}, {"name": "Hal", "bot": "heuristic"}]
    created = create_game(server.url, players, first_player="Rob")
    assert [s["token"] is None for s in created["seats"]] == [False, True, True]
    with client(server.url, created["seats"][0]["token"]) as c:
        first = c.get(f"/games/{created['game_id']}").json()
    assert first["bots"] == [None, "random", "heuristic"]
    assert first["your_turn"] and first["view"]["active"] == 0  # Rob and Hal already played round 1's first turns
    answers = play_game(server.url, created, random.Random(7), styles=("seat", "code"))
    assert {seat for seat, _ in answers} == {0}
    data = admin_log(server.url, created["game_id"])
    assert verify_log(data, tmp_path).finished
    events = log_events(data)
    played_by = {e.player for e in events if type(e).__name__ == "CardPlayed"}
    assert played_by == {0, 1, 2}
    final_views_match(server, created, events)


def test_a_game_of_bots_only_is_over_when_created(server: Server, tmp_path: Path) -> None:
    created = create_game(server.url, [{"name": "R1", "bot": "random"}, {"name": "R2", "bot": "heuristic"}])
    with client(server.url) as c:
        got = c.get(f"/games/{created['game_id']}").json()
    assert got["over"] and got["version"] == created["version"]
    assert verify_log(admin_log(server.url, created["game_id"]), tmp_path).finished


SCENARIO = {
    "deals": [
        {
            "set_aside": "princess",
            "face_up": ["chancellor", "chancellor", "countess"],
            "hands": ["guard", "priest"],
            "deck": [
                "baron",
                "handmaid",
                "guard",
                "guard",
                "guard",
                "guard",
                "guard",
                "spy",
                "spy",
                "priest",
                "baron",
                "handmaid",
                "prince",
                "prince",
                "king",
            ],
            "first_player": "Ann",
        }
    ]
}


def test_a_scenario_game_uses_its_deals_and_says_so_in_its_log(server: Server, tmp_path: Path) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], scenario=SCENARIO)
    assert created["scenario"] is True
    gid = created["game_id"]
    ann, bob = (s["token"] for s in created["seats"])
    with client(server.url, ann) as c:
        got = c.get(f"/games/{gid}").json()
    assert got["scenario"] is True and got["view"]["active"] == 0
    assert got["view"]["hand"] == ["guard", "baron"] and got["view"]["face_up"] == [
        "chancellor",
        "chancellor",
        "countess",
    ]
    with client(server.url, bob) as c:
        assert c.get(f"/games/{gid}").json()["view"]["hand"] == ["priest"]
    # Ann's Guard names Bob's Priest: Bob is out, Ann wins round 1.
    with client(server.url, ann) as c:
        r = c.post(f"/games/{gid}/moves", json={"type": "play", "card": "guard", "target": "Bob", "guess": "priest"})
    assert r.status_code == 200, r.text
    types = [e["type"] for e in r.json()["events"]]
    assert types[:3] == ["card_played", "player_eliminated", "round_ended"] and "favor_gained" in types
    play_game(server.url, created, random.Random(3))
    data = admin_log(server.url, gid)
    header = orjson.loads(data.splitlines()[0])
    assert header["format"] == "loveletter-log" and header["game_id"] == gid
    assert orjson.loads(data.splitlines()[1])["scenario"] is True
    events = log_events(data)
    assert isinstance(events[0], GameStarted) and events[0].scenario is True
    first_round = next(e for e in events if isinstance(e, RoundStarted))
    deal = SCENARIO["deals"][0]
    assert first_round.set_aside.value == deal["set_aside"]
    assert [c.value for c in first_round.hands] == deal["hands"]
    assert [c.value for c in first_round.deck] == deal["deck"]
    assert verify_log(data, tmp_path).finished
    final_views_match(server, created, events)


def test_a_game_without_a_scenario_cannot_carry_deals(server: Server) -> None:
    with client(server.url) as c:
        r = c.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "deals": SCENARIO["deals"]})
        assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json"
        assert any(e["field"] == "deals" for e in r.json()["errors"]), r.json()
        r = c.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "scenario": {"deals": []}})
        assert r.status_code == 422 and any(e["field"].startswith("scenario.deals") for e in r.json()["errors"])


def test_etag_is_the_version_and_the_viewer_and_if_none_match_gives_304(server: Server) -> None:
    created = create_game(server.url, [{"name": "Ann"}, {"name": "Bob"}], first_player=0)
    gid = created["game_id"]
    with client(server.url, created["seats"][0]["token"]) as c:
        r = c.get(f"/games/{gid}")
        version = r.json()["version"]
        assert version == created["version"] and r.headers["etag"] == f'"{version}-s0"'
        assert r.headers["cache-control"] == "private, no-cache" and r.headers["vary"] == "Authorization"
        r304 = c.get(f"/games/{gid}", headers={"If-None-Match": f'"{version}-s0"'})
        assert r304.status_code == 304 and r304.content == b"" and r304.headers["etag"] == f'"{version}-s0"'
        assert r304.headers["vary"] == "Authorization"
        assert c.get(f"/games/{gid}", headers={"If-None-Match": f'W/"{version}-s0"'}).status_code == 304
        assert c.get(f"/games/{gid}", headers={"If-None-Match": f'"{version - 1}-s0"'}).status_code == 200
        assert c.get(f"/games/{gid}", headers={"If-None-Match": f'"{version}-w"'}).status_code == 200  # not hers
        move = r.json()["legal_moves"][0]
        moved = c.post(f"/games/{gid}/moves", json={"type": "code", "action_code": move["action_code"]})
        assert moved.status_code == 200 and moved.headers["etag"] == f'"{moved.json()["version"]}"'
        assert moved.headers["cache-control"] == "private, no-cache" and moved.headers["vary"] == "Authorization"
        again = c.get(f"/games/{gid}", headers={"If-None-Match": f'"{version}-s0"'})
        assert again.status_code == 200 and again.headers["etag"] == f'"{moved.json()["version"]}-s0"'
        events = c.get(f"/games/{gid}/events")
        assert events.headers["cache-control"] == "private, no-cache" and events.headers["vary"] == "Authorization"
        state = c.get(f"/games/{gid}/state")
        assert state.headers["cache-control"] == "private, no-cache" and state.headers["vary"] == "Authorization"
    with client(server.url) as spectator:  # a seat's tag never revalidates the spectator's copy, nor the reverse
        seen = spectator.get(f"/games/{gid}", headers={"If-None-Match": again.headers["etag"]})
        assert seen.status_code == 200 and seen.headers["etag"] == f'"{moved.json()["version"]}-w"'
        assert spectator.get(f"/games/{gid}", headers={"If-None-Match": seen.headers["etag"]}).status_code == 304
    with client(server.url, created["seats"][1]["token"]) as bob:
        assert bob.get(f"/games/{gid}", headers={"If-None-Match": again.headers["etag"]}).status_code == 200
