"""What the page benchmarks share: Debian's Chromium, and a referee of their own on a throwaway SQLite store."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from bench.api_load import start_server, stop
from loveletter.events.pgcluster import free_port


def chromium_path() -> str:
    found = shutil.which("chromium")
    if found is None:
        raise SystemExit("Debian's chromium is needed (apt-get install chromium)")
    return found


@contextmanager
def referee(prefix: str) -> Iterator[tuple[str, int]]:
    """A referee on 127.0.0.1 for the length of the block: its base URL and port; its folder goes afterwards."""
    folder = tempfile.mkdtemp(prefix=prefix)
    port = free_port()
    env = {
        "LOVELETTER_DATABASE_URL": f"sqlite:///{folder}/referee.db",
        "LOVELETTER_KEY_PATH": os.path.join(folder, "signing.key"),
        "LOVELETTER_LOG_LEVEL": "warning",
    }
    server = start_server("loveletter.server.app:create_app", port, env)
    try:
        yield f"http://127.0.0.1:{port}", port
    finally:
        stop(server)
        shutil.rmtree(folder, ignore_errors=True)
