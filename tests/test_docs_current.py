"""The docs are current: the generated pages match the code, and the log schema accepts the engine's own logs.

`docs/schema/log.schema.json` is checked with the `jsonschema` package when it is installed, and always with the
small structural validator below, which knows exactly the keywords the generated schema uses.
"""

from __future__ import annotations

import hashlib
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

from core.cards import Card
from core.chance import deal
from core.commands import PlayCard, ReturnCards, StartGame
from core.decide import decide
from core.evolve import fold
from core.legal import action_code, from_action_code, legal_moves
from core.state import INITIAL, PHASE_DEAL, PHASE_OVER
from events.catalogue import EVENT_TYPES, Event
from events.log import game_lines, read_games

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
]


def play_random_game(ruleset: str, players: tuple[str, ...], seed: int) -> list[Event]:
    """A whole game made by the engine: chance deals from derived seeds, every seat plays a random legal move."""
    rng = random.Random(seed)
    events: list[Event] = list(decide(INITIAL, StartGame(ruleset, players)))
    state = fold(events)
    rounds = 0
    while state.phase != PHASE_OVER:
        if state.phase == PHASE_DEAL:
            rounds += 1
            command: Any = deal(state, hashlib.sha256(f"docs/{seed}/{rounds}".encode()).digest())
        else:
            command = rng.choice(legal_moves(state, state.active))
        new = decide(state, command)
        events.extend(new)
        state = fold(new, state)
    return events


@pytest.fixture(scope="module")
def engine_log() -> list[bytes]:
    lines: list[bytes] = []
    for ruleset, players, seed in GAMES:
        lines.extend(game_lines(play_random_game(ruleset, players, seed)))
    return lines


# -- validation -----------------------------------------------------------------------------------------

_ANNOTATIONS = {"$schema", "title", "description", "default"}
_TYPES: dict[str, Any] = {
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def structural_errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Why `value` does not match `schema` (empty: it matches), for the keywords the generated schema uses."""
    errors: list[str] = []
    for key, want in schema.items():
        if key in _ANNOTATIONS or key in ("$defs", "properties", "additionalProperties", "items", "required"):
            continue
        if key == "$ref":
            assert want.startswith("#/$defs/"), want
            errors += structural_errors(value, SCHEMA["$defs"][want.removeprefix("#/$defs/")], where)
        elif key in ("oneOf", "anyOf"):
            matches = sum(not structural_errors(value, sub, where) for sub in want)
            if (key == "oneOf" and matches != 1) or (key == "anyOf" and matches == 0):
                errors.append(f"{where}: {matches} of the {key} alternatives match")
        elif key == "const":
            if value != want or type(value) is not type(want):
                errors.append(f"{where}: {value!r} is not {want!r}")
        elif key == "enum":
            if value not in want:
                errors.append(f"{where}: {value!r} is not one of {want}")
        elif key == "type":
            if not _TYPES[want](value):
                errors.append(f"{where}: {value!r} is not of type {want}")
        elif key in ("minimum", "minItems", "maxItems", "minLength"):
            size = value if key == "minimum" else len(value) if isinstance(value, (list, str)) else None
            if size is not None and (size > want if key == "maxItems" else size < want):
                errors.append(f"{where}: {key} {want} not met by {value!r}")
        else:
            raise AssertionError(f"the structural validator does not know the keyword {key!r}: extend it")
    if isinstance(value, dict):
        props = schema.get("properties", {})
        errors += [f"{where}: missing {name!r}" for name in schema.get("required", []) if name not in value]
        for name, item in value.items():
            if name in props:
                errors += structural_errors(item, props[name], f"{where}.{name}")
            elif schema.get("additionalProperties") is False:
                errors.append(f"{where}: unexpected {name!r}")
            elif isinstance(schema.get("additionalProperties"), dict):
                errors += structural_errors(item, schema["additionalProperties"], f"{where}.{name}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            errors += structural_errors(item, schema["items"], f"{where}[{i}]")
    return errors


def schema_errors(data: Any) -> list[str]:
    """Every reason `data` is not a valid log line: the structural check, plus `jsonschema` if installed."""
    errors = structural_errors(data, SCHEMA)
    try:
        import jsonschema
    except ImportError:
        return errors
    validator = jsonschema.Draft202012Validator(SCHEMA)
    return errors + [f"jsonschema: {e.message}" for e in validator.iter_errors(data)]


# -- the tests ----------------------------------------------------------------------------------------------


def test_generated_docs_are_current() -> None:
    result = subprocess.run(
        [sys.executable, str(DOCS / "generate.py"), "--check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"{result.stdout}{result.stderr}run `python docs/generate.py` and commit"


def test_schema_is_valid_draft_2020_12() -> None:
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema = pytest.importorskip("jsonschema")
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
    assert structural_errors(line, SCHEMA)
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
