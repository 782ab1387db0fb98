"""`loveletter bot run --join-open --wait` against a real referee on 127.0.0.1: started before any game exists, it
says on stderr that it waits, passes over the public games its `--ruleset`/`--players` filters refuse, joins the
first that fits once it opens, and plays it to the end; Ctrl-C stops it cleanly while it waits. Without `--wait`,
no fitting game is the one-line error it always was, now naming `--wait`."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest

from loveletter.client import Client
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.cli import ROOT, SCRIPT, loveletter
from tests.servers import ADMIN, admin_log, log_events, serve

BOT = "examples.bots.first:choose"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("wait") / "referee.db"))
    try:
        with serve(Settings(admin_token=ADMIN, log_level="warning", create_rate=0, move_rate=0), store) as url:
            yield url
    finally:
        store.close()


# How a shell starts a job in the background: SIGINT ignored, which the program inherits (`trap "" INT`, then exec).
IN_THE_BACKGROUND = ["sh", "-c", 'trap "" INT; exec "$@"', "sh"]


class Running:
    """`loveletter bot run …` in its own process, its stderr read line by line as it comes."""

    def __init__(self, *args: str, background: bool = False) -> None:
        self.process = subprocess.Popen(
            [*(IN_THE_BACKGROUND if background else []), str(SCRIPT), "bot", "run", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ),
        )
        self.err: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.err.append(line)

    def said(self, start: str, timeout: float = 30.0) -> str:
        """The first stderr line that starts with `start`, waited for."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = next((line for line in self.err if line.startswith(start)), None)
            if found is not None:
                return found
            assert self.process.poll() is None, (self.process.returncode, self.err)
            time.sleep(0.05)
        raise AssertionError(f"never said {start!r}: {self.err}")

    def finish(self, timeout: float = 120.0) -> tuple[int, str, str]:
        # stdout is read here and stderr only by the reader thread: `communicate` would read stderr too, and
        # whatever it took would be missing from `self.err` (an early Ctrl-C's last line went that way).
        assert self.process.stdout is not None
        try:
            self.process.wait(timeout=timeout)  # a bot that never ends fails the test instead of hanging it
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise
        out = self.process.stdout.read()
        self.reader.join(timeout)
        assert not self.reader.is_alive()
        return self.process.returncode, out, "".join(self.err)


def test_without_wait_no_fitting_game_is_one_line_naming_wait(base: str) -> None:
    en = loveletter("bot", "run", BOT, "--server", base, "--join-open", "--ruleset", "2012", "--players", "3")
    assert en.returncode == 2
    assert en.stderr == ("error: no public game has an open seat (ruleset 2012, 3 players); --wait waits for one\n"), (
        en.stderr
    )
    fr = loveletter("bot", "run", BOT, "--server", base, "--join-open", "--lang", "fr")
    assert fr.returncode == 2
    assert fr.stderr == "erreur : aucune partie publique n'a de siège ouvert ; --wait en attend une\n"


def test_the_filters_and_wait_go_with_join_open() -> None:
    for extra in (("--wait",), ("--ruleset", "2012"), ("--players", "2")):
        result = loveletter("bot", "run", BOT, "--game", "g_x", "--invite", "i", *extra)
        assert result.returncode == 2 and result.stderr == (
            "error: --wait, --ruleset and --players choose a lobby game: they go with --join-open\n"
        )


def test_a_waiting_bot_joins_the_first_game_that_fits_and_plays_it_out(base: str) -> None:
    bot = Running(BOT, "--server", base, "--join-open", "--wait", "--ruleset", "2012", "--players", "2")
    first = bot.said("waiting for ")
    assert first == "waiting for a public game with an open seat (ruleset 2012, 2 players)… 0 s (Ctrl-C stops)\n"
    with Client(base) as c:  # two games the filters refuse, then the one that fits
        other_ruleset = c.create_game([{"name": "House", "bot": "heuristic"}, {"open": True}], public=True).game_id
        three_seats = c.create_game(
            [{"name": "Ann", "bot": "heuristic"}, {"name": "Bea", "bot": "heuristic"}, {"open": True}],
            ruleset="2012",
            public=True,
        ).game_id
        time.sleep(1.5)  # the bot asks the lobby again meanwhile, and must pass over both
        fits = c.create_game([{"name": "House", "bot": "heuristic"}, {"open": True}], ruleset="2012", public=True)
    code, out, err = bot.finish()
    assert code == 0, err
    assert out.strip() == f"bot (seat 1): game {fits.game_id} over, winners: " + out.strip().split("winners: ")[1]
    events = log_events(admin_log(base, fits.game_id))
    assert any(e.TYPE == "seat_joined" and e.name == "bot" for e in events)
    assert any(e.TYPE == "game_ended" for e in events) and events[-1].TYPE == "seed_revealed"
    assert [e for e in events if e.TYPE == "card_played" and e.player == 1], "the bot's seat never played"
    with Client(base) as c:
        still_open = {g.game_id for g in c.lobby(status="open")}
    assert {other_ruleset, three_seats} <= still_open  # neither was joined


@pytest.mark.parametrize(
    ("lang", "waiting", "stopped"),
    [
        ("en", "waiting for a public game", "stopped waiting: no game joined"),
        ("fr", "en attente d'une partie publique", "attente arrêtée : aucune partie rejointe"),
    ],
)
def test_ctrl_c_stops_a_waiting_bot_cleanly(base: str, lang: str, waiting: str, stopped: str) -> None:
    """Started as a shell starts a job in the background, where SIGINT is ignored: Ctrl-C (`kill -INT`) still stops
    it (before, it went on waiting, and the test run that had started in the background hung here)."""
    bot = Running(BOT, "--server", base, "--join-open", "--wait", "--players", "6", "--lang", lang, background=True)
    bot.said(waiting)
    bot.process.send_signal(signal.SIGINT)
    code, out, err = bot.finish(30)
    assert code == 130 and out == ""
    assert err.splitlines()[-1] == stopped and "Traceback" not in err, err
