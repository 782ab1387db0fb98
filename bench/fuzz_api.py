"""Fuzz the HTTP referee from its own OpenAPI document with schemathesis: no request may get a 5xx, and every
answer must conform to the document (status documented, content type, body schema, declared headers).

Starts the referee on a throwaway SQLite file and key, on a free port of 127.0.0.1, with the rate limits off (the
fuzzer is one client sending hundreds of requests), runs `st run` over every phase — examples, coverage, fuzzing
and the stateful phase, which follows the document's links from `POST /games` to the new game's routes with its
seat token — stops the server, and exits with schemathesis's code. The two event streams stay open while a game
or the lobby lasts, so they are left out here; tests/test_openapi_answers.py checks their frames.

    python bench/fuzz_api.py [--max-examples 60] [--checks all|server-errors]      (make fuzz-api)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.api_load import free_port, stop  # noqa: E402

CONFORMANCE = (
    "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,"
    "response_headers_conformance"
)
STREAMS = ("/lobby/stream", "/games/{game_id}/stream")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-examples", type=int, default=60)
    ap.add_argument("--checks", choices=("all", "server-errors"), default="all", help="all: conformance too")
    args = ap.parse_args()
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if st is None:
        print("schemathesis is not installed: pip install -e '.[dev]'", file=sys.stderr)
        return 2
    checks = CONFORMANCE if args.checks == "all" else "not_a_server_error"
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {
            **os.environ,
            "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/fuzz.db",
            "LOVELETTER_KEY_PATH": f"{tmp}/signing.key",
            "LOVELETTER_LOG_LEVEL": "warning",
            "LOVELETTER_CREATE_RATE": "0",
            "LOVELETTER_MOVE_RATE": "0",
        }
        cmd = [sys.executable, "-m", "uvicorn", "loveletter.server.app:create_app", "--factory", "--port", str(port)]
        server = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        try:
            time.sleep(3)
            url = f"http://127.0.0.1:{port}/openapi.json"
            options = ["--checks", checks, "--max-examples", str(args.max_examples), "--workers", "1"]
            options += ["--request-timeout", "10", "--generation-deterministic", "--wait-for-schema", "30"]
            for path in STREAMS:
                options += ["--exclude-path", path]
            return subprocess.run([st, "run", url, *options]).returncode
        finally:
            stop(server)


if __name__ == "__main__":
    sys.exit(main())
