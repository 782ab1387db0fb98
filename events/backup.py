"""A consistent copy of a live SQLite store: SQLite's online backup, while the referee goes on writing.

The copy is taken in one step over a read transaction of its own, so it holds the database exactly as it was at one
commit: every append acknowledged before the backup began is in it, and no half of a later one is. In WAL mode the
referee's writer is not held up meanwhile. A PostgreSQL store is copied with PostgreSQL's own `pg_dump`
(docs/operations.md).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from loveletter.core.lang import BilingualError, Text


class BackupError(BilingualError):
    pass


def backup_sqlite(source: str, dest: str) -> int:
    """Copy the SQLite database `source` to `dest` (a new file; an existing one is refused): the copy's size in
    bytes. The copy is written beside `dest` and renamed into place once whole."""
    if not Path(source).exists():
        raise BackupError(Text(f"no database at {source}", f"aucune base de données à {source}"))
    if Path(dest).exists():
        raise BackupError(
            Text(
                f"{dest} exists already: a backup never overwrites a file",
                f"{dest} existe déjà : une sauvegarde n'écrase jamais un fichier",
            )
        )
    partial = f"{dest}.partial"
    Path(partial).unlink(missing_ok=True)
    live = sqlite3.connect(source)  # reads only; the referee keeps writing through its own connection
    try:
        copy = sqlite3.connect(partial)
        try:
            live.backup(copy, pages=-1)  # one step: one read transaction, one commit's worth of the database
            (ok,) = copy.execute("PRAGMA integrity_check").fetchone()
            if ok != "ok":
                raise BackupError(Text(f"the copy is damaged: {ok}", f"la copie est abîmée : {ok}"))
            copy.execute("PRAGMA journal_mode=DELETE")  # a single file, with no -wal beside it
        finally:
            copy.close()
    finally:
        live.close()
    os.replace(partial, dest)
    return Path(dest).stat().st_size
