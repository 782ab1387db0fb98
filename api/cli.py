"""The `loveletter` command. Each command's logic lives in its own module; this file only parses options."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

try:  # typer >= 0.22 carries its own copy of click
    from typer._click import exceptions as clickx
except ImportError:  # pragma: no cover - older typer uses click itself
    from click import exceptions as clickx  # type: ignore[no-redef]

app = typer.Typer(add_completion=False, no_args_is_help=True, help="Love Letter referee: simulate, demo, replay.")
EXIT_USAGE = 2


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
    from api.simulate import Config, SimulationError, render_summary
    from api.simulate import simulate as run

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
    from api.demo import narrate, play_demo
    from api.simulate import Config, SimulationError

    try:
        Config(ruleset=ruleset, players=players, games=1, seed=seed, bots=("heuristic",) * players).check()
    except SimulationError as exc:
        raise fail(str(exc)) from None
    for line in narrate(play_demo(ruleset, players, seed)):
        print(line)


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
