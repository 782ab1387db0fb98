"""`loveletter tournament`: bots ranked over many games, in process (`play.tournament`) or over HTTP with each bot
in its own process (`play.tournament_http`, at a given referee or one started for the run); the ratings, tables
and charts come from `play.ratings`."""

from __future__ import annotations

import contextlib
import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import click
import orjson
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from loveletter.cli.bot_names import BUILT_IN_BOTS, STAND_IN
from loveletter.cli.failures import fail, fail_with
from loveletter.cli.options import RULESET_HELP, UI, _, command, lang_option
from loveletter.cli.progress import RateColumn
from loveletter.cli.text import Integer, OneOf
from loveletter.core.lang import Lang, Text, os_error


class Seconds(click.ParamType):
    """A number of seconds above 0 and at most 7 days, fractions allowed, refused in the user's language."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            seconds = float("nan")
        if not 0 < seconds <= 7 * 24 * 3600:  # NaN fails this too
            self.fail(
                Text(
                    f"{value!r} is not a number of seconds above 0 and at most 7 days",
                    f"« {value} » n'est pas un nombre de secondes de plus de 0 et d'au plus 7 jours",
                )(UI)
            )
        return seconds


@command(
    help=_(
        "Rank bots: many games with the seats rotated and, in process, duplicate deals (each set of shuffles played "
        "once per rotation); OpenSkill ratings with 95% intervals and a head-to-head table. In process by default, "
        "or over HTTP (--server, --serve) with each bot in its own process and every game on a turn clock.",
        "Classer des robots : de nombreuses parties, sièges en rotation et, dans le processus, donnes rejouées "
        "(chaque jeu de mélanges joué une fois par rotation) ; notes OpenSkill avec intervalles à 95 % et tableau "
        "des face-à-face. Dans le processus par défaut, ou par HTTP (--server, --serve), chaque robot dans son "
        "propre processus et chaque partie avec une pendule.",
    )
)
@click.option(
    "--bots",
    required=True,
    metavar="BOT,BOT,…",
    help=_(
        f"the entrants, comma-separated: {BUILT_IN_BOTS}, or a bot of your own as MODULE:NAME or path/to/bot.py:NAME",
        f"les participants, séparés par des virgules : {BUILT_IN_BOTS}, ou un robot à vous, MODULE:NOM ou "
        "chemin/du/robot.py:NOM",
    ),
)
@click.option(
    "--players", type=Integer(UI, 1), default=4, show_default=True, help=_("seats per game", "sièges par partie")
)
@click.option("--ruleset", default="2019", show_default=True, help=RULESET_HELP)
@click.option(
    "--games", type=Integer(UI, 1), default=1000, show_default=True, help=_("games to play", "parties à jouer")
)
@click.option(
    "--seed",
    type=Integer(UI),
    default=1,
    show_default=True,
    help=_("tournament seed: same seed, same games", "graine du tournoi : même graine, mêmes parties"),
)
@click.option(
    "--option",
    "rule_options",
    multiple=True,
    metavar="KEY=VALUE",
    help=_(
        "a rule option (Rulings §11: docs/rulings.md#s11); repeatable",
        "une option de règle (Décisions §11 : docs/rulings.md#s11) ; peut être répétée",
    ),
)
@click.option(
    "--duplicate/--no-duplicate",
    default=True,
    show_default=True,
    help=_(
        "deal every rotation of a lineup the same shuffles (in process)",
        "donner à chaque rotation d'une tablée les mêmes mélanges (dans le processus)",
    ),
)
@click.option("--json", "as_json", is_flag=True, help=_("print the results as JSON", "afficher les résultats en JSON"))
@click.option("--csv", "as_csv", is_flag=True, help=_("print the results as CSV", "afficher les résultats en CSV"))
@click.option(
    "--plot",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    metavar="FILE",
    help=_(
        "draw the ratings over the games into this PNG or SVG file",
        "dessiner les notes au fil des parties dans ce fichier PNG ou SVG",
    ),
)
@click.option(
    "--log",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    metavar="FILE",
    help=_(
        "write every game to this JSONL log (loveletter audit checks it)",
        "écrire chaque partie dans ce journal JSONL (loveletter audit le vérifie)",
    ),
)
@click.option(
    "--ratings",
    "ratings_file",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    metavar="FILE",
    help=_(
        "start each bot from its rating in this JSON file (afresh if absent) and write the new ratings back, so a "
        "bot's rating carries over from tournament to tournament",
        "partir de la note de chaque robot dans ce fichier JSON (de zéro s'il n'y est pas) et y réécrire les "
        "nouvelles notes, pour qu'elles passent d'un tournoi à l'autre",
    ),
)
@click.option(
    "--server",
    default=None,
    metavar="URL",
    help=_(
        "play over HTTP at this referee, each bot in its own process",
        "jouer par HTTP chez cet arbitre, chaque robot dans son propre processus",
    ),
)
@click.option(
    "--serve",
    is_flag=True,
    help=_(
        "play over HTTP at a referee started for the tournament (SQLite, 127.0.0.1)",
        "jouer par HTTP chez un arbitre démarré pour le tournoi (SQLite, 127.0.0.1)",
    ),
)
@click.option(
    "--admin-token",
    default=None,
    metavar="TOKEN",
    help=_(
        "with --server: the referee's admin token, so a deal set's games share their server seed (duplicate deals)",
        "avec --server : le jeton d'administration de l'arbitre, pour que les parties d'une série aient les "
        "mêmes donnes",
    ),
)
@click.option(
    "--turn-seconds",
    type=Seconds(),
    default=None,
    metavar="SECONDS",
    help=_(
        "each decision's time limit: in process any number (default 5, e.g. 0.5), over HTTP the clock's whole "
        "seconds (default 10)",
        "le temps de chaque décision : dans le processus un nombre quelconque (5 par défaut, par exemple 0.5), par "
        "HTTP les secondes entières de la pendule (10 par défaut)",
    ),
)
@click.option(
    "--on-timeout",
    type=OneOf(UI, ("resign", "bot")),
    default="resign",
    show_default=True,
    help=_(
        "when a bot does not decide (it crashed, overran its time or answered an illegal move), its seat resigns "
        f"(it finishes last), or the {STAND_IN} bot plays that decision for it (the referee's stand-in); in process as "
        "over HTTP (Rulings "
        "§12: docs/rulings.md#s12)",
        "quand un robot ne décide pas (il a échoué, dépassé son temps ou répondu un coup illégal), son siège "
        f"abandonne (il finit dernier), ou le robot {STAND_IN} joue cette décision pour lui (le remplaçant de "
        "l'arbitre) ; dans le processus "
        "comme par HTTP (Décisions §12 : docs/rulings.md#s12)",
    ),
)
@click.option(
    "--parallel",
    type=Integer(UI, 1),
    default=2,
    show_default=True,
    help=_("over HTTP: games played at once", "par HTTP : parties jouées en même temps"),
)
@lang_option
def tournament(
    bots: str,
    players: int,
    ruleset: str,
    games: int,
    seed: int,
    rule_options: tuple[str, ...],
    duplicate: bool,
    as_json: bool,
    as_csv: bool,
    plot: Path | None,
    log: Path | None,
    ratings_file: Path | None,
    server: str | None,
    serve: bool,
    admin_token: str | None,
    turn_seconds: float | None,
    on_timeout: str,
    parallel: int,
    lang: Lang,
) -> None:
    from loveletter.play.report import plot_format
    from loveletter.play.simulate import SimulationError, parse_options
    from loveletter.play.tournament import Config, TournamentError, load_bots

    try:
        names = tuple(b.strip() for b in bots.split(",") if b.strip())
        config = Config(names, players, ruleset, games, seed, parse_options(rule_options), duplicate, on_timeout)
        if turn_seconds is not None and server is None and not serve:
            config = replace(config, turn_seconds=turn_seconds)
        config.check()
        load_bots(config.bots)
    except (TournamentError, SimulationError) as exc:
        fail_with(exc)
    if as_json and as_csv:
        fail("--json and --csv cannot be used together", "--json et --csv ne vont pas ensemble : choisir l'un")
    if server is not None and serve:
        fail("--server and --serve cannot be used together", "--server et --serve ne vont pas ensemble : choisir l'un")
    if plot is not None and plot_format(str(plot)) is None:
        fail(
            f"--plot {plot}: the file's name must end in .png or .svg",
            f"--plot {plot} : le nom du fichier doit finir par .png ou .svg",
        )
    known = _read_ratings(ratings_file)
    start = [known.get(bot) for bot in config.bots]
    over_http = server is not None or serve
    if over_http and turn_seconds is not None and turn_seconds != int(turn_seconds):
        fail(
            f"--turn-seconds {turn_seconds:g}: over HTTP the referee's clock counts whole seconds",
            f"--turn-seconds {turn_seconds:g} : par HTTP la pendule de l'arbitre compte en secondes entières",
        )
    err = Console(stderr=True)
    columns = (
        TextColumn(_("tournament", "tournoi")),
        BarColumn(),
        MofNCompleteColumn(),
        RateColumn(lang),
        TimeRemainingColumn(),
    )
    try:
        fp = open(log, "wb") if log is not None else None  # noqa: SIM115 - closed below, after every game
    except OSError as exc:
        reason = os_error(exc)
        fail(f"cannot write {log}: {reason.en}", f"impossible d'écrire {log} : {reason.fr}")
    started = time.perf_counter()
    try:
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
            task = progress.add_task("games", total=games)

            def on_game(_: object) -> None:
                progress.advance(task)

            if over_http:
                clock = 10 if turn_seconds is None else int(turn_seconds)
                outcomes = _over_http(config, server, admin_token, clock, parallel, fp, on_game)
            else:
                from loveletter.play.tournament import run_in_process

                outcomes = run_in_process(config, fp, on_game)
    except OSError as exc:
        reason = os_error(exc)
        fail(f"cannot write {log}: {reason.en}", f"impossible d'écrire {log} : {reason.fr}")
    finally:
        if fp is not None:
            fp.close()
    seconds = time.perf_counter() - started
    from loveletter.play.ratings import render_csv, render_tables, results

    figures = results(config, outcomes, seconds, "http" if over_http else "in-process", start)
    if ratings_file is not None:
        _write_ratings(ratings_file, known, config, figures)
    if plot is not None:
        from loveletter.play.ratings import plot as draw

        try:
            draw(config, outcomes, str(plot), lang, start)
        except OSError as exc:
            reason = os_error(exc)
            fail(f"cannot write {plot}: {reason.en}", f"impossible d'écrire {plot} : {reason.fr}")
    _tell_crashes(figures, lang)
    if as_json:
        print(orjson.dumps(figures, option=orjson.OPT_INDENT_2).decode())
    elif as_csv:
        sys.stdout.write(render_csv(figures))
    else:
        console = Console() if sys.stdout.isatty() else Console(width=120)  # a file or a pipe: the same text always
        for table in render_tables(figures, lang):
            console.print(table)


def _read_ratings(path: Path | None) -> dict[str, Any]:
    """The ratings of `--ratings FILE` by bot; none if the file does not exist yet (it is written after the run)."""
    from loveletter.play.ratings import read_ratings

    if path is None:
        return {}
    try:
        return read_ratings(path.read_bytes())
    except FileNotFoundError:
        return {}
    except OSError as exc:
        reason = os_error(exc)
        fail(f"cannot read {path}: {reason.en}", f"impossible de lire {path} : {reason.fr}")
    except ValueError as exc:  # JSON that is not a ratings file (json.JSONDecodeError is a ValueError)
        fail(
            f"--ratings {path}: {exc}",
            f"--ratings {path} : ce n'est pas un fichier de notes (un objet JSON où « format » vaut "
            "« loveletter-ratings/1 », avec « ratings »)",
        )


def _write_ratings(path: Path, known: dict[str, Any], config: Any, figures: dict[str, Any]) -> None:
    """The new ratings to `path`, written whole then moved into place, so an interrupted run leaves the old file."""
    import os

    from loveletter.play.ratings import Rating, write_ratings

    by_bot = {r["bot"]: Rating(r["mu"], r["sigma"]) for r in figures["ratings"]}
    data = write_ratings(known, config, [by_bot[bot] for bot in config.bots])
    part = path.with_name(path.name + ".part")
    try:
        part.write_bytes(data)
        os.replace(part, path)
    except OSError as exc:
        reason = os_error(exc)
        fail(f"cannot write {path}: {reason.en}", f"impossible d'écrire {path} : {reason.fr}")


def _tell_crashes(figures: dict[str, Any], lang: Lang) -> None:
    """Each bot that crashed, on standard error: how often, and its first traceback (the results go to standard
    output, so a JSON or CSV reader never meets it)."""
    for row in figures["ratings"]:
        if row["crashes"]:
            n, name = row["crashes"], row["name"]
            said = (
                f"le robot {name} a échoué dans {n} partie(s) ; sa première trace :"
                if lang == "fr"
                else f"the bot {name} crashed in {n} game(s); its first traceback:"
            )
            sys.stderr.write(f"{said}\n{row['first_traceback'] or '(none printed)'}\n")


def _over_http(
    config: Any,
    server: str | None,
    admin_token: str | None,
    turn_seconds: int,
    parallel: int,
    log: Any,
    on_game: Callable[[object], None],
) -> list[Any]:
    from loveletter.play.tournament_http import HttpConfig, HttpTournamentError, local_referee, run_over_http

    try:
        with contextlib.ExitStack() as stack:
            if server is None:  # the referee started here has an admin token of its own: duplicate deals work
                admin_token = secrets.token_urlsafe(32)
                server = stack.enter_context(local_referee(admin_token))
            http = HttpConfig(server, turn_seconds, parallel, admin_token=admin_token)
            return run_over_http(config, http, log, on_game)
    except HttpTournamentError as exc:
        fail_with(exc)
