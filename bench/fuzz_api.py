"""Fuzz the HTTP referee from its own OpenAPI document with schemathesis: no request may get a 5xx.

Starts the referee on a throwaway SQLite file and key, on a free port of 127.0.0.1, runs
`st run … --checks not_a_server_error`, stops the server, and exits with schemathesis's code.

    python bench/fuzz_api.py [--max-examples 60]      (make fuzz-api)
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

from bench.api_load import free_port  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-examples", type=int, default=60)
    args = ap.parse_args()
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or shutil.which("st")
    if st is None:
        print("schemathesis is not installed: pip install schemathesis (make fuzz-api does it)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        env = {
            **os.environ,
            "LOVELETTER_DATABASE_URL": f"sqlite:///{tmp}/fuzz.db",
            "LOVELETTER_KEY_PATH": f"{tmp}/signing.key",
            "LOVELETTER_LOG_LEVEL": "warning",
        }
        cmd = [sys.executable, "-m", "uvicorn", "loveletter.api.app:create_app", "--factory", "--port", str(port)]
        server = subprocess.Popen(cmd, cwd=ROOT, env=env, stderr=subprocess.DEVNULL)
        try:
            time.sleep(3)
            url = f"http://127.0.0.1:{port}/openapi.json"
            checks = ["--checks", "not_a_server_error", "--max-examples", str(args.max_examples), "--workers", "1"]
            return subprocess.run([st, "run", url, *checks]).returncode
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    sys.exit(main())
