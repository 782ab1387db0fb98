"""`loveletter audit` and `POST /audits`: everything a log's reader can check, game by game.

For each game of a JSONL log (format and schema are already enforced by the reader: an unreadable file is
`FileAudit.error`), the audit checks, in this order:

1. `sequence` — seq counts 1, 2, 3… without gap or repeat (`log.sequence`);
2. `chain` — the first event's `prev` is the header's hash, each later `prev` the previous line's (`log.chain`);
3. `signature` — the closing signature line verifies with its public key, over the hash of the game's last line,
   and that key is the pinned one when the caller pins a key (`log.signature`); an unsigned game is a note, and a
   problem only when a signature is required;
4. `commitment` — the revealed server seed hashes to `game_started.seed_commitment`; a finished game that
   committed and never revealed is a problem (`shuffle.commitment`);
5. `derivation` — every deck is re-derived: `commit-hmac-sha256-fy/1` from the revealed server seed and the seat
   seeds given before the round, `hmac-sha256-fy/1` from the seed recorded in the clear; every zone, the first
   player and the shuffle seed must be equal (`shuffle.derivation`); a scenario's deals are given, not derived;
6. `rules` — every move and every consequence is judged again by `decide` (`replays.replay.check`).

Strict (the default) stops a game's audit at the first check that finds a problem — but a signature problem does
not stop it: the events are judged still, so a log changed and re-chained under its old signature shows the change
too — and lenient reports them all. A game's problems are listed in the order of their lines.
Reading is the log's own reader (`events.log.read_games`). A log file of any size is audited in bounded memory
(`stream_file`): it is scanned once for the lines that begin a game and cut there into pieces of a few
megabytes, which worker processes read from the file themselves; a log held in memory (`audit_bytes`, an upload)
is cut the same way (`chunks`).

This module is the entry point for whole files (and names everything a caller needs). The checks of one game
run in order in `replays.audit_game`; the checks themselves live in `replays.audit_chain` (1–3) and
`replays.audit_shuffle` (4–5), and 6 is `replays.replay`; the options, the reports and their text and JSON
renderings are in `replays.audit_report`.
"""

from __future__ import annotations

import multiprocessing
import os
import stat
from collections import deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass

from loveletter.core.lang import BilingualError, Text
from loveletter.events.log import NO_GAME, LogFormatError
from loveletter.replays.audit_game import HEADER_PREFIX, KeyFormatError, audit_game, audit_lines, normalise_key
from loveletter.replays.audit_report import FileAudit, GameAudit, Note, Options, render_json, render_text
from loveletter.replays.replay import describe
from loveletter.replays.report import cannot_read


class UnreadableLog(BilingualError):
    """A file that is not a log from some line on: `text` says so with the line, as `FileAudit.failure` does."""

    def __init__(self, line: int, text: Text) -> None:
        super().__init__(text)
        self.line = line


# -- files ---------------------------------------------------------------------------------------------------

_SHARED: list[bytes] = []
"""The file being audited, inherited by forked workers (so chunks travel as offsets, not copies)."""


def _chunk_job(args: tuple[bytes | tuple[int, int], int, Options]) -> tuple[list[GameAudit], int | None, Text | None]:
    where, first_line, options = args
    data = where if isinstance(where, bytes) else _SHARED[0][where[0] : where[1]]
    try:
        return audit_lines(data.splitlines(), options, first_line), None, None
    except LogFormatError as exc:
        return [], exc.line, exc.text


def chunks(data: bytes, pieces: int) -> list[tuple[bytes, int]]:
    """`data` cut at header lines into about `pieces` parts, each with the number of its first line.

    Only lines starting exactly like a canonical header are cut at; files with bare CRs are not cut."""
    if pieces <= 1 or b"\r" in data:
        return [(data, 1)]
    starts = []
    at = data.find(b"\n" + HEADER_PREFIX)
    while at != -1:
        starts.append(at + 1)
        at = data.find(b"\n" + HEADER_PREFIX, at + 1)
    if not starts:
        return [(data, 1)]
    target = max(1, len(data) // pieces)
    out: list[tuple[bytes, int]] = []
    begin, line = 0, 1
    for start in starts:
        if start - begin >= target:
            out.append((data[begin:start].removesuffix(b"\n"), line))
            line += data.count(b"\n", begin, start)
            begin = start
    out.append((data[begin:], line))
    return out


def audit_bytes(
    data: bytes,
    path: str = "-",
    options: Options | None = None,
    jobs: int = 1,
    on_progress: Callable[[int, int], None] | None = None,
) -> FileAudit:
    """Audit every game of a log held in memory; never raises for bad input (`FileAudit.error`)."""
    options = options or Options()
    report = FileAudit(path)
    if jobs <= 1:
        parts = [(data, 1)]
    else:
        parts = chunks(data, jobs * 8)
    total = len(parts)
    if jobs <= 1 or total == 1:
        results = []
        for i, (part, first) in enumerate(parts):
            results.append(_chunk_job((part, first, options)))
            if on_progress:
                on_progress(i + 1, total)
    else:
        results = []
        fork = "fork" in multiprocessing.get_all_start_methods()
        jobs_args: list[tuple[bytes | tuple[int, int], int, Options]] = []
        offset = 0
        for part, first in parts:
            start = data.index(part, offset) if fork else 0
            jobs_args.append(((start, start + len(part)) if fork else part, first, options))
            offset = start + len(part)
        _SHARED[:] = [data]
        try:
            context = multiprocessing.get_context("fork" if fork else None)
            with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
                for i, result in enumerate(pool.map(_chunk_job, jobs_args)):
                    results.append(result)
                    if on_progress:
                        on_progress(i + 1, total)
        finally:
            _SHARED.clear()
    number = 0
    for games, error_line, error in results:
        if error is not None:
            report.failure, report.error_line = error, error_line
            break
        for game in games:
            number += 1
            game.number = number
            report.games.append(game)
    if report.error is None and not report.games:
        report.failure, report.error_line = LogFormatError(1, NO_GAME).text, 1
    return report


def audit_file(
    path: str, options: Options | None = None, jobs: int = 1, on_progress: Callable[[int, int], None] | None = None
) -> FileAudit:
    """Audit every game of the log at `path`, read piece by piece (`stream_file`); never raises for bad input.

    `on_progress(games done, games in the file)` follows the games, not the pieces."""
    report = FileAudit(path)
    try:
        for games in stream_file(path, options or Options(), jobs, on_progress):
            report.games.extend(games)
    except OSError as exc:
        return FileAudit(path, failure=cannot_read(path, exc))
    except UnreadableLog as exc:
        report.failure, report.error_line = exc.text, exc.line
    return report


# -- big files, in bounded memory ----------------------------------------------------------------------------

BLOCK = 1 << 20
"""How much of the file the scan reads at a time."""
PIECE_BYTES = 4 << 20
"""A piece handed to a worker is cut at the first game that starts this far from the piece's start."""


@dataclass(frozen=True, slots=True)
class Plan:
    """Where a log file is cut: pieces `(start, stop, first line)` that begin at a game, and how many games the
    file holds (its canonical header lines: what the progress counts)."""

    size: int
    pieces: tuple[tuple[int, int, int], ...]
    games: int


def _terminators(data: bytes) -> int:
    """Line ends in `data` as `bytes.splitlines` counts them (\n, \r and \r\n)."""
    return data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")


def plan_file(path: str, piece_bytes: int = PIECE_BYTES) -> Plan:
    """Scan the file once, a block at a time, for the lines that begin a game; cut it into pieces of about
    `piece_bytes`. Only complete lines are scanned, so a header is never split between two blocks and line
    numbers are those of `bytes.splitlines` over the whole file."""
    pattern = b"\n" + HEADER_PREFIX
    pieces: list[tuple[int, int, int]] = []
    games = begin = offset = 0
    first = lines = 1  # `lines`: the line number at `offset`
    rest = b""
    after_newline, after_cr = True, False
    with open(path, "rb") as fp:
        while True:
            block = fp.read(BLOCK)
            data = rest + block
            end = len(data) if not block else max(data.rfind(b"\n"), data.rfind(b"\r")) + 1
            region, rest = data[:end], data[end:]
            if not region:
                if not block:
                    break
                continue
            twin = 1 if after_cr and region[:1] == b"\n" else 0  # the \n of a \r\n cut in two
            search = (b"\n" if after_newline else b"") + region
            shift = 1 if after_newline else 0
            at = search.find(pattern)
            while at != -1:
                start = at + 1 - shift  # where the header line begins, in `region`
                games += 1
                if offset + start - begin >= piece_bytes and offset + start > begin:
                    number = lines + _terminators(region[:start]) - (twin if start else 0)
                    pieces.append((begin, offset + start, first))
                    begin, first = offset + start, number
                at = search.find(pattern, at + 1)
            lines += _terminators(region) - twin
            offset += len(region)
            after_newline, after_cr = region.endswith(b"\n"), region.endswith(b"\r")
            if not block:
                break
    pieces.append((begin, offset, first))
    return Plan(offset, tuple(pieces), games)


def _piece_job(args: tuple[str, int, int, int, Options]) -> tuple[list[GameAudit], int | None, Text | None]:
    """A worker's piece: read from the file itself (nothing but offsets travels), then audited."""
    path, start, stop, first_line, options = args
    with open(path, "rb") as fp:
        fp.seek(start)
        data = fp.read(stop - start)
    return _chunk_job((data, first_line, options))


def stream_file(
    path: str, options: Options, jobs: int = 1, on_progress: Callable[[int, int], None] | None = None
) -> Iterator[list[GameAudit]]:
    """The game reports of a log file, in order, a piece at a time, in memory bounded whatever the file's size:
    the file is scanned for game starts (`plan_file`), and each worker reads its own piece; at most a few pieces
    per worker are in flight. Raises `OSError` (cannot read) or `LogFormatError` (unreadable, at its line) after
    the pieces before it. A file that cannot be scanned twice (a pipe) is read whole (`audit_bytes`)."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        with open(path, "rb") as fp:
            report = audit_bytes(fp.read(), path, options, jobs)
        if report.games and on_progress:
            on_progress(len(report.games), len(report.games))
        if report.failure is not None:
            yield report.games
            raise UnreadableLog(report.error_line or 1, report.failure)
        yield report.games
        return
    size = os.path.getsize(path)
    plan = plan_file(path, min(PIECE_BYTES, max(1 << 16, size // max(1, jobs * 8))))
    total = plan.games
    done = 0
    number = 0
    jobs_args = [(path, start, stop, first, options) for start, stop, first in plan.pieces]
    for games, error_line, error in _run(jobs_args, jobs):
        if error is not None:
            raise UnreadableLog(error_line or 1, error)
        for game in games:
            number += 1
            game.number = number
        done += len(games)
        if on_progress:
            on_progress(done, max(total, done))
        yield games
    if number == 0:
        raise UnreadableLog(1, LogFormatError(1, NO_GAME).text)


def _run(
    jobs_args: list[tuple[str, int, int, int, Options]], jobs: int
) -> Iterator[tuple[list[GameAudit], int | None, Text | None]]:
    """Each piece's result, in order: in this process, or in `jobs` worker processes with a bounded window of
    pieces in flight (so results waiting behind a slow piece cannot pile up)."""
    if jobs <= 1 or len(jobs_args) == 1:
        for args in jobs_args:
            yield _piece_job(args)
        return
    fork = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if fork else None)
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    window: deque[Future[tuple[list[GameAudit], int | None, Text | None]]] = deque()
    try:
        for args in jobs_args:
            window.append(pool.submit(_piece_job, args))
            if len(window) >= jobs * 3:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def default_jobs() -> int:
    return os.cpu_count() or 1


__all__ = [
    "FileAudit",
    "GameAudit",
    "KeyFormatError",
    "Note",
    "Options",
    "UnreadableLog",
    "audit_bytes",
    "audit_file",
    "audit_game",
    "audit_lines",
    "describe",
    "normalise_key",
    "plan_file",
    "render_json",
    "render_text",
    "stream_file",
]
