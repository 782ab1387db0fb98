"""Real HTTP servers for the HTTP tests: uvicorn on 127.0.0.1, in a thread or as a separate process.

`serve(settings, store)` runs `create_app(settings, store)` under a `uvicorn.Server` in a background thread on a
free port; `ServerProcess` starts `python -m uvicorn api.app:create_app --factory` with LOVELETTER_* variables (a
second worker on the same PostgreSQL). The module-scoped `server` fixture gives one threaded server per store
(SQLite, PostgreSQL) per test module; tests make a new game each.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import uvicorn

from loveletter.events.pgcluster import free_port
from loveletter.events.store import EventStore
from loveletter.server.app import create_app
from loveletter.server.settings import Settings

# Every server the tests start signs with a throwaway key, never one in the working tree.
os.environ.setdefault("LOVELETTER_KEY_PATH", os.path.join(tempfile.mkdtemp(prefix="loveletter-key-"), "signing.key"))
# The tests' servers share one PostgreSQL database for the whole session, and all their clients are 127.0.0.1: each
# keeps its own rate limits, as it did before they could be shared, unless a test asks for shared ones
# (tests/test_shared_limits.py).
os.environ.setdefault("LOVELETTER_SHARED_LIMITS", "false")

ROOT = Path(__file__).resolve().parent.parent
ADMIN = "admin-secret-for-tests"
STARTUP_SECONDS = 120.0
"""How long a referee may take to start before a test gives up on it: a bound for one that hangs, not a wait. A
start is waited for by its condition (the server says it started, or answers `/healthz`), so a busy machine, where
a cold import of the app in a new process took over 20 s, makes a test slower, never red."""
# A scenario deal for Alice and Bob: Alice holds the Countess and draws a Prince, so she must play the Countess.
COUNTESS_DEAL: dict[str, Any] = {
    "set_aside": "guard",
    "face_up": ["guard", "guard", "spy"],
    "hands": ["countess", "handmaid"],
    "deck": ["prince", "guard", "priest", "baron", "spy", "chancellor", "king", "handmaid", "prince", "guard",
             "priest", "baron", "chancellor", "princess", "guard"],
    "first_player": "Alice",
}  # fmt: skip


class _Server(uvicorn.Server):
    def install_signal_handlers(self) -> None:  # a thread cannot install them (uvicorn < 0.29 tries)
        pass


@contextlib.contextmanager
def serve(
    settings: Settings,
    store: EventStore,
    timeout: float = STARTUP_SECONDS,
    clock: Callable[[], int] | None = None,
    **options: Any,
) -> Iterator[str]:
    """`with serve(settings, store) as base_url:` a running uvicorn server in a background thread; `clock` is the
    referee's time source (a fake one moves only when the test says); `options` are more uvicorn settings (the
    protocol and timeouts `loveletter serve` uses, say)."""
    port = free_port()
    app = create_app(settings, store, clock)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", access_log=False, **options
    )
    server = _Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"uvicorn on port {port} did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


class ServerProcess:
    """A referee worker in its own process: `python -m uvicorn api.app:create_app --factory` on a free port."""

    def __init__(self, database_url: str, host: str = "127.0.0.1", **settings: str) -> None:
        """On `host` (any of 127.0.0.0/8: a second machine, as a load balancer sees it) and a free port."""
        self.port = free_port()
        self.host = host
        self.url = f"http://{host}:{self.port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOVELETTER_")}
        env.update({"LOVELETTER_DATABASE_URL": database_url, "LOVELETTER_LOG_LEVEL": "warning"})
        env["LOVELETTER_SHARED_LIMITS"] = "false"  # unless `settings` says otherwise (the module's note)
        env.update({f"LOVELETTER_{k.upper()}": v for k, v in settings.items()})
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
        args = [
            "-m",
            "uvicorn",
            "loveletter.server.app:create_app",
            "--factory",
            "--host",
            host,
            "--port",
            str(self.port),
        ]
        self.proc = subprocess.Popen(
            [sys.executable, *args, "--log-level", "warning", "--no-access-log"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def wait_ready(self, timeout: float = STARTUP_SECONDS) -> ServerProcess:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode() if self.proc.stderr else ""
                raise RuntimeError(f"worker on port {self.port} exited {self.proc.returncode}: {err[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"worker on port {self.port} did not become ready")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.proc.stderr:
            self.proc.stderr.close()

    def __enter__(self) -> ServerProcess:
        return self.wait_ready()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class Server:
    """A running referee: its base URL, which store it uses, and the store itself."""

    url: str
    kind: str
    store: EventStore
    admin: str = ADMIN
    extra: dict[str, Any] = field(default_factory=dict)


def open_test_store(kind: str, request: pytest.FixtureRequest, **kw: Any) -> EventStore:
    if kind == "sqlite":
        from loveletter.events.sqlite_store import SqliteStore

        path = request.getfixturevalue("tmp_path_factory").mktemp("http") / "referee.db"
        return SqliteStore(str(path), **kw)
    from loveletter.events.postgres_store import PostgresStore

    return PostgresStore(request.getfixturevalue("pg_url"), **kw)


@pytest.fixture(name="server", scope="module", params=["sqlite", "postgres"])
def server_fixture(request: pytest.FixtureRequest) -> Iterator[Server]:
    """One threaded uvicorn server per store for the whole module (with an admin token)."""
    kind = request.param
    store = open_test_store(kind, request)
    url = "sqlite:///unused.db" if kind == "sqlite" else request.getfixturevalue("pg_url")
    try:
        # no rate limits on the shared servers: their tests fire requests by the hundred (test_limits.py tests them)
        settings = Settings(database_url=url, admin_token=ADMIN, log_level="warning", create_rate=0, move_rate=0)
        with serve(settings, store) as base:
            yield Server(base, kind, store)
    finally:
        store.close()


# -- clients ---------------------------------------------------------------------------------------------


class ServerError(AssertionError):
    pass


def _no_5xx(response: httpx.Response) -> None:
    if response.status_code >= 500:
        response.read()
        raise ServerError(
            f"{response.request.method} {response.request.url} -> {response.status_code}: {response.text}"
        )


def client(base_url: str, token: str | None = None, **headers: str) -> httpx.Client:
    """An HTTP client of one seat (or a spectator, or the admin); any 5xx answer fails the test."""
    all_headers = {k.replace("_", "-"): v for k, v in headers.items()}
    if token is not None:
        all_headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(base_url=base_url, headers=all_headers, timeout=30, event_hooks={"response": [_no_5xx]})


def create_game(base_url: str, players: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    with client(base_url) as c:
        r = c.post("/games", json={"players": players, **body})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    assert r.headers["location"] == f"/games/{created['game_id']}"
    return created


def move_body(move: dict[str, Any], style: str) -> dict[str, Any]:
    """A request body for a legal move (as `legal_moves` lists it), by action code or spelled out."""
    if style == "code":
        return {"type": "code", "action_code": move["action_code"]}
    if move["type"] == "return":
        return {"type": "return", "keep": move["keep"], "bottom": move["bottom"]}
    body = {"type": "play", "card": move["card"]}
    if "target" in move:
        body["target"] = move["target_name"] if style == "name" else move["target"]
    if "guess" in move:
        body["guess"] = move["guess"]
    return body


def admin_log(base_url: str, game_id: str) -> bytes:
    with client(base_url, ADMIN) as c:
        r = c.get(f"/games/{game_id}/log")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return r.content


def log_events(data: bytes) -> list[Any]:
    from loveletter.events.log import read_games

    (game,) = list(read_games(data.splitlines()))
    assert [e.seq for e in game.entries] == list(range(1, len(game.entries) + 1))
    return game.events


def verify_log(data: bytes, tmp_path: Path) -> Any:
    """`replays.report.replay_file` on the log: it must verify; the game report."""
    from loveletter.replays.report import replay_file

    path = tmp_path / f"log-{time.monotonic_ns()}.jsonl"
    path.write_bytes(data)
    report = replay_file(str(path))
    assert report.kind == "log" and report.exit_code == 0, report.as_dict()
    (game,) = report.games
    return game


def seat_clients(base_url: str, created: dict[str, Any]) -> dict[int, httpx.Client]:
    return {s["seat"]: client(base_url, s["token"]) for s in created["seats"] if s["token"]}


def play_game(
    base_url: str | list[str],
    created: dict[str, Any],
    rng: Any,
    styles: tuple[str, ...] = ("code", "seat", "name"),
    observe: Any = None,
    max_moves: int = 5000,
) -> list[tuple[int, dict[str, Any]]]:
    """Human seats play `created` to its end over HTTP, each with its own token, choosing among `legal_moves`.

    Moves alternate between the request `styles` and, with several base URLs, between servers. Every answer
    must be a 200 whose events continue the version the seat saw (`If-Match`), with ETag = version. `observe(seat,
    kind, json)` is called with every JSON the seats receive. The (seat, answer) of every move is returned.
    """
    bases = [base_url] if isinstance(base_url, str) else base_url
    gid = created["game_id"]
    seats = [seat_clients(base, created) for base in bases]
    answers: list[tuple[int, dict[str, Any]]] = []
    lagged: list[int] = []
    try:
        with client(bases[0]) as spectator:
            game = spectator.get(f"/games/{gid}").json()
        active, version = game["view"]["active"], game["version"]
        while active is not None:
            assert len(answers) < max_moves, "the game does not end"
            n = len(answers)
            http = seats[n % len(bases)][active]
            deadline = time.monotonic() + 30  # a bound for a busy machine, not a wait
            while True:  # another worker may take a moment to hear of the last move (LISTEN/NOTIFY)
                r = http.get(f"/games/{gid}")
                assert r.status_code == 200, r.text
                mine = r.json()
                if mine["version"] >= version or time.monotonic() > deadline:
                    break
                lagged.append(version - mine["version"])
                time.sleep(0.005)
            assert mine["version"] == version, (mine["version"], version)
            assert r.headers["etag"] == f'"{mine["version"]}-s{active}"'  # the version and the viewer
            if observe:
                observe(active, "game", mine)
            assert mine["your_turn"] and mine["legal_moves"] and not mine["over"], mine
            move = rng.choice(mine["legal_moves"])
            body = move_body(move, styles[n % len(styles)])
            r = http.post(f"/games/{gid}/moves", json=body, headers={"If-Match": f'"{mine["version"]}"'})
            assert r.status_code == 200, (body, r.text)
            answer = r.json()
            if observe:
                observe(active, "move", answer)
            seqs = [e["seq"] for e in answer["events"]]
            assert seqs == list(range(mine["version"] + 1, answer["version"] + 1)), seqs
            assert r.headers["etag"] == f'"{answer["version"]}"'
            assert answer["events"][0]["type"] in ("card_played", "chancellor_returned")
            answers.append((active, answer))
            active, version = answer["view"]["active"], answer["version"]
    finally:
        for group in seats:
            for http in group.values():
                http.close()
    return answers


def read_sse(
    base_url: str, path: str, token: str | None = None, limit: int | None = None, **headers: str
) -> list[dict[str, Any]]:
    """Read a server-sent event stream until it closes (or `limit` events): each {"id", "event", "data"}."""
    out: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    with client(base_url, token, **headers) as c, c.stream("GET", path) as r:
        assert r.status_code == 200, r.read()
        assert r.headers["content-type"].startswith("text/event-stream")
        for line in r.iter_lines():
            if line.startswith(":"):
                continue
            if not line:
                if current:
                    current["data"] = orjson.loads(current["data"])
                    out.append(current)
                    current = {}
                    if limit is not None and len(out) >= limit:
                        break
                continue
            name, _, value = line.partition(":")
            current[name] = value.removeprefix(" ")
    return out


def sse_items(response: httpx.Response) -> Iterator[dict[str, Any]]:
    """The server-sent events of an open streamed response, each {"id", "event", "data"} with `data` parsed;
    comment lines (keep-alives) are skipped."""
    item: dict[str, str] = {}
    for line in response.iter_lines():
        if line.startswith(":"):
            continue
        if line:
            name, _, value = line.partition(":")
            item[name] = value.removeprefix(" ")
            continue
        if item:
            yield {**item, "data": orjson.loads(item["data"])}
        item = {}
