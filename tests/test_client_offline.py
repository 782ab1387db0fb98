"""`loveletter.client` against a scripted referee (httpx's MockTransport), both faces alike: which failures are sent
again and after what pause, which refusals are asked again in the other language and with what headers, and how the
two live streams skip what was given and reopen with Last-Event-ID. tests/test_client.py plays the real server."""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

import httpx
import pytest

from loveletter.client import AsyncClient, Client, RefereeError, RetryPolicy, RuleRefusal

BASE = "http://referee.test"
POLICY = RetryPolicy(attempts=3, base=1.0, cap=4.0)
VIEW = {
    "seat": 0, "ruleset": "2019", "round": 1, "phase": "play", "active": 0, "deck_size": 10, "face_up": [],
    "seats": [], "hand": [], "unseen": {}, "round_winners": [], "winners": [], "version": 3,
}  # fmt: skip
GAME = {
    "game_id": "g1", "version": 3, "players": ["Ann", "Bob"], "bots": [None, None], "scenario": False,
    "over": False, "your_turn": True, "view": VIEW, "legal_moves": [],
}  # fmt: skip
MOVED = {"version": 4, "events": [{"seq": 4, "type": "card_played", "v": 1}], "view": VIEW, "legal_moves": []}
LOBBY_GAME = {"game_id": "g7", "ruleset": "2019", "seats": [], "open_seats": 1, "status": "open"}


def problem(status: int, code: str, lang: str, **more: Any) -> httpx.Response:
    return httpx.Response(status, json={"status": status, "code": code, "detail": f"{code} ({lang})", **more})


def sse(*items: tuple[int, str, dict[str, Any] | str]) -> httpx.Response:
    text = "".join(
        f"id: {n}\nevent: {kind}\ndata: {data if isinstance(data, str) else json.dumps(data)}\n\n"
        for n, kind, data in items
    )
    return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=text.encode())


class Referee:
    """Answers in the order scripted (an exception class is raised as if the connection failed), and keeps every
    request it was sent."""

    def __init__(self, *answers: httpx.Response | type[httpx.TransportError]) -> None:
        self.answers = list(answers)
        self.seen: list[httpx.Request] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        answer = self.answers.pop(0)
        if isinstance(answer, type):
            raise answer("scripted failure", request=request)
        return answer

    def asked(self) -> list[tuple[str, str]]:
        return [(r.method, r.url.path) for r in self.seen]


def ask(face: str, referee: Referee, call: Callable[[Any], Any], take: int | None = None, **options: Any) -> Any:
    """`call(client)` by the blocking or the asyncio client: its answer, or the first `take` items of its stream.
    The pauses between retries are kept in `options["pauses"]` when given a list there."""
    pauses: list[float] = options.pop("pauses", [])
    transport = httpx.MockTransport(referee)
    if face == "sync":
        with Client(BASE, transport=transport, retry=POLICY, sleep=pauses.append, **options) as client:
            out = call(client)
            if take is None:
                return out
            items = [item for _, item in zip(range(take), out, strict=False)]
            out.close()
            return items

    async def pause(seconds: float) -> None:
        pauses.append(seconds)

    async def run() -> Any:
        async with AsyncClient(BASE, transport=transport, retry=POLICY, sleep=pause, **options) as client:
            out = call(client)
            if take is None:
                return await out
            items = []
            async for item in out:
                items.append(item)
                if len(items) == take:
                    break
            await out.aclose()
            return items

    return asyncio.run(run())


FACES = pytest.mark.parametrize("face", ["sync", "async"])


@FACES
def test_a_read_refused_for_now_is_asked_again_after_the_pause_the_referee_asked(face: str) -> None:
    referee = Referee(problem(503, "store_unavailable", "en"), httpx.Response(200, json=GAME))
    busy = referee.answers[0]
    busy.headers["Retry-After"] = "3"
    pauses: list[float] = []
    game = ask(face, referee, lambda c: c.game("g1"), pauses=pauses)
    assert game.version == 3 and game.players == ("Ann", "Bob")
    assert pauses == [3.0] and referee.asked() == [("GET", "/games/g1")] * 2


@FACES
def test_a_creation_is_not_sent_again_after_a_server_error_or_a_lost_answer(face: str) -> None:
    with pytest.raises(RefereeError) as failed:
        ask(face, Referee(problem(500, "internal", "en")), lambda c: c.create_game(["Ann", "Bob"]))
    assert failed.value.status == 500 and failed.value.code == "internal"
    lost = Referee(httpx.ReadTimeout)
    with pytest.raises(httpx.ReadTimeout):
        ask(face, lost, lambda c: c.create_game(["Ann", "Bob"]))
    assert len(lost.seen) == 1


@FACES
def test_any_request_is_sent_again_when_it_never_reached_the_referee(face: str) -> None:
    referee = Referee(httpx.ConnectError, problem(429, "rate_limited", "en"), problem(409, "game_over", "en"))
    pauses: list[float] = []
    with pytest.raises(RefereeError) as refused:
        ask(face, referee, lambda c: c.seat("tok").resign("g1"), pauses=pauses)
    assert refused.value.code == "game_over" and not isinstance(refused.value, RuleRefusal)
    assert referee.asked() == [("POST", "/games/g1/resign")] * 3
    assert all(r.headers["Authorization"] == "Bearer tok" for r in referee.seen)
    assert len(pauses) == 2 and 0.5 <= pauses[0] <= 1.0 and 1.0 <= pauses[1] <= 2.0  # backoff with jitter


@FACES
def test_a_move_keeps_its_key_through_retries_and_gives_up_after_the_last_attempt(face: str) -> None:
    referee = Referee(httpx.ReadError, problem(502, "bad_gateway", "en"), httpx.Response(200, json=MOVED))
    referee.answers[-1].headers["Idempotent-Replayed"] = "true"
    result = ask(face, referee, lambda c: c.play("g1", 17, if_match=3))
    assert result.version == 4 and result.replayed
    assert {r.headers["Idempotency-Key"] for r in referee.seen} != set()
    assert len({r.headers["Idempotency-Key"] for r in referee.seen}) == 1
    assert [r.headers["If-Match"] for r in referee.seen] == ['"3"'] * 3
    assert json.loads(referee.seen[0].content) == {"type": "code", "action_code": 17}

    busy = Referee(*(problem(503, "busy", "en") for _ in range(POLICY.attempts + 1)))
    with pytest.raises(RefereeError) as refused:
        ask(face, busy, lambda c: c.play("g1", 17, key="ll-mine"))
    assert refused.value.status == 503 and len(busy.seen) == POLICY.attempts + 1
    assert {r.headers["Idempotency-Key"] for r in busy.seen} == {"ll-mine"}


@FACES
def test_a_refused_move_is_asked_again_in_french_at_the_version_read_first(face: str) -> None:
    rule = {"rule_id": "countess.forced", "legal_moves": [{"type": "play", "action_code": 3, "card": "countess"}]}
    referee = Referee(
        httpx.Response(200, json=GAME),
        problem(422, "countess_required", "en", rule="Keep the Countess", **rule),
        problem(422, "countess_required", "fr", rule="Gardez la Comtesse", **rule),
    )
    with pytest.raises(RuleRefusal) as refused:
        ask(face, referee, lambda c: c.play("g1", card="prince", target="Bob"), both_languages=True)
    error = refused.value
    assert error.details == {"en": "countess_required (en)", "fr": "countess_required (fr)"}
    assert error.rules == {"en": "Keep the Countess", "fr": "Gardez la Comtesse"}
    assert [m.card for m in error.legal_moves] == ["countess"]
    first, again = referee.seen[1:]
    assert referee.asked() == [("GET", "/games/g1"), ("POST", "/games/g1/moves"), ("POST", "/games/g1/moves")]
    assert first.headers["If-Match"] == again.headers["If-Match"] == '"3"'
    assert [first.headers["Accept-Language"], again.headers["Accept-Language"]] == ["en", "fr"]
    assert first.headers["Idempotency-Key"] != again.headers["Idempotency-Key"]
    assert json.loads(first.content) == json.loads(again.content) == {"type": "play", "card": "prince", "target": "Bob"}


@FACES
def test_a_refused_creation_is_never_asked_twice_but_a_refused_read_is(face: str) -> None:
    created = Referee(problem(400, "bad_request", "fr"))
    with pytest.raises(RefereeError) as refused:
        ask(face, created, lambda c: c.create_game(["Ann"]), language="fr", both_languages=True)
    assert refused.value.details == {"fr": "bad_request (fr)"} and len(created.seen) == 1
    read = Referee(problem(404, "no_such_game", "fr"), problem(404, "no_such_game", "en"))
    with pytest.raises(RefereeError) as missing:
        ask(face, read, lambda c: c.lobby_page(status="open", limit=5), language="fr", both_languages=True)
    assert missing.value.details == {"fr": "no_such_game (fr)", "en": "no_such_game (en)"}
    assert [r.url.params["status"] for r in read.seen] == ["open", "open"]


@FACES
def test_the_game_stream_reopens_after_its_last_seq_and_ends_when_nothing_is_new(face: str) -> None:
    event = {"type": "turn_started", "v": 1, "player": 0}
    referee = Referee(
        httpx.ConnectError,
        sse((1, "game_started", {**event, "seq": 1}), (2, "turn_started", {**event, "seq": 2})),
        sse((2, "turn_started", {**event, "seq": 2}), (3, "turn_started", {**event, "seq": 3})),
        sse(),
    )
    events = ask(face, referee, lambda c: c.stream("g1"), take=10)
    assert [e.seq for e in events] == [1, 2, 3]
    assert [r.headers["Last-Event-ID"] for r in referee.seen] == ["0", "0", "2", "3"]


@FACES
def test_the_lobby_news_skip_what_was_given_without_reading_it(face: str) -> None:
    referee = Referee(
        problem(503, "busy", "en"),
        sse((5, "game_opened", LOBBY_GAME)),
        sse((5, "game_opened", "not json at all"), (6, "seat_filled", {**LOBBY_GAME, "open_seats": 0})),
    )
    news = ask(face, referee, lambda c: c.lobby_news(), take=2)
    assert [(n.id, n.kind, n.game.open_seats) for n in news] == [(5, "game_opened", 1), (6, "seat_filled", 0)]
    assert [r.headers.get("Last-Event-ID") for r in referee.seen] == [None, None, "5"]


@FACES
def test_a_stream_refused_for_good_raises_the_refusal(face: str) -> None:
    referee = Referee(problem(404, "no_such_game", "en"))
    with pytest.raises(RefereeError) as refused:
        ask(face, referee, lambda c: c.stream("nope"), take=1)
    assert refused.value.code == "no_such_game" and len(referee.seen) == 1


def test_both_faces_show_the_same_calls_with_the_same_parameters() -> None:
    names = [n for n in dir(Client) if not n.startswith("_") and callable(getattr(Client, n))]
    assert [n for n in dir(AsyncClient) if not n.startswith("_") and callable(getattr(AsyncClient, n))] == names
    for name in set(names) - {"close", "seat"}:
        blocking, awaited = inspect.signature(getattr(Client, name)), inspect.signature(getattr(AsyncClient, name))
        assert list(blocking.parameters) == list(awaited.parameters), name
        assert next(iter(blocking.parameters)) == "self" and getattr(Client, name).__doc__, name
    assert list(inspect.signature(Client.play).parameters) == [
        "self", "game_id", "move", "card", "target", "guess", "keep", "bottom", "if_match", "key"
    ]  # fmt: skip
    with Client(BASE) as blocking_client:
        assert isinstance(blocking_client.stream("g1"), Iterator)

    async def lobby() -> None:
        async with AsyncClient(BASE) as client:
            assert isinstance(client.lobby(), AsyncIterator)

    asyncio.run(lobby())
