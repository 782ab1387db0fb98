"""`loveletter.client` against a real referee on 127.0.0.1 (SQLite): whole games by two sync clients and by two
async ones, a stream cut again and again mid-game that still delivers every event once, a move whose answer is
lost retried under its key and recorded once, a rules refusal in both languages, the lobby paged to its end, and
the runnable examples of docs/client.md."""

from __future__ import annotations

import asyncio
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.client import AsyncClient, Client, LegalMove, RetryPolicy, RuleRefusal
from loveletter.core.cards import Card
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.servers import COUNTESS_DEAL, serve

ROOT = Path(__file__).resolve().parent.parent
NO_WAIT = RetryPolicy(attempts=8, base=0.001, cap=0.01)


@pytest.fixture(name="base", scope="module")
def base_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("client") / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", log_level="warning", create_rate=0, move_rate=0)
    try:
        with serve(settings, store) as url:
            yield url
    finally:
        store.close()


def choose(rng: random.Random, moves: tuple[LegalMove, ...], n: int) -> LegalMove | int | dict[str, Any]:
    """A legal move, sent by turns as an action code, a `LegalMove` spelled out, or a body with card names."""
    move = rng.choice(moves)
    if n % 3 == 0:
        return move.action_code
    if n % 3 == 1 or move.type == "return":
        return move
    body: dict[str, Any] = {"type": "play", "card": Card(move.card).name.title()}  # "Guard", a card's name
    if move.target_name is not None:
        body["target"] = move.target_name
    if move.guess is not None:
        body["guess"] = move.guess
    return body


def test_two_sync_clients_play_a_whole_game(base: str) -> None:
    rng = random.Random(14)
    with Client(base) as lobby:
        created = lobby.create_game(["Alice", "Bob"])
        seats = {s.seat: lobby.seat(s.token) for s in created.seats if s.token}
        gid = created.game_id
        game = seats[0].game(gid)
        moves = 0
        while not game.over:
            me = seats[game.view.active] if game.view.active is not None else None
            assert me is not None
            mine = me.game(gid)
            assert mine.your_turn and mine.legal_moves
            result = me.play(gid, choose(rng, mine.legal_moves, moves))
            assert result.version > mine.version and not result.replayed
            assert [e.seq for e in result.events] == list(range(mine.version + 1, result.version + 1))
            moves += 1
            game = me.game(gid)
        assert moves > 3
        assert game.view.winners and game.over
        events = lobby.events(gid)
        assert events.version == game.version
        assert events.events[-1].type in ("game_ended", "seed_revealed")
        assert any(e.type == "game_ended" for e in events.events)


def test_two_async_clients_play_a_whole_game(base: str) -> None:
    async def play() -> tuple[int, tuple[int, ...], list[int]]:
        rng = random.Random(41)
        async with AsyncClient(base) as lobby:
            created = await lobby.create_game(["Ann", "Ben"], ruleset="2012")
            gid = created.game_id
            seats = {s.seat: lobby.seat(s.token) for s in created.seats if s.token}
            streamed: list[int] = []

            async def watch() -> None:
                async for event in seats[1].stream(gid):
                    streamed.append(event.seq)

            watcher = asyncio.create_task(watch())
            game = await seats[0].game(gid)
            n = 0
            while not game.over:
                assert game.view.active is not None
                me = seats[game.view.active]
                mine = await me.game(gid)
                await me.play(gid, choose(rng, mine.legal_moves, n))
                n += 1
                game = await me.game(gid)
            await asyncio.wait_for(watcher, 10)
            return game.version, game.view.winners, streamed

    version, winners, streamed = asyncio.run(play())
    assert winners
    assert streamed == list(range(1, version + 1))


class CuttingTransport(httpx.HTTPTransport):
    """Cuts each of the first `cuts` event streams after a random number of bytes, as a dropped connection does."""

    def __init__(self, cuts: int, seed: int) -> None:
        super().__init__()
        self.cuts = cuts
        self.rng = random.Random(seed)
        self.opened: list[str | None] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if not request.url.path.endswith("/stream"):
            return response
        self.opened.append(request.headers.get("last-event-id"))
        if len(self.opened) > self.cuts:
            return response
        limit = self.rng.randint(100, 1500)
        inner = response.stream

        class Cut(httpx.SyncByteStream):
            def __iter__(self) -> Iterator[bytes]:
                sent = 0
                for chunk in inner:  # type: ignore[union-attr]
                    if sent + len(chunk) > limit:
                        yield chunk[: limit - sent]
                        raise httpx.ReadError("connection dropped (test)")
                    sent += len(chunk)
                    yield chunk

            def close(self) -> None:
                inner.close()  # type: ignore[union-attr]

        return httpx.Response(response.status_code, headers=response.headers, stream=Cut(), request=request)


def test_a_dropped_stream_resumes_without_losing_or_repeating_an_event(base: str) -> None:
    rng = random.Random(7)
    with Client(base) as lobby:
        created = lobby.create_game(["Alice", "Bob"])
        gid = created.game_id
        seats = {s.seat: lobby.seat(s.token) for s in created.seats if s.token}
        transport = CuttingTransport(cuts=12, seed=3)
        watcher = Client(base, created.token("Bob"), transport=transport, retry=NO_WAIT)
        streamed: list[dict[str, Any]] = []
        thread = threading.Thread(target=lambda: streamed.extend(e.data for e in watcher.stream(gid)))
        thread.start()
        game = seats[0].game(gid)
        n = 0
        while not game.over:
            assert game.view.active is not None
            me = seats[game.view.active]
            me.play(gid, choose(rng, me.game(gid).legal_moves, n))
            n += 1
            game = me.game(gid)
        thread.join(20)
        assert not thread.is_alive()
        watcher.close()
        assert len(transport.opened) > 5  # it was cut, and came back each time with the last seq it had
        resumed = [int(x) for x in transport.opened[1:] if x is not None]
        assert resumed == sorted(resumed) and resumed[-1] > 0
        expected = seats[1].events(gid).events
        assert [e["seq"] for e in streamed] == list(range(1, game.version + 1))
        assert streamed == [e.data for e in expected]


class LosingTransport(httpx.HTTPTransport):
    """The first move request reaches the referee, but its answer is lost on the way back (a network error)."""

    def __init__(self) -> None:
        super().__init__()
        self.moves: list[tuple[str | None, bytes]] = []
        self.lost: list[bytes] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        if request.url.path.endswith("/moves"):
            self.moves.append((request.headers.get("idempotency-key"), request.content))
            if not self.lost:
                self.lost.append(response.read())
                response.close()
                raise httpx.ReadError("answer lost (test)")
        return response


class BusyTransport(httpx.HTTPTransport):
    """The first move request is turned away with 503 and Retry-After before it reaches the referee."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str | None] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/moves"):
            self.keys.append(request.headers.get("idempotency-key"))
            if len(self.keys) == 1:
                problem = {"status": 503, "code": "overloaded", "detail": "busy"}
                return httpx.Response(503, headers={"Retry-After": "2"}, json=problem, request=request)
        return super().handle_request(request)


def test_a_move_retried_after_its_answer_was_lost_is_recorded_once(base: str) -> None:
    with Client(base) as lobby:
        created = lobby.create_game(["Alice", "Bob"], first_player="Alice")
        gid = created.game_id
        transport = LosingTransport()
        alice = Client(base, created.token("Alice"), transport=transport, retry=NO_WAIT)
        before = alice.game(gid)
        result = alice.play(gid, before.legal_moves[0])
        alice.close()
        (first_key, first_body), (second_key, second_body) = transport.moves
        assert first_key == second_key and first_key is not None and first_body == second_body
        assert result.replayed  # the second request was answered from the first one's record
        assert httpx.Response(200, content=transport.lost[0]).json() == result.raw  # the same answer
        events = lobby.events(gid).events
        played = [e for e in events if e.type in ("card_played", "chancellor_returned")]
        assert len(played) == 1 and events[-1].seq == result.version

        waits: list[float] = []
        busy = BusyTransport()
        active = result.view.active
        assert active is not None
        token = created.seats[active].token
        assert token is not None
        mover = Client(base, token, transport=busy, sleep=waits.append)
        mine = mover.game(gid)
        answer = mover.play(gid, mine.legal_moves[0])
        mover.close()
        assert waits == [2.0]  # Retry-After honoured
        assert len(busy.keys) == 2 and busy.keys[0] == busy.keys[1]
        assert not answer.replayed and answer.version > result.version


def test_a_rules_refusal_raises_with_its_rule_and_both_languages(base: str) -> None:
    with Client(base, language="fr", both_languages=True) as lobby:
        created = lobby.create_game(["Alice", "Bob"], scenario={"deals": [COUNTESS_DEAL]})
        gid = created.game_id
        alice = lobby.seat(created.token("Alice"))
        version = alice.game(gid).version
        with pytest.raises(RuleRefusal) as refused:
            alice.play(gid, card=Card.PRINCE, target="Bob")
        error = refused.value
        assert error.status == 422 and error.code == "countess_required" and error.rule_id == "countess.forced"
        assert set(error.details) == {"fr", "en"} and error.details["fr"] != error.details["en"]
        assert "Comtesse" in error.details["fr"] and "Countess" in error.details["en"]
        assert set(error.rules) == {"fr", "en"}
        assert [m.card for m in error.legal_moves] == ["countess"]
        assert alice.game(gid).version == version  # nothing recorded

        bob = lobby.seat(created.token("Bob"))
        with pytest.raises(RuleRefusal) as out_of_turn:
            bob.play(gid, card="Servante")
        assert out_of_turn.value.status == 409 and out_of_turn.value.rule_id == "turn.order"


def test_the_lobby_iterates_every_public_game_page_by_page(base: str) -> None:
    with Client(base) as lobby:
        made = [lobby.create_game(["Ann", {"open": True}], public=True).game_id for _ in range(7)]
        listed = [g.game_id for g in lobby.lobby(limit=3)]
        everything, cursor = lobby.lobby_page(limit=100)
        assert cursor is None
        assert listed == [g.game_id for g in everything]  # every page, in order, none twice
        assert len(set(listed)) == len(listed)
        assert listed[: len(made)] == made[::-1]  # newest first
        open_ones = [g.game_id for g in lobby.lobby(status="open", limit=2)]
        assert set(made) <= set(open_ones)

        news = lobby.lobby_news(after=0)
        seen = {item.game.game_id for _, item in zip(range(len(made)), news, strict=False)}
        news.close()
        assert seen <= set(listed)


def test_joining_resigning_and_a_rematch(base: str) -> None:
    with Client(base) as lobby:
        created = lobby.create_game(["Ann", {"open": True}, {"open": True}], public=True)
        gid = created.game_id
        by_invite = lobby.join(gid, "Cleo", invite=created.invites[1])
        assert by_invite.seat == 2
        public = lobby.join(gid, "Dan")
        assert public.seat == 1
        dan = lobby.seat(public.token)
        cleo = lobby.seat(by_invite.token)
        ann = lobby.seat(created.token("Ann"))
        assert dan.resign(gid).view.seats[1].in_game is False
        game = ann.game(gid)
        assert not game.over
        cleo.resign(gid)
        game = ann.game(gid)
        assert game.over and game.view.winners == (0,)
        again = ann.rematch(gid)
        assert again.rematch_of == gid and again.seat is not None and again.seat.seat == 1
        organiser = lobby.seat(created.organiser_token or "")
        assert organiser.abort(again.game_id).view.aborted


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "client.md").read_text(), re.S)


def test_the_examples_of_docs_client_run(base: str) -> None:
    blocks = python_blocks()
    assert len(blocks) >= 4
    namespace: dict[str, Any] = {"__name__": "docs_client"}
    for block in blocks:
        exec(compile(block.replace("http://127.0.0.1:8000", base), "docs/client.md", "exec"), namespace)
    assert namespace["game"].over


def test_the_async_client_pages_the_lobby_and_raises_refusals_in_both_languages(base: str) -> None:
    async def run() -> tuple[list[str], list[str], RuleRefusal]:
        async with AsyncClient(base, both_languages=True) as client:
            made = [(await client.create_game(["Ann", {"open": True}], public=True)).game_id for _ in range(3)]
            listed = [g.game_id async for g in client.lobby(limit=2)]
            created = await client.create_game(["Alice", "Bob"], first_player="Alice")
            try:
                await client.seat(created.token("Bob")).play(created.game_id, card="handmaid")
            except RuleRefusal as refusal:
                return made, listed, refusal
            raise AssertionError("a move out of turn was accepted")

    made, listed, refusal = asyncio.run(run())
    assert listed[:3] == made[::-1] and len(set(listed)) == len(listed)
    assert refusal.rule_id == "turn.order" and set(refusal.details) == {"en", "fr"}
    assert refusal.details["en"] != refusal.details["fr"]
