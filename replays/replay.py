"""Replay a recorded game through the same `decide`, checking every entry.

Each decision in the log (the game's creation, a deal, a card played, a Chancellor's return) is
turned back into the command it records and judged by `decide`; the consequences the log writes
after it must be exactly the events `decide` derives. Strict replay stops at the first problem;
lenient replay records it, folds the log's own version of events, and goes on as far as it can.
Which events are decisions, and what each records, is `replays.decisions`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.catalogue import (
    Event,
    GameStarted,
)
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all, fold
from loveletter.core.lang import Text
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, GameState, Transient
from loveletter.events.codec import dumps, encode
from loveletter.events.log import Entry, GameLog, Header
from loveletter.replays.decisions import DECISIONS, command_of, rule_of, starts_decision


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a log: where, which rule, why (en, fr), and expected vs found."""

    rule_id: str
    code: str
    en: str
    fr: str
    line: int | None = None
    seq: int | None = None
    where: str | None = None
    event: str | None = None
    expected: str | None = None
    found: str | None = None

    def message(self, lang: str = "en") -> str:
        return self.fr if lang == "fr" else self.en

    @property
    def text(self) -> Text:
        return Text(self.en, self.fr)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "line": self.line,
            "seq": self.seq,
            "where": self.where,
            "event": self.event,
            "rule_id": self.rule_id,
            "code": self.code,
            "message": self.message(lang),
            "expected": self.expected,
            "found": self.found,
        }


class ReplayError(ValueError):
    """Strict replay met a problem; `problem` says where and which rule."""

    def __init__(self, problem: Problem) -> None:
        where = f"line {problem.line}, seq {problem.seq}" if problem.line else (problem.where or f"seq {problem.seq}")
        super().__init__(f"{where}: {problem.rule_id}: {problem.en}")
        self.problem = problem


@dataclass(slots=True)
class ReplayResult:
    """What replay found: the state it reached, every problem (lenient) or the first (strict)."""

    state: GameState
    problems: list[Problem] = field(default_factory=list)
    events: int = 0
    complete: bool = True

    @property
    def ok(self) -> bool:
        return not self.problems


def describe(event: Event | None) -> str | None:
    return None if event is None else dumps(encode(event)).decode()


def _difference(want: Event, got: Event) -> tuple[str, str]:
    """Say in words how a logged event differs from the one the rules derive."""
    w_type, g_type = type(want).TYPE, type(got).TYPE
    if w_type != g_type:
        return (
            f"the log has {g_type} where the rules derive {w_type}",
            f"le journal contient {g_type} là où les règles donnent {w_type}",
        )
    w, g = encode(want), encode(got)
    diffs = [k for k in w if w[k] != g.get(k)]
    en = "; ".join(
        f"{k}: the log has {dumps(g.get(k)).decode()}, the rules derive {dumps(w[k]).decode()}" for k in diffs
    )
    fr = " ; ".join(
        f"« {k} » : le journal indique {dumps(g.get(k)).decode()}, les règles donnent {dumps(w[k]).decode()}"
        for k in diffs
    )
    return f"{w_type} differs from the rules — {en}", f"{w_type} ne suit pas les règles — {fr}"


def _entries(events: Sequence[Event] | Sequence[Entry]) -> list[Entry]:
    return [e if isinstance(e, Entry) else Entry(0, i, e) for i, e in enumerate(events, start=1)]


def _line(entry: Entry) -> int | None:
    return entry.line or None


def header_problems(header: Header, first: Event | None, line: int) -> list[Problem]:
    """Where the header line disagrees with `game_started` (ruleset, players, options)."""
    if not isinstance(first, GameStarted):
        return []
    found = {"ruleset": first.ruleset, "players": list(first.players), "options": dict(first.options)}
    wanted = {"ruleset": header.ruleset, "players": list(header.players), "options": dict(header.options)}
    if found == wanted:
        return []
    differ = [k for k in wanted if wanted[k] != found[k]]
    diff = ", ".join(differ)
    return [
        Problem(
            "log.consistent",
            "header_mismatch",
            f"the header's {diff} differ from game_started",
            f"l'en-tête ne correspond pas à game_started ({', '.join(f'« {k} »' for k in differ)})",
            line=line,
            event="header",
            expected=dumps(found).decode(),
            found=dumps(wanted).decode(),
        )
    ]


def check(
    events: Sequence[Event] | Sequence[Entry] | GameLog, *, lenient: bool = False, state: GameState = INITIAL
) -> ReplayResult:
    """Replay `events` (or a `GameLog`) and report. Strict (the default) stops at the first problem."""
    problems: list[Problem] = []
    if isinstance(events, GameLog):
        entries = events.entries
        problems.extend(header_problems(events.header, entries[0].event if entries else None, events.header_line))
    else:
        entries = _entries(events)
    result = ReplayResult(state, problems)
    if problems and not lenient:
        return result
    work = state.thaw()  # one private working copy for the whole replay, frozen into result.state at the end
    i = 0
    while i < len(entries):
        entry = entries[i]
        group_end = i + 1
        while group_end < len(entries) and not starts_decision(entries, group_end):
            group_end += 1
        group = entries[i:group_end]
        try:
            found_problem = _seq_problem(group, work.seq) or _judge(result, work, group)
        except Exception:
            if not problems:
                raise  # the rules' own state: a crash here is a bug, not the log's fault
            # lenient, after taking the log's word: its state may be one no game reaches
            problems.append(_cannot_continue(entry))
            result.complete = False
            break
        if found_problem is not None:
            problems.append(found_problem)
            if not lenient:
                break
            try:  # lenient: take the log's word for what happened and go on
                work = fold([e.event for e in group], work).thaw()
            except Exception:
                problems.append(_cannot_continue(entry))
                result.complete = False
                break
        result.events += len(group)
        i = group_end
    result.state = work.freeze()
    return result


def _cannot_continue(entry: Entry) -> Problem:
    return Problem(
        "log.consistent",
        "cannot_continue",
        "the log's events cannot be applied here; replay stops",
        "les événements du journal ne peuvent pas s'appliquer ici ; la vérification s'arrête",
        line=_line(entry),
        seq=entry.seq,
        event=type(entry.event).TYPE,
    )


def seq_out_of_order(seq: int, want: int) -> Text:
    """Why a seq breaks the count (seq `want` was due), in English and French."""
    kind = "repeats" if seq < want else "skips"
    how = "revient en arrière" if seq < want else "saute des numéros"
    return Text(
        f"seq {seq} {kind} the count: seq {want} was expected here",
        f"numérotation rompue : le numéro d'ordre {seq} {how}, le {want} était attendu ici",
    )


def _seq_problem(group: list[Entry], seq_before: int) -> Problem | None:
    for k, entry in enumerate(group):
        want = seq_before + k + 1
        if entry.seq != want:
            en, fr = seq_out_of_order(entry.seq, want)
            return Problem(
                "log.sequence",
                "seq_out_of_order",
                en,
                fr,
                line=_line(entry),
                seq=entry.seq,
                event=type(entry.event).TYPE,
                expected=str(want),
                found=str(entry.seq),
            )
    return None


def _judge(result: ReplayResult, state: Transient, group: list[Entry]) -> Problem | None:
    """Check one decision and its consequences; on success apply them to the working `state`."""
    first = group[0]
    command = command_of(first.event)
    kind = type(first.event).TYPE
    if command is None:
        return Problem(
            "log.consistent" if state.started else "log.sequence",
            "decision_expected",
            f"a {kind} event stands where a decision (a card played, a Chancellor's return or a deal) was due",
            f"un événement {kind} se trouve là où une décision (carte jouée, retour du Chancelier, distribution) "
            "était attendue",
            line=_line(first),
            seq=first.seq,
            event=kind,
            found=describe(first.event),
        )
    try:
        expected = decide(state, command)
    except RuleViolation as v:
        return Problem(v.rule_id, v.code, v.en, v.fr, line=_line(first), seq=first.seq, event=kind)
    for k, want in enumerate(expected):
        if k >= len(group):  # the log stops inside this move: a prefix, not an error
            result.complete = False
            apply_all(state, [e.event for e in group])
            return None
        got = group[k].event
        if got != want:
            rule_id = rule_of(got) if type(got) is not type(want) and not isinstance(got, DECISIONS) else rule_of(want)
            en, fr = _difference(want, got)
            return Problem(
                rule_id,
                "inconsistent_event",
                en,
                fr,
                line=_line(group[k]),
                seq=group[k].seq,
                event=type(got).TYPE,
                expected=describe(want),
                found=describe(got),
            )
    if len(group) > len(expected):
        extra = group[len(expected)]
        return Problem(
            rule_of(extra.event),
            "unexpected_event",
            f"{type(extra.event).TYPE} does not follow from the rules here",
            f"{type(extra.event).TYPE} ne découle pas des règles ici",
            line=_line(extra),
            seq=extra.seq,
            event=type(extra.event).TYPE,
            found=describe(extra.event),
        )
    apply_all(state, expected)
    return None


def replay(events: Sequence[Event] | Sequence[Entry] | GameLog) -> GameState:
    """The state a log reaches, verified entry by entry; `ReplayError` at the first problem."""
    result = check(events)
    if result.problems:
        raise ReplayError(result.problems[0])
    return result.state
