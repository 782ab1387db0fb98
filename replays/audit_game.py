"""The audit of one game, and of the games of a run of log lines: the six checks of `replays.audit` run in order
(strict: up to the first that finds a problem, a signature's excepted), each game first offered to the fast path
(`replays.regenerate`). `replays.audit` cuts whole files into such runs of lines and hands them to worker processes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loveletter.core.catalogue import RoundStarted
from loveletter.core.lang import BilingualError, Text
from loveletter.events.log import FORMAT, GameLog, read_games
from loveletter.replays.audit_chain import check_chain, check_sequence, check_signature, signature_problems
from loveletter.replays.audit_report import GameAudit, Options
from loveletter.replays.audit_shuffle import check_commitment, check_derivation
from loveletter.replays.players import seat_names
from loveletter.replays.regenerate import regenerate
from loveletter.replays.replay import Problem, check

CHECKS = ("sequence", "chain", "signature", "commitment", "derivation", "rules")
"""The checks of a game, in the order they run (their problems are listed in the log's order)."""
GOES_ON = frozenset({"signature"})
"""Checks whose problem does not stop a strict audit: a signature that does not verify says nothing of the events
themselves, which stay readable in their chain, so the shuffle and the rules are still judged (a log whose chain
was recomputed after a change keeps the old signature: its changed move must be found too)."""
HEADER_PREFIX = b'{"format":"' + FORMAT.encode() + b'"'
"""How a canonical header line begins: where a game starts, and where a log may be cut."""


class KeyFormatError(BilingualError):
    """A pinned public key that is not 64 hex digits (a `ValueError`)."""


def normalise_key(key: str) -> str:
    """A pinned key as 64 lowercase hex digits; `KeyFormatError` (a `ValueError`) if it is not one."""
    text = key.strip().lower()
    if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
        raise KeyFormatError(
            Text(
                "a public key is 32 bytes written as 64 hex digits",
                "une clé publique fait 32 octets, écrits en 64 chiffres hexadécimaux",
            )
        )
    return text


def audit_game(game: GameLog, number: int, options: Options) -> GameAudit:
    """Every check of one game, in the order of `replays.audit`'s docstring."""
    header = game.header
    players = seat_names(game.entries, header.players)
    audit = GameAudit(number, game.header_line, header.ruleset, players, header.game_id)
    audit.events = len(game.entries)
    audit.rounds = sum(1 for e in game.entries if type(e.event) is RoundStarted)
    lenient = options.lenient
    problems = audit.problems
    steps: list[tuple[str, Callable[[], list[Problem]]]] = [
        ("sequence", lambda: check_sequence(game, lenient)),
        ("chain", lambda: check_chain(game, lenient)),
        ("signature", lambda: check_signature(game, options, audit)),
        ("commitment", lambda: check_commitment(game, audit)),
        ("derivation", lambda: check_derivation(game, lenient, audit)),
        ("rules", lambda: _rules(game, audit, lenient, problems)),
    ]
    for name, run in steps:
        if not lenient and any(_check_of(p) not in GOES_ON for p in problems):
            audit.checks[name] = "skipped"
            continue
        notes_before = len(audit.notes)
        found = run()
        problems.extend(found)
        audit.checks[name] = "problem" if found else ("note" if len(audit.notes) > notes_before else "ok")
    problems.sort(key=lambda p: (p.line or 0, CHECKS.index(_check_of(p))))  # each finding at its place in the log
    return audit


def _check_of(problem: Problem) -> str:
    rule = problem.rule_id
    if rule == "log.chain":
        return "chain"
    if rule == "log.signature":
        return "signature"
    if rule == "shuffle.commitment":
        return "commitment"
    if rule == "shuffle.derivation":
        return "derivation"
    if rule == "log.sequence" and problem.code == "seq_out_of_order":
        return "sequence"
    return "rules"


def _rules(game: GameLog, audit: GameAudit, lenient: bool, earlier: Sequence[Problem]) -> list[Problem]:
    result = check(game, lenient=lenient)
    state = result.state
    audit.finished = state.over
    audit.winners = state.winner_names()
    seen = {(p.line, p.rule_id) for p in earlier}
    return [p for p in result.problems if not (p.code == "seq_out_of_order" and (p.line, p.rule_id) in seen)]


def audit_lines(lines: Sequence[bytes], options: Options, first_line: int = 1, first_game: int = 1) -> list[GameAudit]:
    """Audit every game of `lines` (numbered from `first_line`); `LogFormatError` if one is unreadable.

    Each stretch from one canonical header line to the next is first offered to the fast path
    (`replays.regenerate`); what it cannot prove clean is read and audited in full."""
    out: list[GameAudit] = []
    number = first_game
    for start, stop in _spans(lines):
        proved = _proved(lines[start:stop], first_line + start, number, options) if options.fast_path else None
        if proved is not None:
            out.append(proved)
            number += 1
            continue
        for game in read_games(lines[start:stop], first_line + start, final=False):
            out.append(audit_game(game, number, options))
            number += 1
    return out


def _spans(lines: Sequence[bytes]) -> list[tuple[int, int]]:
    """[start, stop) of each stretch of `lines` that begins at a canonical header line (the first stretch may
    begin with anything: the full reader then says what is wrong with it)."""
    starts = [i for i, line in enumerate(lines) if line.startswith(HEADER_PREFIX)]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return list(zip(starts, [*starts[1:], len(lines)], strict=True))


def _proved(lines: Sequence[bytes], first_line: int, number: int, options: Options) -> GameAudit | None:
    """The report of a game the fast path proves clean, exactly as the full audit would write it; None when the
    fast path cannot prove it, or when its signature has a problem (the full audit then reports it in order)."""
    proof = regenerate(lines, first_line)
    if proof is None:
        return None
    header = proof.header
    players = proof.state.players or header.players  # every join included: the fast path replayed the whole game
    audit = GameAudit(number, first_line, header.ruleset, players, header.game_id, proof.events, proof.rounds)
    if signature_problems(proof.signature, proof.signature_line, proof.last_hash, proof.last_line, options, audit):
        return None
    audit.checks = dict.fromkeys(CHECKS, "ok")
    if audit.notes:
        audit.checks["signature"] = "note"
    state = proof.state
    audit.finished = state.over
    audit.winners = state.winner_names()
    return audit
