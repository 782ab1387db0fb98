"""The `loveletter` command. Each command's logic lives in its own module; this file only reads options and
speaks to the user, in English or French (`--lang`, else `LOVELETTER_LANG`, else the locale)."""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

import click
import httpx
import orjson
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text as RichText

from loveletter.cli.text import HelpFormatter, Integer, OneOf, detect_lang, usage_error
from loveletter.core.lang import BilingualError, Lang, Text, number, os_error

EXIT_USAGE = 2
UI: Lang = detect_lang(sys.argv[1:], os.environ)
HelpFormatter.lang = UI


def _(en: str, fr: str) -> str:
    """A help text in the user's language."""
    return Text(en, fr)(UI)


class Context(click.Context):
    formatter_class = HelpFormatter


def _help_option(option: click.Option | None) -> click.Option | None:
    if option is not None:
        option.help = _("show this help and exit", "afficher cette aide et quitter")
    return option


class Command(click.Command):
    context_class = Context

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _help_option(super().get_help_option(ctx))


class Group(click.Group):
    context_class = Context
    command_class = Command

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _help_option(super().get_help_option(ctx))


class Failure(Exception):
    """A one-line error for the user (exit 2)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


def fail(en: str, fr: str) -> NoReturn:
    raise Failure(Text(en, fr))


def fail_with(exc: BilingualError) -> NoReturn:
    raise Failure(exc.text)


def lang_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--lang",
        type=OneOf(UI, ("en", "fr")),
        default=UI,
        show_default=True,
        help=_(
            "language of messages (default: LOVELETTER_LANG, then the locale)",
            "langue des messages (par défaut : LOVELETTER_LANG, puis la locale)",
        ),
    )(f)


RULESET_HELP = _("2019, 2019-classic, 2012 or princess-princess", "2019, 2019-classic, 2012 ou princess-princess")
FILE_HELP = _("a JSONL game log, or a JSON transcript", "un journal de partie JSONL, ou une transcription JSON")


@click.group(
    cls=Group,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=_(
        "Love Letter referee: serve, replay, audit, explain, show, simulate, demo.",
        "Arbitre de Love Letter : servir, rejouer, auditer, expliquer, raconter, simuler, démontrer.",
    ),
)
@click.version_option(
    None,
    "-V",
    "--version",
    package_name="loveletter-referee",
    prog_name="loveletter",
    message="%(prog)s %(version)s",
    help=_("print the version and exit", "afficher la version et quitter"),
)
@click.option(
    "--lang",
    type=OneOf(UI, ("en", "fr")),
    expose_value=False,
    help=_("language of messages, for every command", "langue des messages, pour toutes les commandes"),
)
def app() -> None:
    pass


@app.command(
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
    help=_("simulation seed: same seed, same games", "graine de la simulation : même graine, mêmes parties"),
)
@click.option(
    "--bots",
    default="",
    metavar="BOT,BOT,…",
    help=_(
        "one bot per seat, comma-separated: heuristic, random",
        "un robot par siège, séparés par des virgules : heuristic, random",
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
        "a rule option (RULINGS §11), e.g. tie_2012=all or guard_unknown=miss; repeatable",
        "une option de règle (RULINGS §11), par exemple tie_2012=all ou guard_unknown=miss ; peut être donnée "
        "plusieurs fois",
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
    from loveletter.play.simulate import Config, SimulationError, parse_options, plot_format, render_summary
    from loveletter.play.simulate import simulate as run

    names = tuple(b.strip() for b in bots.split(",")) if bots else ("random",) * players
    try:
        config = Config(ruleset, players, games, seed, names, parse_options(rule_options))
        config.check()
    except SimulationError as exc:
        fail_with(exc)
    if as_json and as_csv:
        fail("--json and --csv cannot be used together", "--json et --csv ne vont pas ensemble : choisir l'un")
    if plot is not None and plot_format(str(plot)) is None:
        fail(
            f"--plot {plot}: the file's name must end in .png or .svg",
            f"--plot {plot} : le nom du fichier doit finir par .png ou .svg",
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
            fail(f"cannot write {log}: {reason.en}", f"impossible d'écrire {log} : {reason.fr}")
    if plot is not None:
        from loveletter.play.simulate import plot as draw

        try:
            draw(stats, str(plot), lang)
        except OSError as exc:
            reason = os_error(exc)
            fail(f"cannot write {plot}: {reason.en}", f"impossible d'écrire {plot} : {reason.fr}")
    if as_json:
        import orjson

        from loveletter.play.simulate import statistics

        print(orjson.dumps(statistics(stats), option=orjson.OPT_INDENT_2).decode())
    elif as_csv:
        from loveletter.play.simulate import render_csv

        sys.stdout.write(render_csv(stats))
    else:
        Console().print(render_summary(stats, lang))


@app.command(
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


FILE = click.argument("file", type=click.Path(path_type=Path), metavar="FILE")


@app.command(
    help=_(
        "Replay a log or a transcript through the rules: exit 0 verified, 1 violation, 2 unreadable.",
        "Rejouer un journal ou une transcription selon les règles : code 0 vérifié, 1 infraction, 2 illisible.",
    )
)
@FILE
@click.option("--json", "as_json", is_flag=True, help=_("print the report as JSON", "afficher le rapport en JSON"))
@click.option(
    "--lenient",
    is_flag=True,
    help=_("report every problem, not just the first", "signaler chaque problème, pas seulement le premier"),
)
@click.option(
    "--emit-log",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    metavar="FILE",
    help=_("write the event log a transcript expands to", "écrire le journal d'événements que donne une transcription"),
)
@lang_option
def replay(file: Path, as_json: bool, lenient: bool, emit_log: Path | None, lang: Lang) -> None:
    from loveletter.replays.report import expanded_log, render_json, render_text, replay_file

    report = replay_file(str(file), lenient=lenient)
    print(render_json(report, lang) if as_json else render_text(report, lang))
    if emit_log is not None and report.expanded:
        try:
            emit_log.write_bytes(expanded_log(report))
        except OSError as exc:
            reason = os_error(exc)
            fail(f"cannot write {emit_log}: {reason.en}", f"impossible d'écrire {emit_log} : {reason.fr}")
    sys.exit(report.exit_code)


@app.command(
    help=_(
        "Judge the turns that follow a position described mid-round, every way the unseen cards can lie: the cases "
        "and their chances. Exit 0 judged, 1 impossible position, 2 unreadable.",
        "Juger les tours qui suivent une position décrite en cours de manche, de toutes les façons dont les cartes "
        "non vues peuvent se trouver : les cas et leurs chances. Code 0 jugé, 1 position impossible, 2 illisible.",
    )
)
@FILE
@click.option("--json", "as_json", is_flag=True, help=_("print the answer as JSON", "afficher la réponse en JSON"))
@lang_option
def situation(file: Path, as_json: bool, lang: Lang) -> None:
    from loveletter.events.codec import json_reason
    from loveletter.replays.report import Unreadable, cannot_read
    from loveletter.replays.situations import SituationError, describe, judge

    try:
        doc = orjson.loads(file.read_bytes())
    except OSError as exc:
        fail_with(Unreadable(cannot_read(str(file), exc)))
    except orjson.JSONDecodeError as exc:
        fail(
            f"invalid JSON in {file}: {exc}",
            f"JSON invalide dans {file} : {json_reason(exc).fr} (ligne {exc.lineno}, colonne {exc.colno})",
        )
    try:
        result = judge(doc)
    except SituationError as exc:
        if exc.rule_id is None:
            fail_with(exc)
        where = f" ({exc.where})" if exc.where else ""
        if as_json:
            print(orjson.dumps({"possible": False, "rule_id": exc.rule_id, "message": exc.message(lang)}).decode())
        else:
            print(
                f"{file}{where}: {exc.rule_id}: {exc.message(lang)}"
                if lang == "en"
                else f"{file}{where} : {exc.rule_id} : {exc.message(lang)}"
            )
        sys.exit(1)
    if as_json:
        answer = {
            "possible": True,
            "players": list(result.players),
            "ruleset": result.ruleset,
            "unseen": {card.value: k for card, k in sorted(result.unseen.items())},
            "ways": result.ways,
            "complete": result.complete,
            "cases": [case.as_dict(lang) for case in result.cases],
        }
        print(orjson.dumps(answer, option=orjson.OPT_INDENT_2).decode())
    else:
        print("\n".join(describe(result, lang)))


@app.group(
    cls=Group, help=_("Bots that play at a referee over HTTP.", "Des robots qui jouent chez un arbitre, par HTTP.")
)
def bot() -> None:
    pass


@bot.command(
    "run",
    help=_(
        "Play one seat with the bot MODULE:NAME (a function or class given the seat's game, answering one of its "
        "legal moves) until the game ends: a game by its invite, or the first open public seat of the lobby.",
        "Jouer un siège avec le robot MODULE:NOM (une fonction ou une classe qui reçoit la partie du siège et "
        "répond l'un de ses coups légaux) jusqu'à la fin de la partie : une partie par son invitation, ou le "
        "premier siège ouvert d'une partie publique du salon.",
    ),
)
@click.argument("spec", metavar="MODULE:NAME")
@click.option("--server", default="http://127.0.0.1:8000", show_default=True, help=_("the referee", "l'arbitre"))
@click.option("--game", "game_id", default=None, metavar="ID", help=_("the game to join", "la partie à rejoindre"))
@click.option("--invite", default=None, metavar="CODE", help=_("its invite", "son invitation"))
@click.option(
    "--join-open", is_flag=True, help=_("take the lobby's first open seat", "prendre le premier siège ouvert du salon")
)
@click.option("--name", default="bot", show_default=True, help=_("the seat's name", "le nom du siège"))
@click.option(
    "--seed",
    type=Integer(UI),
    default=None,
    help=_(
        "seed of a built-in bot's random choices (heuristic, random)",
        "graine des choix au hasard d'un robot intégré (heuristic, random)",
    ),
)
@click.option(
    "--jsonl",
    is_flag=True,
    help=_(
        "print a JSON line for each refused move and for a crash; a refused move is then left to the game's clock "
        "instead of stopping the bot (as loveletter tournament runs its bots)",
        "écrire une ligne JSON par coup refusé et si le robot échoue ; un coup refusé est alors laissé à la "
        "pendule de la partie au lieu d'arrêter le robot (ainsi loveletter tournament lance ses robots)",
    ),
)
@lang_option
def bot_run(
    spec: str,
    server: str,
    game_id: str | None,
    invite: str | None,
    join_open: bool,
    name: str,
    seed: int | None,
    jsonl: bool,
    lang: Lang,
) -> None:
    from loveletter.client import Client, RefereeError
    from loveletter.play.harness import load, play

    try:
        player = load(spec, seed)
    except (ImportError, AttributeError, ValueError) as exc:
        fail(
            f"cannot load the bot {spec}: {exc}",
            f"impossible de charger le robot {spec} : module ou nom introuvable, ou écrit autrement que MODULE:NOM",
        )
    if (game_id is None) == (not join_open):
        fail("give --game ID (with --invite) or --join-open", "donnez --game ID (avec --invite) ou --join-open")

    def said(item: dict[str, Any]) -> None:
        print(orjson.dumps(item).decode(), flush=True)

    def refused(refusal: RefereeError) -> None:
        said({"refused": refusal.code, "rule_id": refusal.rule_id, "status": refusal.status})

    with Client(server, language=lang) as anyone:
        try:
            if join_open:
                game_id = next((g.game_id for g in anyone.lobby(status="open")), None)
                if game_id is None:  # told by the referee's answer, as a refusal is (tests/test_bot_harness.py)
                    fail_with(
                        BilingualError(
                            Text("no public game has an open seat", "aucune partie publique n'a de siège ouvert")
                        )
                    )
            assert game_id is not None
            joined = anyone.join(game_id, name, invite=invite)
            final = play(anyone.seat(joined.token), game_id, player, on_refused=refused if jsonl else None)
        except RefereeError as exc:
            fail_with(BilingualError(Text(f"the referee refused: {exc}", f"l'arbitre a refusé : {exc}")))
        except httpx.TransportError as exc:
            fail(f"cannot reach {server}: {exc}", f"impossible de joindre {server} (est-il démarré ?)")
        except Failure:
            raise
        except Exception as exc:  # the bot's own code failed: say so, and where
            import traceback

            traceback.print_exc()
            if jsonl:
                said({"crashed": f"{type(exc).__name__}: {exc}"})
            fail(
                f"the bot {spec} failed: {type(exc).__name__}: {exc}",
                f"le robot {spec} a échoué : {type(exc).__name__} : {exc}",
            )
    winners = ", ".join(final.players[w] for w in final.view.winners) or "—"
    print(
        f"{name} (siège {joined.seat}) : partie {game_id} terminée, gagnants : {winners}"
        if lang == "fr"
        else f"{name} (seat {joined.seat}): game {game_id} over, winners: {winners}"
    )


@app.command(
    help=_(
        "Rank bots: many games with the seats rotated and, in process, duplicate deals (each set of shuffles played "
        "once per rotation); OpenSkill ratings with 95% intervals and a head-to-head table. In process by default, "
        "or over HTTP (--server, --serve) with each bot in its own process and every game on a turn clock.",
        "Classer des robots : de nombreuses parties, sièges en rotation et, dans le processus, donnes rejouées "
        "(chaque jeu de mélanges joué une fois par rotation) ; notes OpenSkill avec intervalles à 95 % et tableau "
        "des face-à-face. Dans le processus par défaut, ou par HTTP (--server, --serve), chaque robot dans son "
        "propre processus et chaque partie avec une pendule.",
    )
)
@click.option(
    "--bots",
    required=True,
    metavar="BOT,BOT,…",
    help=_(
        "the entrants, comma-separated: heuristic, random or MODULE:NAME (a bot of your own)",
        "les participants, séparés par des virgules : heuristic, random ou MODULE:NOM (un robot à vous)",
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
    help=_("tournament seed: same seed, same games", "graine du tournoi : même graine, mêmes parties"),
)
@click.option(
    "--option",
    "rule_options",
    multiple=True,
    metavar="KEY=VALUE",
    help=_("a rule option (RULINGS §11); repeatable", "une option de règle (RULINGS §11) ; peut être répétée"),
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
        "avec --server : le jeton d'administration de l'arbitre, pour que les parties d'une série aient les "
        "mêmes donnes",
    ),
)
@click.option(
    "--turn-seconds",
    type=Integer(UI, 1),
    default=10,
    show_default=True,
    help=_("over HTTP: each decision's clock", "par HTTP : la pendule de chaque décision"),
)
@click.option(
    "--on-timeout",
    type=OneOf(UI, ("resign", "bot")),
    default="resign",
    show_default=True,
    help=_(
        "over HTTP: when a clock runs out, the seat resigns (it finishes last), or the referee's bot plays for it",
        "par HTTP : quand une pendule tombe, le siège abandonne (il finit dernier), ou le robot de l'arbitre joue "
        "pour lui",
    ),
)
@click.option(
    "--parallel",
    type=Integer(UI, 1),
    default=2,
    show_default=True,
    help=_("over HTTP: games played at once", "par HTTP : parties jouées en même temps"),
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
    server: str | None,
    serve: bool,
    admin_token: str | None,
    turn_seconds: int,
    on_timeout: str,
    parallel: int,
    lang: Lang,
) -> None:
    from loveletter.play.simulate import SimulationError, parse_options, plot_format
    from loveletter.play.tournament import Config, TournamentError, load_bots

    try:
        names = tuple(b.strip() for b in bots.split(",") if b.strip())
        config = Config(names, players, ruleset, games, seed, parse_options(rule_options), duplicate)
        config.check()
        load_bots(config.bots)
    except (TournamentError, SimulationError) as exc:
        fail_with(exc)
    if as_json and as_csv:
        fail("--json and --csv cannot be used together", "--json et --csv ne vont pas ensemble : choisir l'un")
    if server is not None and serve:
        fail("--server and --serve cannot be used together", "--server et --serve ne vont pas ensemble : choisir l'un")
    if plot is not None and plot_format(str(plot)) is None:
        fail(
            f"--plot {plot}: the file's name must end in .png or .svg",
            f"--plot {plot} : le nom du fichier doit finir par .png ou .svg",
        )
    over_http = server is not None or serve
    err = Console(stderr=True)
    columns = (
        TextColumn(_("tournament", "tournoi")),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(lang),
        TimeRemainingColumn(),
    )
    try:
        fp = open(log, "wb") if log is not None else None  # noqa: SIM115 - closed below, after every game
    except OSError as exc:
        reason = os_error(exc)
        fail(f"cannot write {log}: {reason.en}", f"impossible d'écrire {log} : {reason.fr}")
    started = time.perf_counter()
    try:
        with Progress(*columns, console=err, transient=True, disable=not err.is_terminal) as progress:
            task = progress.add_task("games", total=games)

            def on_game(_: object) -> None:
                progress.advance(task)

            if over_http:
                outcomes = _tournament_over_http(
                    config, server, admin_token, turn_seconds, on_timeout, parallel, fp, on_game
                )
            else:
                from loveletter.play.tournament import run_in_process

                outcomes = run_in_process(config, fp, on_game)
    except OSError as exc:
        reason = os_error(exc)
        fail(f"cannot write {log}: {reason.en}", f"impossible d'écrire {log} : {reason.fr}")
    finally:
        if fp is not None:
            fp.close()
    seconds = time.perf_counter() - started
    from loveletter.play.ratings import render_csv, render_tables, results

    figures = results(config, outcomes, seconds, "http" if over_http else "in-process")
    if plot is not None:
        from loveletter.play.ratings import plot as draw

        try:
            draw(config, outcomes, str(plot), lang)
        except OSError as exc:
            reason = os_error(exc)
            fail(f"cannot write {plot}: {reason.en}", f"impossible d'écrire {plot} : {reason.fr}")
    if as_json:
        print(orjson.dumps(figures, option=orjson.OPT_INDENT_2).decode())
    elif as_csv:
        sys.stdout.write(render_csv(figures))
    else:
        console = Console() if sys.stdout.isatty() else Console(width=120)  # a file or a pipe: the same text always
        for table in render_tables(figures, lang):
            console.print(table)


def _tournament_over_http(
    config: Any,
    server: str | None,
    admin_token: str | None,
    turn_seconds: int,
    on_timeout: str,
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
            http = HttpConfig(server, turn_seconds, on_timeout, parallel, admin_token=admin_token)
            return run_over_http(config, http, log, on_game)
    except HttpTournamentError as exc:
        fail_with(exc)


def _load_events(file: Path) -> list[Any]:
    """The events of the single game in a log or a transcript (one-line error, exit 2, if unreadable)."""
    from loveletter.replays.one_game import NotOneGame, one_game
    from loveletter.replays.report import Unreadable, read_input

    try:
        data, doc = read_input(str(file))
        return one_game(data if doc is None else doc, str(file))
    except (Unreadable, NotOneGame) as exc:
        fail_with(exc)


def _at(written: str, events: list[Any]) -> int:
    """--at as an event number or as people say it ("round 2, Bob's third turn"); one-line error otherwise."""
    from loveletter.replays.position import PositionError, turn_seq

    try:
        return turn_seq(events, written)
    except PositionError as exc:
        fail_with(exc)


def _check_at(at: int, events: list[Any]) -> None:
    if not 0 < at <= len(events):
        fail(
            f"--at must be a seq from 1 to {len(events)}", f"--at doit être un numéro d'événement de 1 à {len(events)}"
        )


@app.command(
    help=_(
        "Was this move legal at this point, under which rule, and what would it cause?",
        "Ce coup était-il légal à ce moment, selon quelle règle, et qu'aurait-il entraîné ?",
    )
)
@FILE
@click.option(
    "--at",
    default=None,
    metavar="WHEN",
    help=_(
        "judge the move after this event number, or at this turn ('round 2, Bob's third turn'); default: the end "
        "of the file",
        "juger le coup après cet événement (numéro), ou à ce tour (« manche 2, troisième tour de Bob ») ; par "
        "défaut : la fin du fichier",
    ),
)
@click.option(
    "--move",
    default=None,
    metavar="JSON",
    help=_(
        'the move, e.g. \'{"player": "Bob", "card": "guard", …}\'; without it, the decision pending there and '
        "every legal way to make it",
        'le coup, par exemple \'{"player": "Bob", "card": "guard", …}\' ; sans lui, la décision attendue à ce '
        "moment et toutes les façons légales de la prendre",
    ),
)
@click.option("--json", "as_json", is_flag=True, help=_("print the ruling as JSON", "afficher la décision en JSON"))
@lang_option
def explain(file: Path, at: str | None, move: str | None, as_json: bool, lang: Lang) -> None:
    import orjson

    from loveletter.replays.rulings import MoveFormatError, render_ruling
    from loveletter.replays.rulings import explain as judge

    events = _load_events(file)
    point = len(events) if at is None else _at(at, events)
    _check_at(point, events)
    if move is None:
        _pending(events, point, as_json, lang)
        return
    try:
        ruling = judge(events, point, orjson.loads(move), lang)
    except orjson.JSONDecodeError as exc:
        from loveletter.events.codec import json_reason

        reason = json_reason(exc)
        fail(f"--move is not JSON: {exc}", f"--move n'est pas du JSON valide ({reason.fr}, position {exc.pos})")
    except MoveFormatError as exc:
        fail(f"--move: {exc.message('en')}", f"--move : {exc.message('fr')}")
    if as_json:
        print(orjson.dumps(ruling.as_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        print(render_ruling(ruling, lang))
    sys.exit(0 if ruling.legal else 1)


def _pending(events: list[Any], at: int, as_json: bool, lang: Lang) -> None:
    """Where the game stands after event `at`, whose decision is pending, and every legal way to make it."""
    import orjson

    from loveletter.replays.position import position_at, render_position

    where = position_at(events, at)
    if as_json:
        print(orjson.dumps({"at": at, **where.as_dict(lang), "legal_moves": where.legal_moves}).decode())
    else:
        print(render_position(where, at, lang))


@app.command(
    help=_(
        "Tell a game as a story (--pov: as one seat lived it; --all: every hidden card, once the game is over), "
        "or (with --at/--seat) what a seat knew at a point.",
        "Raconter une partie (--pov : telle qu'un siège l'a vécue ; --all : toutes les cartes cachées, une fois la "
        "partie terminée), ou (avec --at/--seat) ce qu'un siège savait à un moment donné.",
    )
)
@FILE
@click.option(
    "--at",
    default=None,
    metavar="WHEN",
    help=_(
        "show the state after this event number, or at this turn ('round 2, Bob's third turn')",
        "montrer l'état après cet événement (numéro), ou à ce tour (« manche 2, troisième tour de Bob »)",
    ),
)
@click.option(
    "--seat",
    default=None,
    metavar="SEAT",
    help=_("whose view (a name or seat number)", "le point de vue de qui (un nom ou un numéro de siège)"),
)
@click.option(
    "--pov",
    default=None,
    metavar="SEAT",
    help=_(
        "tell the story as this seat lived it (a name or seat number)",
        "raconter la partie telle que ce siège l'a vécue (un nom ou un numéro de siège)",
    ),
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help=_(
        "tell the story with every hidden card (only once the game is over)",
        "raconter la partie avec toutes les cartes cachées (seulement une fois la partie terminée)",
    ),
)
@lang_option
def show(file: Path, at: str | None, seat: str | None, pov: str | None, everything: bool, lang: Lang) -> None:
    import orjson

    from loveletter.replays.narrative import narrate
    from loveletter.replays.pov import narrate_pov
    from loveletter.replays.replay import check
    from loveletter.replays.rulings import seat_view_at

    events = _load_events(file)
    first = events[0].event if hasattr(events[0], "event") else events[0]
    players = list(first.players)
    point = None if at is None else _at(at, events)
    if pov is not None or everything or (point is None and seat is None):
        if point is not None:
            _check_at(point, events)
            events = events[:point]
        result = check(events, lenient=True)
        flagged = [p.seq for p in result.problems if p.seq is not None]
        plain = [e.event if hasattr(e, "event") else e for e in events]
        if everything:
            if not result.state.over:
                fail(
                    "--all tells every hidden card: only once the game is over, and this one is not",
                    "--all dévoile toutes les cartes cachées : seulement une fois la partie terminée, et elle ne "
                    "l'est pas",
                )
            story = narrate(plain, lang, flagged, omniscient=True)
        elif pov is not None:
            story = narrate_pov(plain, _seat_of(pov, players, "--pov"), lang, flagged)
        else:
            story = narrate(plain, lang, flagged)
        for line in story:
            print(line)
        sys.exit(0 if result.ok else 1)
    point = len(events) if point is None else point
    _check_at(point, events)
    who = None if seat is None else _seat_of(seat, players, "--seat")
    print(orjson.dumps(seat_view_at(events, point, who), option=orjson.OPT_INDENT_2).decode())


def _seat_of(value: str, players: list[str], option: str) -> int:
    """A seat given on the command line, by name or number (one-line error otherwise)."""
    if value.isascii() and value.isdigit() and int(value) < len(players):
        return int(value)
    if value in players:
        return players.index(value)
    listed = ", ".join(players)
    fail(f"{option} {value!r} is not a player ({listed})", f"{option} « {value} » n'est pas un joueur ({listed})")


@app.command(
    help=_(
        "Audit logs: sequence, hash chain, signature, seed commitment, every deck and every move. "
        "Exit 0 all valid, 1 a problem found, 2 unreadable.",
        "Auditer des journaux : ordre, chaîne de hachage, signature, engagement de graine, chaque paquet "
        "et chaque coup. Code 0 tout est valide, 1 un problème trouvé, 2 illisible.",
    )
)
@click.argument("files", type=click.Path(path_type=Path), nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help=_("print the report as JSON", "afficher le rapport en JSON"))
@click.option(
    "--strict/--lenient",
    default=True,
    show_default=True,
    help=_(
        "stop each game at its first problem, or report them all",
        "arrêter chaque partie à son premier problème, ou les signaler tous",
    ),
)
@click.option(
    "--key",
    default=None,
    metavar="KEY",
    help=_(
        "the referee's public key (64 hex digits, or a file holding them)",
        "la clé publique de l'arbitre (64 chiffres hexadécimaux, ou un fichier qui les contient)",
    ),
)
@click.option(
    "--require-signature",
    is_flag=True,
    help=_(
        "an unsigned game is a problem, not a note", "une partie non signée est un problème, pas une simple remarque"
    ),
)
@click.option(
    "--jobs",
    type=Integer(UI, 1),
    default=None,
    help=_("worker processes (default: every core)", "processus de travail (par défaut : un par cœur)"),
)
@click.option(
    "--per-game",
    is_flag=True,
    help=_(
        "after the summary, a verdict for every game (without it: only the invalid games' problems)",
        "après le bilan, un verdict pour chaque partie (sans elle : seulement les problèmes des parties invalides)",
    ),
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help=_(
        "show the progress in games on stderr (default: only on a terminal)",
        "afficher l'avancement en parties sur la sortie d'erreur (par défaut : seulement dans un terminal)",
    ),
)
@lang_option
def audit(
    files: tuple[Path, ...],
    as_json: bool,
    strict: bool,
    key: str | None,
    require_signature: bool,
    jobs: int | None,
    per_game: bool,
    progress: bool | None,
    lang: Lang,
) -> None:
    from loveletter.replays.audit import Options, UnreadableLog, default_jobs, normalise_key, stream_file
    from loveletter.replays.audit_report import Listing
    from loveletter.replays.report import cannot_read

    pinned = None
    if key is not None:
        text = key
        if not _is_hex_key(key):
            try:
                text = Path(key).read_text().strip()
            except OSError as exc:
                reason = os_error(exc)
                fail(
                    f"--key is neither 64 hex digits nor a readable file: {reason.en}",
                    f"--key n'est ni 64 chiffres hexadécimaux ni un fichier lisible : {reason.fr}",
                )
        try:
            pinned = normalise_key(text)
        except ValueError as exc:
            message = exc.message(lang) if isinstance(exc, BilingualError) else str(exc)
            fail(f"--key: {exc}", f"--key : {message}")
    workers = default_jobs() if jobs is None else jobs
    options = Options(lenient=not strict, key=pinned, require_signature=require_signature)
    err = Console(stderr=True)
    shown = err.is_terminal if progress is None else progress
    listings = []
    with _GameProgress(err, lang, shown) as bar:
        for file in files:
            listing = Listing(str(file), lang, as_json=as_json, every=per_game)
            bar.start(file.name)
            try:
                for games in stream_file(str(file), options, workers, bar.update):
                    listing.add(games)
            except OSError as exc:
                listing.failure = cannot_read(str(file), exc)
            except UnreadableLog as exc:
                listing.failure, listing.error_line = exc.text, exc.line
            bar.stop()
            if as_json:
                listings.append(listing)
                continue
            listing.write(sys.stdout)
            if listing.failure is not None:
                said = Text(f"error: {listing.path}: ", f"erreur : {listing.path} : ")(lang)
                print(said + listing.failure(lang), file=sys.stderr)
            listings.append(listing)
    if as_json:
        if len(listings) > 1:
            sys.stdout.write('{"files": [\n')
        for i, listing in enumerate(listings):
            if i:
                sys.stdout.write(",\n")
            listing.write(sys.stdout)
        sys.stdout.write("\n]}\n" if len(listings) > 1 else "\n")
    sys.exit(max(listing.exit_code for listing in listings))


class _GameProgress:
    """The audit's progress in games, with their rate and the time left, on stderr: a live bar on a terminal;
    asked for elsewhere (`--progress`), a plain line every few seconds and one at the end of each file."""

    EVERY = 2.0

    def __init__(self, err: Console, lang: Lang, shown: bool) -> None:
        self.err, self.lang, self.shown = err, lang, shown
        self.live = shown and err.is_terminal
        self.name = ""
        self.started = self.said = 0.0
        self.done = self.total = 0
        columns = (
            TextColumn(Text("auditing", "audit de")(lang) + " {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(Text("games", "parties")(lang)),
            _RateColumn(lang),
            TimeRemainingColumn(),
        )
        self.bar = Progress(*columns, console=err, transient=True, disable=not self.live)
        self.task: Any = None

    def __enter__(self) -> _GameProgress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)

    def start(self, name: str) -> None:
        self.name, self.done, self.total = name, 0, 0
        self.started = self.said = time.monotonic()
        if self.live:
            self.task = self.bar.add_task(name, total=None)

    def update(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self.live:
            self.bar.update(self.task, completed=done, total=total)
        elif self.shown and time.monotonic() - self.said >= self.EVERY:
            self.said = time.monotonic()
            self._line()

    def stop(self) -> None:
        if self.live:
            self.bar.remove_task(self.task)
        elif self.shown:
            self._line()

    def _line(self) -> None:
        """ "auditing big.jsonl: 4,000/20,000 games, 1,150 games/s, 14 s left" """
        fr = self.lang == "fr"
        seconds = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / seconds
        left = (self.total - self.done) / rate if rate else 0.0
        count = number(f"{self.done:,}/{self.total:,}", self.lang)
        speed = number(f"{rate:,.0f}", self.lang)
        when = _duration(left)
        if fr:
            text = f"audit de {self.name} : {count} parties, {speed} parties/s, encore {when}"
        else:
            text = f"auditing {self.name}: {count} games, {speed} games/s, {when} left"
        print(text, file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    """14 s, 2 min 05 s."""
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"


class _RateColumn(ProgressColumn):
    """Games audited per second."""

    def __init__(self, lang: Lang) -> None:
        super().__init__()
        self.unit = Text("games/s", "parties/s")(lang)
        self.lang = lang

    def render(self, task: Task) -> RichText:
        speed = task.speed
        return RichText("" if speed is None else f"{number(f'{speed:,.0f}', self.lang)} {self.unit}")


def _is_hex_key(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text)


@app.command(
    help=_(
        "Run the HTTP referee (settings also come from LOVELETTER_* environment variables).",
        "Lancer l'arbitre HTTP (les réglages viennent aussi des variables d'environnement LOVELETTER_*).",
    )
)
@click.option(
    "--host",
    default=None,
    help=_("address to listen on (default 127.0.0.1)", "adresse d'écoute (par défaut 127.0.0.1)"),
)
@click.option("--port", type=Integer(UI, 1), default=None, help=_("port (default 8000)", "port (par défaut 8000)"))
@click.option(
    "--workers",
    type=Integer(UI, 1),
    default=None,
    help=_("worker processes; more than one needs PostgreSQL", "processus de travail ; plus d'un demande PostgreSQL"),
)
@click.option(
    "--database-url",
    default=None,
    metavar="URL",
    help=_("sqlite:///file.db (default) or postgresql://…", "sqlite:///fichier.db (par défaut) ou postgresql://…"),
)
@lang_option
def serve(host: str | None, port: int | None, workers: int | None, database_url: str | None, lang: Lang) -> None:
    from pydantic import ValidationError

    from loveletter.api.settings import Settings
    from loveletter.server.serve import ServeError
    from loveletter.server.serve import serve as run

    given = {"host": host, "port": port, "workers": workers, "database_url": database_url}
    try:
        settings = Settings(**{k: v for k, v in given.items() if v is not None})
        run(settings, lang)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        fail(f"{where}: {first['msg']}", f"réglage {where} invalide (voir loveletter serve --help)")
    except ServeError as exc:
        fail_with(exc)


def main() -> None:
    """Entry point: usage errors are one line on stderr with exit code 2, never a traceback."""
    error = Text("error", "erreur")(UI)
    try:
        app.main(standalone_mode=False)
    except Failure as exc:
        print(f"{error}: {exc.text(UI)}" if UI == "en" else f"{error} : {exc.text(UI)}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except click.exceptions.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if exc.ctx else exc.format_message(), file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except click.UsageError as exc:
        name = exc.ctx.command.name if exc.ctx and exc.ctx.command and exc.ctx.command is not app else None
        hint = Text(f" (see: loveletter {name} --help)", f" (voir : loveletter {name} --help)")(UI) if name else ""
        sep = ": " if UI == "en" else " : "
        print(f"{error}{sep}{usage_error(exc)(UI)}{hint}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except click.ClickException as exc:
        print(f"{error}: {exc.format_message()}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt):
        print(Text("interrupted", "interrompu")(UI), file=sys.stderr)
        sys.exit(130)
    sys.exit(0)


if __name__ == "__main__":
    main()
