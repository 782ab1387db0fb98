"""A throwaway PostgreSQL cluster in a temporary directory, for tests and benchmarks.

Finds `initdb`/`pg_ctl` on PATH or in Debian's /usr/lib/postgresql/*/bin. initdb refuses to run as
root, so as root the cluster is owned and run by the `postgres` user (created by Debian's package).
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    pass


def find_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for candidate in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), reverse=True):
        return candidate
    raise PostgresUnavailable(f"{name} not found: install PostgreSQL (apt-get install postgresql)")


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TempCluster:
    """`with TempCluster() as url:` a fresh database URL; the cluster is stopped and removed after."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="loveletter-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        proc = subprocess.run([*self._as, *args], capture_output=True, text=True, timeout=120)
        if proc.returncode != 0:
            raise PostgresUnavailable(f"{' '.join(args[:2])} failed: {proc.stderr.strip() or proc.stdout.strip()}")

    def start(self) -> str:
        initdb = find_bin("initdb")
        self._run(initdb, "-D", str(self.data), "-U", "loveletter", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.start_server()
        return self.url

    def start_server(self) -> None:
        """Start the cluster's server (again, after `stop_server`), on the same port and data."""
        opts = f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} -c max_connections=200"
        self._run(find_bin("pg_ctl"), "-D", str(self.data), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def stop_server(self, mode: str = "fast") -> None:
        """Stop the server and keep the data (a database restart: `start_server` brings it back). `fast` ends
        every session and checkpoints; `immediate` is a crash (recovery from the WAL at the next start)."""
        self._run(find_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    @property
    def url(self) -> str:
        return f"postgresql://loveletter@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        with contextlib.suppress(PostgresUnavailable):
            self._run(find_bin("pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> str:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc: object) -> None:
        self.stop()
