"""Every problem the referee answers exists in English and in French, chosen by Accept-Language.

One table sends at least one request for every problem `code` of `api.problems.TITLES` (a new code without a request
here fails `test_every_code_is_answered_in_french`), plus rule refusals of each kind. Each request goes once with
`Accept-Language: en` and once with `fr`: the French answer must be French (`tests.french.not_french`), with the
same code, status, type and extra members as the English one, and the games' logs must be as they were.
"""

from __future__ import annotations

import contextlib
import socket
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from loveletter.api.problems import RULE_TITLES, TITLES, TYPE_BASE, french_error, invalid_request
from loveletter.core.lang import BilingualError, Text
from loveletter.core.rules import RULES
from loveletter.core.sources import cite_on_referee
from loveletter.events.log import read_games
from loveletter.events.sqlite_store import SqliteStore
from loveletter.events.store import Append, ConflictError, StoreError
from loveletter.replays.rulings import MoveFormatError, explain
from loveletter.replays.transcript import TranscriptFormatError, expand
from loveletter.server.settings import Settings
from tests.french import not_french
from tests.servers import ADMIN, COUNTESS_DEAL, Server, admin_log, create_game, serve, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url, sqlite_path  # noqa: F401  (fixtures)

NAMES = ("Alice", "Bob")
DEAL = COUNTESS_DEAL
JSON = {"Content-Type": "application/json"}
NDJSON = {"Content-Type": "application/x-ndjson"}


@dataclass
class Ctx:
    """The games the requests refer to: `main` (Alice to move), `keyed` (Alice moved with Idempotency-Key "k1")."""

    url: str
    main: str
    alice: str
    bob: str
    keyed: str
    keyed_alice: str
    log: str
    """`main`'s complete log (JSONL), for POST /rulings."""
    version: int = 0
    """`main`'s version."""
    held: list[socket.socket] = field(default_factory=list)
    """Connections a case leaves open (streams, a request half sent), closed after the cases."""

    def games(self) -> tuple[str, ...]:
        return (self.main, self.keyed)


Request = tuple[str, str, dict[str, Any]]
"""method, path, httpx keyword arguments (headers, json, content, params)."""


@dataclass
class Case:
    name: str
    status: int
    code: str
    """The problem's code, or "rule:KIND" for a rules refusal (whose code is the rules' own) of a RULE_TITLES kind."""
    request: Callable[[Ctx], Request]
    foreign: Callable[[Ctx], BilingualError] | None = None
    """The error from another module whose message the answer carries (its French is that module's)."""
    allowed: tuple[str, ...] = ()
    """Words besides the games' names and ids that the French may hold unquoted (ids written by other modules)."""


def auth(token: str, **more: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **more}


def move(token: str, body: Any, **headers: str) -> Callable[[Ctx], Request]:
    def build(ctx: Ctx) -> Request:
        return "POST", f"/games/{ctx.main}/moves", {"headers": auth(getattr(ctx, token), **headers), "json": body}

    return build


def raw_move(token: str | None, content: bytes, **headers: str) -> Callable[[Ctx], Request]:
    def build(ctx: Ctx) -> Request:
        h = {**JSON, **headers, **(auth(getattr(ctx, token)) if token else {})}
        return "POST", f"/games/{ctx.main}/moves", {"headers": h, "content": content}

    return build


def plain(method: str, path: str, **kwargs: Any) -> Callable[[Ctx], Request]:
    def build(ctx: Ctx) -> Request:
        return method, path.format(game=ctx.main), kwargs

    return build


def ruling(body: Callable[[Ctx], Any]) -> Callable[[Ctx], Request]:
    def build(ctx: Ctx) -> Request:
        return "POST", "/rulings", {"json": body(ctx)}

    return build


def _long_log(log: str) -> str:
    """`log` with its last event repeated past the viewer's bound (the events need not make sense: the length is
    refused first)."""
    lines = log.splitlines()
    return "\n".join(lines + [lines[-1]] * 1000)


def _log_error(text: str) -> Callable[[Ctx], BilingualError]:
    def error(ctx: Ctx) -> BilingualError:
        try:
            list(read_games(text.splitlines()))
        except BilingualError as exc:
            return exc
        raise AssertionError("the log was readable")

    return error


def _move_error(at: int, the_move: dict[str, Any]) -> Callable[[Ctx], BilingualError]:
    def error(ctx: Ctx) -> BilingualError:
        (game,) = read_games(ctx.log.splitlines())
        try:
            explain(list(game.entries), at, the_move, "fr")
        except MoveFormatError as exc:
            return exc
        raise AssertionError("the move was readable")

    return error


def _transcript_error(doc: dict[str, Any]) -> Callable[[Ctx], BilingualError]:
    def error(ctx: Ctx) -> BilingualError:
        try:
            expand(doc)
        except TranscriptFormatError as exc:
            return exc
        raise AssertionError("the transcript was readable")

    return error


def _chunks() -> Iterator[bytes]:
    yield b'{"players": [{"name": "'
    for _ in range(10):
        yield b"x" * 10_000
    yield b'"}]}'


def _join(
    body: Callable[[Ctx, dict[str, Any]], dict[str, Any]], public: bool = False, full: bool = False
) -> Callable[[Ctx], Request]:
    """A join request on a new game of Ann and an open seat (or, `full`, a game whose seat was just taken)."""

    def build(ctx: Ctx) -> Request:
        game = httpx.post(
            f"{ctx.url}/games", json={"players": [{"name": "Ann"}, {"open": True}], "public": public}, timeout=30
        ).json()
        if full:
            taken = httpx.post(f"{ctx.url}/games/{game['game_id']}/join", json={"name": "Bea"}, timeout=30)
            assert taken.status_code == 200, taken.text
        return "POST", f"/games/{game['game_id']}/join", {"json": body(ctx, game)}

    return build


def _used_invite(ctx: Ctx, game: dict[str, Any]) -> dict[str, Any]:
    invite = game["seats"][1]["invite"]
    taken = httpx.post(f"{ctx.url}/games/{game['game_id']}/join", json={"name": "Bea", "invite": invite}, timeout=30)
    assert taken.status_code == 200, taken.text
    return {"name": "Zoe", "invite": invite}


BAD_TRANSCRIPT = {"format": "loveletter-transcript", "players": "nobody"}


def _long_simulation(ctx: Ctx) -> None:
    """A simulation still running when the case's two requests arrive (one at a time per worker)."""
    with httpx.Client(base_url=ctx.url, timeout=30) as http:
        http.post("/simulations", json={"players": 6, "games": 5000})  # 202, or 409 if one already runs


def _then(setup: Callable[[Ctx], Any], request: Callable[[Ctx], Request]) -> Callable[[Ctx], Request]:
    def build(ctx: Ctx) -> Request:
        setup(ctx)
        return request(ctx)

    return build


def _account(build: Callable[[Ctx, dict[str, Any]], Request]) -> Callable[[Ctx], Request]:
    """A request about an account made for the case (a name of its own on the shared server)."""

    def request(ctx: Ctx) -> Request:
        made = httpx.post(f"{ctx.url}/accounts", json={"name": f"Acc{uuid.uuid4().hex[:8]}"}).json()
        return build(ctx, made)

    return request


def _withdrawn_seek(ctx: Ctx, made: dict[str, Any]) -> Request:
    """Withdraw again a seek of `made`, already withdrawn."""
    body = {"key": made["key"], "ruleset": "2019-classic", "players": 6}
    sought = httpx.post(f"{ctx.url}/seeks", json=body).json()
    request: Request = ("DELETE", f"/seeks/{sought['seek_id']}", {"headers": auth(made["key"])})
    assert httpx.request(request[0], ctx.url + request[1], **request[2]).status_code == 200
    return request


def _declined_challenge(ctx: Ctx, made: dict[str, Any]) -> Request:
    """Decline again a challenge made to `made`, already declined."""
    other = httpx.post(f"{ctx.url}/accounts", json={"name": f"Acc{uuid.uuid4().hex[:8]}"}).json()
    sent = httpx.post(f"{ctx.url}/challenges", json={"key": other["key"], "to": made["name"]}).json()
    path = f"/challenges/{sent['challenge_id']}/decline"
    assert httpx.post(ctx.url + path, json={"key": made["key"]}).status_code == 200
    return "POST", path, {"json": {"key": made["key"]}}


CASES: list[Case] = [
    # 400 and 422 invalid_request: malformed JSON, then bodies breaking the schema (several errors each)
    Case("move: malformed JSON", 400, "invalid_request", raw_move("alice", b'{"type": "play", "card": ')),
    Case("move: not JSON at all", 400, "invalid_request", raw_move("alice", b"{not json")),
    Case("game: malformed JSON", 400, "invalid_request", plain("POST", "/games", content=b"{", headers=JSON)),
    Case(
        "move: four errors",
        422,
        "invalid_request",
        move("alice", {"type": "play", "card": "joker", "colour": "red", "target": 1.5, "guess": 3}),
    ),
    Case("move: unknown type", 422, "invalid_request", move("alice", {"type": "dance"})),
    Case("move: no type", 422, "invalid_request", move("alice", {"card": "guard"})),
    Case("move: a list", 422, "invalid_request", move("alice", [1, 2])),
    Case("move: code below 0", 422, "invalid_request", move("alice", {"type": "code", "action_code": -1})),
    Case("move: code too big", 422, "invalid_request", move("alice", {"type": "code", "action_code": 1 << 70})),
    Case("move: code not a number", 422, "invalid_request", move("alice", {"type": "code", "action_code": "x"})),
    Case("move: code a fraction", 422, "invalid_request", move("alice", {"type": "code", "action_code": 1.5})),
    Case("move: code missing", 422, "invalid_request", move("alice", {"type": "code"})),
    Case(
        "move: three cards back",
        422,
        "invalid_request",
        move("alice", {"type": "return", "keep": "guard", "bottom": ["spy", "spy", "spy"]}),
    ),
    Case(
        "move: bottom not a list", 422, "invalid_request", move("alice", {"type": "return", "keep": "x", "bottom": 1})
    ),
    Case(
        "game: many errors",
        422,
        "invalid_request",
        plain(
            "POST",
            "/games",
            json={
                "players": [{"name": ""}, {"name": "x" * 50, "bot": "genius", "seed": "zz"}, 5],
                "options": [],
                "scenario": {"deals": []},
                "colour": "red",
                "ruleset": None,
            },
        ),
    ),
    Case("game: no players", 422, "invalid_request", plain("POST", "/games", json={})),
    Case("game: one player", 422, "invalid_request", plain("POST", "/games", json={"players": [{"name": "Zoé"}]})),
    Case(
        "game: seven players",
        422,
        "invalid_request",
        plain("POST", "/games", json={"players": [{"name": f"P{i}"} for i in range(7)]}),
    ),
    Case(
        "game: a bad deal",
        422,
        "invalid_request",
        plain(
            "POST",
            "/games",
            json={"players": [{"name": "A"}, {"name": "B"}], "scenario": {"deals": [{"set_aside": "x", "hands": 1}]}},
        ),
    ),
    Case("game: a string body", 422, "invalid_request", plain("POST", "/games", content=b'"x"', headers=JSON)),
    Case(
        "seed: not hex",
        422,
        "invalid_request",
        lambda ctx: ("POST", f"/games/{ctx.main}/seed", {"headers": auth(ctx.alice), "json": {"seed": "xyz"}}),
    ),
    Case(
        "seed: a number and more",
        422,
        "invalid_request",
        lambda ctx: ("POST", f"/games/{ctx.main}/seed", {"headers": auth(ctx.alice), "json": {"seed": 5, "x": 1}}),
    ),
    Case("events: after -1", 422, "invalid_request", plain("GET", "/games/{game}/events", params={"after": -1})),
    Case("events: after x", 422, "invalid_request", plain("GET", "/games/{game}/events", params={"after": "x"})),
    Case(
        "audit: a bad key",
        422,
        "invalid_request",
        plain("POST", "/audits", content=b"", headers=NDJSON, params={"key": "abc"}),
    ),
    Case(
        "audit: a bad lang",
        422,
        "invalid_request",
        plain("POST", "/audits", content=b"", headers=NDJSON, params={"lang": "de"}),
    ),
    Case("ruling: not JSON", 400, "invalid_request", plain("POST", "/rulings", content=b"{", headers=JSON)),
    Case("ruling: a list", 422, "invalid_request", ruling(lambda ctx: [1, 2])),
    Case("ruling: no move", 422, "invalid_request", ruling(lambda ctx: {"log": ctx.log, "at": 5})),
    Case("ruling: unknown field", 422, "invalid_request", ruling(lambda ctx: {"log": "", "at": 1, "move": {}, "v": 1})),
    Case("ruling: lang de", 422, "invalid_request", ruling(lambda ctx: {"log": "", "at": 1, "move": {}, "lang": "de"})),
    Case("ruling: at a string", 422, "invalid_request", ruling(lambda ctx: {"log": ctx.log, "at": "5", "move": {}})),
    Case("ruling: move a string", 422, "invalid_request", ruling(lambda ctx: {"log": ctx.log, "at": 1, "move": "x"})),
    Case("ruling: at 99", 422, "invalid_request", ruling(lambda ctx: {"log": ctx.log, "at": 99, "move": {}})),
    Case("ruling: log a number", 422, "invalid_request", ruling(lambda ctx: {"log": 12, "at": 1, "move": {}})),
    Case(
        "ruling: two games",
        422,
        "invalid_request",
        ruling(lambda ctx: {"log": ctx.log + "\n" + ctx.log, "at": 1, "move": {}}),
    ),
    Case(
        "ruling: no event",
        422,
        "invalid_request",
        ruling(lambda ctx: {"log": ctx.log.splitlines()[0], "at": 1, "move": {}}),
    ),
    Case(
        "ruling: a transcript that is no JSON",
        422,
        "invalid_request",
        ruling(lambda ctx: {"log": '{"format": "loveletter-transcript", ', "at": 1, "move": {}}),
    ),
    Case(
        "ruling: a log that is no log",
        422,
        "invalid_request",
        ruling(lambda ctx: {"log": "not a log", "at": 1, "move": {}}),
        foreign=_log_error("not a log"),
    ),
    Case(
        "ruling: a bad transcript",
        422,
        "invalid_request",
        ruling(lambda ctx: {"log": BAD_TRANSCRIPT, "at": 1, "move": {}}),
        foreign=_transcript_error(BAD_TRANSCRIPT),
    ),
    Case(
        "ruling: nobody decides there",
        422,
        "invalid_request",
        ruling(lambda ctx: {"log": ctx.log, "at": 1, "move": {"card": "countess"}}),
        allowed=("nearest", "before", "after"),
    ),
    Case(
        "ruling: a move naming nobody",
        422,
        "invalid_request",
        ruling(lambda ctx: {"log": ctx.log, "at": 3, "move": {"card": "prince", "target": "Zoé"}}),
        foreign=_move_error(3, {"card": "prince", "target": "Zoé"}),
    ),
    # 400 invalid_header, http_error
    Case(
        "move: If-Match soon",
        400,
        "invalid_header",
        move("alice", {"type": "play", "card": "countess"}, If_Match="soon"),
    ),
    Case(
        "move: a long Idempotency-Key",
        400,
        "invalid_header",
        move("alice", {"type": "play", "card": "countess"}, Idempotency_Key="k" * 201),
    ),
    Case("game: not UTF-8", 400, "http_error", plain("POST", "/games", content=b'"\xe9"', headers=JSON)),
    Case(
        "move: If-Match in Latin-1",
        400,
        "invalid_header",
        move("alice", {"type": "play", "card": "countess"}, If_Match=b'"\xb2"'),
    ),
    Case(
        "game: If-None-Match soon",
        400,
        "invalid_header",
        plain("GET", "/games/{game}", headers={"If-None-Match": "soon"}),
    ),
    Case(
        "stream: Last-Event-ID in Latin-1",
        400,
        "invalid_header",
        plain("GET", "/games/{game}/stream", headers={"Last-Event-ID": b"\xb2"}),
    ),
    # 401, 403
    Case("move: no token", 401, "token_required", raw_move(None, b'{"type": "play", "card": "countess"}')),
    Case(
        "log: a Basic header",
        401,
        "token_required",
        plain("GET", "/games/{game}/log", headers={"Authorization": "Basic dXNlcjpwdw=="}),
    ),
    Case(
        "log: a token in Latin-1",
        401,
        "token_required",
        plain("GET", "/games/{game}/log", headers={"Authorization": b"Bearer caf\xe9"}),
    ),
    Case(
        "move: a wrong token",
        403,
        "token_rejected",
        lambda ctx: (
            "POST",
            f"/games/{ctx.main}/moves",
            {"headers": auth("not-a-token"), "json": {"type": "play", "card": "countess"}},
        ),
    ),
    Case(
        "game: a wrong token",
        403,
        "token_rejected",
        lambda ctx: ("GET", f"/games/{ctx.main}", {"headers": auth(ctx.keyed_alice)}),
    ),
    Case("log: mid-game", 403, "game_not_over", plain("GET", "/games/{game}/log")),
    Case(
        "create: a chosen server seed without the admin token",
        403,
        "admin_required",
        plain("POST", "/games", json={"players": [{"name": "A"}, {"name": "B"}], "server_seed": "ab" * 32}),
    ),
    Case("join: no invite", 401, "invite_required", _join(lambda ctx, game: {"name": "Zoe"})),
    Case("join: a wrong invite", 403, "invite_rejected", _join(lambda ctx, game: {"name": "Zoe", "invite": "nope"})),
    Case("join: an invite used", 409, "invite_used", _join(_used_invite)),
    Case("join: a full game", 409, "game_full", _join(lambda ctx, game: {"name": "Zoe"}, public=True, full=True)),
    Case(
        "abort: a seat token",
        403,
        "not_organiser",
        lambda ctx: ("POST", f"/games/{ctx.main}/abort", {"headers": auth(ctx.alice)}),
    ),
    Case("lobby: a made-up cursor", 400, "invalid_cursor", plain("GET", "/games", params={"cursor": "bm9wZQ"})),
    Case("state: full mid-game", 403, "game_not_over", plain("GET", "/games/{game}/state", params={"full": "true"})),
    # 404, 405
    Case("game: unknown", 404, "game_not_found", plain("GET", "/games/g_nope")),
    Case("game: a NUL for an id", 404, "game_not_found", plain("GET", "/games/%00/events")),
    Case(
        "move: unknown game",
        404,
        "game_not_found",
        plain("POST", "/games/g_nope/moves", json={"type": "code", "action_code": 95}, headers=auth("x")),
    ),
    Case("ruleset: unknown", 404, "ruleset_not_found", plain("GET", "/rulesets/1999")),
    Case("route: unknown", 404, "not_found", plain("GET", "/no/such/route")),
    Case("route: DELETE /games", 405, "method_not_allowed", plain("DELETE", "/games")),
    # 409, 412
    Case("move: Bob out of turn", 409, "rule:out_of_turn", move("bob", {"type": "play", "card": "handmaid"})),
    Case(
        "move: a stale If-Match",
        412,
        "stale_version",
        move("alice", {"type": "play", "card": "countess"}, If_Match='"1"'),
    ),
    # 413, 415
    Case(
        "move: too large",
        413,
        "too_large",
        raw_move("alice", orjson.dumps({"type": "code", "action_code": 95, "pad": "x" * 70_000})),
    ),
    Case(
        "game: chunked, too large",
        413,
        "too_large",
        lambda ctx: ("POST", "/games", {"content": _chunks(), "headers": JSON}),
    ),
    Case("audit: JSON", 415, "unsupported_media_type", plain("POST", "/audits", content=b"{}", headers=JSON)),
    Case(
        "move: text/plain",
        415,
        "unsupported_media_type",
        raw_move("alice", b'{"type": "play", "card": "countess"}', Content_Type="text/plain"),
    ),
    Case(
        "game: XML",
        415,
        "unsupported_media_type",
        plain("POST", "/games", content=b"<players/>", headers={"Content-Type": "application/xml"}),
    ),
    # 422 by the referee
    Case(
        "move: unknown target",
        422,
        "unknown_player",
        move("alice", {"type": "play", "card": "prince", "target": "Zed"}),
    ),
    Case(
        "game: unknown first player",
        422,
        "unknown_player",
        plain("POST", "/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "first_player": "Émile"}),
    ),
    Case("move: action code 9999", 422, "unknown_action_code", move("alice", {"type": "code", "action_code": 9999})),
    Case(
        "move: a reused Idempotency-Key",
        422,
        "idempotency_key_reused",
        lambda ctx: (
            "POST",
            f"/games/{ctx.keyed}/moves",
            {"headers": auth(ctx.keyed_alice, **{"Idempotency-Key": "k1"}), "json": {"type": "play", "card": "prince"}},
        ),
    ),
    Case("audit: empty", 422, "unreadable_log", plain("POST", "/audits", content=b"", headers=NDJSON)),
    Case(
        "audit: a truncated line",
        422,
        "unreadable_log",
        lambda ctx: ("POST", "/audits", {"content": "\n".join(ctx.log.splitlines()[:3])[:-20], "headers": NDJSON}),
        foreign=lambda ctx: _log_error("\n".join(ctx.log.splitlines()[:3])[:-20])(ctx),
    ),
    Case("state: at 99", 422, "at_out_of_range", plain("GET", "/games/{game}/state", params={"at": 99})),
    # the replay viewer's and the statistics page's routes
    Case("views: not JSON", 400, "invalid_request", plain("POST", "/replays/views", content=b"{", headers=JSON)),
    Case("views: no log", 422, "invalid_request", plain("POST", "/replays/views", json={"pov": 0})),
    Case("views: unknown field", 422, "invalid_request", plain("POST", "/replays/views", json={"log": "", "at": 1})),
    Case(
        "views: a seat that is not there",
        422,
        "invalid_request",
        lambda ctx: ("POST", "/replays/views", {"json": {"log": ctx.log, "pov": 7}}),
    ),
    Case(
        "views: everything before the end",
        403,
        "game_not_over",
        lambda ctx: ("POST", "/replays/views", {"json": {"log": ctx.log, "pov": "all"}}),
    ),
    Case(
        "views: a game too long",
        422,
        "invalid_request",
        lambda ctx: ("POST", "/replays/views", {"json": {"log": _long_log(ctx.log), "pov": 0}}),
    ),
    Case("simulation: no games", 422, "invalid_request", plain("POST", "/simulations", json={"games": 0})),
    Case("simulation: too many", 422, "invalid_request", plain("POST", "/simulations", json={"games": 10**6})),
    Case(
        "simulation: a bot short",
        422,
        "invalid_request",
        plain("POST", "/simulations", json={"players": 3, "bots": ["random"]}),
    ),
    Case("simulation: no such bot", 422, "invalid_request", plain("POST", "/simulations", json={"bots": ["a", "b"]})),
    Case(
        "simulation: too many games for the expert",
        422,
        "invalid_request",
        plain("POST", "/simulations", json={"bots": ["expert", "random"]}),
    ),
    Case("simulation: unknown", 404, "not_found", plain("GET", "/simulations/nothing-here")),
    Case(
        "tally: JSON", 415, "unsupported_media_type", plain("POST", "/simulations/tally", content=b"{}", headers=JSON)
    ),
    Case("tally: empty", 422, "unreadable_log", plain("POST", "/simulations/tally", content=b"", headers=NDJSON)),
    Case(
        "simulation: one already running",
        409,
        "simulation_running",
        _then(_long_simulation, plain("POST", "/simulations", json={"games": 1})),
    ),
    # 422 by the rules
    Case(
        "move: the Countess is forced",
        422,
        "rule:illegal_move",
        move("alice", {"type": "play", "card": "prince", "target": 1}),
    ),
    Case(
        "move: a card not in hand",
        422,
        "rule:illegal_move",
        move("alice", {"type": "play", "card": "king", "target": "Bob"}),
    ),
    Case(
        "game: five players in 2012",
        422,
        "rule:invalid_game",
        plain("POST", "/games", json={"ruleset": "2012", "players": [{"name": n} for n in "ABCDE"]}),
    ),
    Case(
        "game: an unknown ruleset",
        422,
        "rule:invalid_game",
        plain("POST", "/games", json={"ruleset": "1999", "players": [{"name": "A"}, {"name": "B"}]}),
        allowed=("princess",),  # the ruleset id princess-princess, which core's message lists unquoted
    ),
    Case(
        "game: twice the same name",
        422,
        "rule:invalid_game",
        plain("POST", "/games", json={"players": [{"name": "Ève"}, {"name": "Ève"}]}),
    ),
    # accounts (docs/accounts.md)
    Case(
        "account: an invisible character",
        422,
        "account_name_refused",
        plain("POST", "/accounts", json={"name": "Iv\u200by"}),
    ),
    Case(
        "account: a name taken",
        409,
        "account_name_taken",
        _account(lambda ctx, made: ("POST", "/accounts", {"json": {"name": made["name"].upper()}})),
        allowed=("Unicode",),
    ),
    Case("account: unknown", 404, "account_not_found", plain("GET", "/accounts/a_AAAAAAAAAAAAAAAA")),
    Case(
        "account: another account's key",
        403,
        "account_key_rejected",
        _account(lambda ctx, made: ("POST", f"/accounts/{made['account_id']}/key", {"json": {"key": "ak_nope"}})),
    ),
    Case(
        "create: a rated game with a seat that is no account's",
        422,
        "rated_refused",
        _account(
            lambda ctx, made: (
                "POST",
                "/games",
                {"json": {"rated": True, "players": [{"account_key": made["key"]}, {"name": "Nobody"}]}},
            )
        ),
        allowed=("account_key",),
    ),
    Case("challenge: unknown", 404, "challenge_not_found", plain("GET", "/challenges/c_AAAAAAAAAAAAAAAA")),
    Case(
        "challenge: oneself",
        422,
        "challenge_refused",
        _account(lambda ctx, made: ("POST", "/challenges", {"json": {"key": made["key"], "to": made["account_id"]}})),
    ),
    Case("challenge: declined twice", 409, "challenge_closed", _account(_declined_challenge)),
    Case("seek: unknown", 404, "seek_not_found", plain("GET", "/seeks/s_AAAAAAAAAAAAAAAA")),
    Case("seek: withdrawn twice", 409, "seek_closed", _account(lambda ctx, made: _withdrawn_seek(ctx, made))),
]


def _headers(kwargs: dict[str, Any], lang: str) -> dict[str, Any]:
    headers = {k.replace("_", "-"): v for k, v in kwargs.get("headers", {}).items()}
    return {**kwargs, "headers": {**headers, "Accept-Language": lang}}


def send(url: str, request: Request, lang: str) -> httpx.Response:
    method, path, kwargs = request
    kwargs = _headers(kwargs, lang)
    if "content" in kwargs and not isinstance(kwargs["content"], bytes | str):
        kwargs["content"] = _chunks()  # a generator is spent by the first send
    with httpx.Client(base_url=url, timeout=30) as http:
        return http.request(method, path, **kwargs)


def texts(body: dict[str, Any]) -> str:
    """Every sentence of a problem a person reads."""
    parts = [body["title"], body["detail"], body.get("rule", "")]
    parts += [e["message"] for e in body.get("errors", [])]
    parts += [d["text"] for d in (body.get("nearest") or {}).values() if d is not None]
    return " ".join(parts)


def _points(nearest: dict[str, Any]) -> dict[str, Any]:
    """The nearest decisions of a problem without their words: the same in every language."""
    return {side: d and {k: v for k, v in d.items() if k != "text"} for side, d in nearest.items()}


def check_pair(en: httpx.Response, fr: httpx.Response, case: Case, allowed: set[str], foreign: str = "") -> None:
    """The French answer is the English one, in French."""
    for r in (en, fr):
        assert r.status_code == case.status, (case.name, r.status_code, r.text)
        assert r.headers["content-type"] == "application/problem+json", (case.name, r.headers)
    e, f = en.json(), fr.json()
    assert e["status"] == f["status"] == case.status
    assert e["code"] == f["code"] and e["type"] == f["type"] == TYPE_BASE + e["code"], (e, f)
    if case.code.startswith("rule:"):
        title = RULE_TITLES[case.code.removeprefix("rule:")]
        assert "rule_id" in e and e["rule_id"] in RULES and e["code"] not in TITLES, (case.name, e)
    else:
        title = TITLES[case.code]
        assert e["code"] == case.code, (case.name, e)
    assert (e["title"], f["title"]) == title, (case.name, e["title"], f["title"])
    assert e.keys() == f.keys(), (case.name, e.keys(), f.keys())
    for name in e.keys() - {"title", "detail", "rule", "rule_sources", "errors", "nearest"}:
        assert e[name] == f[name], (case.name, name)
    if "nearest" in e:  # the same points, each said in its language (their words are checked with the rest)
        assert _points(e["nearest"]) == _points(f["nearest"]), (case.name, e["nearest"], f["nearest"])
        assert e["nearest"] != f["nearest"], case.name
    en_errors, fr_errors = e.get("errors", []), f.get("errors", [])
    assert [(x["field"], x.get("type")) for x in en_errors] == [(x["field"], x.get("type")) for x in fr_errors]
    assert all(x.keys() == {"field", "type", "message"} for x in en_errors + fr_errors), (case.name, fr_errors)
    assert f["title"] != e["title"] and f["detail"] != e["detail"], (case.name, e, f)
    if "rule_id" in e:
        assert e["rule"] == RULES[e["rule_id"]].text("en") and f["rule"] == RULES[e["rule_id"]].text("fr")
        sources = RULES[e["rule_id"]].sources
        assert e["rule_sources"] == cite_on_referee(sources, "en")
        assert f["rule_sources"] == cite_on_referee(sources, "fr")
        assert [s["href"] for s in e["rule_sources"]] == [s["href"] for s in f["rule_sources"]]
    french = texts(f)
    if foreign:
        assert foreign in french, (case.name, foreign, french)
        french = french.replace(foreign, " ")
    assert not_french(french, allowed=allowed) == [], (case.name, french)


# -- the server and its games --------------------------------------------------------------------------------


def snapshot(srv: Server, ctx: Ctx) -> list[bytes]:
    out = []
    with httpx.Client(base_url=srv.url, timeout=30) as http:
        for gid in ctx.games():
            events = http.get(f"/games/{gid}/events")
            log = http.get(f"/games/{gid}/log", headers=auth(ADMIN))
            assert events.status_code == 200 and log.status_code == 200
            out += [events.content, log.content]
    return out


@pytest.fixture(scope="module")
def ctx(server: Server) -> Ctx:
    main = create_game(server.url, [{"name": n} for n in NAMES], first_player="Alice", scenario={"deals": [DEAL]})
    keyed = create_game(server.url, [{"name": n} for n in NAMES], first_player="Alice", scenario={"deals": [DEAL]})
    with httpx.Client(base_url=server.url, timeout=30) as http:
        first = http.post(
            f"/games/{keyed['game_id']}/moves",
            json={"type": "play", "card": "countess"},
            headers=auth(keyed["seats"][0]["token"], **{"Idempotency-Key": "k1"}),
        )
        assert first.status_code == 200, first.text
    return Ctx(
        server.url,
        main["game_id"],
        main["seats"][0]["token"],
        main["seats"][1]["token"],
        keyed["game_id"],
        keyed["seats"][0]["token"],
        admin_log(server.url, main["game_id"]).decode(),
    )


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_each_problem_in_french(server: Server, ctx: Ctx, case: Case) -> None:
    before = snapshot(server, ctx)
    request = case.request(ctx)
    en, fr = send(server.url, request, "en"), send(server.url, request, "fr-FR,fr;q=0.9,en;q=0.5")
    foreign = ""
    if case.foreign is not None:
        error = case.foreign(ctx)
        if error.message("fr") == error.message("en"):  # its module has no French for it yet: not ours to judge
            foreign = error.message("fr")
        assert error.message("fr") in texts(fr.json()), (case.name, error.message("fr"), fr.text)
        assert error.message("en") in texts(en.json()), (case.name, error.message("en"), en.text)
    allowed = {*NAMES, ctx.main, ctx.keyed, "g_nope", *case.allowed}
    check_pair(en, fr, case, allowed, foreign)
    assert snapshot(server, ctx) == before, f"{case.name}: a refused request changed a game's log"


# -- 409 conflicts and 500: a store that fails on purpose -----------------------------------------------------


class FaultyStore(SqliteStore):
    """A SQLite store whose appends to `conflicting` games always lose the race, and which cannot read
    g_explode000000000 (an id of the form the referee issues, so that it reaches the store)."""

    conflicting: set[str]

    async def commit(self, request: Append) -> int:
        if request.create is None and request.game_id in getattr(self, "conflicting", set()):
            raise ConflictError(request.game_id, request.expected, request.expected + 1)
        return await super().commit(request)

    def meta(self, game_id: str) -> dict[str, Any] | None:
        if game_id == "g_explode000000000":
            raise RuntimeError("the disk caught fire")
        if game_id == "g_unreachable_0000":
            raise StoreError("the database is out of reach")
        return super().meta(game_id)


@contextlib.contextmanager
def faulty_server() -> Iterator[tuple[str, FaultyStore]]:
    path = Path(tempfile.mkdtemp(prefix="loveletter-faulty-")) / "referee.db"
    store = FaultyStore(str(path))
    store.conflicting = set()
    try:
        with serve(Settings(database_url="sqlite:///unused.db", admin_token=ADMIN, log_level="critical"), store) as url:
            yield url, store
    finally:
        store.close()


FAULTS: list[Case] = [
    Case(
        "conflict with If-Match",
        409,
        "conflict",
        lambda ctx: move("alice", {"type": "play", "card": "countess"}, If_Match=f'"{ctx.version}"')(ctx),
    ),
    Case("conflict without If-Match", 409, "conflict", move("alice", {"type": "play", "card": "countess"})),
    Case("internal error", 500, "internal_error", plain("GET", "/games/g_explode000000000")),
    Case(
        "internal error on a move",
        500,
        "internal_error",
        plain("POST", "/games/g_explode000000000/moves", json={"type": "code", "action_code": 95}, headers=auth("x")),
    ),
    Case("store unavailable", 503, "store_unavailable", plain("GET", "/games/g_unreachable_0000")),
    Case(
        "store unavailable on a move",
        503,
        "store_unavailable",
        plain("POST", "/games/g_unreachable_0000/moves", json={"type": "code", "action_code": 95}, headers=auth("x")),
    ),
]


def test_conflicts_and_internal_errors_in_french() -> None:
    with faulty_server() as (url, store):
        created = create_game(url, [{"name": n} for n in NAMES], first_player="Alice", scenario={"deals": [DEAL]})
        gid = created["game_id"]
        alice, bob = (seat["token"] for seat in created["seats"])
        ctx = Ctx(url, gid, alice, bob, gid, "", "", created["version"])
        store.conflicting.add(gid)
        before = store.load(gid)
        for case in FAULTS:
            request = case.request(ctx)
            en, fr = send(url, request, "en"), send(url, request, "fr")
            check_pair(en, fr, case, {*NAMES, gid, "g_explode000000000", "g_unreachable_0000"})
            assert store.load(gid) == before, case.name
            if case.status == 503:
                assert en.headers["retry-after"] == fr.headers["retry-after"] == "1", case.name


# -- 429 and 503 of the referee's limits (api/limits.py) -----------------------------------------------------------

LIMITED = Settings(
    database_url="sqlite:///unused.db",
    log_level="critical",
    creation_refill=0.001,  # a spent account, challenge or seek burst stays spent on a slow machine
    create_rate=0.001,
    create_burst=1,
    max_streams=2,
    max_streams_per_client=1,
    max_in_flight=1,
)


def _stream(ctx: Ctx, token: str) -> socket.socket:
    """An event stream left open (until `ctx.held` is closed)."""
    sock = socket.create_connection(("127.0.0.1", int(ctx.url.rsplit(":", 1)[1])))
    sock.sendall(f"GET /games/{ctx.main}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    assert sock.recv(4096).startswith(b"HTTP/1.1 200")
    ctx.held.append(sock)
    return sock


def _held_request(ctx: Ctx) -> None:
    """A request the referee is answering (its body not all sent yet): with `max_in_flight=1`, the only one."""
    sock = socket.create_connection(("127.0.0.1", int(ctx.url.rsplit(":", 1)[1])))
    sock.sendall(b"POST /rulings HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{")
    ctx.held.append(sock)
    deadline = time.monotonic() + 15
    while httpx.get(f"{ctx.url}/rulesets").status_code != 503:  # until the referee has admitted it, however busy
        assert time.monotonic() < deadline, "the held request was never admitted"
        time.sleep(0.02)


def _until_refused(ctx: Ctx, request: Request) -> None:
    """Send `request` until the referee refuses it (a rate limit's burst spent, however slow the machine)."""
    method, path, kwargs = request
    for _ in range(100):
        if httpx.request(method, ctx.url + path, **kwargs).status_code == 429:
            return
    raise AssertionError(f"{path} was never refused")


def _challenges_spent(ctx: Ctx) -> Request:
    """A challenge from an account that has spent its burst of challenges."""
    ann, bob = (httpx.post(f"{ctx.url}/accounts", json={"name": f"Lim{uuid.uuid4().hex[:8]}"}).json() for _ in "ab")
    request: Request = ("POST", "/challenges", {"json": {"key": ann["key"], "to": bob["account_id"]}})
    _until_refused(ctx, request)
    return request


def _seeks_spent(ctx: Ctx) -> Request:
    """A seek from an account that has spent its burst of seeks."""
    made = httpx.post(f"{ctx.url}/accounts", json={"name": f"Lim{uuid.uuid4().hex[:8]}"}).json()
    request: Request = ("POST", "/seeks", {"json": {"key": made["key"], "ruleset": "2019-classic", "players": 6}})
    _until_refused(ctx, request)
    return request


def _accounts_spent(ctx: Ctx) -> Request:
    """An account created from an address that has spent its burst of creations."""
    request: Request = ("POST", "/accounts", {"json": {"name": f"Lim{uuid.uuid4().hex[:8]}"}})
    _until_refused(ctx, ("POST", "/accounts", {"json": {"name": f"Lim{uuid.uuid4().hex[:8]}"}}))
    return request


LIMITS: list[Case] = [  # in this order: each one's setup adds to the last one's
    Case("rate limited: challenges of one account", 429, "challenges_rate_limited", _challenges_spent),
    Case("rate limited: seeks of one account", 429, "seeks_rate_limited", _seeks_spent),
    Case("rate limited: accounts from one address", 429, "accounts_rate_limited", _accounts_spent),
    Case(
        "rate limited: a creation",
        429,
        "rate_limited",
        plain("POST", "/games", json={"players": [{"name": "A"}, {"name": "B"}]}),
    ),
    Case(
        "rate limited: a second stream for a token",
        429,
        "too_many_streams",
        _then(
            lambda ctx: _stream(ctx, ctx.alice),
            lambda ctx: ("GET", f"/games/{ctx.main}/stream", {"headers": auth(ctx.alice)}),
        ),
    ),
    Case(
        "every stream taken",
        503,
        "too_many_streams",
        _then(lambda ctx: _stream(ctx, ctx.bob), lambda ctx: ("GET", f"/games/{ctx.main}/stream", {})),
    ),
    Case("overloaded", 503, "overloaded", _then(_held_request, plain("GET", "/rulesets"))),
]


REFILLED = {"accounts_rate_limited", "challenges_rate_limited", "seeks_rate_limited"}
"""Limits whose bucket refills while the test runs (one account every 5 s): on a slow machine a token may come back
between spending the burst and the request."""


def _refused(url: str, case: Case, ctx: Ctx, request: Request, lang: str) -> httpx.Response:
    """The case's answer in `lang`; for a limit that refills, spent again until the request meets an empty bucket
    (the wait for the condition, not for luck)."""
    for _ in range(5):
        answer = send(url, request, lang)
        if case.code not in REFILLED or answer.status_code == 429:
            return answer
        request = case.request(ctx)  # a token came back: spend the burst again
    return answer


def test_limits_in_french() -> None:
    path = Path(tempfile.mkdtemp(prefix="loveletter-limited-")) / "referee.db"
    store = SqliteStore(str(path))
    try:
        with serve(LIMITED, store) as url:
            created = create_game(url, [{"name": n} for n in NAMES])
            alice, bob = (seat["token"] for seat in created["seats"])
            ctx = Ctx(url, created["game_id"], alice, bob, created["game_id"], "", "")
            try:
                for case in LIMITS:
                    request = case.request(ctx)
                    en, fr = (_refused(url, case, ctx, request, lang) for lang in ("en", "fr"))
                    check_pair(en, fr, case, {*NAMES, ctx.main})
                    assert en.headers["retry-after"].isdigit() and fr.headers["retry-after"].isdigit(), case.name
            finally:
                for sock in ctx.held:
                    sock.close()
    finally:
        store.close()


def test_every_code_is_answered_in_french() -> None:
    """Every code of TITLES, and rule refusals of every kind, has a request above (each case asserts that the answer
    has its code): a code added to TITLES without a request here fails."""
    seen = {case.code for case in CASES + FAULTS + LIMITS}
    assert seen == set(TITLES) | {f"rule:{kind}" for kind in RULE_TITLES}, (
        sorted(set(TITLES) - seen),
        sorted(seen - set(TITLES)),
    )


# -- the validation translator on its own ---------------------------------------------------------------------


def test_an_unknown_validation_error_type_is_still_french() -> None:
    said = french_error({"type": "no_such_type_ever", "loc": ("x",), "msg": "Something odd happened", "ctx": {}})
    assert said and not_french(said) == []
    problem = invalid_request([{"type": "no_such_type_ever", "loc": ("x",), "msg": "Something odd happened"}])
    assert problem.body("fr")["errors"] == [{"field": "x", "type": "no_such_type_ever", "message": said}]
    assert problem.body("en")["errors"][0]["message"] == "Something odd happened"


@pytest.mark.parametrize(
    "error",
    [
        {"type": "bool_type", "loc": ("a",), "msg": "Input should be a valid boolean"},
        {"type": "none_required", "loc": ("a",), "msg": "Input should be None"},
        {"type": "float_parsing", "loc": ("a",), "msg": "Input should be a valid number"},
        {"type": "greater_than", "loc": ("a",), "msg": "Input should be greater than 10000", "ctx": {"gt": 10_000}},
        {"type": "less_than", "loc": ("a",), "msg": "Input should be less than 3", "ctx": {"lt": 3}},
        {
            "type": "too_short",
            "loc": ("a",),
            "msg": "…",
            "ctx": {"field_type": "List", "min_length": 1, "actual_length": 0},
        },
        {"type": "string_too_short", "loc": ("a",), "msg": "…", "ctx": {"min_length": 3}},
        {"type": "value_error", "loc": ("a",), "msg": "Value error, no", "ctx": {"error": ValueError("no")}},
        {"type": "value_error", "loc": ("a",), "msg": "…", "ctx": {"error": BilingualError(Text("no", "non, jamais"))}},
        {"type": "json_invalid", "loc": ("body", 12), "msg": "JSON decode error", "ctx": {"error": "Expecting value"}},
        {"type": "json_invalid", "loc": (), "msg": "…", "ctx": {"error": "trailing characters at line 1 column 4"}},
    ],
)
def test_validation_errors_in_french(error: dict[str, Any]) -> None:
    said = french_error(error)
    assert said and not_french(said) == [], said
    if error["type"] == "value_error" and isinstance(error["ctx"]["error"], BilingualError):
        assert said == "non, jamais"


def test_the_audit_route_answers_problems_in_its_lang_parameter(server: Server) -> None:
    """POST /audits takes `?lang=`: its problems follow it over Accept-Language."""
    with httpx.Client(base_url=server.url, timeout=30) as http:
        fr = http.post("/audits", content=b"", headers={**NDJSON, "Accept-Language": "en"}, params={"lang": "fr"})
        en = http.post("/audits", content=b"", headers={**NDJSON, "Accept-Language": "fr"}, params={"lang": "en"})
    assert (fr.status_code, en.status_code) == (422, 422)
    assert (en.json()["title"], fr.json()["title"]) == TITLES["unreadable_log"]
