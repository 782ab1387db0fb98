"""Rulings over HTTP against a real server: POST /rulings on a log prefix, GET /games/{id}/state?at=SEQ per seat."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from loveletter.api.routes.rulings import RULING_EXAMPLE
from loveletter.core.evolve import fold
from tests.servers import (
    ADMIN,
    Server,
    admin_log,
    client,
    create_game,
    log_events,
    server_fixture,  # noqa: F401  (fixture)
)
from tests.stores import pg_url  # noqa: F401  (fixture)

ROOT = Path(__file__).resolve().parent.parent
READER = json.loads((ROOT / "examples" / "reader-question.json").read_text())
PRINCE_ON_THIBAULT = {"card": "prince", "target": "Thibault"}

# The reader question's table, with a Priest on top of the deck so Thibault learns Claire's hand on his first turn.
PRIEST_DEAL = {
    "set_aside": "king",
    "face_up": ["guard", "guard", "priest"],
    "hands": ["princess", "guard"],
    "deck": [
        "priest",
        "prince",
        "baron",
        "guard",
        "spy",
        "chancellor",
        "countess",
        "handmaid",
        "prince",
        "guard",
        "spy",
        "chancellor",
        "handmaid",
        "baron",
        "guard",
    ],
    "first_player": "Thibault",
}
READER_DEAL = {
    "set_aside": "king",
    "face_up": ["guard", "guard", "priest"],
    "hands": ["princess", "guard"],
    "deck": READER["rounds"][0]["deal"]["deck"],
    "first_player": "Thibault",
}


def ruling(server: Server, body: dict[str, Any], **headers: str) -> Any:
    with client(server.url, **headers) as c:
        return c.post("/rulings", json=body)


def test_ruling_in_french_on_the_reader_question__prince_on_the_protected_player_is_illegal(server: Server) -> None:
    r = ruling(server, {"log": READER, "at": 5, "move": PRINCE_ON_THIBAULT, "lang": "fr"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["legal"] is False and body["mover"] == "Claire" and body["at"] == 5
    assert body["rule_id"] == "target.protected"
    assert body["rule"].startswith("Un joueur protégé par la Servante")
    assert body["message"] == "la Servante protège Thibault, qui ne peut pas être la cible d'un autre joueur"
    assert "001_d78694f395ea141b.txt" in body["sources"] and "RULINGS §5" in body["sources"]
    assert body["events"] == []
    moves = [(m["card"], m.get("target_name")) for m in body["legal_moves"]]
    assert moves == [("princess", None), ("prince", "Claire")]
    assert body["prefix_problem"] is None and body["lang"] == "fr"
    assert body == RULING_EXAMPLE, "the OpenAPI example of POST /rulings (and docs/audit.md) is this very answer"


@pytest.mark.parametrize(
    ("move", "rule_id", "events"),
    [
        (
            {"card": "prince", "target": "Claire"},
            "target.none",
            ["card_played", "hand_discarded", "player_eliminated", "round_ended", "favor_gained"],
        ),
        (
            {"card": "princess"},
            "princess.eliminated",
            ["card_played", "player_eliminated", "round_ended", "favor_gained"],
        ),
        ({"type": "code", "action_code": 451}, "target.none", None),
    ],
)
def test_ruling_in_french_on_the_reader_question__the_legal_moves(
    server: Server, move: dict[str, Any], rule_id: str, events: list[str] | None
) -> None:
    r = ruling(server, {"log": READER, "at": 5, "move": move}, Accept_Language="fr-FR,fr;q=0.9,en;q=0.5")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["legal"] is True and body["rule_id"] == rule_id and body["lang"] == "fr"
    assert body["message"] == "ce coup est légal"
    assert [e["seq"] for e in body["events"]] == list(range(6, 6 + len(body["events"])))
    if events is not None:
        assert [e["type"] for e in body["events"]] == events
    assert body["events"][-2]["winners"] == [1]  # Thibault wins the round either way


def test_ruling_from_a_jsonl_log_of_a_game_played_over_http(server: Server) -> None:
    created = create_game(server.url, [{"name": "Claire"}, {"name": "Thibault"}], scenario={"deals": [READER_DEAL]})
    gid, tokens = created["game_id"], {s["name"]: s["token"] for s in created["seats"]}
    with client(server.url, tokens["Thibault"]) as t:
        assert t.post(f"/games/{gid}/moves", json={"type": "play", "card": "handmaid"}).status_code == 200
    log = admin_log(server.url, gid).decode()
    assert len(log_events(log.encode())) == 5
    r = ruling(server, {"log": log, "at": 5, "move": {"player": "Claire", **PRINCE_ON_THIBAULT}})
    assert r.status_code == 200, r.text
    body = r.json()
    assert (body["legal"], body["rule_id"], body["lang"]) == (False, "target.protected", "en")
    assert body["message"] == "Thibault is protected by the Handmaid and cannot be chosen"
    legal = ruling(server, {"log": log, "at": 5, "move": {"card": "prince", "target": "Claire"}}).json()
    # as the mover sees them: Claire's own cards, and no other private card
    assert legal["legal"] and legal["events"][1] == {
        "type": "hand_discarded",
        "v": 1,
        "player": 0,
        "card": "princess",
        "seq": 7,
    }


def test_ruling_names_a_problem_in_the_prefix(server: Server) -> None:
    created = create_game(server.url, [{"name": "Claire"}, {"name": "Thibault"}], scenario={"deals": [READER_DEAL]})
    lines = admin_log(server.url, created["game_id"]).decode().splitlines()
    tampered = "\n".join([*lines[:2], lines[2].replace('"princess"', '"countess"', 1), *lines[3:]])
    r = ruling(server, {"log": tampered, "at": 3, "move": {"player": "Thibault", "card": "handmaid"}, "lang": "fr"})
    assert r.status_code == 200, r.text
    problem = r.json()["prefix_problem"]
    assert problem is not None and problem["seq"] == 2 and problem["rule_id"]
    assert any(ch in problem["message"] for ch in "éèàç") or " le " in problem["message"]  # in French


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"log": READER, "at": 99, "move": {}}, "at"),
        ({"log": READER, "at": 0, "move": {}}, "at"),
        ({"log": READER, "at": "5", "move": {}}, "at"),
        ({"log": READER, "at": True, "move": {}}, "at"),
        ({"log": READER, "move": {}}, "at"),
        ({"at": 5, "move": {}}, "log"),
        ({"log": "not a log", "at": 5, "move": {}}, "log"),
        ({"log": 12, "at": 5, "move": {}}, "log"),
        ({"log": {"format": "loveletter-transcript", "players": "nobody"}, "at": 1, "move": {}}, "log"),
        ({"log": READER, "at": 5}, "move"),
        ({"log": READER, "at": 5, "move": "prince"}, "move"),
        ({"log": READER, "at": 5, "move": {"card": "joker"}}, "move"),
        ({"log": READER, "at": 5, "move": {"card": "prince", "target": "Zoé"}}, "move"),
        ({"log": READER, "at": 5, "move": {"type": "code", "action_code": -3}}, "move"),
        ({"log": READER, "at": 5, "move": {"type": "pass"}}, "move"),
        ({"log": READER, "at": 5, "move": {"keep": "guard", "bottom": "spy"}}, "move"),
        ({"log": READER, "at": 5, "move": {}, "lang": "de"}, "lang"),
        ({"log": READER, "at": 5, "move": {}, "verbose": True}, "verbose"),
    ],
)
def test_malformed_ruling_requests_are_422_naming_the_field(server: Server, body: dict[str, Any], field: str) -> None:
    r = ruling(server, body)
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["status"] == 422 and problem["detail"].startswith(f"{field}: ")
    assert problem["errors"][0]["field"] == field


def test_a_ruling_body_that_is_not_json_is_400_and_a_list_is_422(server: Server) -> None:
    with client(server.url) as c:
        r = c.post("/rulings", content=b"{", headers={"Content-Type": "application/json"})
        assert r.status_code == 400 and r.headers["content-type"].startswith("application/problem+json")
        assert c.post("/rulings", json=[1, 2]).status_code == 422


def _priest_game(server: Server) -> tuple[str, dict[str, str]]:
    created = create_game(server.url, [{"name": "Claire"}, {"name": "Thibault"}], scenario={"deals": [PRIEST_DEAL]})
    gid, tokens = created["game_id"], {s["name"]: s["token"] for s in created["seats"]}
    with client(server.url, tokens["Thibault"]) as t:
        r = t.post(f"/games/{gid}/moves", json={"type": "play", "card": "priest", "target": "Claire"})
        assert r.status_code == 200, r.text
        assert [e["type"] for e in r.json()["events"]] == ["card_played", "hand_seen", "turn_started"]
    return gid, tokens


def state_at(server: Server, gid: str, token: str | None, **params: Any) -> Any:
    with client(server.url, token) as c:
        return c.get(f"/games/{gid}/state", params=params)


def test_state_at_shows_a_seat_only_what_it_could_know_then(server: Server) -> None:
    gid, tokens = _priest_game(server)
    # seq 3: Thibault has drawn the Priest; seq 4: he plays it on Claire; seq 5: he sees her hand; 6: Claire draws
    seen = {at: state_at(server, gid, tokens["Thibault"], at=at).json() for at in (2, 3, 4, 5, 6)}
    assert all(s["seat"] == 1 and s["view"]["seat"] == 1 and s["version"] == 6 for s in seen.values())
    assert [seen[at]["view"]["hand"] for at in (2, 3, 4)] == [["guard"], ["guard", "priest"], ["guard"]]
    assert [seen[at]["view"]["seats"][0]["known_hand"] for at in (2, 3, 4, 5, 6)] == [
        None,
        None,
        None,
        "princess",
        "princess",
    ]
    assert seen[5]["view"]["version"] == 5
    claire = {at: state_at(server, gid, tokens["Claire"], at=at).json()["view"] for at in (3, 5, 6)}
    assert [claire[at]["hand"] for at in (3, 5, 6)] == [["princess"], ["princess"], ["princess", "prince"]]
    for at, v in claire.items():  # Claire never knows Thibault's hand, and her own is never a "known" other hand
        assert [s["known_hand"] for s in v["seats"]] == [None, None], at
        assert "guard" not in v["hand"] and "priest" not in v["hand"]
    spectator = state_at(server, gid, None, at=5).json()
    assert spectator["seat"] is None and spectator["view"]["hand"] == []
    assert [s["known_hand"] for s in spectator["view"]["seats"]] == [None, None]
    text = json.dumps(spectator)
    assert "princess" not in text.replace('"princess": 1', "")  # only as an unseen count


def test_state_at_defaults_to_now_and_refuses_points_out_of_range(server: Server) -> None:
    gid, tokens = _priest_game(server)
    assert state_at(server, gid, tokens["Claire"]).json()["at"] == 6
    for at in (0, 7, -1):
        r = state_at(server, gid, tokens["Claire"], at=at)
        assert r.status_code == 422 and r.headers["content-type"].startswith("application/problem+json"), r.text
        assert r.json()["detail"].startswith("at: ")
    assert state_at(server, gid, tokens["Claire"], at="x").status_code == 422
    assert state_at(server, gid, "not-a-seat-token", at=3).status_code == 403
    assert state_at(server, "g_nope", None, at=1).status_code == 404


def test_full_state_is_refused_mid_game_without_the_admin_token(server: Server) -> None:
    gid, tokens = _priest_game(server)
    for token in (None, tokens["Claire"], tokens["Thibault"]):
        r = state_at(server, gid, token, at=3, full="true")
        assert r.status_code == 403, r.text
        assert r.json()["code"] == "game_not_over"
    r = state_at(server, gid, ADMIN, at=3)
    assert r.status_code == 200, r.text
    full = r.json()["state"]
    assert full["hands"] == [["princess"], ["guard", "priest"]] and full["seq"] == 3
    assert full["deck"][0] == "prince" and full["set_aside"] == "king"


def test_full_state_is_public_once_the_game_is_over(server: Server) -> None:
    created = create_game(server.url, [{"name": "A", "bot": "heuristic"}, {"name": "B", "bot": "random"}])
    gid = created["game_id"]
    events = log_events(admin_log(server.url, gid))
    at = len(events) // 2
    r = state_at(server, gid, None, at=at, full="true")
    assert r.status_code == 200, r.text
    assert r.json()["state"] == fold(events[:at]).as_dict()
    assert r.json()["state"]["server_seed"] is None  # revealed only at the end
    end = state_at(server, gid, None, full="true").json()["state"]
    assert end["winners"] and end["server_seed"] is not None


def test_a_ruling_body_without_a_content_type_is_read_as_json(server: Server) -> None:
    """As on every JSON route (`api.parse.json_content_type`): no Content-Type, the body is JSON all the same."""
    body = json.dumps({"log": READER, "at": 5, "move": PRINCE_ON_THIBAULT, "lang": "fr"}).encode()
    with client(server.url) as c:
        r = c.post("/rulings", content=body)
    assert "content-type" not in r.request.headers
    assert r.status_code == 200 and r.json() == RULING_EXAMPLE, r.text
