"""What an audit is asked and what it answers: its options, the report of a game and of a file, and those
reports written as text or JSON.

Apart so that the checks (`replays.audit_chain`, `replays.audit_shuffle`), the audit of a game
(`replays.audit_game`) and of files (`replays.audit`) share one vocabulary; `make_problem` is how every check
words a problem at a line.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from loveletter.core.lang import Text, plural, plural_en
from loveletter.events.log import Entry
from loveletter.replays.replay import Problem

EXIT_VALID, EXIT_INVALID, EXIT_UNREADABLE = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Note:
    """Something worth saying that is not a problem (an unsigned game, deals given by a scenario…)."""

    check: str
    code: str
    en: str
    fr: str

    def as_dict(self, lang: str = "en") -> dict[str, str]:
        return {"check": self.check, "code": self.code, "message": self.fr if lang == "fr" else self.en}


@dataclass(frozen=True, slots=True)
class Options:
    lenient: bool = False
    key: str | None = None
    """A pinned public key (64 hex digits): a signed game must be signed by it."""
    require_signature: bool = False
    fast_path: bool = True
    """Offer each game to `replays.regenerate` first; False audits every game in full (the tests compare both)."""


@dataclass(slots=True)
class GameAudit:
    number: int
    header_line: int
    ruleset: str
    players: tuple[str, ...]
    game_id: str | None
    events: int = 0
    rounds: int = 0
    finished: bool = False
    winners: tuple[str, ...] = ()
    signed: bool = False
    key_id: str | None = None
    checks: dict[str, str] = field(default_factory=dict)
    """check name -> "ok", "problem", "note" (ok, with a note) or "skipped"."""
    problems: list[Problem] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.problems

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "game": self.number,
            "game_id": self.game_id,
            "line": self.header_line,
            "ruleset": self.ruleset,
            "players": list(self.players),
            "verdict": "valid" if self.valid else "invalid",
            "events": self.events,
            "rounds": self.rounds,
            "finished": self.finished,
            "winners": list(self.winners),
            "signed": self.signed,
            "key_id": self.key_id,
            "checks": dict(self.checks),
            "problems": [p.as_dict(lang) for p in self.problems],
            "notes": [n.as_dict(lang) for n in self.notes],
        }


@dataclass(slots=True)
class FileAudit:
    path: str
    games: list[GameAudit] = field(default_factory=list)
    failure: Text | None = None
    """Why the file is unreadable (one line, in both languages), or None."""
    error_line: int | None = None
    lines: int = 0

    @property
    def error(self) -> str | None:
        """Why the file is unreadable, in English (None when it was read)."""
        return None if self.failure is None else self.failure.en

    def error_message(self, lang: str = "en") -> str | None:
        """Why the file is unreadable, in `lang` (None when it was read)."""
        return None if self.failure is None else self.failure(lang)

    @property
    def exit_code(self) -> int:
        if self.error is not None:
            return EXIT_UNREADABLE
        return EXIT_VALID if all(g.valid for g in self.games) else EXIT_INVALID

    @property
    def verdict(self) -> str:
        return {EXIT_VALID: "valid", EXIT_INVALID: "invalid", EXIT_UNREADABLE: "unreadable"}[self.exit_code]

    def counts(self) -> dict[str, int]:
        counts = new_counts()
        for g in self.games:
            tally(counts, g)
        return counts

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "file": self.path,
            "verdict": self.verdict,
            "error": self.error_message(lang),
            "error_line": self.error_line,
            "counts": self.counts(),
            "games": [g.as_dict(lang) for g in self.games],
        }


def new_counts() -> dict[str, int]:
    """A file's totals before any game: what `tally` adds to, one game at a time."""
    return dict.fromkeys(("games", "valid", "invalid", "events", "problems", "signed"), 0)


def tally(counts: dict[str, int], g: GameAudit) -> None:
    """Add one game to a file's totals (so a file's summary needs no list of its games)."""
    counts["games"] += 1
    counts["valid" if g.valid else "invalid"] += 1
    counts["events"] += g.events
    counts["problems"] += len(g.problems)
    counts["signed"] += g.signed


def make_problem(
    rule_id: str,
    code: str,
    en: str,
    fr: str,
    entry: Entry | None = None,
    *,
    line: int | None = None,
    event: str | None = None,
    expected: str | None = None,
    found: str | None = None,
) -> Problem:
    """A check's problem at `entry` (its line, seq and event type), or at `line` and `event` when there is none."""
    if entry is not None:
        return Problem(
            rule_id,
            code,
            en,
            fr,
            line=entry.line,
            seq=entry.seq,
            event=type(entry.event).TYPE,
            expected=expected,
            found=found,
        )
    return Problem(rule_id, code, en, fr, line=line, event=event, expected=expected, found=found)


# -- rendering -----------------------------------------------------------------------------------------------


def _count(n: int, one: str, many: str, lang: str) -> str:
    """« 1 partie », « 12 345 événements » / "1 game", "12,345 events"."""
    return plural(n, one, many, lang)


def _where(p: Problem, lang: str) -> str:
    """Where a problem stands: "at line 8, seq 7 (turn_started)" / « à la ligne 8 (événement 7, turn_started) »."""
    if lang == "fr":
        said = [f"événement {p.seq}"] if p.seq is not None else []
        if p.event is not None:
            said.append({"header": "en-tête"}.get(p.event, p.event))
        detail = f" ({', '.join(said)})" if said else ""
        return f"à la ligne {p.line}{detail}" if p.line else detail.strip()
    at = f"line {p.line}" if p.line else "-"
    if p.seq is not None:
        at += f", seq {p.seq}"
    return f"at {at} ({p.event})"


def unreadable_line(path: str, failure: Text, lang: str = "en") -> str:
    """The whole report of a file that cannot be read."""
    fr = lang == "fr"
    return f"{path}{' :' if fr else ':'} {'illisible' if fr else 'unreadable'} — {failure(lang)}"


def game_lines(path: str, g: GameAudit, lang: str = "en") -> list[str]:
    """A game's verdict: one line when it is valid, its problems (with what was expected and found) otherwise."""
    fr = lang == "fr"
    colon = " :" if fr else ":"
    head = f"{path} [{'partie' if fr else 'game'} {g.number}{', ' + g.game_id if g.game_id else ''}]"
    if g.valid:
        word = "valide" if fr else "valid"
        notes = (" ; " if fr else "; ").join(n.fr if fr else n.en for n in g.notes)
        events = _count(g.events, "événement", "événements", lang) if fr else f"{g.events} events"
        return [f"{head}{colon} {word} — {events}" + (f" ({notes})" if notes else "")]
    lines = []
    for p in g.problems:
        verdict = " ".join(filter(None, ["invalide" if fr else "invalid", _where(p, lang)]))
        lines.append(f"{head}{colon} {verdict}{colon} [{p.rule_id}] {p.message(lang)}")
        if p.expected is not None:
            lines.append(f"    {'attendu :' if fr else 'expected:'} {p.expected}")
        if p.found is not None:
            lines.append(f"    {'trouvé : ' if fr else 'found:   '} {p.found}")
    return lines


def summary_line(path: str, c: dict[str, int], lang: str = "en") -> str:
    """A file's totals: "x.jsonl: 6 games, 6 valid, 0 invalid, 1,402 events, 0 problems"."""
    if lang == "fr":
        counted = [
            _count(c["games"], "partie", "parties", lang),
            _count(c["valid"], "valide", "valides", lang),
            _count(c["invalid"], "invalide", "invalides", lang),
            _count(c["events"], "événement", "événements", lang),
            _count(c["problems"], "problème", "problèmes", lang),
        ]
        return f"{path} : {', '.join(counted)}"
    return (
        f"{path}: {plural_en(c['games'], 'game', 'games')}, {c['valid']} valid, {c['invalid']} invalid, "
        f"{plural_en(c['events'], 'event', 'events')}, {plural_en(c['problems'], 'problem', 'problems')}"
    )


def render_text(report: FileAudit, lang: str = "en") -> str:
    """Every game's verdict, then the file's totals (the whole report, for a file held in memory)."""
    if report.failure is not None:
        return unreadable_line(report.path, report.failure, lang)
    lines = [line for g in report.games for line in game_lines(report.path, g, lang)]
    lines.append(summary_line(report.path, report.counts(), lang))
    return "\n".join(lines)


class Listing:
    """A file's audit as `loveletter audit` prints it, built while the games come: the totals first, then the
    games asked for (the invalid ones, or every one). Those wait in a temporary file rather than in memory, so a
    log of any size is summarised in bounded memory."""

    def __init__(self, path: str, lang: str = "en", *, as_json: bool = False, every: bool = False) -> None:
        self.path, self.lang, self.as_json, self.every = path, lang, as_json, every
        self.counts = new_counts()
        self.failure: Text | None = None
        self.error_line: int | None = None
        self._spool: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by `write`, or with the object

    def add(self, games: Iterable[GameAudit]) -> None:
        for g in games:
            tally(self.counts, g)
            if self.every or not g.valid:
                if self.as_json:
                    self._spool.write(orjson.dumps(g.as_dict(self.lang)) + b"\n")
                else:
                    self._spool.write("\n".join(game_lines(self.path, g, self.lang)).encode() + b"\n")

    @property
    def exit_code(self) -> int:
        if self.failure is not None:
            return EXIT_UNREADABLE
        return EXIT_INVALID if self.counts["invalid"] else EXIT_VALID

    def head(self) -> dict[str, Any]:
        """The JSON summary without its games: the keys of `FileAudit.as_dict`, and which games are listed."""
        verdict = {EXIT_VALID: "valid", EXIT_INVALID: "invalid", EXIT_UNREADABLE: "unreadable"}[self.exit_code]
        return {
            "file": self.path,
            "verdict": verdict,
            "error": None if self.failure is None else self.failure(self.lang),
            "error_line": self.error_line,
            "counts": dict(self.counts),
            "listed": "all" if self.every else "invalid",
        }

    def write(self, out: IO[str]) -> None:
        """The summary, then the games asked for; an unreadable file is one line (text) or lists no game."""
        spool = self._spool
        spool.seek(0)
        if self.as_json:
            head = orjson.dumps(self.head()).decode()
            out.write(head[:-1] + ', "games": [')
            if self.failure is None:
                for i, line in enumerate(spool):
                    out.write(("\n" if i == 0 else ",\n") + line.decode().rstrip("\n"))
            out.write("]}")
        elif self.failure is not None:
            out.write(unreadable_line(self.path, self.failure, self.lang) + "\n")
        else:
            out.write(summary_line(self.path, self.counts, self.lang) + "\n")
            for line in spool:
                out.write(line.decode())
        spool.close()


def render_json(reports: Sequence[FileAudit], lang: str = "en") -> str:
    body: Any = reports[0].as_dict(lang) if len(reports) == 1 else {"files": [r.as_dict(lang) for r in reports]}
    return orjson.dumps(body, option=orjson.OPT_INDENT_2).decode()
