"""`loveletter replay`: read a log or a transcript, replay it, and say verified or where it breaks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from loveletter.core.catalogue import Event
from loveletter.core.lang import BilingualError, Text, os_error, plural_fr
from loveletter.events.codec import json_reason, quoted_fr
from loveletter.events.log import LogFormatError, game_lines, read_games
from loveletter.replays.outcomes import round_outcomes
from loveletter.replays.players import seat_names
from loveletter.replays.position import Position, position, position_at
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
    position: Position | None = None
    """Where an unfinished game stands, and whose decision is pending there."""
    rounds: list[dict[str, Any]] = field(default_factory=list)
    positions: list[Text | None] = field(default_factory=list)
    """Parallel to `problems`: the moment of each, as people count it ("round 2, Bob's third turn")."""
    """Each round's outcome (`replays.outcomes`): eliminations and how, winners and why, favors and why."""
    skipped: list[Text] = field(default_factory=list)
    """A lenient transcript's notes, parallel to `problems`: what judging skipped because of each one."""

    def problem_dicts(self, lang: str) -> list[dict[str, Any]]:
        out = []
        for i, p in enumerate(self.problems):
            found = p.as_dict(lang)
            when = self.positions[i] if i < len(self.positions) else None
            found["position"] = None if when is None else when(lang)
            if self.skipped:
                note = self.skipped[i](lang) if i < len(self.skipped) else ""
                found["skipped"] = note or None
            out.append(found)
        return out

    @property
    def verified(self) -> bool:
        return not self.problems


@dataclass(slots=True)
class FileReport:
    path: str
    kind: str  # "log", "transcript" or "unreadable"
    games: list[GameReport] = field(default_factory=list)
    failure: Text | None = None
    """Why the file is unreadable (one line, in both languages), or None."""
    expanded: list[Event] = field(default_factory=list)

    @property
    def unreadable(self) -> str | None:
        """Why the file is unreadable, in English (None when it was read)."""
        return None if self.failure is None else self.failure.en

    @property
    def exit_code(self) -> int:
        if self.failure is not None:
            return EXIT_UNREADABLE
        return EXIT_VALID if all(g.verified for g in self.games) else EXIT_VIOLATION

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        verdict = {EXIT_VALID: "verified", EXIT_VIOLATION: "violation", EXIT_UNREADABLE: "unreadable"}[self.exit_code]
        return {
            "file": self.path,
            "kind": self.kind,
            "verdict": verdict,
            "error": None if self.failure is None else self.failure(lang),
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
                    "position": None if g.position is None else g.position.as_dict(lang),
                    "rounds": g.rounds,
                    "problems": g.problem_dicts(lang),
                }
                for g in self.games
            ],
        }


def _read(path: str) -> bytes:
    with open(path, "rb") as fp:
        return fp.read()


class Unreadable(BilingualError):
    """A file that is neither a readable log nor a transcript (the message is one line)."""


def cannot_read(path: str, exc: OSError) -> Text:
    """Why a file cannot be read: "cannot read x.jsonl: No such file or directory", « impossible de lire x.jsonl :
    fichier ou dossier introuvable »."""
    reason = os_error(exc)
    return Text(f"cannot read {path}: {reason.en}", f"impossible de lire {path} : {reason.fr}")


def read_input(path: str) -> tuple[bytes, Any]:
    """A file's bytes, and its transcript document when it is one (None for a log)."""
    try:
        data = _read(path)
    except OSError as exc:
        raise Unreadable(cannot_read(path, exc)) from None
    try:
        return data, transcript_in(data)
    except orjson.JSONDecodeError as exc:
        raise Unreadable(
            Text(
                f"invalid JSON: {exc}",
                f"JSON invalide : {json_reason(exc).fr} (ligne {exc.lineno}, colonne {exc.colno})",
            )
        ) from None


def replay_file(path: str, *, lenient: bool = False) -> FileReport:
    """Replay every game of a log, or a transcript; never raises for bad input."""
    try:
        data, doc = read_input(path)
    except Unreadable as exc:
        return FileReport(path, "unreadable", failure=exc.text)
    if doc is not None:
        return _transcript(path, doc, lenient)
    report = FileReport(path, "log")
    try:
        for number, game in enumerate(read_games(data.splitlines()), start=1):
            result = check(game, lenient=lenient)
            state = result.state
            report.games.append(
                GameReport(
                    number=number,
                    ruleset=game.header.ruleset,
                    players=seat_names(game.entries, game.header.players),
                    events=len(game.entries),
                    finished=state.over,
                    winners=state.winner_names(),
                    problems=result.problems,
                    game_id=game.header.game_id,
                    position=None if state.over else position(state, game.entries),
                    rounds=round_outcomes(game.entries),
                    positions=_positions(result.problems, game.entries),
                )
            )
            if result.problems and not lenient:
                break
    except LogFormatError as exc:
        return FileReport(path, "unreadable", games=report.games, failure=exc.text)
    return report


def _transcript(path: str, doc: Any, lenient: bool = False) -> FileReport:
    try:
        expansion = expand(doc, lenient=lenient)
    except TranscriptFormatError as exc:
        reason = exc.text
        return FileReport(
            path, "unreadable", failure=Text(f"transcript {reason.en}", f"dans la transcription, {reason.fr}")
        )
    state = expansion.state
    game = GameReport(
        number=1,
        ruleset=state.ruleset.id if state.ruleset else str(doc.get("ruleset")),
        players=tuple(doc.get("players", ())),
        events=len(expansion.events),
        finished=state.over,
        winners=state.winner_names(),
        problems=expansion.problems,
        position=None if state.over else position(state, expansion.events),
        skipped=expansion.skipped if lenient else [],
        rounds=round_outcomes(expansion.events),
        positions=_positions(expansion.problems, expansion.events),
    )
    return FileReport(path, "transcript", games=[game], expanded=expansion.events)


def _positions(problems: list[Problem], events: Any) -> list[Text | None]:
    """Where each problem stands as people count it: the position just before its event (None past the events)."""
    out: list[Text | None] = []
    for p in problems:
        seq = p.seq
        if seq is None or not 0 < seq <= len(events) + 1:
            out.append(None)
            continue
        try:
            out.append(position_at(events, seq - 1).when)
        except Exception:  # a forged log may reach a state no game has: the position is only a courtesy
            out.append(None)
    return out


def _where(p: Problem, lang: str) -> str:
    """Where a problem stands: "at line 3, seq 2" / « à la ligne 3 (événement 2) », or at its JSON path."""
    if lang == "fr":
        if p.line:
            return f"à la ligne {p.line}" + (f" (événement {p.seq})" if p.seq is not None else "")
        if p.where:
            return f"dans {p.where}"
        return f"à l'événement {p.seq}"
    if p.line:
        return f"at line {p.line}" + (f", seq {p.seq}" if p.seq is not None else "")
    return f"at {p.where or f'seq {p.seq}'}"


def _render_fr(report: FileReport) -> list[str]:
    lines = []
    kind = {"log": "journal", "transcript": "transcription"}.get(report.kind, report.kind)
    for g in report.games:
        ruleset = g.ruleset if g.ruleset.isdigit() else quoted_fr(g.ruleset)
        head = f"{report.path} [{kind}, partie {g.number}, {ruleset}, {', '.join(g.players)}]"
        if g.verified:
            if g.finished:
                winners = "gagnant" if len(g.winners) < 2 else "gagnants"
                end = f"{winners} : {', '.join(g.winners)}"
            else:
                end = "partie non terminée" + (f" : {g.position.text.fr}" if g.position else "")
            events = plural_fr(g.events, "événement", "événements")
            lines.append(f"{head} : vérifiée — {events}, {end}")
            continue
        for i, p in enumerate(g.problems):
            when = g.positions[i] if i < len(g.positions) else None
            at = f" ({when.fr})" if when is not None else ""
            lines.append(f"{head} : infraction {_where(p, 'fr')}{at} : [{p.rule_id}] {p.fr}")
            if i < len(g.skipped) and g.skipped[i].fr:
                lines.append(f"    → {g.skipped[i].fr}")
            if p.expected is not None:
                lines.append(f"    attendu : {p.expected}")
            if p.found is not None:
                lines.append(f"    trouvé :  {p.found}")
    return lines


def render_text(report: FileReport, lang: str = "en") -> str:
    fr = lang == "fr"
    if report.failure is not None:
        if fr:
            return f"{report.path} : illisible — {report.failure.fr}"
        return f"{report.path}: unreadable — {report.failure.en}"
    if fr:
        return "\n".join(_render_fr(report))
    lines = []
    for g in report.games:
        head = f"{report.path} [{report.kind} game {g.number}, {g.ruleset}, {', '.join(g.players)}]"
        if g.verified:
            end = f"winner(s): {', '.join(g.winners)}" if g.finished else "game not finished"
            if not g.finished and g.position is not None:
                end += f": {g.position.text.en}"
            lines.append(f"{head}: verified — {g.events} events, {end}")
            continue
        for i, p in enumerate(g.problems):
            when = g.positions[i] if i < len(g.positions) else None
            at = f" ({when.en})" if when is not None else ""
            lines.append(f"{head}: violation {_where(p, 'en')}{at}: [{p.rule_id}] {p.en}")
            if i < len(g.skipped) and g.skipped[i].en:
                lines.append(f"    → {g.skipped[i].en}")
            if p.expected is not None:
                lines.append(f"    expected: {p.expected}")
            if p.found is not None:
                lines.append(f"    found:    {p.found}")
    return "\n".join(lines)


def render_json(report: FileReport, lang: str = "en") -> str:
    return orjson.dumps(report.as_dict(lang), option=orjson.OPT_INDENT_2).decode()


def expanded_log(report: FileReport) -> bytes:
    """The full event log a transcript expanded to (as far as it was legal)."""
    return b"".join(line + b"\n" for line in game_lines(report.expanded)) if report.expanded else b""
