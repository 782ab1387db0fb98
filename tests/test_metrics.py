"""`GET /metrics` (issue 34, docs/operations.md): a real Prometheus (Debian's package, started here on a free port)
scrapes a referee (`loveletter serve`, SQLite) while games are played through it, and the figures read back through
Prometheus' HTTP API equal what the players counted themselves: moves accepted, refusals by rule id, requests by
route and status. Two workers of one referee on PostgreSQL (the library's multiprocess mode) report the sum of both.
The page is for admins unless opened, and costs the move route nothing measurable (bench/api_load.py, figures in
docs/performance.md)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from loveletter.events.pgcluster import free_port
from tests.needs import need
from tests.servers import ADMIN, ROOT, STARTUP_SECONDS
from tests.stores import pg_url  # noqa: F401  (fixture)
from tests.test_bots_online import Served

MOVES = "/games/{game_id}/moves"


class Players:
    """Plays two-seat games over HTTP, counting what it sent: accepted moves, and moves out of turn (refused by
    rule `turn.order`), one every few moves."""

    def __init__(self, url: str, seed: int, keep_alive: bool = True) -> None:
        self.url = url
        self.rng = random.Random(seed)
        # without keep-alive every request is a new connection, which any worker of several may take
        kept = httpx.Limits(max_keepalive_connections=None if keep_alive else 0)
        self.http = httpx.Client(base_url=url, timeout=30, limits=kept)
        self.accepted = 0
        self.out_of_turn = 0
        self.created = 0

    def game(self) -> None:
        made = self.http.post("/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}]})
        assert made.status_code == 201, made.text
        self.created += 1
        gid, tokens = made.json()["game_id"], [s["token"] for s in made.json()["seats"]]
        version = made.json()["version"]
        while True:
            # another worker may take a moment to hear of the last move: read until it has
            seen = self.read(gid, tokens[0], version)
            active = seen["view"]["active"]
            if seen["over"] or active is None:
                return
            me = self.read(gid, tokens[active], version)
            assert me["legal_moves"], me
            if self.rng.random() < 0.2:  # the other seat plays out of turn: refused by the rules
                code = me["legal_moves"][0]["action_code"]
                wrong = self.http.post(f"/games/{gid}/moves", json={"type": "code", "action_code": code},
                                       headers={"Authorization": f"Bearer {tokens[1 - active]}"})  # fmt: skip
                assert wrong.status_code == 409 and wrong.json()["rule_id"] == "turn.order", wrong.text
                self.out_of_turn += 1
            move = self.rng.choice(me["legal_moves"])
            done = self.http.post(f"/games/{gid}/moves", json={"type": "code", "action_code": move["action_code"]},
                                  headers={"Authorization": f"Bearer {tokens[active]}"})  # fmt: skip
            assert done.status_code == 200, done.text
            version = done.json()["version"]
            self.accepted += 1

    def read(self, gid: str, token: str, version: int) -> dict[str, Any]:
        deadline = time.monotonic() + 10
        while True:
            seen: dict[str, Any] = self.http.get(f"/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
            if seen["version"] >= version or time.monotonic() > deadline:
                return seen
            time.sleep(0.01)


class Prometheus:
    """Debian's Prometheus on a free port, scraping `targets` every second with the admin token."""

    def __init__(self, workdir: Path, targets: list[str]) -> None:
        binary = shutil.which("prometheus")
        if binary is None:
            need("prometheus", "Prometheus is not installed (Debian's package `prometheus`)")
        config = workdir / "prometheus.yml"
        listed = ", ".join(f'"{t}"' for t in targets)
        config.write_text(
            "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
            "scrape_configs:\n"
            "  - job_name: referee\n"
            "    scrape_interval: 1s\n"
            f"    authorization: {{type: Bearer, credentials: {ADMIN}}}\n"
            f"    static_configs: [{{targets: [{listed}]}}]\n"
        )
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = workdir / "prometheus.log"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [str(binary), f"--config.file={config}", f"--storage.tsdb.path={workdir / 'tsdb'}",
                 f"--web.listen-address=127.0.0.1:{self.port}"],
                stdout=out, stderr=out,
            )  # fmt: skip
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            try:
                if httpx.get(f"{self.url}/-/ready", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "Prometheus did not start"
            time.sleep(0.1)

    def value(self, query: str) -> float | None:
        """The query's one value now (a sum, say), or None when it has no sample yet."""
        answer = httpx.get(f"{self.url}/api/v1/query", params={"query": query}, timeout=10).json()
        assert answer["status"] == "success", answer
        found = answer["data"]["result"]
        return float(found[0]["value"][1]) if found else None

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def settled(read: Any, expected: float, seconds: float = 60) -> float | None:
    """`read()` once it equals `expected` (a scrape after the last request), or its last value after `seconds`."""
    deadline = time.monotonic() + seconds
    got = read()
    while got != expected and time.monotonic() < deadline:
        time.sleep(0.25)
        got = read()
    return got  # type: ignore[no-any-return]


def test_a_real_prometheus_scrapes_the_referee_under_load_and_reads_back_what_was_played(tmp_path: Path) -> None:
    served = Served(tmp_path / "referee.db").start()
    prometheus = None
    try:
        prometheus = Prometheus(tmp_path, [served.url.removeprefix("http://")])
        players = [Players(served.url, seed) for seed in range(3)]
        for _ in range(4):
            for p in players:
                p.game()
        accepted = sum(p.accepted for p in players)
        refused = sum(p.out_of_turn for p in players)
        assert accepted > 50 and refused > 5
        q = prometheus.value
        assert settled(lambda: q('sum(loveletter_moves_total{outcome="accepted"})'), accepted) == accepted
        assert settled(lambda: q('sum(loveletter_moves_total{outcome="refused"})'), refused) == refused
        by_rule = 'sum(loveletter_refusals_total{code="not_your_turn",rule_id="turn.order"})'
        assert settled(lambda: q(by_rule), refused) == refused
        routed = f'sum(loveletter_http_requests_total{{route="{MOVES}",status="200"}})'
        assert settled(lambda: q(routed), accepted) == accepted
        created = sum(p.created for p in players)
        assert (
            settled(lambda: q('sum(loveletter_http_requests_total{route="/games",status="201"})'), created) == created
        )
        timed = f'sum(loveletter_http_request_duration_seconds_count{{route="{MOVES}"}})'
        assert settled(lambda: q(timed), accepted + refused) == accepted + refused
        assert q("up") == 1.0
        assert settled(lambda: q('loveletter_games{status="finished"}'), 0) == 0  # private games: none in the index
        commits = q("sum(loveletter_store_commit_seconds_count)")
        assert commits is not None and commits >= accepted  # each accepted move is one commit (games: one more)
        # who may read: an admin; without a token, 403 with the refusal's code
        plain = httpx.get(served.url + "/metrics")
        assert plain.status_code == 403 and plain.json()["code"] == "admin_required"
    finally:
        if prometheus is not None:
            prometheus.stop()
        served.stop()


def test_an_open_page_and_no_page(tmp_path: Path) -> None:
    served = Served(tmp_path / "open.db", metrics="open").start()
    try:
        page = httpx.get(served.url + "/metrics")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
        assert "loveletter_http_requests_total" in page.text
    finally:
        served.stop()
    off = Served(tmp_path / "off.db", metrics="off").start()
    try:
        gone = httpx.get(off.url + "/metrics", headers={"Authorization": f"Bearer {ADMIN}"})
        assert gone.status_code == 404 and gone.headers["content-type"] == "application/problem+json"
    finally:
        off.stop()


@pytest.fixture
def two_workers(pg_url: str) -> Iterator[str]:  # noqa: F811
    """`loveletter serve --workers 2` on PostgreSQL, as an operator runs it."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LOVELETTER_", "PROMETHEUS_"))}
    env.update(LOVELETTER_ADMIN_TOKEN=ADMIN, LOVELETTER_LOG_LEVEL="warning", LOVELETTER_CREATE_RATE="0",
               LOVELETTER_MOVE_RATE="0", LOVELETTER_KEY_PATH=os.environ["LOVELETTER_KEY_PATH"])  # fmt: skip
    loveletter = Path(sys.executable).with_name("loveletter")
    proc = subprocess.Popen(
        [str(loveletter), "serve", "--workers", "2", "--port", str(port), "--database-url", pg_url],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_SECONDS
    try:
        while True:
            assert proc.poll() is None, proc.stderr.read().decode()[-3000:] if proc.stderr else ""
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline
            time.sleep(0.1)
        yield url
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_two_workers_report_the_sum_of_both(two_workers: str) -> None:
    players = Players(two_workers, 7, keep_alive=False)
    for _ in range(3):
        players.game()  # each request a new connection: both workers answer moves
    totals = []
    for _ in range(12):  # whichever worker answers, the page sums both (each alone would show only its own)
        with httpx.Client(base_url=two_workers, headers={"Authorization": f"Bearer {ADMIN}"}) as fresh:
            text = fresh.get("/metrics").text
        accepted = [line for line in text.splitlines() if line.startswith('loveletter_moves_total{outcome="accepted"}')]
        totals.append(float(accepted[0].split()[-1]) if accepted else 0.0)
    assert set(totals) == {float(players.accepted)}, (totals, players.accepted)
