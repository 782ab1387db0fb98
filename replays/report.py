"""`loveletter replay`: read a log or a transcript, replay it, and say verified or where it breaks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from loveletter.core.catalogue import Event
from loveletter.core.lang import BilingualError
from loveletter.events.log import LogFormatError, game_lines, read_games
from loveletter.replays.replay import Problem, check
from loveletter.replays.transcript import TranscriptFormatError, expand, transcript_in

EXIT_VALID, EXIT_VIOLATION, EXIT_UNREADABLE = 0, 1, 2


@dataclass(slots=True)
class GameReport:
    number: int
    ruleset: str
    players: tuple[str, ...]
    events: int
    finished: bool
    winners: tuple[str, ...]
    problems: list[Problem]
    game_id: str | None = None

    @property
    def verified(self) -> bool:
        return not self.problems


@dataclass(slots=True)
class FileReport:
    path: str
    kind: str  # "log", "transcript" or "unreadable"
    games: list[GameReport] = field(default_factory=list)
    unreadable: str | None = None
    expanded: list[Event] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        if self.unreadable is not None:
            return EXIT_UNREADABLE
        return EXIT_VALID if all(g.verified for g in self.games) else EXIT_VIOLATION

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        verdict = {EXIT_VALID: "verified", EXIT_VIOLATION: "violation", EXIT_UNREADABLE: "unreadable"}[self.exit_code]
        return {
            "file": self.path,
            "kind": self.kind,
            "verdict": verdict,
            "error": self.unreadable,
            "games": [
                {
                    "game": g.number,
                    "game_id": g.game_id,
                    "ruleset": g.ruleset,
                    "players": list(g.players),
                    "verdict": "verified" if g.verified else "violation",
                    "events": g.events,
                    "finished": g.finished,
                    "winners": list(g.winners),
                    "problems": [p.as_dict(lang) for p in g.problems],
                }
                for g in self.games
            ],
        }


def _read(path: str) -> bytes:
    with open(path, "rb") as fp:
        return fp.read()


class Unreadable(BilingualError):
    """A file that is neither a readable log nor a transcript (the message is one line)."""


def read_input(path: str) -> tuple[bytes, Any]:
    """A file's bytes, and its transcript document when it is one (None for a log)."""
    try:
        data = _read(path)
    except OSError as exc:
        raise Unreadable(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return data, transcript_in(data)
    except orjson.JSONDecodeError as exc:
        raise Unreadable(f"invalid JSON: {exc}") from None


def replay_file(path: str, *, lenient: bool = False) -> FileReport:
    """Replay every game of a log, or a transcript; never raises for bad input."""
    try:
        data, doc = read_input(path)
    except Unreadable as exc:
        return FileReport(path, "unreadable", unreadable=str(exc))
    if doc is not None:
        return _transcript(path, doc)
    report = FileReport(path, "log")
    try:
        for number, game in enumerate(read_games(data.splitlines()), start=1):
            result = check(game, lenient=lenient)
            state = result.state
            report.games.append(
                GameReport(
                    number=number,
                    ruleset=game.header.ruleset,
                    players=game.header.players,
                    events=len(game.entries),
                    finished=state.over,
                    winners=state.winner_names(),
                    problems=result.problems,
                    game_id=game.header.game_id,
                )
            )
            if result.problems and not lenient:
                break
    except LogFormatError as exc:
        return FileReport(path, "unreadable", games=report.games, unreadable=str(exc))
    return report


def _transcript(path: str, doc: Any) -> FileReport:
    try:
        expansion = expand(doc)
    except TranscriptFormatError as exc:
        return FileReport(path, "unreadable", unreadable=f"transcript {exc}")
    state = expansion.state
    game = GameReport(
        number=1,
        ruleset=state.ruleset.id if state.ruleset else str(doc.get("ruleset")),
        players=tuple(doc.get("players", ())),
        events=len(expansion.events),
        finished=state.over,
        winners=state.winner_names(),
        problems=[expansion.problem] if expansion.problem else [],
    )
    return FileReport(path, "transcript", games=[game], expanded=expansion.events)


def render_text(report: FileReport, lang: str = "en") -> str:
    fr = lang == "fr"
    if report.unreadable is not None:
        return f"{report.path}: {'illisible' if fr else 'unreadable'} — {report.unreadable}"
    lines = []
    for g in report.games:
        kind = f"{report.kind} {'partie' if fr else 'game'} {g.number}"
        head = f"{report.path} [{kind}, {g.ruleset}, {', '.join(g.players)}]"
        if g.verified:
            if g.finished:
                end = (f"gagnant(s) : {', '.join(g.winners)}") if fr else f"winner(s): {', '.join(g.winners)}"
            else:
                end = "partie non terminée" if fr else "game not finished"
            word = "vérifié" if fr else "verified"
            lines.append(f"{head}: {word} — {g.events} {'événements' if fr else 'events'}, {end}")
            continue
        for p in g.problems:
            at = f"line {p.line}, seq {p.seq}" if p.line else (p.where or f"seq {p.seq}")
            if fr:
                at = at.replace("line", "ligne")
            label = "violation" if not fr else "infraction"
            lines.append(f"{head}: {label} at {at}: [{p.rule_id}] {p.message(lang)}")
            if p.expected is not None:
                lines.append(f"    {'attendu' if fr else 'expected'}: {p.expected}")
            if p.found is not None:
                lines.append(f"    {'trouvé' if fr else 'found'}:    {p.found}")
    return "\n".join(lines)


def render_json(report: FileReport, lang: str = "en") -> str:
    return orjson.dumps(report.as_dict(lang), option=orjson.OPT_INDENT_2).decode()


def expanded_log(report: FileReport) -> bytes:
    """The full event log a transcript expanded to (as far as it was legal)."""
    return b"".join(line + b"\n" for line in game_lines(report.expanded)) if report.expanded else b""
