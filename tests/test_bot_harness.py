"""`loveletter bot run`: a bot written as a function or a class (examples/bots/) joins a game over HTTP — from the
lobby or by invite — and plays its seat to the end, its every move judged by the referee like anyone's."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from examples.bots.careful import Careful
from loveletter.client import Client, Game, LegalMove
from loveletter.core.chance import committed_deal
from loveletter.core.commands import RevealSeed
from loveletter.core.decide import decide as decide_rules
from loveletter.core.evolve import fold
from loveletter.core.legal import from_action_code
from loveletter.events.sqlite_store import SqliteStore
from loveletter.play.harness import Bot, BuiltinBot, LogTold, core_view, decide, play, seat_game
from loveletter.server.settings import Settings
from tests.cli import loveletter
from tests.servers import ADMIN, admin_log, log_events, serve


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("bots") / "referee.db"))
    try:
        with serve(Settings(admin_token=ADMIN, log_level="warning", create_rate=0, move_rate=0), store) as url:
            yield url
    finally:
        store.close()


def test_a_function_bot_takes_the_lobbys_open_seat_and_plays_the_game_out(base: str) -> None:
    with Client(base) as c:
        created = c.create_game([{"name": "House", "bot": "heuristic"}, {"open": True}], public=True)
    game_id = created.game_id
    ran = loveletter("bot", "run", "examples.bots.first:choose", "--server", base, "--join-open", "--name", "First")
    assert ran.returncode == 0, ran.stderr
    assert f"game {game_id} over" in ran.stdout
    events = log_events(admin_log(base, game_id))
    assert events[-1].TYPE == "seed_revealed" and any(e.TYPE == "game_ended" for e in events)
    played = [e for e in events if e.TYPE == "card_played" and e.player == 1]
    assert played, "the bot's seat never played"


def test_a_class_bot_joins_by_invite_while_a_person_plays_the_other_seat(base: str) -> None:
    with Client(base) as c:
        created = c.create_game([{"name": "Ann"}, {"open": True}])
    game_id, ann = created.game_id, created.seats[0].token
    invite = created.seats[1].invite
    assert ann is not None and invite is not None
    out: dict[str, object] = {}
    args = ("bot", "run", "examples.bots.careful:Careful", "--server", base, "--game", game_id, "--invite", invite)
    runner = threading.Thread(target=lambda: out.update(result=loveletter(*args, "--name", "Careful")))
    runner.start()
    with Client(base, ann) as me:  # Ann plays the first legal move whenever it is her turn, until the game ends
        for _ in range(5000):
            game = me.game(game_id)
            if game.over:
                break
            if game.your_turn:
                move = game.legal_moves[0]
                me.play(game_id, move)
    runner.join(60)
    result = out["result"]
    assert result.returncode == 0, result.stderr  # type: ignore[attr-defined]
    events = log_events(admin_log(base, game_id))
    careful = [e for e in events if e.TYPE == "card_played" and e.player == 1]
    assert careful and all(e.card.value != "princess" for e in careful)  # the careful bot never plays the Princess


def test_bot_run_takes_a_bot_file_by_its_path(base: str, tmp_path: Path) -> None:
    (tmp_path / "last.py").write_text("def choose(game):\n    return game.legal_moves[-1]\n")
    with Client(base) as c:
        created = c.create_game([{"name": "House", "bot": "heuristic"}, {"open": True}])
    (invite,) = created.invites
    spec = f"{tmp_path / 'last.py'}:choose"
    ran = loveletter("bot", "run", spec, "--server", base, "--game", created.game_id, "--invite", invite)
    assert ran.returncode == 0, ran.stderr
    assert f"game {created.game_id} over" in ran.stdout
    events = log_events(admin_log(base, created.game_id))
    assert any(e.TYPE == "card_played" and e.player == 1 for e in events)


def test_bot_run_refuses_a_bot_it_cannot_load_in_both_languages(tmp_path: Path) -> None:
    en = loveletter("bot", "run", "no.such.module:bot", "--join-open", "--lang", "en")
    fr = loveletter("bot", "run", "no.such.module:bot", "--join-open", "--lang", "fr")
    assert en.returncode == 2 and "cannot load the bot" in en.stderr
    assert fr.returncode == 2 and "impossible de charger le robot" in fr.stderr


def test_bot_run_says_in_french_when_no_public_game_has_an_open_seat(base: str) -> None:
    with Client(base) as c:
        assert not list(c.lobby(status="open")), "an earlier test left a public game open"
    ran = loveletter("bot", "run", "examples.bots.first:choose", "--server", base, "--join-open", "--lang", "fr")
    assert ran.returncode == 2 and "aucune partie publique n'a de siège ouvert" in ran.stderr


class Recorder:
    """A bot that remembers every `Game` it was given before answering as `inner` does."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.seen: list[Game] = []

    def choose(self, game: Game) -> LegalMove | int:
        self.seen.append(game)
        return decide(self.inner, game)


def test_the_same_bots_play_the_same_game_in_process_as_over_http(base: str) -> None:
    """Two bots — a built-in (its own seeded generator) and a bot file — play a game over HTTP. Then the game is
    played again in process from the same seats and the server seed the referee revealed at the end, with fresh
    copies of the same bots: every `Game` each bot is given in process equals the one it was given over HTTP, field
    for field and in its raw JSON, the events it was told included, and the events are the same, one for one. The admin
    names the server seed: a random one once dealt a game of three decisions a seat, too short to compare much."""
    with Client(base, token=ADMIN) as c:
        created = c.create_game([{"open": True}, {"open": True}], server_seed="c3" * 32)
    game_id = created.game_id
    over_http = [Recorder(BuiltinBot("heuristic", 11)), Recorder(Careful())]
    with Client(base) as anyone:
        seats = [anyone.join(game_id, name, invite=invite) for name, invite in zip("HC", created.invites, strict=True)]
        threads = [
            threading.Thread(target=play, args=(anyone.seat(s.token), game_id, bot))
            for s, bot in zip(seats, over_http, strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    events = log_events(admin_log(base, game_id))
    assert events[-1].TYPE == "seed_revealed"
    server_seed = bytes.fromhex(events[-1].seed)

    # In process: the events up to the last seat taken, then chance deals from the revealed seed and the bots play.
    dealt = next(i for i, e in enumerate(events) if e.TYPE == "round_started")
    state = fold(events[:dealt])
    in_process = [Recorder(BuiltinBot("heuristic", 11)), Recorder(Careful())]
    replayed = list(events[:dealt])
    told = [LogTold(replayed, seat) for seat in range(2)]
    while True:
        if state.over:
            if state.server_seed is not None:
                break
            command: Any = RevealSeed(server_seed.hex())
        elif state.phase == "deal":
            command = committed_deal(state, server_seed)
        else:
            seat = state.active
            answer = in_process[seat].choose(seat_game(state, seat, game_id, told=told[seat]))
            command = from_action_code(answer if isinstance(answer, int) else answer.action_code, seat)
        new = decide_rules(state, command)
        replayed += new
        state = fold(new, state)
    assert replayed == events
    for http_bot, local_bot in zip(over_http, in_process, strict=True):
        assert len(http_bot.seen) == len(local_bot.seen) > 5
        for remote, local in zip(http_bot.seen, local_bot.seen, strict=True):
            assert remote == local
            assert remote.raw == local.raw
            # ... and so are the events the seat was told so far, one for one and in their raw JSON.
            assert len(remote.events) == remote.version and remote.events[-1].seq == remote.version
            assert [e.raw for e in remote.events] == [e.raw for e in local.events]


def test_a_built_in_bot_reads_back_exactly_the_view_the_rules_core_gives_it() -> None:
    """`core_view` of the `Game` built for a seat is `core.views.view` of that seat, at every step of whole games
    of every ruleset (so `heuristic` over HTTP decides from exactly what it decides from in process)."""
    from loveletter.core.state import INITIAL
    from loveletter.core.views import view
    from loveletter.play.bots import get_bot
    from loveletter.play.simulate import play_game, root_key

    checked = 0
    for ruleset, players in (("2019", 4), ("2012", 2), ("princess-princess", 3), ("2019-classic", 4), ("2019", 6)):
        record: list[Any] = []
        play_game(ruleset, [get_bot("heuristic")] * players, root_key(3), 0, None, record)
        state = INITIAL
        for event in record:
            state = fold([event], state)
            if state.ruleset is None:
                continue
            for seat in range(players):
                assert core_view(seat_game(state, seat)) == view(state, seat), (ruleset, seat, event)
                checked += 1
    assert checked > 1000


def test_bot_run_says_in_french_that_the_bot_failed_and_reports_it_as_a_json_line(base: str) -> None:
    with Client(base) as c:
        created = c.create_game([{"name": "House", "bot": "heuristic"}, {"open": True}])
    (invite,) = created.invites
    args = ("bot", "run", "examples.bots.faulty:Crash", "--server", base, "--game", created.game_id, "--invite", invite)
    ran = loveletter(*args, "--jsonl", "--lang", "fr")
    assert ran.returncode == 2
    assert "erreur : le robot examples.bots.faulty:Crash a échoué : RuntimeError" in ran.stderr
    assert json.loads(ran.stdout.strip().splitlines()[-1]) == {
        "crashed": "RuntimeError: this bot crashes on its third move"
    }
