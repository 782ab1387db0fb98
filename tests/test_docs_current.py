"""The docs are current: the generated pages match the code, and the log schema accepts the engine's own logs.

`docs/schema/log.schema.json` is checked with the `jsonschema` package (draft 2020-12).
"""

from __future__ import annotations

import hashlib
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import orjson
import pytest

from loveletter.core.cards import Card
from loveletter.core.catalogue import EVENT_TYPES, Event
from loveletter.core.chance import commitment, committed_deal
from loveletter.core.commands import (
    Abort,
    ContributeSeed,
    JoinSeat,
    PlayCard,
    Resign,
    ReturnCards,
    RevealSeed,
    SetClock,
    StartGame,
    TimeOut,
)
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import action_code, from_action_code, legal_moves
from loveletter.core.state import INITIAL, PHASE_DEAL, PHASE_OVER
from loveletter.events.log import game_lines, read_games
from loveletter.events.signing import SigningKey

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
SCHEMA: dict[str, Any] = orjson.loads((DOCS / "schema" / "log.schema.json").read_bytes())

# ruleset, players, game seed: together they produce every event type at least once
GAMES = [
    ("2019", ("Ann", "Bob", "Cid", "Dee"), 1),
    ("2019", ("Ann", "Bob", "Cid", "Dee"), 2),
    ("2019", ("Ann", "Bob"), 3),
    ("2019-classic", ("Ann", "Bob", "Cid"), 4),
    ("2012", ("Ann", "Bob", "Cid", "Dee"), 5),
    ("princess-princess", ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay"), 6),
    ("2019", ("Ann", "Bob", "Cid"), 7),  # online: an open seat joined, a clock, a timeout, a resignation
    ("2019", ("Ann", "Bob", "Cid"), 8),  # online, then aborted by its organiser
]
ONLINE = {7: "resign", 8: "abort"}


SIGNER = SigningKey.generate()


def play_random_game(ruleset: str, players: tuple[str, ...], seed: int) -> list[Event]:
    """A whole game made by the engine: chance deals from derived seeds, every seat plays a random legal move."""
    rng = random.Random(seed)
    server_seed = hashlib.sha256(f"docs/{seed}".encode()).digest()
    online = ONLINE.get(seed)
    now = 1_790_000_000_000  # Unix milliseconds, moved on by hand: the engine reads no clock
    if online:
        seated = ("Ann", "", *players[2:])
        start = StartGame(ruleset, seated, seed_commitment=commitment(server_seed), open_seats=(1,))
        start = StartGame(**{**_fields(start), "turn_seconds": 30, "on_timeout": "bot"})
    else:
        start = StartGame(ruleset, players, seed_commitment=commitment(server_seed))
    events: list[Event] = list(decide(INITIAL, start))
    if online:
        events += decide(fold(events), JoinSeat(1, players[1], now))
    events += decide(fold(events), ContributeSeed(0, hashlib.sha256(f"seat/{seed}".encode()).hexdigest()))
    state = fold(events)
    while state.phase != PHASE_OVER or state.server_seed is None:
        now += 1000
        if state.phase == PHASE_OVER:
            command: Any = RevealSeed(server_seed.hex())
        elif state.phase == PHASE_DEAL:
            command = committed_deal(state, server_seed)
        elif online == "abort" and state.round == 2:
            command = Abort(now)
        elif online and state.deadline is None and type(events[-1]).TYPE != "clock_ran_out":
            command = SetClock(state.active, now)
        elif online == "resign" and state.round == 2 and not any(state.resigned):
            command = Resign(state.active, now)
        elif online and state.drawn == 3 and state.deadline is not None:
            command = TimeOut(state.active, now + 30_000)
            now += 30_000
        else:
            command = rng.choice(legal_moves(state, state.active))
        new = decide(state, command)
        events.extend(new)
        state = fold(new, state)
    return events


def _fields(command: StartGame) -> dict[str, Any]:
    return {name: getattr(command, name) for name in command.__slots__}


@pytest.fixture(scope="module")
def engine_log() -> list[bytes]:
    lines: list[bytes] = []
    for ruleset, players, seed in GAMES:
        lines.extend(game_lines(play_random_game(ruleset, players, seed), signer=SIGNER.sign))
    return lines


# -- validation -----------------------------------------------------------------------------------------

VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def schema_errors(data: Any) -> list[str]:
    """Every reason `data` is not a valid log line (empty: it is one)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}" for e in VALIDATOR.iter_errors(data)]


# -- the tests ----------------------------------------------------------------------------------------------


def test_generated_docs_are_current() -> None:
    result = subprocess.run(
        [sys.executable, str(DOCS / "generate.py"), "--check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"{result.stdout}{result.stderr}run `python docs/generate.py` and commit"


def test_schema_is_valid_draft_2020_12() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_every_engine_log_line_matches_the_schema(engine_log: list[bytes]) -> None:
    for number, line in enumerate(engine_log, start=1):
        assert schema_errors(orjson.loads(line)) == [], f"line {number}: {line.decode()}"


def test_the_engine_games_cover_every_event_type(engine_log: list[bytes]) -> None:
    seen = {orjson.loads(line).get("type") for line in engine_log}
    assert set(EVENT_TYPES) <= seen, f"no example of {sorted(set(EVENT_TYPES) - seen)}"


@pytest.mark.parametrize(
    "line",
    [
        {"type": "card_played", "v": 1, "seq": 4, "player": 0, "card": "joker"},
        {"type": "card_played", "v": 1, "player": 0, "card": "guard"},
        {"type": "card_played", "v": 2, "seq": 4, "player": 0, "card": "guard"},
        {"type": "favor_gained", "v": 1, "seq": 9, "player": 0, "reason": "luck"},
        {"type": "no_such_event", "v": 1, "seq": 1},
        {"format": "loveletter-log", "version": 2, "ruleset": "2019", "players": ["Ann", "Bob"], "options": {}},
        {"format": "loveletter-log", "version": 1, "ruleset": "2019", "players": ["Ann"], "options": {}},
    ],
)
def test_the_schema_refuses_a_bad_line(line: dict[str, Any]) -> None:
    assert schema_errors(line)


def _fenced_blocks(page: str, lang: str) -> list[str]:
    text = (DOCS / page).read_text("utf-8")
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def test_the_log_format_examples_are_real_log_lines() -> None:
    blocks = _fenced_blocks("log-format.md", "json")
    assert blocks, "docs/log-format.md has no ```json example"
    for block in blocks:
        lines = [line for line in block.splitlines() if line.strip()]
        expected: int | None = None
        for line in lines:
            data = orjson.loads(line)
            assert schema_errors(data) == [], line
            assert orjson.dumps(data, option=orjson.OPT_SORT_KEYS).decode() == line, f"not canonical: {line}"
            if "format" in data:
                expected = 1
                continue
            assert expected is None or data["seq"] == expected, f"seq {data['seq']} where {expected} was due"
            expected = data["seq"] + 1
        if lines and "format" in orjson.loads(lines[0]):
            assert [game.header.ruleset for game in read_games(lines)], "the example is not a readable log"


def test_the_action_code_examples_of_the_bots_page_hold() -> None:
    page = (DOCS / "bots.md").read_text("utf-8")
    rows = re.findall(r"^\| `((?:PlayCard|ReturnCards)\(.*?\))` \| (\d+) \|", page, re.M)
    assert len(rows) >= 4, "docs/bots.md lost its table of worked action codes"
    names = {"PlayCard": PlayCard, "ReturnCards": ReturnCards, "Card": Card}
    for source, code in rows:
        command = eval(source, {"__builtins__": {}}, names)
        assert action_code(command) == int(code), source
        assert from_action_code(int(code), command.player) == command, source


def test_an_online_game_with_a_resignation_audits_clean() -> None:
    """Game 7 deals its later rounds after a resignation (nothing for the seat that left): the audit finds nothing
    wrong with the log, its clocks, its timeout or its deals."""
    from loveletter.replays.audit import Options, audit_bytes

    events = play_random_game(*GAMES[6])
    assert (
        any(type(e).TYPE == "player_resigned" for e in events)
        and sum(type(e).TYPE == "round_started" for e in events) > 2
    )
    data = b"".join(line + b"\n" for line in game_lines(events, signer=SIGNER.sign))
    (game,) = audit_bytes(data, "online.jsonl", Options(lenient=True), jobs=1).games
    assert game.problems == []
