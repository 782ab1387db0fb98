"""The `loveletter` command. Each command's logic lives in its own module; this file only parses options."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

try:  # typer >= 0.22 carries its own copy of click
    from typer._click import exceptions as clickx
except ImportError:  # pragma: no cover - older typer uses click itself
    from click import exceptions as clickx  # type: ignore[no-redef]

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,  # click's plain help: option types as <int>, <path>, <en|fr>; flags take no value
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Love Letter referee: serve, replay, audit, explain, show, simulate, demo.",
)
EXIT_USAGE = 2


def _print_version(wanted: bool) -> None:
    if wanted:
        from loveletter import __version__

        print(f"loveletter {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool, typer.Option("--version", "-V", callback=_print_version, is_eager=True, help="print the version and exit")
    ] = False,
) -> None:
    """Love Letter referee: serve, replay, audit, explain, show, simulate, demo."""


def fail(message: str) -> typer.Exit:
    """Print a one-line error on stderr; the caller raises the returned exit (code 2)."""
    print(f"error: {message}", file=sys.stderr)
    return typer.Exit(EXIT_USAGE)


@app.command()
def simulate(
    ruleset: Annotated[str, typer.Option(help="2019, 2019-classic, 2012 or princess-princess")] = "2019",
    players: Annotated[int, typer.Option(help="number of seats")] = 4,
    games: Annotated[int, typer.Option(help="how many games to play")] = 1000,
    seed: Annotated[int, typer.Option(help="simulation seed: same seed, same games")] = 1,
    bots: Annotated[str, typer.Option(help="one bot per seat, comma-separated: heuristic, random")] = "",
    log: Annotated[Path | None, typer.Option(help="write every game to this JSONL log")] = None,
) -> None:
    """Play many games between bots and print a summary table."""
    from loveletter.api.simulate import Config, SimulationError, render_summary
    from loveletter.api.simulate import simulate as run

    names = tuple(b.strip() for b in bots.split(",")) if bots else ("random",) * players
    config = Config(ruleset=ruleset, players=players, games=games, seed=seed, bots=names)
    try:
        config.check()
    except SimulationError as exc:
        raise fail(str(exc)) from None
    err = Console(stderr=True)
    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
        task = progress.add_task("games", total=games)
        step = max(1, games // 200)

        def on_game(done: int) -> None:
            if done % step == 0 or done == games:
                progress.update(task, completed=done)

        try:
            if log is not None:
                with open(log, "wb") as fp:
                    stats = run(config, fp, on_game)
            else:
                stats = run(config, None, on_game)
        except OSError as exc:
            raise fail(f"cannot write {log}: {exc.strerror or exc}") from None
    Console().print(render_summary(stats))


@app.command()
def demo(
    seed: Annotated[int, typer.Option(help="which game to play")] = 1,
    ruleset: Annotated[str, typer.Option(help="2019, 2019-classic, 2012 or princess-princess")] = "2019",
    players: Annotated[int, typer.Option(help="number of seats")] = 4,
) -> None:
    """Play one game between heuristic bots and tell it turn by turn."""
    from loveletter.api.demo import DEMO_NAMES, play_demo
    from loveletter.api.simulate import Config, SimulationError
    from loveletter.replays.narrative import narrate

    try:
        Config(ruleset=ruleset, players=players, games=1, seed=seed, bots=("heuristic",) * players).check()
    except SimulationError as exc:
        raise fail(str(exc)) from None
    for line in narrate(play_demo(ruleset, players, seed), omniscient=True, names=DEMO_NAMES):
        print(line)


Lang = Annotated[Literal["en", "fr"], typer.Option("--lang", help="language of messages")]


def _lang(lang: str) -> str:
    if lang not in ("en", "fr"):
        raise fail(f"--lang must be en or fr, not {lang!r}")
    return lang


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a JSONL game log, or a JSON transcript")],
    json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
    lenient: Annotated[bool, typer.Option("--lenient", help="report every problem, not just the first")] = False,
    lang: Lang = "en",
    emit_log: Annotated[Path | None, typer.Option(help="write the event log a transcript expands to")] = None,
) -> None:
    """Replay a log or a transcript through the rules: exit 0 verified, 1 violation, 2 unreadable."""
    from loveletter.replays.report import expanded_log, render_json, render_text, replay_file

    report = replay_file(str(file), lenient=lenient)
    language = _lang(lang)
    print(render_json(report, language) if json else render_text(report, language))
    if emit_log is not None and report.expanded:
        try:
            emit_log.write_bytes(expanded_log(report))
        except OSError as exc:
            raise fail(f"cannot write {emit_log}: {exc.strerror or exc}") from None
    raise typer.Exit(report.exit_code)


def _load_events(file: Path) -> list[Any]:
    """The events of the single game in a log or a transcript (one-line error, exit 2, if unreadable)."""
    from loveletter.events.log import LogFormatError, read_games
    from loveletter.replays.report import Unreadable, read_input
    from loveletter.replays.transcript import TranscriptFormatError, expand

    try:
        data, doc = read_input(str(file))
        if doc is not None:
            return list(expand(doc).events)
        games = list(read_games(data.splitlines()))
    except Unreadable as exc:
        raise fail(str(exc)) from None
    except TranscriptFormatError as exc:
        raise fail(f"transcript {exc}") from None
    except LogFormatError as exc:
        raise fail(str(exc)) from None
    if len(games) != 1:
        raise fail(f"{file} holds {len(games)} games; this command reads a log of one game")
    return list(games[0].entries)


@app.command()
def explain(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a JSONL game log, or a JSON transcript")],
    at: Annotated[int, typer.Option("--at", help="judge the move after this seq")],
    move: Annotated[str, typer.Option("--move", help='the move, e.g. \'{"player": "Bob", "card": "guard", ...}\'')],
    json: Annotated[bool, typer.Option("--json", help="print the ruling as JSON")] = False,
    lang: Lang = "en",
) -> None:
    """Was this move legal at this point, under which rule, and what would it cause?"""
    import orjson

    from loveletter.replays.rulings import MoveFormatError
    from loveletter.replays.rulings import explain as judge

    events = _load_events(file)
    if not 0 < at <= len(events):
        raise fail(f"--at must be a seq from 1 to {len(events)}")
    try:
        ruling = judge(events, at, orjson.loads(move), _lang(lang))
    except orjson.JSONDecodeError as exc:
        raise fail(f"--move is not JSON: {exc}") from None
    except MoveFormatError as exc:
        raise fail(f"--move: {exc}") from None
    if json:
        print(orjson.dumps(ruling.as_dict(), option=orjson.OPT_INDENT_2).decode())
        raise typer.Exit(0 if ruling.legal else 1)
    fr = lang == "fr"
    verdict = ("LÉGAL" if fr else "LEGAL") if ruling.legal else ("ILLÉGAL" if fr else "ILLEGAL")
    print(f"{verdict} — {ruling.mover}, {'après' if fr else 'after'} seq {at}: {ruling.message}")
    print(f"  [{ruling.rule_id}] {ruling.rule}")
    print(f"  source: {', '.join(ruling.sources)}")
    if ruling.events:
        print("  " + ("ce qui suit" if fr else "what follows") + ":")
        for event in ruling.events:
            fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "v", "seq"))
            print(f"    {event['seq']} {event['type']} {fields}")
    listed = "; ".join(
        " ".join(
            ",".join(v) if isinstance(v, list) else str(v)
            for k, v in m.items()
            if k not in ("type", "action_code", "target")
        )
        for m in ruling.legal_moves
    )
    print(f"  {'coups légaux' if fr else 'legal moves'}: {listed}")
    if ruling.prefix_problem is not None:
        p = ruling.prefix_problem
        where = "le journal a un problème avant ce point" if fr else "the log has a problem before this point"
        print(f"  ⚠ {where}: seq {p.seq} [{p.rule_id}] {p.message(lang)}")
    raise typer.Exit(0 if ruling.legal else 1)


@app.command()
def show(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="a JSONL game log, or a JSON transcript")],
    at: Annotated[int | None, typer.Option("--at", help="show the state after this seq")] = None,
    seat: Annotated[str | None, typer.Option("--seat", help="whose view (a name or seat number)")] = None,
    lang: Lang = "en",
) -> None:
    """Tell a game as a story, or (with --at/--seat) what a seat knew at a point."""
    import orjson

    from loveletter.replays.narrative import narrate
    from loveletter.replays.replay import check
    from loveletter.replays.rulings import seat_view_at

    events = _load_events(file)
    language = _lang(lang)
    if at is None and seat is None:
        result = check(events, lenient=True)
        flagged = [p.seq for p in result.problems if p.seq is not None]
        plain = [e.event if hasattr(e, "event") else e for e in events]
        for line in narrate(plain, language, flagged):
            print(line)
        raise typer.Exit(0 if result.ok else 1)
    point = len(events) if at is None else at
    if not 0 < point <= len(events):
        raise fail(f"--at must be a seq from 1 to {len(events)}")
    first = events[0].event if hasattr(events[0], "event") else events[0]
    players = list(first.players)
    who: int | None = None
    if seat is not None:
        if seat.isdigit() and int(seat) < len(players):
            who = int(seat)
        elif seat in players:
            who = players.index(seat)
        else:
            raise fail(f"--seat {seat!r} is not a player ({', '.join(players)})")
    print(orjson.dumps(seat_view_at(events, point, who), option=orjson.OPT_INDENT_2).decode())


@app.command()
def audit(
    files: Annotated[list[Path], typer.Argument(metavar="FILE...", help="JSONL game logs (one or many games each)")],
    json: Annotated[bool, typer.Option("--json", help="print the report as JSON")] = False,
    strict: Annotated[
        bool, typer.Option("--strict/--lenient", help="stop each game at its first problem, or report them all")
    ] = True,
    lang: Lang = "en",
    key: Annotated[
        str | None, typer.Option("--key", help="the referee's public key (64 hex digits, or a file holding them)")
    ] = None,
    require_signature: Annotated[
        bool, typer.Option("--require-signature", help="an unsigned game is a problem, not a note")
    ] = False,
    jobs: Annotated[int | None, typer.Option("--jobs", help="worker processes (default: every core)")] = None,
) -> None:
    """Audit logs: sequence, hash chain, signature, seed commitment, every deck and every move.
    Exit 0 all valid, 1 a problem found, 2 unreadable."""
    from loveletter.replays.audit import Options, audit_file, default_jobs, normalise_key, render_json, render_text

    language = _lang(lang)
    pinned = None
    if key is not None:
        text = key
        if not _is_hex_key(key):
            try:
                text = Path(key).read_text().strip()
            except OSError as exc:
                raise fail(f"--key is neither 64 hex digits nor a readable file: {exc.strerror or exc}") from None
        try:
            pinned = normalise_key(text)
        except ValueError as exc:
            raise fail(f"--key: {exc}") from None
    workers = default_jobs() if jobs is None else jobs
    if workers < 1:
        raise fail("--jobs must be at least 1")
    options = Options(lenient=not strict, key=pinned, require_signature=require_signature)
    err = Console(stderr=True)
    reports = []
    columns = (TextColumn("auditing {task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
        for file in files:
            task = progress.add_task(file.name, total=None)

            def on_progress(done: int, total: int, task: Any = task) -> None:
                progress.update(task, completed=done, total=total)

            reports.append(audit_file(str(file), options, workers, on_progress))
    if json:
        print(render_json(reports, language))
    else:
        for report in reports:
            print(render_text(report, language))
    for report in reports:
        if report.error is not None and not json:
            print(f"error: {report.path}: {report.error}", file=sys.stderr)
    raise typer.Exit(max(r.exit_code for r in reports))


def _is_hex_key(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text)


@app.command()
def serve(
    host: Annotated[str | None, typer.Option(help="address to listen on (default 127.0.0.1)")] = None,
    port: Annotated[int | None, typer.Option(help="port (default 8000)")] = None,
    workers: Annotated[int | None, typer.Option(help="worker processes; more than one needs PostgreSQL")] = None,
    database_url: Annotated[str | None, typer.Option(help="sqlite:///file.db (default) or postgresql://…")] = None,
) -> None:
    """Run the HTTP referee (settings also come from LOVELETTER_* environment variables)."""
    from pydantic import ValidationError

    from loveletter.api.serve import ServeError
    from loveletter.api.serve import serve as run
    from loveletter.api.settings import Settings

    given = {"host": host, "port": port, "workers": workers, "database_url": database_url}
    try:
        settings = Settings(**{k: v for k, v in given.items() if v is not None})
        run(settings)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise fail(f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}") from None
    except (ServeError, ValueError) as exc:
        raise fail(str(exc)) from None


def main() -> None:
    """Entry point: usage errors are one line on stderr with exit code 2, never a traceback."""
    try:
        code = app(standalone_mode=False)
    except clickx.NoArgsIsHelpError as exc:
        print(exc.format_message(), file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except clickx.UsageError as exc:
        hint = f" (see: loveletter {exc.ctx.command.name} --help)" if exc.ctx and exc.ctx.command.name else ""
        print(f"error: {exc.format_message()}{hint}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except clickx.ClickException as exc:
        print(f"error: {exc.format_message()}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        print("interrupted", file=sys.stderr)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
