"""`loveletter serve`: the HTTP referee started from the command line (`server.serve`), its settings from the
options given, else from the `LOVELETTER_*` environment variables."""

from __future__ import annotations

import click

from loveletter.cli.failures import fail, fail_with
from loveletter.cli.options import UI, _, command, lang_option
from loveletter.cli.text import Integer
from loveletter.core.lang import Lang


@command(
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
    help=_("worker processes; more than one needs PostgreSQL", "processus de travail ; plus d'un demande PostgreSQL"),
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

    from loveletter.server.serve import ServeError
    from loveletter.server.serve import serve as run
    from loveletter.server.settings import Settings

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
