"""A real load balancer for the tests and benchmarks of several hosts: Debian's HAProxy in front of referees, as
docs/operations.md configures it (round robin, no sticky sessions, health checks on `/readyz`, a failed connection
sent to another host, the name of the host that answered in `X-Served-By`). A client's requests on one connection
stay with one host while it is up (`prefer-last-server`): a host reads its own moves at once, another may be a few
milliseconds behind (docs/operations.md)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import httpx

from loveletter.events.pgcluster import free_port

CONFIG = """global
    maxconn 4096

defaults
    mode http
    option forwardfor
    option redispatch
    retries 3
    retry-on conn-failure
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-keep-alive 5s

frontend referee
    bind 127.0.0.1:{port}
    default_backend referees

backend referees
    balance roundrobin
    option prefer-last-server
    option httpchk GET /readyz
    http-check expect status 200
    default-server inter 500ms fall 2 rise 2
    http-response set-header X-Served-By %[srv_name]
{servers}
"""


class HAProxy:
    """HAProxy on 127.0.0.1 and a free port, balancing `backends` (host:port each), run in the foreground."""

    def __init__(self, workdir: Path, backends: list[str]) -> None:
        binary = shutil.which("haproxy") or "/usr/sbin/haproxy"
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        servers = "\n".join(f"    server host{n} {b} check" for n, b in enumerate(backends, 1))
        config = workdir / "haproxy.cfg"
        config.write_text(CONFIG.format(port=self.port, servers=servers))
        self.log = workdir / "haproxy.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=out, stderr=out)

    def wait_ready(self, timeout: float = 60) -> HAProxy:
        deadline = time.monotonic() + timeout
        while True:
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            try:
                if httpx.get(self.url + "/readyz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, f"HAProxy did not answer: {self.log.read_text()[-2000:]}"
            time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def installed() -> str | None:
    """Why HAProxy cannot run here, or None."""
    if shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists():
        return "HAProxy is not installed (Debian's package `haproxy`)"
    return None
