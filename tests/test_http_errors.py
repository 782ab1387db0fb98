"""Every refusal over HTTP is `application/problem+json`, names what was wrong, never a 5xx, and leaves the log as
it was. Idempotency-Key retries answer identically and append nothing."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import orjson
import pytest

from loveletter.core.rules import RULES
from tests.servers import ADMIN, Server, client, create_game, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)


def problem(r: httpx.Response, status: int, code: str | None = None) -> dict[str, Any]:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"] == "application/problem+json", r.headers
    body: dict[str, Any] = r.json()
    assert {"type", "title", "status", "detail", "code"} <= body.keys(), body
    assert body["status"] == status and body["type"].endswith("/" + body["code"])
    assert body["title"] and body["detail"]
    if code is not None:
        assert body["code"] == code, body
    return body


class Game:
    """A fresh two-seat game; `snapshot()` is everything its log holds, to compare before and after a refusal."""

    def __init__(self, srv: Server, **body: Any) -> None:
        self.srv = srv
        self.created = create_game(srv.url, [{"name": "Ann"}, {"name": "Bob"}], first_player="Ann", **body)
        self.id = self.created["game_id"]
        self.ann, self.bob = (s["token"] for s in self.created["seats"])
        self.path = f"/games/{self.id}"

    def snapshot(self) -> bytes:
        with client(self.srv.url) as spectator, client(self.srv.url, ADMIN) as admin:
            events = spectator.get(self.path + "/events")
            log = admin.get(self.path + "/log")
        assert events.status_code == 200 and log.status_code == 200
        return events.content + b"\n" + log.content

    def state(self, token: str) -> dict[str, Any]:
        with client(self.srv.url, token) as c:
            out: dict[str, Any] = c.get(self.path).json()
            return out


@pytest.fixture
def game(server: Server) -> Iterator[Game]:
    g = Game(server)
    before = g.snapshot()
    yield g
    assert g.snapshot() == before, "a refused request changed the game's log"


def test_malformed_json_is_400(server: Server, game: Game) -> None:
    with client(server.url, game.ann) as c:
        for path in (game.path + "/moves", "/games"):
            r = c.post(path, content=b'{"type": "play", "card": ', headers={"Content-Type": "application/json"})
            body = problem(r, 400, "invalid_request")
            assert "json" in body["detail"].lower()


@pytest.mark.parametrize(
    "body,field",
    [
        ({"type": "play", "card": "joker"}, "card"),
        ({"type": "play", "card": "guard", "target": 1, "guess": "jester"}, "guess"),
        ({"type": "play", "card": "guard", "colour": "red"}, "colour"),
        ({"type": "return", "keep": "guard", "bottom": ["spy", "spy", "spy"]}, "bottom"),
        ({"type": "code", "action_code": -1}, "action_code"),
        ({"type": "code"}, "action_code"),
        ({"type": "dance"}, "type"),
        ({"card": "guard"}, "type"),
    ],
)
def test_schema_errors_are_422_naming_the_field(server: Server, game: Game, body: dict[str, Any], field: str) -> None:
    with client(server.url, game.ann) as c:
        r = c.post(game.path + "/moves", json=body)
    out = problem(r, 422, "invalid_request")
    assert field in out["detail"] and any(field in e["field"] or field in e["message"] for e in out["errors"]), out


@pytest.mark.parametrize(
    "body,field",
    [
        ({"players": [{"name": "Ann"}]}, "players"),
        ({"players": [{"name": "Ann"}, {"name": ""}]}, "players.1.name"),
        ({"players": [{"name": "Ann"}, {"name": "Bob", "bot": "genius"}]}, "players.1.bot"),
        ({"players": [{"name": "Ann"}, {"name": "Bob"}], "colour": "red"}, "colour"),
        ({"players": [{"name": f"P{i}"} for i in range(7)]}, "players"),
        ({}, "players"),
    ],
)
def test_bad_game_bodies_are_422_naming_the_field(server: Server, body: dict[str, Any], field: str) -> None:
    with client(server.url) as c:
        out = problem(c.post("/games", json=body), 422, "invalid_request")
    assert any(e["field"] == field for e in out["errors"]), out
    assert field in out["detail"]


def test_bad_rules_at_creation_are_refused_with_the_rule(server: Server) -> None:
    with client(server.url) as c:
        seven = c.post("/games", json={"ruleset": "2012", "players": [{"name": n} for n in "ABCDE"]})
        out = problem(seven, 422)
        assert out["rule_id"] in RULES
        unknown = c.post("/games", json={"ruleset": "1999", "players": [{"name": "A"}, {"name": "B"}]})
        assert problem(unknown, 422, "unknown_ruleset")["rule_id"] == "setup.ruleset"
        assert c.get("/rulesets/1999").status_code == 404
        first = c.post("/games", json={"players": [{"name": "A"}, {"name": "B"}], "first_player": "Zed"})
        assert "first_player" in problem(first, 422, "unknown_player")["detail"]


def test_missing_or_malformed_token_is_401(server: Server, game: Game) -> None:
    move = {"type": "play", "card": "guard", "target": 1, "guess": "priest"}
    with client(server.url) as c:
        problem(c.post(game.path + "/moves", json=move), 401, "token_required")
        for auth in ("Basic dXNlcjpwdw==", "Token abc", "Bearer"):
            problem(c.post(game.path + "/moves", json=move, headers={"Authorization": auth}), 401, "token_required")


def test_wrong_token_is_403_even_a_seat_token_of_another_game(server: Server, game: Game) -> None:
    other = Game(server)
    move = {"type": "code", "action_code": game.state(game.ann)["legal_moves"][0]["action_code"]}
    for token in ("not-a-token", other.ann, other.bob, ADMIN):
        with client(server.url, token) as c:
            problem(c.post(game.path + "/moves", json=move), 403, "token_rejected")
            problem(c.get(game.path), 403, "token_rejected")
            problem(c.get(game.path + "/events"), 403, "token_rejected")
    with client(server.url) as c:
        problem(c.get(game.path + "/stream", params={"token": other.ann}), 403, "token_rejected")


def test_unknown_game_route_or_ruleset_is_404(server: Server) -> None:
    with client(server.url, "whatever") as c:
        for r in (
            c.get("/games/g_nope"),
            c.get("/games/g_nope/events"),
            c.get("/games/g_nope/log"),
            c.get("/games/g_nope/stream"),
            c.post("/games/g_nope/moves", json={"type": "code", "action_code": 95}),
        ):
            problem(r, 404, "game_not_found")
        problem(c.get("/rulesets/1999"), 404, "ruleset_not_found")
        problem(c.get("/no/such/route"), 404, "not_found")
        problem(c.delete("/games"), 405, "method_not_allowed")
        assert c.get("/rulesets/2012").json()["deck_size"] == 16


def test_a_move_out_of_turn_is_409_turn_order(server: Server, game: Game) -> None:
    assert game.state(game.ann)["your_turn"] and game.state(game.bob)["legal_moves"] == []
    for lang in ("en", "fr"):
        with client(server.url, game.bob, Accept_Language=lang) as c:
            for body in (
                {"type": "play", "card": "guard", "target": 0, "guess": "priest"},
                {"type": "code", "action_code": 0},
            ):
                out = problem(c.post(game.path + "/moves", json=body), 409, "not_your_turn")
                assert out["rule_id"] == "turn.order" and out["legal_moves"] == []
                assert out["rule"] == RULES["turn.order"].text(lang)


def test_a_stale_if_match_is_412(server: Server, game: Game) -> None:
    mine = game.state(game.ann)
    code = mine["legal_moves"][0]["action_code"]
    with client(server.url, game.ann) as c:
        for stale in (mine["version"] - 1, mine["version"] + 1, 0):
            r = c.post(
                game.path + "/moves", json={"type": "code", "action_code": code}, headers={"If-Match": f'"{stale}"'}
            )
            assert problem(r, 412, "stale_version")["version"] == mine["version"]
        bad = c.post(game.path + "/moves", json={"type": "code", "action_code": code}, headers={"If-Match": "soon"})
        problem(bad, 400, "invalid_header")


def illegal_play(mine: dict[str, Any]) -> dict[str, Any]:
    hand = set(mine["view"]["hand"])
    missing = next(c for c in ("princess", "countess", "king", "chancellor", "prince", "spy") if c not in hand)
    return {"type": "play", "card": missing}


def test_a_rule_violation_is_422_in_the_asked_language_with_the_legal_moves(server: Server, game: Game) -> None:
    mine = game.state(game.ann)
    answers = {}
    for lang, header in (("en", "en-GB,en;q=0.9"), ("fr", "fr-FR,fr;q=0.9,en;q=0.5"), ("en", "de")):
        with client(server.url, game.ann, Accept_Language=header) as c:
            out = problem(c.post(game.path + "/moves", json=illegal_play(mine)), 422)
        assert out["rule_id"] in RULES and out["code"] not in ("invalid_request", "not_your_turn")
        assert out["legal_moves"] == mine["legal_moves"] and out["legal_moves"]
        assert out["rule"] == RULES[out["rule_id"]].text(lang)
        answers[header] = out
    en, fr = answers["en-GB,en;q=0.9"], answers["fr-FR,fr;q=0.9,en;q=0.5"]
    assert en["code"] == fr["code"] and en["rule_id"] == fr["rule_id"]
    assert en["detail"] != fr["detail"] and answers["de"]["detail"] == en["detail"]
    # Guard naming the Guard, a target that is no player, an action code that names nothing.
    with client(server.url, game.ann, Accept_Language="fr") as c:
        if "guard" in mine["view"]["hand"]:
            problem(
                c.post(game.path + "/moves", json={"type": "play", "card": "guard", "target": 1, "guess": "guard"}), 422
            )
        problem(
            c.post(game.path + "/moves", json={"type": "play", "card": "guard", "target": "Zed"}), 422, "unknown_player"
        )
        problem(c.post(game.path + "/moves", json={"type": "code", "action_code": 9999}), 422, "unknown_action_code")
        r = c.post(game.path + "/moves", json={"type": "return", "keep": "guard", "bottom": []})
        assert problem(r, 422)["rule_id"] in RULES


def test_an_oversized_body_is_413(server: Server, game: Game) -> None:
    huge = orjson.dumps({"type": "code", "action_code": 95, "pad": "x" * 70_000})
    with client(server.url, game.ann) as c:
        problem(
            c.post(game.path + "/moves", content=huge, headers={"Content-Type": "application/json"}), 413, "too_large"
        )
        problem(c.post("/games", content=huge, headers={"Content-Type": "application/json"}), 413, "too_large")


def _chunks() -> Iterator[bytes]:
    yield b'{"type": "code", "action_code": 95, "pad": "'
    for _ in range(100):
        yield b"x" * 10_000
    yield b'"}'


def test_an_oversized_chunked_move_is_413(server: Server, game: Game) -> None:
    with client(server.url, game.ann) as c:
        r = c.post(game.path + "/moves", content=_chunks(), headers={"Content-Type": "application/json"})
        problem(r, 413, "too_large")


def test_an_oversized_chunked_game_body_is_413(server: Server) -> None:
    with client(server.url) as c:
        problem(c.post("/games", content=_chunks(), headers={"Content-Type": "application/json"}), 413, "too_large")


def test_no_refusal_is_ever_a_5xx(server: Server, game: Game) -> None:
    """A fuzz of odd requests: every answer is a 2xx/3xx/4xx (the client fails the test on any 5xx)."""
    rng = random.Random(11)
    values: list[Any] = [None, 0, -1, 1 << 70, 1.5, "", "x" * 300, [], {}, True, "guard", "Bob", 1]
    keys = ["type", "card", "target", "guess", "keep", "bottom", "action_code"]
    with client(server.url, game.ann) as c:
        for _ in range(60):
            body = {k: rng.choice(values) for k in rng.sample(keys, rng.randint(0, 4))}
            body["type"] = rng.choice(["play", "return", "code", 3, None])
            r = c.post(game.path + "/moves", json=body, headers={"If-Match": f'"{game.created["version"] + 7}"'})
            assert 400 <= r.status_code < 500 and r.headers["content-type"] == "application/problem+json"
        for params, status in (({"after": -1}, 422), ({"after": "x"}, 422), ({"after": 10**6}, 200)):
            r = c.get(game.path + "/events", params=params)
            assert r.status_code == status, (params, r.text)
            if status == 200:
                assert r.json()["events"] == [] and r.json()["version"] < 10**6
            else:
                problem(r, 422, "invalid_request")
        problem(c.post(game.path + "/moves", json=[1, 2]), 422)
        problem(
            c.post(
                game.path + "/moves", json={"type": "code", "action_code": 95}, headers={"Idempotency-Key": "k" * 201}
            ),
            400,
        )
        problem(c.post(game.path + "/moves", content=b"\xff\xfe", headers={"Content-Type": "application/json"}), 400)


def test_the_log_is_private_until_the_game_is_over(server: Server, game: Game) -> None:
    for token in (None, game.ann):
        with client(server.url, token) as c:
            problem(c.get(game.path + "/log"), 403, "game_not_over")


# -- idempotency ----------------------------------------------------------------------------------------------


def test_an_idempotent_retry_answers_identically_and_appends_nothing(server: Server) -> None:
    g = Game(server)
    mine = g.state(g.ann)
    body = {"type": "code", "action_code": mine["legal_moves"][0]["action_code"]}
    headers = {"Idempotency-Key": "move-1", "If-Match": f'"{mine["version"]}"'}
    with client(server.url, g.ann) as c:
        first = c.post(g.path + "/moves", json=body, headers=headers)
        assert first.status_code == 200 and "idempotent-replayed" not in first.headers
        after = g.snapshot()
        for _ in range(3):
            retry = c.post(g.path + "/moves", json=body, headers=headers)
            assert retry.status_code == 200 and retry.content == first.content
            assert retry.headers["idempotent-replayed"] == "true"
        assert g.snapshot() == after
        other = c.post(g.path + "/moves", json={**body, "action_code": body["action_code"] + 1}, headers=headers)
        out = problem(other, 422, "idempotency_key_reused")
        assert "Idempotency-Key" in out["detail"]
    assert g.snapshot() == after
    # Keys are per game: the same key in another game is a new request.
    g2 = Game(server)
    with client(server.url, g2.ann) as c:
        moved = c.post(
            g2.path + "/moves",
            json={"type": "code", "action_code": g2.state(g2.ann)["legal_moves"][0]["action_code"]},
            headers={"Idempotency-Key": "move-1"},
        )
        assert moved.status_code == 200 and "idempotent-replayed" not in moved.headers


def test_an_idempotency_key_of_one_seat_never_replays_its_answer_to_another(server: Server) -> None:
    """Ann's recorded answer holds Ann's hand: Bob reusing her key (same body bytes) must not receive it."""
    g = Game(server)
    body = {"type": "code", "action_code": g.state(g.ann)["legal_moves"][0]["action_code"]}
    with client(server.url, g.ann) as c:
        ann_answer = c.post(g.path + "/moves", json=body, headers={"Idempotency-Key": "k"})
    assert ann_answer.status_code == 200
    after = g.snapshot()
    with client(server.url, g.bob) as c:
        r = c.post(g.path + "/moves", json=body, headers={"Idempotency-Key": "k"})
    assert g.snapshot() == after
    assert r.content != ann_answer.content, "Bob was sent Ann's recorded answer (with Ann's hand)"
    if r.status_code == 200:
        assert r.json()["view"]["seat"] == 1
    else:
        problem(r, r.status_code)
