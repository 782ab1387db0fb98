"""Everything `events/` and `replays/` say to a person exists in French, and the French is French.

1. Failing inputs of every kind — an unreadable file, bad JSON, an unknown event type, a bad field, a broken hash
   chain, a bad signature, a wrong seed or deck, an illegal move, bad transcripts — give replay and audit reports
   whose French text, and the message values of their French JSON, are French (`tests.french.not_french`).
2. Whole simulated games of every ruleset are told in French (the plain and the omniscient narrator).
3. The French half of every message written in `events/` and `replays/` is French, and no bilingual exception is
   raised with a bare (English-only) string: a new message without its French fails here.
"""

from __future__ import annotations

import ast
import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from loveletter.core.catalogue import Event, GameEnded, RoundEnded, SeedRevealed
from loveletter.core.rulesets import RULESETS
from loveletter.events.log import game_lines
from loveletter.replays.audit import Options, audit_file
from loveletter.replays.audit import render_json as audit_json
from loveletter.replays.audit import render_text as audit_text
from loveletter.replays.narrative import narrate
from loveletter.replays.report import render_json, render_text, replay_file
from loveletter.replays.transcript import expand
from tests.audit_helpers import signed_log, signing_key, simulated
from tests.french import not_french

ROOT = Path(__file__).resolve().parent.parent
READER_QUESTION: dict[str, Any] = json.loads((ROOT / "examples" / "reader-question.json").read_text())
NAMES = ("Claire", "Thibault", "Nobody", "Ann", "Bob", "Cleo", "Dan", "Eve", "Fay")

# -- 1. reports of failing inputs -------------------------------------------------------------------------------


def _log() -> list[bytes]:
    return signed_log(1, seed=5).splitlines()


def _edit(index: int, change: Callable[[dict[str, Any]], object]) -> Callable[[], bytes]:
    """The clean log with line `index` (0-based) parsed, changed and written back."""

    def build() -> bytes:
        lines = _log()
        data = orjson.loads(lines[index if index >= 0 else len(lines) + index])
        change(data)
        lines[index if index >= 0 else len(lines) + index] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
        return b"\n".join(lines) + b"\n"

    return build


def _raw(change: Callable[[list[bytes]], list[bytes]]) -> Callable[[], bytes]:
    return lambda: b"\n".join(change(_log())) + b"\n"


def _events(events: list[Event], sign: bool = True) -> bytes:
    signer = signing_key().sign if sign else None
    return b"".join(line + b"\n" for line in game_lines(events, signer=signer))


def _transcript(change: Callable[[dict[str, Any]], object]) -> Callable[[], bytes]:
    def build() -> bytes:
        doc = copy.deepcopy(READER_QUESTION)
        change(doc)
        return json.dumps(doc, ensure_ascii=False).encode()

    return build


def _cut_before_the_end() -> bytes:
    events = simulated(1, seed=5)[0]
    end = next(i for i, e in enumerate(events) if isinstance(e, GameEnded))
    return _events(events[: end - 3])


def _scenario() -> bytes:
    return _events(expand(READER_QUESTION).events, sign=False)


LOGS: dict[str, Callable[[], bytes] | None] = {
    "missing.jsonl": None,
    "empty.jsonl": lambda: b"",
    "garbage.jsonl": lambda: b"\xff\xfe\x00garbage\n",
    "truncated-line.jsonl": _raw(lambda ls: [*ls[:3], ls[3][:40], *ls[4:]]),
    "not-an-object.jsonl": _raw(lambda ls: [*ls[:3], b"[1, 2, 3]", *ls[4:]]),
    "huge-line.jsonl": _raw(lambda ls: [*ls[:3], b" " * (1 << 20) + b"{}"]),
    "header-version.jsonl": lambda: b'{"format":"loveletter-log","version":2}\n',
    "header-players.jsonl": lambda: b'{"format":"loveletter-log","version":1,"ruleset":"2019","players":"Ann"}\n',
    "unknown-format.jsonl": _raw(lambda ls: [ls[0], b'{"format":"something-else"}', *ls[1:]]),
    "event-first.jsonl": _raw(lambda ls: ls[1:]),
    "after-signature.jsonl": _raw(lambda ls: [*ls, ls[3]]),
    "unknown-type.jsonl": _raw(lambda ls: [*ls[:3], ls[3].replace(b'"type":"', b'"type":"x'), *ls[4:]]),
    "no-type.jsonl": _edit(3, lambda d: d.pop("type")),
    "unknown-version.jsonl": _edit(3, lambda d: d.update(v=7)),
    "wrong-field-type.jsonl": _edit(3, lambda d: d.update(player="p")),
    "unknown-field.jsonl": _edit(3, lambda d: d.update(extra=1)),
    "missing-field.jsonl": _edit(3, lambda d: d.pop("card")),
    "unknown-card.jsonl": _edit(3, lambda d: d.update(card="joker")),
    "fraction.jsonl": _edit(3, lambda d: d.update(player=1.5)),
    "no-seq.jsonl": _edit(3, lambda d: d.pop("seq")),
    "bad-prev.jsonl": _edit(3, lambda d: d.update(prev=7)),
    "repeated-seq.jsonl": _edit(10, lambda d: d.update(seq=9)),
    "skipped-seq.jsonl": _edit(10, lambda d: d.update(seq=12)),
    "broken-chain.jsonl": _edit(5, lambda d: d.update(prev="00" * 32)),
    "unchained.jsonl": lambda: b"\n".join(
        orjson.dumps({k: v for k, v in orjson.loads(line).items() if k != "prev"}, option=orjson.OPT_SORT_KEYS)
        for line in _log()[:-1]
    ),
    "bad-signature.jsonl": _edit(-1, lambda d: d.update(signature="00" * 64)),
    "signature-version.jsonl": _edit(-1, lambda d: d.update(version=3)),
    "signature-algorithm.jsonl": _edit(-1, lambda d: d.update(algorithm="rsa")),
    "signature-fields.jsonl": _edit(-1, lambda d: d.pop("public_key")),
    "signature-key-id.jsonl": _edit(-1, lambda d: d.update(key_id="0123456789abcdef")),
    "unsigned.jsonl": lambda: _events(simulated(1, seed=5)[0], sign=False),
    "wrong-seed.jsonl": lambda: _events([*simulated(1, seed=5)[0][:-1], SeedRevealed("00" * 32)]),
    "seed-not-revealed.jsonl": lambda: _events(simulated(1, seed=5)[0][:-1]),
    "not-finished.jsonl": _cut_before_the_end,
    "wrong-deck.jsonl": _raw(lambda ls: [*ls[:2], ls[2].replace(b'"guard"', b'"princess"', 1), *ls[3:]]),
    "illegal-move.jsonl": _edit(3, lambda d: d.update(player=(d.get("player", 0) + 1) % 4)),
    "header-mismatch.jsonl": _raw(lambda ls: [ls[0].replace(b'"2019"', b'"2012"'), *ls[1:]]),
    "scenario.jsonl": _scenario,
    "t-not-json.json": lambda: b'{"format": "loveletter-transcript", ',
    "t-format.json": _transcript(lambda d: d.update(version=2)),
    "t-players.json": _transcript(lambda d: d.pop("players")),
    "t-ruleset.json": _transcript(lambda d: d.update(ruleset=2019)),
    "t-options.json": _transcript(lambda d: d.update(options=[])),
    "t-rounds.json": _transcript(lambda d: d.update(rounds={})),
    "t-round.json": _transcript(lambda d: d["rounds"].__setitem__(0, 1)),
    "t-deal.json": _transcript(lambda d: d["rounds"][0].pop("deal")),
    "t-hands.json": _transcript(lambda d: d["rounds"][0]["deal"]["hands"].pop("Claire")),
    "t-first-player.json": _transcript(lambda d: d["rounds"][0].pop("first_player")),
    "t-deck.json": _transcript(lambda d: d["rounds"][0]["deal"].update(deck="guard")),
    "t-turns.json": _transcript(lambda d: d["rounds"][0].update(turns={})),
    "t-turn.json": _transcript(lambda d: d["rounds"][0]["turns"].__setitem__(0, "guard")),
    "t-card.json": _transcript(lambda d: d["rounds"][0]["turns"][0].update(play="joker")),
    "t-player.json": _transcript(lambda d: d["rounds"][0]["turns"][0].update(player="Nobody")),
    "t-field.json": _transcript(lambda d: d["rounds"][0]["turns"][0].update(color="red")),
    "t-fields.json": _transcript(lambda d: d["rounds"][0]["turns"][0].update(color="red", size=2)),
    "t-keep.json": _transcript(lambda d: d["rounds"][0]["turns"][0].update(keep="guard")),
    "t-illegal.json": _transcript(lambda d: d["rounds"][0]["turns"][1].update(target="Thibault")),
    "t-deal-not-deck.json": _transcript(lambda d: d["rounds"][0]["deal"]["deck"].__setitem__(0, "princess")),
    "t-round-in-progress.json": _transcript(lambda d: d["rounds"].append(copy.deepcopy(d["rounds"][0]))),
}


def _messages(body: Any) -> Iterator[str]:
    """The human-readable values of a JSON report: its error and every problem's and note's message."""
    if isinstance(body, dict):
        for key, value in body.items():
            if key in ("message", "error") and isinstance(value, str):
                yield value
            else:
                yield from _messages(value)
    elif isinstance(body, list):
        for item in body:
            yield from _messages(item)


def _check_french(text: str, allowed: tuple[str, ...]) -> None:
    """`text` is French, but for the values an "attendu :" or "trouvé :" line shows (the log's data, as found)."""
    prose = "\n".join(line.split(" : ", 1)[0] if line.startswith("    ") else line for line in text.splitlines())
    assert not_french(prose, allowed=allowed) == [], text


@pytest.mark.parametrize("name", sorted(LOGS))
@pytest.mark.parametrize("lenient", [False, True], ids=["strict", "lenient"])
def test_the_french_reports_of_a_failing_input_are_french(tmp_path: Path, name: str, lenient: bool) -> None:
    build = LOGS[name]
    path = tmp_path / name
    if build is not None:
        path.write_bytes(build())
    allowed = (*NAMES, name, path.name, str(path))
    replayed = replay_file(str(path), lenient=lenient)
    audited = audit_file(str(path), Options(lenient=lenient, require_signature=True, key="ab" * 32))
    texts = [render_text(replayed, "fr"), audit_text(audited, "fr")]
    texts += _messages(orjson.loads(render_json(replayed, "fr")))
    texts += _messages(orjson.loads(audit_json([audited], "fr")))
    for text in texts:
        _check_french(text, allowed)
    english = render_text(replayed, "en") + audit_text(audited, "en")
    assert " at " not in render_text(replayed, "fr") + audit_text(audited, "fr")
    assert render_text(replayed, "fr") != render_text(replayed, "en") and "violation" not in texts[0]
    assert "ligne" not in english and "illisible" not in english


def test_the_failing_inputs_cover_every_verdict(tmp_path: Path) -> None:
    verdicts = set()
    for name, build in LOGS.items():
        path = tmp_path / name
        if build is not None:
            path.write_bytes(build())
        verdicts.add(replay_file(str(path)).exit_code)
        verdicts.add(10 + audit_file(str(path), Options()).exit_code)
    assert verdicts == {0, 1, 2, 10, 11, 12}


def test_a_clean_log_reads_as_french_too(tmp_path: Path) -> None:
    path = tmp_path / "clean.jsonl"
    path.write_bytes(signed_log(3, seed=2))
    replayed, audited = replay_file(str(path)), audit_file(str(path), Options())
    text = render_text(replayed, "fr")
    assert text.count(": vérifiée — ") == 3 and "gagnant" in text
    summary = audit_text(audited, "fr").splitlines()[-1]
    assert " : 3 parties, 3 valides, 0 invalide, " in summary and summary.endswith(" événements, 0 problème")
    for line in [text, audit_text(audited, "fr")]:
        _check_french(line, (path.name,))


# -- 2. narratives ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "players"), [("2019", 4), ("2019", 6), ("2019-classic", 3), ("2012", 4), ("princess-princess", 5)]
)
@pytest.mark.parametrize("omniscient", [False, True], ids=["table", "omniscient"])
def test_whole_games_are_told_in_french(ruleset: str, players: int, omniscient: bool) -> None:
    names = NAMES[3 : 3 + players]
    # The themed editions' card names are the publisher's (core.rulesets): proper names, French or not.
    card_names = tuple(word for name in RULESETS[ruleset].names_fr.values() for word in name.split())
    for events in simulated(3, seed=4, players=players, ruleset=ruleset):
        lines = narrate(events, "fr", flagged=[3], omniscient=omniscient, names=names)
        assert lines[0].startswith("Partie ") and any(line.startswith("Fin de la partie : ") for line in lines)
        for line in lines:
            _check_french(line, (*names, *card_names))


def test_the_narrator_agrees_with_several_winners_and_says_who_targets_themself() -> None:
    story = narrate(expand(READER_QUESTION).events, "fr")
    assert "Manche 1, tour 2 — Claire joue le Prince en se désignant." in story
    tie = narrate(
        [*expand(READER_QUESTION).events[:2], RoundEnded(1, "deck-out", (0, 1), None), GameEnded((0, 1))], "fr"
    )
    assert tie[-2] == "Fin de la manche 1 (pioche épuisée) : Claire et Thibault la remportent."
    assert tie[-1] == "Fin de la partie : Claire et Thibault gagnent."


# -- 3. every French message written in the code -------------------------------------------------------------------

SOURCES = sorted([*(ROOT / "events").glob("*.py"), *(ROOT / "replays").glob("*.py")])
# Calls whose arguments hold a message's French, and where it stands: Text(en, fr), Problem(rule_id, code, en, fr)…
FRENCH_ARGUMENT = {"Text": 1, "Problem": 3, "make_problem": 3, "Note": 3, "bad": 2}
BILINGUAL = {
    "LogFormatError": 1,
    "TranscriptFormatError": 1,
    "EventFormatError": 0,
    "Unreadable": 0,
    "MoveFormatError": 0,
    "KeyFormatError": 0,
}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _literals(node: ast.expr) -> Iterator[tuple[str, bool]]:
    """The French text of an expression, with each placeholder blanked out, and whether it shows a value by `!r`
    (English quotes '…' where French wants « … »). Anything computed (a variable, a call) is not a literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value, False
    elif isinstance(node, ast.JoinedStr):
        parts, repr_used = [], False
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(str(value.value))
            else:
                parts.append(" ")
                repr_used |= isinstance(value, ast.FormattedValue) and value.conversion == ord("r")
        yield "".join(parts), repr_used
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _literals(node.left)
        yield from _literals(node.right)


def _french_arguments() -> list[tuple[str, ast.expr]]:
    """Every expression that holds a message's French: the French argument of the calls above, and whatever is
    assigned to a variable named `fr` or `…_fr`."""
    found: list[tuple[str, ast.expr]] = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and (t.id == "fr" or t.id.endswith("_fr")) for t in node.targets
            ):
                found.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.value))
            if not isinstance(node, ast.Call) or _name(node.func) not in FRENCH_ARGUMENT:
                continue
            where = f"{path.relative_to(ROOT)}:{node.lineno}"
            position = FRENCH_ARGUMENT[_name(node.func)]
            keyword = next((k.value for k in node.keywords if k.arg == "fr"), None)
            argument = node.args[position] if len(node.args) > position else keyword
            if argument is not None:
                found.append((where, argument))
    return found


def test_every_french_message_in_the_code_is_french() -> None:
    found = _french_arguments()
    assert len(found) > 80  # the scan sees the messages (a refactoring that hides them fails here)
    wrong = []
    for where, argument in found:
        for text, repr_used in _literals(argument):
            if repr_used:
                wrong.append(f"{where}: {text!r} shows a value with !r: write « {{value}} » in French")
            unknown = not_french(text)
            if unknown:
                wrong.append(f"{where}: {text!r}: {unknown}")
    assert wrong == []


def test_no_bilingual_error_is_raised_with_an_english_only_string() -> None:
    wrong = []
    raised = 0
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Raise) or not isinstance(node.exc, ast.Call):
                continue
            name = _name(node.exc.func)
            if name not in BILINGUAL:
                continue
            raised += 1
            args = node.exc.args
            message = args[BILINGUAL[name]] if len(args) > BILINGUAL[name] else None
            if message is None or isinstance(message, ast.Constant | ast.JoinedStr | ast.BinOp):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {name} without a Text(en, fr)")
    assert raised > 40 and wrong == []
