"""The `loveletter` command: the group every command belongs to, and the entry point (`main`, named in
pyproject's `[project.scripts]`) that turns every error into one line on stderr in the user's language (`--lang`,
else `LOVELETTER_LANG`, else the locale).

Each family of commands lives in a module of its own: `logs` (replay, audit, show), `disputes` (explain,
situation), `analyse`, `play` (simulate, demo), `tournament`, `bots` (bot run), `ratings`, `solve` and `serve`;
what they share is in `options` (the language, click's classes, the shared options), `failures`, `game_file` and
`progress`.
"""

from __future__ import annotations

import importlib
import sys

import click

from loveletter.cli.failures import Failure
from loveletter.cli.options import UI, Group, _
from loveletter.cli.text import OneOf, usage_error
from loveletter.core.lang import Text

EXIT_USAGE = 2


COMMANDS = {
    "serve": "serve",
    "replay": "logs",
    "audit": "logs",
    "show": "logs",
    "explain": "disputes",
    "situation": "disputes",
    "analyse": "analyse",
    "simulate": "play",
    "demo": "play",
    "tournament": "tournament",
    "bot": "bots",
    "ratings": "ratings",
    "solve": "solve",
    "backup": "backup",
    "verify-store": "backup",
}
"""Each command and the module of `loveletter.cli` it lives in."""


class Commands(Group):
    """The `loveletter` group, which imports a command's module only when that command is run (or help lists them
    all): `loveletter serve` starts without loading the engine, the analysis and the tournament harness."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in COMMANDS:
            return None
        module = importlib.import_module(f"loveletter.cli.{COMMANDS[name]}")
        command: click.Command = getattr(module, name.replace("-", "_"))
        return command


@click.group(
    cls=Commands,
    context_settings={"help_option_names": ["-h", "--help"]},
    help=_(
        "Love Letter referee: serve, replay, audit, show, explain, situation, analyse, simulate, demo, tournament, "
        "bot, ratings, solve, backup, verify-store.",
        "Arbitre de Love Letter : servir, rejouer, auditer, raconter, expliquer, juger une situation, analyser, "
        "simuler, démontrer, organiser un tournoi, faire jouer un robot, recalculer les classements, résoudre, "
        "sauvegarder, vérifier un stockage.",
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


def main() -> None:
    """Entry point: usage errors are one line on stderr with exit code 2, never a traceback."""
    error = Text("error", "erreur")(UI)
    try:
        app.main(standalone_mode=False)
    except Failure as exc:
        print(f"{error}: {exc.text(UI)}" if UI == "en" else f"{error} : {exc.text(UI)}", file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except click.exceptions.NoArgsIsHelpError as exc:
        print(exc.ctx.get_help() if exc.ctx else exc.format_message(), file=sys.stderr)
        sys.exit(EXIT_USAGE)
    except click.UsageError as exc:
        name = exc.ctx.command.name if exc.ctx and exc.ctx.command and exc.ctx.command is not app else None
        hint = Text(f" (see: loveletter {name} --help)", f" (voir : loveletter {name} --help)")(UI) if name else ""
        sep = ": " if UI == "en" else " : "
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
