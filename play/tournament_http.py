"""A tournament over HTTP: every game is created on a real referee with a turn clock, and every seat is played by its
bot in a process of its own (`loveletter bot run … --jsonl`), so a bot that crashes, hangs or answers illegal moves
harms nobody: the referee's clock times its seat out (`on_timeout` bot or resign) and the game goes on; the process
is ended once the game is over. What each process reported and the game's own log say what went wrong, per bot.

Duplicate deals need the referee's admin token (`--serve` holds one, or `--admin-token`): every game of a deal set
is then created with the same server seed, derived from the tournament seed as in process, so the logs show the same
shuffles with the seats permuted (the seed is still committed and revealed: an audit sees it). The bots add no seeds
of their own. Without the admin token the referee draws each game's server seed in secret, as for any game.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import httpx
import orjson

from loveletter.client import Client, RefereeError
from loveletter.core.catalogue import Event
from loveletter.core.evolve import fold
from loveletter.core.lang import BilingualError, Text
from loveletter.events.log import read_games
from loveletter.play.outcome import Outcome
from loveletter.play.simulate import SeedKey
from loveletter.play.tournament import (
    Config,
    Seating,
    bot_seed,
    load_bots,
    outcome_of,
    schedule,
    seat_names,
    server_seed,
)
from loveletter.play.tournament import tournament_key as make_key

CLI = (sys.executable, "-c", "from loveletter.cli.main import main; main()")
"""How a bot's process is started: this Python, the `loveletter` command's own entry point."""


@dataclass(frozen=True, slots=True)
class HttpConfig:
    url: str
    turn_seconds: int = 10
    parallel: int = 2
    join_seconds: float = 60.0
    """Longest wait for every bot to take its seat before the game is aborted (and not rated)."""
    grace_seconds: float = 5.0
    """How long a bot's process may take to leave after its game is over before it is ended (a hang). At 2 s a healthy
    bot was once reported hung on a busy machine (its interpreter's exit alone can take that long there)."""
    admin_token: str | None = None
    """The referee's admin token: with it (and duplicate deals) a deal set's games share their server seed."""


class HttpTournamentError(BilingualError):
    """The referee could not be reached, or refused the tournament's games."""


def run_over_http(
    config: Config,
    http: HttpConfig,
    log: IO[bytes] | None = None,
    on_game: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Play the tournament at `http.url`, `http.parallel` games at a time; the games' logs (as the referee signed
    them) to `log`, in game order."""
    config.check()
    load_bots(config.bots)  # a bot that cannot be loaded is refused here, not by each of its processes
    key = make_key(config.seed)
    seatings = list(schedule(config))
    done: dict[int, tuple[Outcome, bytes]] = {}
    written = 0
    with ThreadPoolExecutor(max_workers=max(1, http.parallel)) as pool:
        futures = [pool.submit(play_over_http, config, http, s, bot_seeds(key, s, config.players)) for s in seatings]
        for future in futures:
            outcome, data = future.result()
            done[outcome.game] = (outcome, data)
            if on_game is not None:
                on_game(outcome)
            while written in done and log is not None:
                log.write(done[written][1])
                written += 1
    return [done[s.game][0] for s in seatings]


def bot_seeds(key: SeedKey, seating: Seating, players: int) -> list[int]:
    return [bot_seed(key, seating.game, s) for s in range(players)]


def play_over_http(config: Config, http: HttpConfig, seating: Seating, seeds: Sequence[int]) -> tuple[Outcome, bytes]:
    """One game: created with open seats and a clock, each seat joined and played by its bot's process."""
    n = config.players
    specs = [config.bots[i] for i in seating.seats]
    names = seat_names(config, seating)
    chosen: dict[str, Any] = {}
    if http.admin_token is not None and config.duplicate:
        chosen["server_seed"] = server_seed(make_key(config.seed), seating.deal).hex()
    try:
        with Client(http.url, http.admin_token) as referee:
            created = referee.create_game(
                [{"open": True}] * n,
                ruleset=config.ruleset,
                options=dict(config.options) or None,
                turn_seconds=http.turn_seconds,
                on_timeout=config.on_timeout,  # type: ignore[arg-type]
                **chosen,
            )
            organiser = referee.seat(created.organiser_token or "")
            with tempfile.TemporaryDirectory(prefix="loveletter-tournament-") as tmp:
                procs = [
                    _start_bot(spec, http.url, created.game_id, invite, name, seed, Path(tmp) / f"seat{seat}")
                    for seat, (spec, invite, name, seed) in enumerate(
                        zip(specs, created.invites, names, seeds, strict=True)
                    )
                ]
                try:
                    aborted = _wait_for_the_end(organiser, created.game_id, http, procs)
                    hangs = _end(procs, http.grace_seconds)
                finally:
                    for proc, _ in procs:
                        _kill(proc)
                reports = [_report(out) for _, out in procs]
                crashes = [int(p.returncode not in (0, None) and not h) for (p, _), h in zip(procs, hangs, strict=True)]
                tracebacks = [_traceback(out) if c else "" for (_, out), c in zip(procs, crashes, strict=True)]
            data = referee.http.get(f"/games/{created.game_id}/log").content
    except httpx.TransportError as exc:
        raise HttpTournamentError(
            Text(f"cannot reach {http.url}: {exc}", f"impossible de joindre {http.url} (est-il démarré ?)")
        ) from None
    except RefereeError as exc:  # the referee would not create the game (a limit, an option it does not know…)
        raise HttpTournamentError(Text(f"the referee refused: {exc}", f"l'arbitre a refusé : {exc}")) from None
    events = _events(data)
    outcome = outcome_of(seating, fold(events), events)
    outcome.aborted = outcome.aborted or aborted
    outcome.refused = [sum(1 for item in r if "refused" in item) for r in reports]
    outcome.crashes = crashes
    outcome.hangs = [int(h) for h in hangs]
    outcome.tracebacks = tracebacks
    return outcome, data


def _start_bot(
    spec: str, url: str, game_id: str, invite: str | None, name: str, seed: int, out: Path
) -> tuple[subprocess.Popen[bytes], Path]:
    args = [*CLI, "bot", "run", spec, "--server", url, "--game", game_id, "--invite", invite or "", "--name", name]
    args += ["--seed", str(seed), "--jsonl", "--lang", "en"]
    with open(out, "wb") as fp:
        proc = subprocess.Popen(args, stdout=fp, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    return proc, out


def _wait_for_the_end(
    organiser: Client, game_id: str, http: HttpConfig, procs: Sequence[tuple[subprocess.Popen[bytes], Path]]
) -> bool:
    """Watch the game (as its organiser) until it is over; abort it if the bots never all sat down or it outlives
    any game a clock allows. True if it was aborted."""
    started = time.monotonic()
    longest = http.join_seconds + http.turn_seconds * 400 + 60
    while True:
        game = organiser.game(game_id)
        if game.over:
            return game.view.aborted
        seated = not any(s.open for s in game.view.seats)
        waited = time.monotonic() - started
        everyone_left = all(proc.poll() is not None for proc, _ in procs)
        if (not seated and (waited > http.join_seconds or everyone_left)) or waited > longest:
            with contextlib.suppress(Exception):
                organiser.abort(game_id)
            return True
        time.sleep(0.1)


def _end(procs: Sequence[tuple[subprocess.Popen[bytes], Path]], grace: float) -> list[bool]:
    """Give each bot's process `grace` seconds to leave after the game; end those that do not: True for each."""
    deadline = time.monotonic() + grace
    hung = []
    for proc, _ in procs:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
            hung.append(False)
        except subprocess.TimeoutExpired:
            _kill(proc)
            hung.append(True)
    return hung


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(2)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _report(out: Path) -> list[dict[str, object]]:
    """The JSON lines a bot's process printed (`bot run --jsonl`): one per refused move or crash."""
    items = []
    for line in out.read_bytes().splitlines():
        with contextlib.suppress(orjson.JSONDecodeError):
            item = orjson.loads(line)
            if isinstance(item, dict):
                items.append(item)
    return items


def _traceback(out: Path) -> str:
    """The traceback a crashed bot's process printed (`bot run` prints it before its JSON line)."""
    text = out.read_text(errors="replace")
    start = text.find("Traceback (most recent call last):")
    if start < 0:
        return ""
    lines = text[start:].splitlines(keepends=True)
    end = next((i for i, line in enumerate(lines[1:], 1) if not line.startswith(" ")), len(lines) - 1)
    return "".join(lines[: end + 1])  # down to the exception's own line


def _events(data: bytes) -> list[Event]:
    (game,) = list(read_games(data.splitlines()))
    return list(game.events)


# -- a referee of our own: --serve ----------------------------------------------------------------------------------


@contextlib.contextmanager
def local_referee(admin_token: str | None = None) -> Iterator[str]:
    """`loveletter serve` on a free port of 127.0.0.1 with a throwaway SQLite store and signing key, without rate
    limits (every bot plays from this machine), with `admin_token` as its admin token: its URL, until the block ends."""
    with tempfile.TemporaryDirectory(prefix="loveletter-referee-") as tmp:
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("LOVELETTER_")}
        env.update(
            LOVELETTER_CREATE_RATE="0",
            LOVELETTER_MOVE_RATE="0",
            LOVELETTER_LOG_LEVEL="warning",
            LOVELETTER_KEY_PATH=str(Path(tmp) / "signing.key"),
        )
        if admin_token is not None:
            env["LOVELETTER_ADMIN_TOKEN"] = admin_token
        args = [*CLI, "serve", "--port", str(port), "--database-url", f"sqlite:///{tmp}/tournament.db"]
        with open(Path(tmp) / "referee.log", "wb") as out:
            proc = subprocess.Popen(args, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                        break
                if proc.poll() is not None or time.monotonic() > deadline:
                    said = (Path(tmp) / "referee.log").read_text(errors="replace")[-500:]
                    raise HttpTournamentError(
                        Text(f"the local referee did not start: {said}", f"l'arbitre local n'a pas démarré : {said}")
                    )
                time.sleep(0.1)
            yield url
        finally:
            _kill(proc)


def _free_port() -> int:
    """A TCP port of 127.0.0.1 that nobody listens on now (the system picks it; the referee binds it just after)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
