"""`loveletter simulate` and `loveletter demo`: games played between bots in process (`simulate` also takes bots of
the user's own, `MODULE:NAME` or `path/to/bot.py:NAME`), summed up as
statistics (a table, JSON, CSV, charts, a log) or one of them told turn by turn. The games themselves are played
by `play.simulate` and `play.demo`."""

from __future__ import annotations

import sys
import traceback
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from loveletter.cli.bot_names import BUILT_IN_BOTS
from loveletter.cli.failures import fail, fail_with
from loveletter.cli.options import RULESET_HELP, UI, _, command, lang_option
from loveletter.cli.text import Integer
from loveletter.core.lang import Lang, os_error


@command(
    help=_(
        "Play many games between bots and print a summary table.",
        "Jouer de nombreuses parties entre robots et en afficher le bilan.",
    )
)
@click.option("--ruleset", default="2019", show_default=True, help=RULESET_HELP)
@click.option(
    "--players", type=Integer(UI, 1), default=4, show_default=True, help=_("number of seats", "nombre de sièges")
)
@click.option(
    "--games",
    type=Integer(UI, 1),
    default=1000,
    show_default=True,
    help=_("how many games to play", "nombre de parties à jouer"),
)
@click.option(
    "--seed",
    type=Integer(UI),
    default=1,
    show_default=True,
    help=_("simulation seed: same seed, same games", "graine de la simulation : même graine, mêmes parties"),
)
@click.option(
    "--bots",
    default="",
    metavar="BOT,BOT,…",
    help=_(
        f"one bot per seat, comma-separated: {BUILT_IN_BOTS}, or a bot of your own as MODULE:NAME or "
        "path/to/bot.py:NAME",
        f"un robot par siège, séparés par des virgules : {BUILT_IN_BOTS}, ou un robot à vous, MODULE:NOM ou "
        "chemin/du/robot.py:NOM",
    ),
)
@click.option(
    "--log",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    metavar="FILE",
    help=_("write every game to this JSONL log", "écrire chaque partie dans ce journal JSONL"),
)
@click.option(
    "--option",
    "rule_options",
    multiple=True,
    metavar="KEY=VALUE",
    help=_(
        "a rule option (Rulings §11: docs/rulings.md#s11), e.g. tie_2012=all or guard_unknown=miss; repeatable",
        "une option de règle (Décisions §11 : docs/rulings.md#s11), par exemple tie_2012=all ou "
        "guard_unknown=miss ; peut être donnée plusieurs fois",
    ),
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help=_(
        "print the statistics as JSON, with their 95% confidence intervals",
        "afficher les statistiques en JSON, avec leurs intervalles de confiance à 95 %",
    ),
)
@click.option(
    "--csv",
    "as_csv",
    is_flag=True,
    help=_(
        "print the statistics as CSV, with their 95% confidence intervals",
        "afficher les statistiques en CSV, avec leurs intervalles de confiance à 95 %",
    ),
)
@click.option(
    "--plot",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    metavar="FILE",
    help=_(
        "draw the charts (win rates, favors, eliminations) into this PNG or SVG file",
        "dessiner les graphiques (victoires, faveurs, éliminations) dans ce fichier PNG ou SVG",
    ),
)
@lang_option
def simulate(
    ruleset: str,
    players: int,
    games: int,
    seed: int,
    bots: str,
    log: Path | None,
    rule_options: tuple[str, ...],
    as_json: bool,
    as_csv: bool,
    plot: Path | None,
    lang: Lang,
) -> None:
    from loveletter.play.asking import BotFailed
    from loveletter.play.report import plot_format, render_summary
    from loveletter.play.simulate import Config, SimulationError, parse_options
    from loveletter.play.simulate import simulate as run

    names = tuple(b.strip() for b in bots.split(",")) if bots else ("random",) * players
    try:
        config = Config(ruleset, players, games, seed, names, parse_options(rule_options), own_bots=True)
        config.check()
    except SimulationError as exc:
        fail_with(exc)
    if as_json and as_csv:
        fail("--json and --csv cannot be used together", "--json et --csv ne vont pas ensemble : choisir l'un")
    if plot is not None and plot_format(str(plot)) is None:
        fail(
            f"--plot {plot}: the file's name must end in .png or .svg",
            f"--plot {plot} : le nom du fichier doit finir par .png ou .svg",
        )
    err = Console(stderr=True)
    columns = (TextColumn(_("simulating", "simulation")), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
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
            reason = os_error(exc)
            fail(f"cannot write {log}: {reason.en}", f"impossible d'écrire {log} : {reason.fr}")
        except (SimulationError, BotFailed) as exc:  # a bot of the user's own that cannot be loaded, or failed
            if exc.__cause__ is not None:
                traceback.print_exception(exc.__cause__)
            fail_with(exc)
    if plot is not None:
        from loveletter.play.report import plot as draw

        try:
            draw(stats, str(plot), lang)
        except OSError as exc:
            reason = os_error(exc)
            fail(f"cannot write {plot}: {reason.en}", f"impossible d'écrire {plot} : {reason.fr}")
    if as_json:
        import orjson

        from loveletter.play.report import statistics

        print(orjson.dumps(statistics(stats), option=orjson.OPT_INDENT_2).decode())
    elif as_csv:
        from loveletter.play.report import render_csv

        sys.stdout.write(render_csv(stats))
    else:
        Console().print(render_summary(stats, lang))


@command(
    help=_(
        "Play one game between heuristic bots and tell it turn by turn.",
        "Jouer une partie entre robots heuristiques et la raconter tour par tour.",
    )
)
@click.option(
    "--seed", type=Integer(UI), default=1, show_default=True, help=_("which game to play", "quelle partie jouer")
)
@click.option("--ruleset", default="2019", show_default=True, help=RULESET_HELP)
@click.option(
    "--players", type=Integer(UI, 1), default=4, show_default=True, help=_("number of seats", "nombre de sièges")
)
@lang_option
def demo(seed: int, ruleset: str, players: int, lang: Lang) -> None:
    from loveletter.play.demo import DEMO_NAMES, play_demo
    from loveletter.play.simulate import Config, SimulationError
    from loveletter.replays.narrative import narrate

    try:
        Config(ruleset=ruleset, players=players, games=1, seed=seed, bots=("heuristic",) * players).check()
    except SimulationError as exc:
        fail_with(exc)
    for line in narrate(play_demo(ruleset, players, seed), lang, omniscient=True, names=DEMO_NAMES):
        print(line)
