"""The audit's fast path (`replays.regenerate`) proves clean games, and only clean games: on clean logs of every
ruleset, on unsigned ones and on every kind of single edit, the report with the fast path is the report of the
full audit, word for word."""

from __future__ import annotations

import random

import orjson
import pytest

from loveletter.replays.audit import Options, audit_bytes
from loveletter.replays.regenerate import regenerate
from tests.audit_helpers import signed_log, signing_key
from tests.test_audit_mutations import mutate

FULL = Options(fast_path=False)


def _games(log: bytes) -> list[list[bytes]]:
    games: list[list[bytes]] = []
    for line in log.splitlines():
        if line.startswith(b'{"format":"loveletter-log"'):
            games.append([])
        games[-1].append(line)
    return games


def _same_report(log: bytes, options: Options) -> dict[str, object]:
    fast = audit_bytes(log, "log", options).as_dict("fr")
    full = audit_bytes(log, "log", Options(options.lenient, options.key, options.require_signature, False))
    assert fast == full.as_dict("fr")
    return fast


@pytest.mark.parametrize(
    ("ruleset", "players"),
    [("2019", 2), ("2019", 4), ("2019", 6), ("2019-classic", 3), ("2012", 4), ("princess-princess", 5)],
)
def test_clean_games_of_every_ruleset_are_proved_and_reported_as_the_full_audit_does(
    ruleset: str, players: int
) -> None:
    log = signed_log(4, seed=7, players=players, ruleset=ruleset)
    line = 1
    for game in _games(log):
        proof = regenerate(game, line)
        assert proof is not None
        assert proof.events == len(game) - 2 and proof.state.over and proof.signature_line == line + len(game) - 1
        line += len(game)
    report = _same_report(log, Options(key=signing_key().public_key))
    assert report["verdict"] == "valid" and report["counts"]["signed"] == 4  # type: ignore[index]


def test_unsigned_games_are_proved_with_their_note_and_refused_when_a_signature_is_required() -> None:
    log = signed_log(2, seed=3, sign=False)
    assert all(regenerate(game, 1) is not None for game in _games(log))
    report = _same_report(log, Options())
    assert report["verdict"] == "valid"
    assert [n["code"] for g in report["games"] for n in g["notes"]] == ["unsigned", "unsigned"]  # type: ignore[index,union-attr]
    assert _same_report(log, Options(require_signature=True))["verdict"] == "invalid"


@pytest.mark.parametrize("lenient", [False, True])
def test_every_single_edit_gets_the_full_audits_report(lenient: bool) -> None:
    rng = random.Random(99 + lenient)
    pool = [signed_log(2, seed=s).splitlines() for s in range(1, 6)]
    for _ in range(60):
        kind, edited = mutate(rng.choice(pool), rng)
        report = _same_report(b"\n".join(edited), Options(lenient=lenient))
        assert report["verdict"] != "valid", kind


def test_a_log_written_in_another_key_order_is_audited_in_full_and_still_valid() -> None:
    lines = signed_log(1, seed=5).splitlines()
    reordered = [lines[0]] + [orjson.dumps(dict(reversed(orjson.loads(x).items()))) for x in lines[1:]]
    assert regenerate(reordered, 1) is None
    assert _same_report(b"\n".join(reordered), Options())["verdict"] == "valid"


def test_a_wrongly_typed_seat_is_not_proved() -> None:
    lines = signed_log(1, seed=5).splitlines()
    at = next(i for i, x in enumerate(lines) if b'"card_played"' in x and b'"player":1' in x)
    lines[at] = lines[at].replace(b'"player":1', b'"player":true')
    assert regenerate(lines, 1) is None
    assert _same_report(b"\n".join(lines), Options())["verdict"] == "invalid"
