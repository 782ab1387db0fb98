"""Every benchmark still runs (on a tiny workload) and prints its figure: a script that rots is caught here, not
on the day someone needs the figure. The figures themselves are measured by `make bench`, never timed in tests."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.needs import need

ROOT = Path(__file__).resolve().parent.parent

SMALL = {
    "fold.py": (["--games", "20", "--repeat", "1"], "events/s"),
    "games.py": (["--games", "10", "--repeat", "1"], "games/s"),
    "replay.py": (["--games", "10"], "events/s"),
    "referee_inprocess.py": (["--games", "4", "--concurrency", "2"], "moves/s"),
    "sqlite_commit.py": (["--commits", "10"], "median"),
    "audit.py": (["--games", "20", "--jobs", "1"], "games"),
    "audit_parts.py": (["--games", "10"], "ms/game"),
    "audit_memory.py": (["--games", "5", "10", "--jobs", "1"], "peak resident memory"),
    "determinism.py": (["--games", "20"], "identical"),
    "shuffle_uniformity.py": (["--decks", "2000", "--jobs", "1"], "ordered pair on top"),
    # issue 13's lobby, stream and clock benchmarks: each starts a referee on 127.0.0.1 for a few seconds
    "lobby.py": (["--games", "300", "--walk", "3", "--deep", "5"], "lobby page latency"),
    "streams.py": (["--streams", "5", "--moves", "3", "--interval", "0.05"], "missing or repeating an event: 0"),
    # issue 25's seek queue: pairing latency with seeks waiting, in process
    "seeks.py": (["--waiting", "40", "--pairs", "3"], "pairing latency"),
    # issue 25's bot games: two-seat games of heuristic bots over HTTP on SQLite, a real server on 127.0.0.1
    "bot_games.py": (["--games", "2"], "moves/s"),
    "clocks.py": (["--sizes", "2", "--turn", "1", "--turns", "4"], "timeout lateness"),
    # issue 11's seat page in Chromium: its JS+CSS weight and render time
    "page_weight.py": (["--loads", "2"], "budget 150 KB"),
    # issue 14's PettingZoo environment beside the raw engine
    "env.py": (["--games", "3", "--repeat", "1", "--configs", "2019:2,2012:3"], "overhead"),
    "tournament.py": (["--games", "8", "--repeat", "1"], "games/s"),
    # issue 26's expert bot: its strength on duplicate deals (a tiny budget here)
    "engine.py": (["--games", "2", "--iterations", "4", "--match", "two,four"], "Wilson interval"),
    # issue 11's replay viewer and statistics page in Chromium: their weight, the viewer's first position
    "viewer_page_weight.py": (["--loads", "1"], "first position drawn"),
    # issue 22's before/after of the HTTP load: this tree against itself, one tiny round
    "api_load_compare.py": ([".", "--rounds", "1", "--games", "2", "--concurrency", "2"], "medians over 1 rounds"),
    "asgi_load.py": (["--games", "2", "--clients", "2"], "µs CPU a request"),
    # issue 26's solver: the published 4- and 5-card games, a few iterations
    "solve.py": (["--cards", "4,5", "--iterations", "20", "--bots", "heuristic"], "exploitability at most 1%"),
    # issue 26's inference: the hidden hands of heuristic players predicted, a few games
    "belief.py": (["--games", "2", "--floors", "0.1,1"], "likeliest card right"),
    # issue 24's click on Play → the other seat's page, two seat pages in Chromium
    "seat_latency.py": (["--moves", "3"], "the other seat's page shows the move"),
    # issue 36's rollouts a second of the expert's search, at two and four players
    "rollouts.py": (["--positions", "3", "--iterations", "20", "--repeat", "1"], "rollouts/s"),
    # issue 36's review: the same verdicts under three seeds, the share of decisions marked
    "review_stability.py": (["--games", "1", "--budget", "10", "--widen", "4"], "same verdict under every seed"),
    # issue 34's start-up: `loveletter serve` started twice, and the app's own import measured
    "startup.py": (["--starts", "1"], "start to first /healthz"),
}


def test_every_benchmark_script_is_listed() -> None:
    scripts = {p.name for p in (ROOT / "bench").glob("*.py") if p.name != "__init__.py"}
    # servers: make bench-api / fuzz-api / bench-overload / soak; browser_referee.py is the page benchmarks' helper
    not_run_here = {"api_load.py", "fuzz_api.py", "bare_app.py", "http_client.py", "overload.py", "soak.py"}
    not_run_here.add("balanced.py")  # make bench-hosts: two referees, PostgreSQL and HAProxy
    not_run_here.add("browser_referee.py")
    assert scripts - not_run_here == set(SMALL)


IN_CHROMIUM = {"page_weight.py", "viewer_page_weight.py", "seat_latency.py"}


@pytest.mark.parametrize(
    "script", [pytest.param(s, marks=pytest.mark.browser) if s in IN_CHROMIUM else s for s in sorted(SMALL)]
)
def test_a_benchmark_runs_and_prints_its_figure(script: str) -> None:
    if script in IN_CHROMIUM:
        need("browser", None if shutil.which("chromium") else "Debian's chromium is not installed")
    args, figure = SMALL[script]
    result = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert figure in result.stdout, result.stdout


def test_no_benchmark_gives_its_referee_less_time_to_start_than_the_suite() -> None:
    """The suite runs these scripts: a script that gave up on its referee sooner than the suite gives up on its own
    failed the suite on a busy machine (four benchmark tests, at 30 s against the suite's 120 s)."""
    from bench.api_load import START_SECONDS
    from tests.servers import STARTUP_SECONDS

    assert START_SECONDS >= STARTUP_SECONDS
    import re

    shorter = [
        f"{path.name}:{n}"
        for path in sorted((ROOT / "bench").glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if re.search(r"deadline = time\.monotonic\(\) \+ \d", line) and "page" not in path.name
    ]
    assert shorter == []
