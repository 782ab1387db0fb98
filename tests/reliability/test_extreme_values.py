"""No request can hold the server (issue 23): the extreme values of every numeric field of the public routes
(0, -1, 649460203, 10**30, a number of 5,000 digits, floats, strings, booleans, null), each sent to a real
referee in its own process on 127.0.0.1 while a health probe asks `GET /healthz` every 20 ms: the probe must keep
being answered within 100 ms, and every extreme value answered (never a 5xx) within a few seconds.

The machine the tests run on is shared (two cores, other test runs beside this one): the operating system may
leave one probe, or the server, unscheduled for a moment. So a probe slower than 100 ms fails the test only when
the next probe is too: a server held by a request misses every probe for as long as it is held.

Before the routes' bodies were typed, `POST /simulations {"players": 649460203}` built a list of 649,460,203 bot
names on the event loop before checking the range: 39 s to answer its 422, and `/healthz` waited as long.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.servers import ServerProcess, create_game

ROOT = Path(__file__).resolve().parent.parent.parent
READER = json.loads((ROOT / "examples" / "reader-question.json").read_text())
PROBE_EVERY = 0.02
PROBE_LIMIT = 0.1
ANSWER_LIMIT = 5.0

HUGE = "9" * 5000
"""A JSON number of 5,000 digits (Python refuses to convert more than 4,300 digits to an int by default)."""
NUMBERS: list[Any] = [0, -1, 649460203, -649460203, 10**30, -(10**30), 1.5, -0.5, 1e308, "5", "649460203", True, None]
NDJSON = {"Content-Type": "application/x-ndjson"}
JSON = {"Content-Type": "application/json"}
QUERY_NUMBERS = ["0", "-1", "649460203", str(10**30), "1.5", "1e308", "x", HUGE]


class Probe:
    """`GET /healthz` every `PROBE_EVERY` seconds from a thread of its own, each answer's time recorded; a probe
    given up after `PROBE_LIMIT` is followed by another at once."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.times: list[float] = []
        self.failures: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="health-probe", daemon=True)

    def _run(self) -> None:
        with httpx.Client(base_url=self.url, timeout=PROBE_LIMIT) as http:
            while not self._stop.is_set():
                start = time.perf_counter()
                try:
                    answer = http.get("/healthz")
                    if answer.status_code != 200:
                        self.failures.append(f"{answer.status_code} {answer.text[:200]}")
                except httpx.TimeoutException:
                    pass  # a probe missed: the next one, right after, says whether the server is held
                except httpx.HTTPError as exc:
                    self.failures.append(repr(exc))
                took = time.perf_counter() - start
                self.times.append(took)
                if took < PROBE_LIMIT:
                    self._stop.wait(PROBE_EVERY)

    def __enter__(self) -> Probe:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=15)


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    here = tmp_path_factory.mktemp("extremes")
    with ServerProcess(f"sqlite:///{here / 'referee.db'}", key_path=str(here / "signing.key")) as server:
        yield server.url


def requests(game_id: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, httpx arguments) for every extreme value of every numeric field of the public routes."""
    sent: list[tuple[str, str, dict[str, Any]]] = []
    for value in NUMBERS:
        for field in ("players", "games", "seed"):
            sent.append(("POST", "/simulations", {"json": {field: value}}))
        sent.append(("POST", "/simulations", {"json": {"bots": ["random"] * 1000, "players": value}}))
        sent.append(("POST", "/rulings", {"json": {"log": READER, "at": value, "move": {}}}))
        move = {"type": "code", "action_code": value}
        sent.append(("POST", "/rulings", {"json": {"log": READER, "at": 5, "move": move}}))
        sent.append(("POST", "/replays/views", {"json": {"log": READER, "pov": value}}))
    for raw in (HUGE, "-" + HUGE, "1e999999"):  # written as JSON text, which no client library would send
        for body in ('{"players": %s}', '{"games": %s}', '{"seed": %s}', '{"log": "", "at": %s, "move": {}}'):
            path = "/rulings" if "log" in body else "/simulations"
            sent.append(("POST", path, {"content": body.replace("%s", raw), "headers": JSON}))
        sent.append(("POST", "/replays/views", {"content": '{"log": "", "pov": %s}'.replace("%s", raw)}))
    for text in QUERY_NUMBERS:
        sent.append(("GET", f"/games/{game_id}/state", {"params": {"at": text}}))
        sent.append(("GET", f"/simulations/{text}", {}))
        sent.append(("GET", f"/rulesets/{text}", {}))
        flags = {"lenient": text, "require_signature": text}
        sent.append(("POST", "/audits", {"params": flags, "content": b"", "headers": NDJSON}))
    return sent


def test_extreme_values_never_hold_the_server(url: str) -> None:
    game = create_game(url, [{"name": "Ann"}, {"name": "Bob"}])
    sent = requests(game["game_id"])
    slow: list[str] = []
    wrong: list[str] = []
    with Probe(url) as probe, httpx.Client(base_url=url, timeout=60) as http:
        time.sleep(0.2)  # the probe's connection is open and warm
        for method, path, kwargs in sent:
            start = time.perf_counter()
            answer = http.request(method, path, **kwargs)
            took = time.perf_counter() - start
            said = f"{method} {path} {str(kwargs)[:120]} -> {answer.status_code} in {took:.2f} s"
            if took > ANSWER_LIMIT:
                slow.append(said)
            if answer.status_code >= 500 or (
                answer.status_code >= 400 and answer.headers.get("content-type") != "application/problem+json"
            ):
                wrong.append(f"{said}: {answer.text[:200]}")
        time.sleep(0.2)
    assert not wrong, wrong
    assert not slow, slow
    assert not probe.failures, probe.failures
    assert len(probe.times) >= len(sent) // 10, (len(probe.times), len(sent))
    slow_probes = [t for t in probe.times if t >= PROBE_LIMIT]
    # A held loop misses every probe for as long as it is held (the bug this guards against held it 39 s: hundreds
    # in a row); a loaded machine's scheduler may stall this process or the server twice in a row (109 and 118 ms,
    # seen once in the repeated runs), not three times.
    held = [run for run in zip(probe.times, probe.times[1:], probe.times[2:], strict=False) if min(run) >= PROBE_LIMIT]
    shown = ", ".join(f"{t * 1000:.0f} ms" for t in slow_probes)
    assert not held, f"/healthz missed three probes in a row ({len(probe.times)} probes; over 100 ms: {shown})"
