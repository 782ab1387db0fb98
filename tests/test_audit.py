"""`replays.audit` and `loveletter audit`: every check finds what it should, and nothing on clean logs."""

from __future__ import annotations

import dataclasses
import hashlib
import random
import subprocess
from pathlib import Path

import orjson
import pytest

from loveletter.core.cards import Card
from loveletter.core.catalogue import CardPlayed, Event, GameEnded, RoundStarted, SeedRevealed
from loveletter.core.chance import deal
from loveletter.core.commands import DealRound, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL
from loveletter.events.log import Header, LogFormatError, game_lines, read_games
from loveletter.replays.audit import Options, audit_bytes, chunks
from tests.audit_helpers import signed_log, signing_key, simulated
from tests.cli import loveletter

ROOT = Path(__file__).resolve().parents[1]


def lines_of(events: list[Event], sign: bool = True) -> bytes:
    signer = signing_key().sign if sign else None
    return b"".join(line + b"\n" for line in game_lines(events, signer=signer))


def one(data: bytes, **options: object) -> tuple[object, list[tuple[str, str]]]:
    report = audit_bytes(data, "test", Options(**options))  # type: ignore[arg-type]
    assert report.error is None, report.error
    (game,) = report.games
    return game, [(p.rule_id, p.code) for p in game.problems]


@pytest.fixture(scope="module")
def clean() -> bytes:
    return signed_log(6, seed=5)


def test_a_clean_signed_log_passes_every_check(clean: bytes) -> None:
    report = audit_bytes(clean, "clean", Options())
    assert report.exit_code == 0 and report.verdict == "valid"
    assert report.counts()["games"] == 6 and report.counts()["signed"] == 6
    for game in report.games:
        assert game.checks == {c: "ok" for c in ("sequence", "chain", "signature", "commitment", "derivation", "rules")}
        assert game.finished and game.winners and game.rounds >= 1


def test_a_slice_of_a_log_reads_with_its_own_line_numbers(clean: bytes) -> None:
    lines = clean.splitlines()
    whole = list(read_games(lines))
    second = next(i for i, line in enumerate(lines) if i and b'"format":"loveletter-log"' in line)
    sliced = list(read_games(lines[second:], second + 1))
    assert sliced == whole[1:] and sliced[0].header_line == second + 1
    assert list(read_games([b""], 7, final=False)) == []


@pytest.mark.parametrize(
    "mutate",
    [
        lambda ls: [*ls[:3], ls[3][:40]],  # a truncated line
        lambda ls: [*ls[:3], b"{not json}"],
        lambda ls: [*ls[:3], ls[3].replace(b'"type":"', b'"type":"x')],  # unknown type
        lambda ls: [*ls[:3], ls[3].replace(b'"v":1', b'"v":7')],  # unknown version
        lambda ls: [*ls[:3], ls[3].replace(b'"seq":3', b'"seq":"3"')],  # missing / wrong seq
        lambda ls: [*ls[:3], ls[3].replace(b'"seq":3,', b"")],
        lambda ls: [*ls[:3], b'{"format":"loveletter-log","version":2}'],
        lambda ls: [*ls[:3], b" " * (1 << 20) + b"{}"],  # a huge line
        lambda ls: [*ls[:3], ls[3].replace(b'"player":', b'"player":"p","was":')],  # a wrong field type
        lambda ls: [*ls[:3], ls[3][:-1] + b',"extra":1}'],  # an unknown field
    ],
)
def test_unreadable_lines_give_a_one_line_error_with_their_line_number(mutate: object) -> None:
    lines = mutate(lines_of(simulated(1)[0]).splitlines())  # type: ignore[operator]
    with pytest.raises(LogFormatError) as err:
        list(read_games(lines))
    assert err.value.line == 4
    report = audit_bytes(b"\n".join(lines), "bad", Options())
    assert report.exit_code == 2 and report.error_line == 4 and "\n" not in (report.error or "\n")


def test_log_chain__a_changed_line_breaks_the_chain_at_the_next_line() -> None:
    lines = lines_of(simulated(1)[0]).splitlines()
    lines[5] = lines[5].replace(b'"seq":5', b'"seq":5 ')  # same JSON, but keep the test honest: change a value
    data = orjson.loads(lines[6])
    data["player"] = (data.get("player", 0) + 1) % 4 if "player" in data else 0
    lines[6] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    game, problems = one(b"\n".join(lines) + b"\n")
    assert problems[0] == ("log.chain", "chain_broken")
    assert game.problems[0].line == 8 and game.problems[0].expected != game.problems[0].found  # type: ignore[attr-defined]


def test_log_chain__missing_prev_is_a_problem() -> None:
    lines = lines_of(simulated(1)[0]).splitlines()
    data = orjson.loads(lines[3])
    del data["prev"]
    lines[3] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    game, problems = one(b"\n".join(lines), lenient=True)
    assert ("log.chain", "chain_broken") in problems
    assert any("missing" in p.en for p in game.problems)  # type: ignore[attr-defined]


def test_log_signature__verified_tampered_pinned_and_required() -> None:
    events = simulated(1)[0]
    good = lines_of(events)
    assert one(good, key=signing_key().public_key)[1] == []
    other = "ab" * 32
    assert one(good, key=other)[1] == [("log.signature", "signature_key")]
    lines = good.splitlines()
    sig = orjson.loads(lines[-1])
    sig["signature"] = ("0" if sig["signature"][0] != "0" else "1") + sig["signature"][1:]
    tampered = b"\n".join([*lines[:-1], orjson.dumps(sig, option=orjson.OPT_SORT_KEYS)])
    assert one(tampered)[1] == [("log.signature", "signature_invalid")]
    cut = b"\n".join([*lines[:-2], lines[-1]])  # the last event removed: chain intact, signature not
    assert ("log.signature", "signature_hash") in one(cut, lenient=True)[1]
    unsigned = lines_of(events, sign=False)
    game, problems = one(unsigned)
    assert problems == [] and [n.code for n in game.notes] == ["unsigned"]  # type: ignore[attr-defined]
    assert one(unsigned, require_signature=True)[1] == [("log.signature", "signature_required")]


def test_shuffle_commitment__a_wrong_reveal_and_a_missing_one() -> None:
    events = simulated(1)[0]
    assert isinstance(events[-1], SeedRevealed)
    wrong = [*events[:-1], SeedRevealed("00" * 32)]
    assert ("shuffle.commitment", "seed_mismatch") in one(lines_of(wrong), lenient=True)[1]
    missing = events[:-1]
    assert isinstance(missing[-1], GameEnded)
    assert one(lines_of(missing))[1] == [("shuffle.commitment", "seed_not_revealed")]


def test_shuffle_derivation__a_deck_that_is_not_the_derived_one() -> None:
    events = list(simulated(1, seed=9)[0])
    i = next(i for i, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 2)
    rs = events[i]
    assert isinstance(rs, RoundStarted)
    deck = list(rs.deck)
    j = next(k for k in range(len(deck) - 1, 0, -1) if deck[k] != deck[k - 1])
    deck[j], deck[j - 1] = deck[j - 1], deck[j]  # the last cards: maybe never drawn, still caught
    events[i] = dataclasses.replace(rs, deck=tuple(deck))
    game, problems = one(lines_of(events), lenient=True)
    assert ("shuffle.derivation", "deal_mismatch") in problems
    first = next(p for p in game.problems if p.rule_id == "shuffle.derivation")  # type: ignore[attr-defined]
    assert first.seq == i + 1 and "deck" in first.en and first.expected != first.found
    strict_game, strict = one(lines_of(events))
    assert len(strict) == 1 and strict_game.checks["rules"] == "skipped"  # type: ignore[attr-defined]


def test_shuffle_derivation__seeds_in_the_clear_and_scenarios() -> None:
    rng = random.Random(3)
    state, log = INITIAL, []
    command: object = StartGame("2019", ("a", "b", "c"))
    while not state.over:
        events = decide(state, command)  # type: ignore[arg-type]
        log.extend(events)
        state = fold(events, state)
        if state.phase == "deal":
            command = deal(state, rng.randbytes(32))
        elif not state.over:
            command = rng.choice(legal_moves(state, state.active))
    game, problems = one(lines_of(log))
    assert problems == [] and game.checks["derivation"] == "ok"  # type: ignore[attr-defined]
    i = next(i for i, e in enumerate(log) if isinstance(e, RoundStarted) and e.round == 2)
    shown = log[i]
    assert isinstance(shown, RoundStarted) and shown.shuffle is not None
    forged = dataclasses.replace(shown, shuffle=dataclasses.replace(shown.shuffle, seed="11" * 32))
    assert ("shuffle.derivation", "deal_mismatch") in one(lines_of([*log[:i], forged, *log[i + 1 :]]))[1]
    # a scenario: the deal is given, no shuffle recorded
    start = decide(INITIAL, StartGame("2019", ("a", "b"), scenario=True))
    s = fold(start)
    given = deal(s, bytes(32))
    dealt = decide(s, DealRound(given.set_aside, given.face_up, given.hands, given.deck, given.first_player))
    game, problems = one(lines_of([*start, *dealt]))
    assert problems == [] and "deals_given" in [n.code for n in game.notes]  # type: ignore[attr-defined]
    assert any("deals given (scenario)" in n.en for n in game.notes)  # type: ignore[attr-defined]


def test_log_sequence__a_repeated_seq_and_strict_against_lenient() -> None:
    events = simulated(1)[0]
    lines = lines_of(events).splitlines()
    data = orjson.loads(lines[10])
    data["seq"] = 9
    lines[10] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    data = orjson.loads(lines[20])
    data["card"] = "princess" if data.get("card") != "princess" else "guard"
    lines[20] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    _, strict = one(b"\n".join(lines))
    assert strict == [("log.sequence", "seq_out_of_order")]
    lenient_game, lenient = one(b"\n".join(lines), lenient=True)
    assert len(lenient) > 1 and ("log.chain", "chain_broken") in lenient
    lines_seen = [p.line for p in lenient_game.problems]  # type: ignore[attr-defined]
    assert lines_seen == sorted(lines_seen)
    fr = lenient_game.as_dict("fr")["problems"][0]  # type: ignore[attr-defined]
    assert "numérotation" in fr["message"] and fr["line"] == 11 and fr["seq"] == 9


def test_chunks_cut_at_headers_and_keep_line_numbers(clean: bytes) -> None:
    parts = chunks(clean, 4)
    assert len(parts) > 1 and b"".join(p + b"\n" for p, _ in parts[:-1]) + parts[-1][0] == clean
    for part, first in parts:
        assert clean.split(b"\n")[first - 1] == part.split(b"\n")[0]
    parallel = audit_bytes(clean, "x", Options(), jobs=2)
    serial = audit_bytes(clean, "x", Options(), jobs=1)
    assert [g.as_dict() for g in parallel.games] == [g.as_dict() for g in serial.games]


def test_cli_audit_exit_codes_json_key_and_jobs(tmp_path: Path, clean: bytes) -> None:
    good = tmp_path / "good.jsonl"
    good.write_bytes(clean)
    result = run_audit(str(good), "--jobs", "2")
    assert result.returncode == 0, result.stderr
    assert "6 games, 6 valid" in result.stdout
    key_file = tmp_path / "key.hex"
    key_file.write_text(signing_key().public_key + "\n")
    assert run_audit(str(good), "--key", str(key_file), "--require-signature").returncode == 0
    wrong = run_audit(str(good), "--key", "cd" * 32, "--json", "--lang", "fr", "--jobs", "1")
    assert wrong.returncode == 1
    body = orjson.loads(wrong.stdout)
    assert body["verdict"] == "invalid" and body["games"][0]["problems"][0]["rule_id"] == "log.signature"
    assert "autre clé" in body["games"][0]["problems"][0]["message"]
    lines = clean.splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\n".join([*lines[:7], lines[7][:50], *lines[8:]]))
    unreadable = run_audit(str(bad), str(good))
    assert unreadable.returncode == 2
    assert "line 8" in unreadable.stdout and "Traceback" not in unreadable.stderr + unreadable.stdout
    assert run_audit(str(good), "--key", "nope").returncode == 2
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(clean.replace(b'"seq":12,', b'"seq":13,', 1))
    lenient = run_audit(str(edited), "--lenient", "--json")
    assert lenient.returncode == 1 and orjson.loads(lenient.stdout)["counts"]["invalid"] == 1


def test_a_header_hash_is_over_canonical_json() -> None:
    events = simulated(1)[0]
    head = Header.of(events[0])  # type: ignore[arg-type]
    data = lines_of(events)
    assert hashlib.sha256(data.split(b"\n")[0]).hexdigest() == orjson.loads(data.split(b"\n")[1])["prev"]
    assert head.ruleset == "2019"


def run_audit(*args: str) -> subprocess.CompletedProcess[str]:
    return loveletter("audit", *args)


def resigned_under_the_old_signature(events: list[Event], changed: list[Event]) -> bytes:
    """`changed` with its chain recomputed and the signature line of `events` kept: a forger's log."""
    old_signature = lines_of(events).splitlines()[-1]
    return lines_of(changed, sign=False) + old_signature + b"\n"


def test_a_forged_log_under_its_old_signature_is_judged_still_and_every_finding_placed(tmp_path: Path) -> None:
    events = list(simulated(1, seed=9)[0])
    i = next(i for i, e in enumerate(events) if isinstance(e, CardPlayed) and e.guess is not None)
    guard = events[i]
    assert isinstance(guard, CardPlayed)
    forged = resigned_under_the_old_signature(events, [*events[:i], dataclasses.replace(guard, card=Card("guard"),
                                                       guess=Card("guard")), *events[i + 1 :]])  # fmt: skip
    game, problems = one(forged)  # strict: the signature does not stop the rules
    assert problems == [("guard.guess", "invalid_guess"), ("log.signature", "signature_hash")]
    found = game.problems  # type: ignore[attr-defined]
    assert found[0].seq == i + 1 and found[0].line == i + 2  # the move, at its own position (the header is line 1)
    assert found[1].line == len(events) + 2 and found[1].seq is None  # the signature: the log's last line
    assert game.checks["rules"] == "problem"  # type: ignore[attr-defined]
    path = tmp_path / "forged.jsonl"
    path.write_bytes(forged)
    told = loveletter("audit", str(path))  # the command says both, the move first
    assert told.returncode == 1 and "2 problems" in told.stdout
    assert told.stdout.index("[guard.guess]") < told.stdout.index("[log.signature]")
    rs_at = next(k for k, e in enumerate(events) if isinstance(e, RoundStarted) and e.round == 2)
    rs = events[rs_at]
    assert isinstance(rs, RoundStarted)
    deck = list(rs.deck)
    j = next(k for k in range(len(deck) - 1, 0, -1) if deck[k] != deck[k - 1])
    deck[j], deck[j - 1] = deck[j - 1], deck[j]
    swapped = [*events[:rs_at], dataclasses.replace(rs, deck=tuple(deck)), *events[rs_at + 1 :]]
    game, problems = one(resigned_under_the_old_signature(events, swapped))
    assert problems == [("shuffle.derivation", "deal_mismatch"), ("log.signature", "signature_hash")]
    assert game.problems[0].seq == rs_at + 1  # type: ignore[attr-defined]
