"""Start to first `/healthz`: how long `loveletter serve` takes to answer after it is started (issue 34).

Each start runs `loveletter serve` as an operator would (a new process, one worker, a fresh SQLite store in a
temporary directory, a free port on 127.0.0.1) and asks `GET /healthz` every 5 ms from the moment the process is
started until it answers 200; the figure is that time, wall clock, process start included. It then asks
`GET /readyz` once and stops the server (SIGTERM). `--starts` of them, one after another; the median is the figure.

It then measures what the app's own modules cost over the libraries it stands on: a new interpreter imports
FastAPI, pydantic (with pydantic-settings), structlog and uvicorn and builds a one-route FastAPI app (FastAPI loads
more of itself at the first route: any app pays that), then imports `loveletter.server.app` and calls `create_app()`;
it prints the CPU time of each step (median of `--starts`), and the ten slowest modules of `python -X importtime`
(self time) in the app's import.

Python's bytecode caches are written first (`compileall`), as `make` and `pip install` leave them: a start without
them compiles the whole package, 0.4 s of CPU more.

    python bench/startup.py --starts 10
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loveletter.events.pgcluster import free_port  # noqa: E402

LIBRARIES = "import fastapi, fastapi.routing, pydantic, pydantic_settings, structlog, uvicorn, uvicorn.main"
BARE_APP = """
bare = fastapi.FastAPI()
@bare.get("/x/{y}")
def x(y: str, q: int = 0) -> dict[str, str]:
    return {}
"""
CPU_PROBE = f"""
import resource
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
a = cpu()
{LIBRARIES}
{BARE_APP}
b = cpu()
import loveletter.server.app as app
c = cpu()
app.create_app()
d = cpu()
print(b - a, c - b, d - c)
"""


def ask(port: int, path: str) -> tuple[int, bytes] | None:
    """One `GET path` over a fresh connection: (status, body), or None if nothing answers yet."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2.0) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    if not head:
        return None
    return int(head.split()[1]), body


def one_start(workdir: Path) -> tuple[float, bytes]:
    port = free_port()
    env = os.environ | {
        "LOVELETTER_DATABASE_URL": f"sqlite:///{workdir / f'start-{port}.db'}",
        "LOVELETTER_KEY_PATH": str(workdir / "signing.key"),
    }
    loveletter = Path(sys.executable).with_name("loveletter")
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(loveletter), "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        while True:
            answer = ask(port, "/healthz")
            if answer is not None and answer[0] == 200:
                seconds = time.perf_counter() - started
                break
            if process.poll() is not None:
                said = process.stderr.read().decode() if process.stderr else ""
                raise SystemExit(f"the referee stopped before it answered: {said}")
            time.sleep(0.005)
        ready = ask(port, "/readyz")
        return seconds, ready[1] if ready else b""
    finally:
        process.terminate()
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starts", type=int, default=10)
    args = parser.parse_args()

    # each room of the package is a link to a folder at the top, which compileall does not follow: name them
    rooms = [str(p.resolve()) for p in (ROOT / "loveletter").iterdir() if p.is_dir()]
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "loveletter"), *rooms], check=True)
    with tempfile.TemporaryDirectory(prefix="loveletter-startup-") as tmp:
        one_start(Path(tmp))  # the first start writes the signing key and warms the file cache: not counted
        times = []
        for n in range(args.starts):
            seconds, ready = one_start(Path(tmp))
            times.append(seconds)
            print(f"start {n + 1}/{args.starts}: first /healthz after {seconds:.3f} s", flush=True)
        print(f"/readyz answered: {ready.decode()}")
    print(f"start to first /healthz: median {statistics.median(times):.3f} s, min {min(times):.3f} s, "
          f"max {max(times):.3f} s over {args.starts} starts")  # fmt: skip

    env = os.environ | {"LOVELETTER_KEY_PATH": os.path.join(tempfile.mkdtemp(), "signing.key")}
    with tempfile.TemporaryDirectory() as tmp:
        env["LOVELETTER_DATABASE_URL"] = f"sqlite:///{tmp}/cpu.db"
        rows = []
        for _ in range(args.starts):
            out = subprocess.run([sys.executable, "-c", CPU_PROBE], env=env, capture_output=True, text=True, check=True)
            rows.append([float(x) for x in out.stdout.split()])
    libs, app, create = (statistics.median(col) for col in zip(*rows, strict=True))
    print(f"CPU seconds (median of {args.starts}): libraries {libs:.3f}, the app's import over them {app:.3f}, "
          f"create_app {create:.3f}: the app's own {app + create:.3f}")  # fmt: skip

    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", f"{LIBRARIES}\n{BARE_APP}\nimport loveletter.server.app"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [line for line in out.stderr.splitlines() if line.startswith("import time:") and "self" not in line]
    after = max(i for i, line in enumerate(lines) if line.rstrip().endswith(" uvicorn.main"))
    rows2 = []
    for line in lines[after + 1 :]:
        own, total, name = line[len("import time:") :].split("|")
        rows2.append((int(own), int(total), name.strip()))
    print("the ten slowest modules of the app's import (self µs, cumulative µs), after the libraries:")
    for own, total, name in sorted(rows2, reverse=True)[:10]:
        print(f"  {own:>8} {total:>9}  {name}")


if __name__ == "__main__":
    main()
