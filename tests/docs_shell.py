"""A reader's terminal, for tests/test_docs_shell.py: the ```sh blocks of README.md and docs/*.md cut into commands,
and `Shell`, which runs them with bash as a reader of the page would, against a test referee.

A command is a line of a block (a line ending in `\\` continues on the next); blank lines and lines that are only a
`#` comment (an answer the page shows) are not commands. `Shell.run` runs one command in `bash -c`, in the reader's
working folder, with the variables the reader has set so far (those the walk sets from earlier answers, and those
the block's own commands export: `export`, `. .venv/bin/activate`), the docs' `localhost:8000` /
`127.0.0.1:8000` written as the test referee's URL, and `curl` a shell function that calls the real curl with a
time limit (`STREAM_SECONDS` for a stream, `-N`) and writes the answer's status and type to stderr (`-w
'%{stderr}…'`): what the command prints on stdout is exactly what the reader sees. Why curl itself, and not the
same request sent again with httpx: the command runs as printed, its flags, headers and shell quoting the page's,
so a missing `Content-Type`, a broken quote or a `jq` filter that does not parse fails here as it would for the
reader; parsing curl lines into httpx calls would test that parser, not the page.
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.servers import ADMIN, serve

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the checkout's .venv/bin: its `loveletter` console script
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```sh\n(.*?)^```$", re.S | re.M)
DOC_URL = re.compile(r"(?:http://)?(?:localhost|127\.0\.0\.1):8000")
COMMENT = re.compile(r"\s+#\s.*$")
STREAM_SECONDS = 2
WALL = 120.0
"""A bound for a command that hangs, not a wait."""
CURL = r"""curl() {
  local a t=30
  for a in "$@"; do [[ $a == -[!-]* && $a == *N* ]] && t=STREAM; done
  command curl --max-time "$t" -w '%{stderr}\n@@ %{http_code} %{content_type}\n' "$@"
}
""".replace("STREAM", str(STREAM_SECONDS))
SHELL_OWN = {"_", "PWD", "OLDPWD", "SHLVL"}


@dataclass(frozen=True)
class Line:
    """A command of a ```sh block: its page, the block's number on the page (from 1), its line, its text."""

    page: str
    block: int
    number: int
    text: str

    @property
    def bare(self) -> str:
        """The command without its trailing comment."""
        return COMMENT.sub("", self.text)

    def __str__(self) -> str:
        return f"{self.page}:{self.number} (```sh block {self.block}): {self.bare}"


def commands() -> list[Line]:
    """Every command of every ```sh block of the README and the docs, in page order."""
    found = []
    for page in PAGES:
        text, name = page.read_text("utf-8"), str(page.relative_to(ROOT))
        for block, fenced in enumerate(FENCE.finditer(text), start=1):
            first, pending, start = text.count("\n", 0, fenced.start(1)) + 1, "", 0
            for offset, raw in enumerate(fenced[1].splitlines()):
                start = start if pending else first + offset
                if raw.endswith("\\"):
                    pending += raw[:-1]
                    continue
                command, pending = (pending + raw).strip(), ""
                if command and not command.startswith("#"):
                    found.append(Line(name, block, start, command))
    return found


def python_block(page: str, first: str) -> str:
    """The ```python block of `page` whose first line is `first` (a file the page has the reader write)."""
    blocks = re.findall(r"^```python\n(.*?)^```$", (ROOT / page).read_text("utf-8"), re.S | re.M)
    (block,) = [b for b in blocks if b.startswith(first + "\n")]
    return str(block)


@dataclass
class Answer:
    """What a command did: its exit code, stdout and stderr, and for curl the answer's HTTP status and type."""

    line: Line
    command: str
    code: int
    out: str
    err: str
    status: int | None = None
    type: str = ""

    def __str__(self) -> str:
        return (f"{self.line}\n  ran: {self.command}\n  exit {self.code}, HTTP {self.status} {self.type}\n"
                f"  stdout: {self.out[:1500]}\n  stderr: {self.err[:1500]}")  # fmt: skip

    @property
    def body(self) -> str:
        """The answer's body (after the head, for `curl -i`)."""
        return self.out.split("\n\n", 1)[1] if self.out.startswith("HTTP/") else self.out  # CRLF read as \n

    def header(self, name: str) -> str:
        head = self.out.split("\n\n", 1)[0].splitlines()[1:]
        return {k.lower(): v.strip() for k, v in (h.split(": ", 1) for h in head)}[name.lower()]

    def json(self) -> Any:
        try:
            return orjson.loads(self.body)
        except orjson.JSONDecodeError:
            raise AssertionError(f"not JSON:\n{self}") from None

    def events(self) -> list[dict[str, Any]]:
        """The server-sent events of a stream's body, each {"id", "event", "data"} with `data` parsed."""
        found = []
        for frame in self.body.split("\n\n"):
            fields = dict(f.split(": ", 1) for f in frame.splitlines() if f and not f.startswith(":"))
            if fields:
                found.append({**fields, "data": orjson.loads(fields["data"])})
        return found


def has(data: dict[str, Any], **fields: Any) -> None:
    """`data` holds each field: a type (any value of it) or the value itself."""
    for key, want in fields.items():
        assert key in data, (key, data)
        got = data[key]
        assert isinstance(got, want) if isinstance(want, type) else got == want, (key, got, want, data)


class Shell:
    """One reader's terminal: the block's commands, the variables the reader has, a working folder, a referee."""

    def __init__(self, lines: list[Line], url: str, folder: Path, overrides: dict[str, tuple[str, str, str]]) -> None:
        self.lines, self.url, self.cwd, self.overrides = lines, url, folder, overrides
        self.scratch = folder.with_name(f"{folder.name}-shell")  # beside the folder: never in the reader's
        self.scratch.mkdir(exist_ok=True)
        self.env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}", "LOVELETTER_LANG": "en"}
        self.fills: dict[str, str] = {}
        self.ran: set[Line] = set()
        self.running: list[subprocess.Popen[str]] = []
        self.count = 0

    def set(self, **variables: str) -> None:
        """Variables the reader set from earlier answers (`GAME=g_…`)."""
        self.env.update(variables)

    def fill(self, placeholder: str, value: str) -> None:
        """A placeholder of the page (`g_…`, an id it made up) as the reader fills it in, from a real answer."""
        self.fills[placeholder] = value

    def line(self, select: str) -> Line:
        """The block's command that is `select` (without its comment), else the only one that contains it."""
        found = [x for x in self.lines if x.bare == select] or [x for x in self.lines if select in x.text]
        assert len(found) == 1, f"the walk's {select!r} names {len(found)} commands of the block (did one change?):" + (
            "".join(f"\n  {x}" for x in self.lines)
        )
        return found[0]

    def command(self, line: Line) -> str:
        part, instead, _ = self.overrides.get(line.bare, ("", "", ""))
        text = line.text.replace(part, instead, 1) if part else line.text
        for placeholder, value in self.fills.items():
            text = text.replace(placeholder, value)
        return DOC_URL.sub(self.url, text)

    def start(self, select: str, own: bool = False) -> tuple[Line, subprocess.Popen[str], Path]:
        """The command, started in the background (a bot that stays, a bot that waits); `own`: `select` is a
        command of the walk's own, not the page's."""
        line = Line("(the walk's own)", 0, 0, select) if own else self.line(select)
        command, self.count = (select if own else self.command(line)), self.count + 1
        if not own:
            self.ran.add(line)
        base = self.scratch / f"command-{self.count}"  # its output, and what it exported
        script = f"{CURL}{command}\n__rc=$?; env -0 > {base}.env; exit $__rc\n"
        with open(f"{base}.out", "w") as out, open(f"{base}.err", "w") as err:
            proc = subprocess.Popen(["bash", "-c", script], cwd=self.cwd, env=self.env, stdout=out, stderr=err,
                                    text=True, start_new_session=True)  # fmt: skip
        self.running.append(proc)
        return line, proc, base

    def said(self, started: tuple[Line, subprocess.Popen[str], Path], text: str, where: str = "out") -> None:
        """Wait until the started command has written `text` (on stdout, or `where="err"`)."""
        line, proc, base = started
        deadline = time.monotonic() + WALL
        while text not in Path(f"{base}.{where}").read_text():
            assert proc.poll() is None and time.monotonic() < deadline, f"{line}: never said {text!r}"
            time.sleep(0.05)

    def finish(self, started: tuple[Line, subprocess.Popen[str], Path], status: int | None = None, /,
               exits: int | tuple[int, ...] = 0, **fields: Any) -> Answer:  # fmt: skip
        """Wait for a started command to end, then check it as `run` does."""
        line, proc, base = started
        try:
            proc.wait(WALL)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{line}: still running after {WALL} s") from None
        self.running.remove(proc)
        carried = dict(v.split("=", 1) for v in Path(f"{base}.env").read_text().split("\0") if "=" in v)
        self.env.update({k: v for k, v in carried.items() if k not in SHELL_OWN})  # what the command exported
        out, err = Path(f"{base}.out").read_text(), Path(f"{base}.err").read_text()
        command = line.text if line.block == 0 else self.command(line)
        return self.check(Answer(line, command, proc.returncode, out, err), status, exits, fields)

    def run(self, select: str, status: int | None = None, /, exits: int | tuple[int, ...] = 0, **fields: Any) -> Answer:
        """Run the block's command `select`; a curl command's answer must have `status` and never a 5xx, any
        other command must exit with `exits` (a code, or any of several); a JSON answer must hold `fields`
        (see `has`)."""
        return self.finish(self.start(select), status, exits=exits, **fields)

    def check(self, answer: Answer, status: int | None, exits: int | tuple[int, ...], fields: Any) -> Answer:
        marks = re.findall(r"^@@ (\d{3}) (.*)$", answer.err, re.M)
        if re.match(r"curl\s", answer.command):
            stream = re.search(r"\s-[A-Za-z]*N[A-Za-z]*\s", answer.command) is not None
            assert len(marks) == 1, f"one request, one answer:\n{answer}"
            answer.status, answer.type = int(marks[0][0]), marks[0][1]
            assert status is not None, f"the walk must say which status this answer has:\n{answer}"
            assert answer.code in ((0, 28) if stream else (0,)), f"curl failed:\n{answer}"  # 28: a stream's time
            assert answer.status < 500 and answer.status == status, f"expected HTTP {status}:\n{answer}"
            assert status >= 400 or "problem" not in answer.type, f"a problem in a success:\n{answer}"
        else:
            assert answer.code in (exits if isinstance(exits, tuple) else (exits,)), f"expected exit {exits}:\n{answer}"
        if fields:
            has(answer.json(), **fields)
        return answer

    def close(self) -> None:
        for proc in self.running:  # only the commands this shell started, each by its own process group
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


# -- what a walk needs of the referee besides the page's own commands ---------------------------------------------


def post(url: str, path: str, body: dict[str, Any], status: int = 201, **headers: str) -> dict[str, Any]:
    answer = httpx.post(url + path, json=body, headers=headers, timeout=30)
    assert answer.status_code == status, answer.text
    return dict(answer.json())


def until(check: Callable[[], Any], what: str) -> Any:
    """Ask `check` until it answers something true: a bound for a busy machine, not a wait."""
    deadline = time.monotonic() + WALL
    while not (found := check()):
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)
    return found


def play(url: str, game_id: str, *tokens: str, seed: int = 1) -> dict[str, Any]:
    """The seats of `tokens` play `game_id` to its end, each a legal move of its own at its turn (any other seat is
    someone else's: a bot); the game as a spectator sees it at the end."""
    rng = random.Random(seed)
    with httpx.Client(base_url=url, timeout=30) as http:
        deadline = time.monotonic() + WALL
        while not (game := http.get(f"/games/{game_id}").json())["over"]:
            assert time.monotonic() < deadline, f"{game_id} does not end"
            for token in tokens:
                seat = http.get(f"/games/{game_id}", headers={"Authorization": f"Bearer {token}"}).json()
                if seat["your_turn"]:
                    move = {"type": "code", "action_code": rng.choice(seat["legal_moves"])["action_code"]}
                    answer = http.post(
                        f"/games/{game_id}/moves", json=move, headers={"Authorization": f"Bearer {token}"}
                    )
                    assert answer.status_code == 200, answer.text
            time.sleep(0.005)
        return dict(game)


def game_log(url: str, folder: Path, name: str = "game.jsonl") -> Path:
    """A real game of Alice and Bob (both the referee's heuristic bots), its signed log saved as `name`: a game in
    which event 41 leaves Alice to decide (the README asks what she may play there)."""
    for _ in range(200):
        made = post(
            url, "/games", {"players": [{"name": "Alice", "bot": "heuristic"}, {"name": "Bob", "bot": "heuristic"}]}
        )
        log = httpx.get(f"{url}/games/{made['game_id']}/log", timeout=30)
        assert log.status_code == 200, log.text
        events = [orjson.loads(x) for x in log.content.splitlines()[1:]]
        if (
            len(events) > 42
            and events[41]["seq"] == 42
            and events[41]["type"] == "card_played"
            and events[41]["player"] == 0
        ):
            (folder / name).write_bytes(log.content)
            return folder / name
    raise AssertionError("no game of 200 left Alice to decide after event 41")


def rated_game(url: str, stem: str) -> str:
    """Two new accounts play a rated game to its end (a challenge, accepted); its id."""
    ann, bob = (post(url, "/accounts", {"name": f"{stem}{n}"}) for n in (1, 2))
    challenge = post(url, "/challenges", {"key": ann["key"], "to": bob["name"], "rated": True})
    accepted = post(url, f"/challenges/{challenge['challenge_id']}/accept", {"key": bob["key"]}, 200)
    seat = post(url, f"/games/{accepted['game_id']}/join", {"name": "x", "account_key": ann["key"]}, 200)
    play(url, accepted["game_id"], seat["token"], accepted["token"])
    return str(accepted["game_id"])


def table(url: str, **body: object) -> dict[str, str]:
    """A game with the referee's random bot in seat 0 and seat 1 open: its id and the open seat's invite."""
    game = post(url, "/games", {"players": [{"name": "Ann", "bot": "random"}, {"open": True}], **body})
    return {"game_id": game["game_id"], "invite": game["seats"][1]["invite"]}


def over(url: str, game_id: str, name: str) -> None:
    """The game is over, and its seat 1 was played under `name`."""
    game = httpx.get(f"{url}/games/{game_id}", timeout=30).json()
    assert game["over"] and game["view"]["seats"][1]["name"] == name, game


@contextlib.contextmanager
def referee(folder: Path) -> Iterator[str]:
    """A referee of its own for one walk: SQLite in `folder`, an admin token, no rate limits (a walk may make
    games in a loop)."""
    path = str(folder / "referee.db")
    store = SqliteStore(path)
    try:
        settings = Settings(database_url=f"sqlite:///{path}", log_level="warning", admin_token=ADMIN, create_rate=0,
                            move_rate=0)  # fmt: skip
        with serve(settings, store) as url:
            yield url
    finally:
        store.close()
