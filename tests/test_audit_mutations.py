"""Mutation test of the audit: every single random edit of a clean signed log is detected, no clean log is flagged.

Edits: a field of any line changed (header, event or signature line), a line deleted, two lines swapped, a line
inserted (a copy of another line). Logs hold two signed games each; the audit runs with `require_signature` (a
deleted signature line is otherwise only a note). `make test` runs a few hundred mutations; the long run is

    AUDIT_MUTATIONS=2000 AUDIT_CLEAN=1000 .venv/bin/python -m pytest -q -s tests/test_audit_mutations.py
"""

from __future__ import annotations

import collections
import os
import random
from typing import Any

import orjson

from loveletter.replays.audit import Options, audit_bytes
from tests.audit_helpers import signed_log

MUTATIONS = int(os.environ.get("AUDIT_MUTATIONS", "300"))
CLEAN = int(os.environ.get("AUDIT_CLEAN", "30"))
OPTIONS = Options(require_signature=True)
CARDS = ("guard", "priest", "baron", "handmaid", "prince", "chancellor", "king", "countess", "princess", "spy")


def _changed(value: Any, rng: random.Random) -> Any:
    """A different value of a JSON field (same type where it can be)."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + rng.choice((-1, 1, 2))
    if isinstance(value, str):
        if value in CARDS:
            return rng.choice([c for c in CARDS if c != value])
        if value and all(c in "0123456789abcdef" for c in value):
            i = rng.randrange(len(value))
            return value[:i] + ("0" if value[i] != "0" else "1") + value[i + 1 :]
        return value + "x"
    if value is None:
        return rng.choice((0, "x"))
    if isinstance(value, list):
        if not value:
            return ["guard"]
        i = rng.randrange(len(value))
        if rng.random() < 0.2:
            return value[:i] + value[i + 1 :]
        return [*value[:i], _changed(value[i], rng), *value[i + 1 :]]
    if isinstance(value, dict):
        if not value:
            return {"x": "y"}
        k = rng.choice(sorted(value))
        return {**value, k: _changed(value[k], rng)}
    raise AssertionError(value)


def mutate(lines: list[bytes], rng: random.Random) -> tuple[str, list[bytes]]:
    out = list(lines)
    kind = rng.choice(("field", "field", "delete", "swap", "insert"))
    i = rng.randrange(len(out))
    if kind == "field":
        data = orjson.loads(out[i])
        key = rng.choice(sorted(data))
        data[key] = _changed(data[key], rng)
        out[i] = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    elif kind == "delete":
        del out[i]
    elif kind == "swap":
        j = rng.choice([j for j in range(len(out)) if out[j] != out[i]])
        out[i], out[j] = out[j], out[i]
    else:
        out.insert(rng.randrange(len(out) + 1), out[rng.randrange(len(out))])
    assert out != lines
    return kind, out


def test_every_single_edit_is_detected_and_no_clean_log_is_flagged() -> None:
    rng = random.Random(2024)
    pool = [signed_log(2, seed=s).splitlines() for s in range(1, 1 + max(10, CLEAN))]
    flagged = sum(audit_bytes(b"\n".join(lines), "clean", OPTIONS).exit_code != 0 for lines in pool)
    detected: collections.Counter[str] = collections.Counter()
    tried: collections.Counter[str] = collections.Counter()
    missed = []
    for _ in range(MUTATIONS):
        lines = rng.choice(pool)
        kind, edited = mutate(lines, rng)
        report = audit_bytes(b"\n".join(edited), "mutant", OPTIONS)
        tried[kind] += 1
        if report.exit_code != 0:
            detected[kind] += 1
        else:
            missed.append((kind, [e for e in edited if e not in lines][:2]))
    clean_games = 2 * len(pool)
    print(f"\nclean: {len(pool)} logs ({clean_games} games), {flagged} flagged")
    print(f"mutations: {sum(detected.values())}/{sum(tried.values())} detected " + str(dict(sorted(tried.items()))))
    assert flagged == 0
    assert not missed, missed[:3]
    assert sum(tried.values()) == MUTATIONS
