"""The road a new bot author walks (issue 36): what the command line tells them at each step.

Every help page that names the built-in bots names all of them; a staying bot says it is online and under which
account, and each game it starts; a wrong account key is one line and a non-zero exit, not a traceback; a referee
that cannot be reached is said once per try, with the pause before the next; `--state`'s default is the file the
bot really writes.
"""

from __future__ import annotations

import hashlib
import os
import queue
import random
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from loveletter.events.sqlite_store import SqliteStore
from loveletter.play.bots import BOTS
from loveletter.server.settings import Settings
from tests.cli import ROOT, SCRIPT, loveletter
from tests.servers import ADMIN, serve
from tests.test_bots_online import Served
from tests.test_challenges import account


@pytest.fixture(scope="module")
def referee() -> Iterator[str]:
    path = str(Path(tempfile.mkdtemp(prefix="loveletter-road-")) / "games.db")
    settings = Settings(database_url=f"sqlite:///{path}", log_level="error", admin_token=ADMIN)
    with serve(settings, SqliteStore(path)) as url:
        yield url


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("command", ["simulate", "tournament", "bot run"])
def test_every_help_page_that_names_the_built_in_bots_names_them_all(command: str, lang: str) -> None:
    page = loveletter(*command.split(), "--help", "--lang", lang)
    assert page.returncode == 0, page.stderr
    flat = " ".join(page.stdout.split())  # the help is wrapped: a list may be cut across lines
    assert "heuristic" in flat
    for name in BOTS:
        assert re.search(rf"\b{name}\b", flat), (name, command, lang)


@pytest.mark.parametrize(
    ("lang", "start"),
    [("en", "error: {url} refused the account key (403 account_key_rejected): "),
     ("fr", "erreur : {url} a refusé la clé du compte (403 account_key_rejected) : ")],
)  # fmt: skip
def test_a_wrong_account_key_is_one_line_and_a_failure(referee: str, lang: str, start: str) -> None:
    ran = loveletter("bot", "run", "heuristic", "--stay", "--server", referee, "--lang", lang,
                     env={"LOVELETTER_ACCOUNT_KEY": "ak_not-a-key-of-this-referee"})  # fmt: skip
    assert ran.returncode == 2, (ran.stdout, ran.stderr)
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(start.format(url=referee)), ran.stderr
    assert "LOVELETTER_ACCOUNT_KEY" in lines[0] and "Traceback" not in ran.stderr and ran.stdout == ""


class Said:
    """A process's standard output, line by line, read in a thread: `next(seconds)` waits for the next line."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.lines: queue.Queue[str] = queue.Queue()
        assert proc.stdout is not None
        stdout = proc.stdout
        self.reader = threading.Thread(target=lambda: [self.lines.put(line.rstrip("\n")) for line in stdout])
        self.reader.daemon = True
        self.reader.start()

    def next(self, seconds: float = 60) -> str:
        try:
            return self.lines.get(timeout=seconds)
        except queue.Empty:
            raise AssertionError(f"nothing said in {seconds} s") from None

    def rest(self) -> list[str]:
        """Every line not read yet, once the process has closed its output."""
        self.reader.join(60)
        return [self.lines.get() for _ in range(self.lines.qsize())]


def test_a_staying_bot_says_each_try_to_reach_its_referee_then_that_it_is_online(tmp_path: Path) -> None:
    """The referee is away when the bot starts: one line a try, each pause twice the last; then the referee comes
    back on its port and the bot says under which name it is online, and keeps its state where `--state` says."""
    referee = Served(tmp_path / "referee.db").start()
    me = account(referee.url, "Road")
    referee.stop()
    env = {**os.environ, "LOVELETTER_ACCOUNT_KEY": me["key"], "LOVELETTER_LANG": "en"}
    folder = tmp_path / "bot"
    folder.mkdir()
    bot = subprocess.Popen([str(SCRIPT), "bot", "run", "heuristic", "--stay", "--seek", "--server", referee.url],
                           cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        said = Said(bot)
        tries = [said.next(), said.next()]
        assert tries == [
            "referee unreachable (ConnectError): trying again in 1 s",
            "referee unreachable (ConnectError): trying again in 2 s",
        ], tries
        referee.start()  # the same file, the same port
        line = said.next()
        while line.startswith("referee unreachable"):
            line = said.next()
        assert line == f"online as {me['name']} ({me['account_id']}) at {referee.url}", line
        default = folder / f".loveletter-bot-{hashlib.sha256(me['key'].encode()).hexdigest()[:12]}.json"
        deadline = time.monotonic() + 60
        while not default.exists():  # its seek is recorded in the file `--state --help` names
            assert time.monotonic() < deadline, sorted(p.name for p in folder.iterdir())
            time.sleep(0.05)
        bot.send_signal(signal.SIGINT)
        assert bot.wait(60) == 0, bot.stderr.read() if bot.stderr else ""
        assert said.rest()[-2:] == ["stopping: finish 0 game(s)", "stopped: 0 game(s) finished"]
        assert me["key"] not in default.read_text()  # seat tokens and seeks, never the key
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
        referee.stop(signal.SIGKILL)


def test_the_state_help_names_the_file_a_bot_writes() -> None:
    """The rule the test above follows to find the bot's file is the one the help page gives."""
    flat = " ".join(loveletter("bot", "run", "--help", "--lang", "en").stdout.split())
    rule = ".loveletter-bot-HASH.json in the working directory, HASH the first 12 hex digits of the key's SHA-256"
    assert rule in flat, flat


def curl_lines() -> list[tuple[str, int, str]]:
    """Every curl command of the docs and the README (a command continued with `\\` is one line here)."""
    found = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text().replace("\\\n", " ")
        for number, line in enumerate(text.splitlines(), start=1):
            for command in re.findall(r"curl\s[^`|]*", line):
                found.append((page.name, number, command))
    return found


def test_every_curl_example_that_sends_a_body_says_what_it_sends() -> None:
    """`curl -d` sends `application/x-www-form-urlencoded` unless told otherwise, and the referee answers 415: an
    example a reader copies must work as printed (JSON, or a log as `application/x-ndjson` to `/audits`)."""
    lines = curl_lines()
    assert len(lines) > 60  # the docs' examples are read, not none
    bodies = [(page, n, c) for page, n, c in lines if re.search(r"\s(-d|--data\S*)\s", c)]
    assert len(bodies) > 20
    assert [(page, n) for page, n, c in bodies if not re.search(r"Content-Type: application/(json|x-ndjson)'", c)] == []


def test_a_timed_out_seat_in_process_is_played_by_the_referees_stand_in() -> None:
    """In process, as over HTTP, a decision a bot does not make is the expert's (`on_timeout: bot`): the seat of a
    bot that answers only illegal moves is replayed from the log, and each of its moves must be the one the expert
    chooses there, with the seat's own random generator."""
    from loveletter.core.catalogue import Event
    from loveletter.core.decide import decide
    from loveletter.core.evolve import apply_all
    from loveletter.core.legal import legal_moves
    from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_PLAY
    from loveletter.core.views import view
    from loveletter.play.bots import get_bot
    from loveletter.play.tournament import Config, Seating, bot_seed, load_bots, play_in_process, tournament_key

    config = Config(bots=("examples.bots.faulty:illegal", "heuristic"), players=2, games=1, on_timeout="bot")
    key, seating = tournament_key(config.seed), Seating(0, 0, (0, 1))
    record: list[Event] = []
    outcome = play_in_process(config, seating, load_bots(config.bots), key, record)
    assert outcome.refused[0] == outcome.timeouts[0] > 3  # every decision of seat 0 refused, then timed out
    expert, rng = get_bot("expert"), random.Random(bot_seed(key, seating.game, 0))
    state, at, checked = INITIAL.thaw(), 0, 0
    while at < len(record):
        if state.phase in (PHASE_PLAY, PHASE_CHANCELLOR) and state.active == 0:
            expected = decide(state, expert.choose(view(state, 0), legal_moves(state, 0), rng))
            assert record[at : at + len(expected)] == list(expected), f"decision {checked + 1} is not the expert's"
            checked += 1
            apply_all(state, expected)
            at += len(expected)
        else:
            apply_all(state, [record[at]])
            at += 1
    assert checked == outcome.timeouts[0]


def test_a_staying_bot_speaks_french_when_asked() -> None:
    """Its lines follow `--lang`, as the rest of the command line does: here the first try to reach a referee that
    is not there."""
    from loveletter.events.pgcluster import free_port

    url = f"http://127.0.0.1:{free_port()}"
    env = {**os.environ, "LOVELETTER_ACCOUNT_KEY": "ak_whatever"}
    bot = subprocess.Popen([str(SCRIPT), "bot", "run", "heuristic", "--stay", "--server", url, "--lang", "fr"],
                           cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert Said(bot).next() == "arbitre injoignable (ConnectError) : nouvel essai dans 1 s"
    finally:
        bot.kill()
        bot.communicate()
