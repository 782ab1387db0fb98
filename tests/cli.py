"""The `loveletter` command as a user runs it: its entry point in a process of its own, with its own arguments,
environment, working directory, standard output and error, and exit code.

`loveletter(...)` does not start a new interpreter for every call: a suite that runs the command a few hundred
times spent most of those runs importing the same libraries again (0.3–2 s a call on a busy machine). Each call is
a process forked from a server process that has already imported the libraries and the rules (multiprocessing's
`forkserver`, one per test worker, itself single-threaded), and only then imports the command line itself, under
the call's arguments and environment: the language, read when `loveletter.cli.options` is imported, is the
call's. Nothing a call does reaches the next one or the test. `script(...)` runs the installed console script in a
new interpreter, for the tests whose subject is the real start (the imports a command makes, the script's wrapper).
"""

from __future__ import annotations

import io
import multiprocessing
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).parent / "loveletter"
TIMEOUT = 120.0
WARM = [
    "click",
    "pydantic",
    "structlog",
    "httpx",
    "loveletter.core.decide",
    "loveletter.replays.narrative",
    "loveletter.replays.rulings",
    "loveletter.events.store",
    "loveletter.replays.audit",
    "loveletter.play.simulate",
    "loveletter.play.tournament",
    "loveletter.play.engine.policy",
    "loveletter.client",
]
"""What the server process imports once for every call it forks: the libraries and the rules, never `cli/`."""

_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(WARM)


def loveletter(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`loveletter ARGS` with `env` over the test's environment, in the project's folder: what it printed and its
    exit code, as `subprocess.run(..., capture_output=True, text=True)` answers them."""
    environment = {**os.environ, **(env or {})}
    with tempfile.TemporaryDirectory(prefix="loveletter-cli-") as folder:
        out, err = Path(folder, "stdout"), Path(folder, "stderr")
        process = _context.Process(target=_run, args=(list(args), environment, str(out), str(err)))
        process.start()
        process.join(TIMEOUT)
        if process.exitcode is None:
            process.kill()
            process.join()
            raise subprocess.TimeoutExpired(["loveletter", *args], TIMEOUT)
        code = process.exitcode
        return subprocess.CompletedProcess(
            ["loveletter", *args],
            code,
            out.read_text(encoding="utf-8", errors="replace") if out.exists() else "",
            err.read_text(encoding="utf-8", errors="replace") if err.exists() else "",
        )


def script(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The installed console script in a new interpreter: for the tests whose subject is how it starts."""
    return subprocess.run(
        [str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
        env={**os.environ, **(env or {})},
    )


def _run(args: list[str], environment: dict[str, str], out: str, err: str) -> None:
    """In the forked process: become `loveletter ARGS` (argv, environment, folder, standard streams), then run the
    console script's entry point; its `sys.exit` is the process's exit code."""
    os.environ.clear()
    os.environ.update(environment)
    os.chdir(ROOT)
    sys.argv = [str(SCRIPT), *args]
    for fd, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115 - the process's own, closed when it ends
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
    sys.stderr = io.TextIOWrapper(
        io.FileIO(2, "w", closefd=False), encoding="utf-8", errors="backslashreplace", line_buffering=True
    )
    try:
        from loveletter.cli.main import main

        main()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
