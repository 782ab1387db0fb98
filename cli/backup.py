"""`loveletter backup DEST`: a consistent copy of the referee's live SQLite store, then every game of the copy audited;
`loveletter verify-store`: the same audit of a store in place (a restored SQLite file, or a PostgreSQL database after
`pg_restore`). docs/operations.md says how to back up and restore both stores."""

from __future__ import annotations

import sys
import time

import click

from loveletter.cli.failures import fail, fail_with
from loveletter.cli.options import _, command, lang_option
from loveletter.core.lang import Lang, Text, number

URL_HELP = _(
    "the store (default: LOVELETTER_DATABASE_URL, else sqlite:///loveletter.db)",
    "le stockage (par défaut : LOVELETTER_DATABASE_URL, sinon sqlite:///loveletter.db)",
)


def _url(given: str | None) -> str:
    from loveletter.server.settings import Settings

    return given or Settings().database_url


def _audited(url: str, lang: Lang) -> bool:
    """Audit every game of the store at `url`, with progress on stderr: whether it is whole (said on stdout)."""
    from loveletter.replays.store_audit import audit_store
    from loveletter.server.app import open_store
    from loveletter.server.settings import Settings

    store = open_store(Settings(database_url=url))
    shown = [0.0]

    def progress(done: int, total: int) -> None:
        if time.monotonic() - shown[0] > 0.5 or done == total:
            shown[0] = time.monotonic()
            fr = f"{number(done, 'fr')}/{number(total, 'fr')} parties auditées"
            said = Text(f"audited {done:,}/{total:,} games", fr)
            print(f"\r{said(lang)}", end="\n" if done == total else "", file=sys.stderr, flush=True)

    try:
        report = audit_store(store, progress)
    finally:
        store.close()
    games, events = f"{report.games:,}", f"{report.events:,}"
    if report.whole:
        said = Text(
            f"whole: {games} games ({report.finished:,} finished), {events} events, every one audited",
            f"intact : {number(report.games, 'fr')} parties ({number(report.finished, 'fr')} terminées), "
            f"{number(report.events, 'fr')} événements, tous audités",
        )
        print(said(lang))
        return True
    print(
        Text(f"NOT whole: {len(report.problems)} games fail", f"PAS intact : {len(report.problems)} parties en échec")(
            lang
        )
    )
    for problem in report.problems[:20]:
        print(f"  {problem}")
    return False


@command(
    help=_(
        "Copy the referee's SQLite store while it runs (SQLite's online backup), then audit every game of the copy.",
        "Copier le stockage SQLite de l'arbitre pendant qu'il tourne (la sauvegarde en ligne de SQLite), puis auditer "
        "chaque partie de la copie.",
    )
)
@click.argument("dest", metavar="DEST")
@click.option("--database-url", default=None, metavar="URL", help=URL_HELP)
@lang_option
def backup(dest: str, database_url: str | None, lang: Lang) -> None:
    from loveletter.events.backup import BackupError, backup_sqlite

    url = _url(database_url)
    if not url.startswith("sqlite:"):
        fail(
            "a PostgreSQL store is backed up with pg_dump (docs/operations.md); check the restored copy with "
            "loveletter verify-store",
            "un stockage PostgreSQL se sauvegarde avec pg_dump (docs/operations.md) ; vérifiez la copie restaurée "
            "avec loveletter verify-store",
        )
    source = url.removeprefix("sqlite:///").removeprefix("sqlite://")
    started = time.monotonic()
    try:
        size = backup_sqlite(source, dest)
    except BackupError as exc:
        fail_with(exc)
    seconds = time.monotonic() - started
    print(Text(f"copied {source} to {dest}: {size:,} bytes in {seconds:.2f} s",
               f"{source} copié vers {dest} : {number(size, 'fr')} octets en "
               f"{number(seconds, 'fr', 2)} s")(lang), file=sys.stderr)  # fmt: skip
    if not _audited(f"sqlite:///{dest}", lang):
        sys.exit(1)


@command(
    help=_(
        "Audit every game of a store in place (a restored backup): its events replayed through the rules and its hash "
        "chain checked. Exit 0 when whole, 1 when a game fails.",
        "Auditer chaque partie d'un stockage sur place (une sauvegarde restaurée) : ses événements rejoués selon les "
        "règles et sa chaîne d'empreintes vérifiée. Code 0 s'il est intact, 1 si une partie échoue.",
    )
)
@click.option("--database-url", default=None, metavar="URL", help=URL_HELP)
@lang_option
def verify_store(database_url: str | None, lang: Lang) -> None:
    if not _audited(_url(database_url), lang):
        sys.exit(1)
