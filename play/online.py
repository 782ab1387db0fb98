"""A bot that stays online (`loveletter bot run … --account-key … --stay`): it follows its account's event stream,
answers challenges by its settings, takes the seats kept for it (accepted challenges, paired seeks), seeks when it
has room if asked, and plays several games at once, each in a thread of its own with `harness.play`.

What it must not lose is kept in a small JSON file (`Staying.state`): the last account event it handled and the
seat token of every game under way, written before anything depends on it. A bot killed and started again resumes
its games from their tokens and the stream after that event; a dropped connection or a server restart is retried,
waiting longer after each failure in a row (the client library resumes the stream with `Last-Event-ID`, a game thread
reads its game afresh; a referee answering 5xx or 429 meanwhile is waited for too). Ctrl-C stops it cleanly: it
takes no new game, withdraws its seeks, finishes or resigns its games as asked, and says so as it exits.
"""

from __future__ import annotations

import json
import os
import threading
import time
import traceback
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import httpx

from loveletter.client.account_models import AccountEvent
from loveletter.client.errors import RefereeError
from loveletter.client.sync import Client
from loveletter.play.harness import Bot, play

RETRY_SECONDS = 1.0
"""The pause before reconnecting after the referee could not be reached, doubled after each failure in a row…"""
RETRY_CAP = 8.0
"""…up to this: a referee back from a restart is found within seconds, one down for long is not hammered."""


def pause(failures: int) -> float:
    """Seconds to wait after `failures` (from 1) failures in a row to reach the referee."""
    return min(RETRY_CAP, RETRY_SECONDS * 2.0 ** max(failures - 1, 0))


def why(error: Exception) -> str:
    """What went wrong reaching the referee, in a few words: the transport's failure or the referee's status."""
    if isinstance(error, RefereeError):
        return f"{error.status} {error.code}"
    return type(error).__name__


def unreachable(error: Exception) -> bool:
    """Whether `error` says the referee is away for now (down, restarting, overloaded) rather than refusing."""
    return isinstance(error, httpx.TransportError) or (
        isinstance(error, RefereeError) and (error.status == 429 or error.status >= 500)
    )


@dataclass(frozen=True, slots=True)
class Settings:
    """What the bot answers and seeks. None: any."""

    rulesets: frozenset[str] | None = None
    players: frozenset[int] | None = None
    rated: bool | None = None
    """Challenges it accepts: rated only (True), unrated only (False), either (None)."""
    at_once: int = 1
    """Games it plays at once (seeks it keeps open count as games)."""
    seek: bool = False
    seek_ruleset: str = "2019"
    seek_players: int = 2
    seek_rated: bool = False
    games: int | None = None
    """Stop after this many games finished (None: stay until Ctrl-C)."""
    on_stop: Literal["finish", "resign"] = "finish"

    def accepts(self, challenge: dict[str, Any]) -> bool:
        return (
            (self.rulesets is None or challenge["ruleset"] in self.rulesets)
            and (self.players is None or challenge["players"] in self.players)
            and (self.rated is None or challenge["rated"] == self.rated)
        )


@dataclass
class State:
    """What survives a restart: the last event handled, and each game under way's seat token."""

    last: int = 0
    games: dict[str, str] = field(default_factory=dict)
    seeks: list[str] = field(default_factory=list)
    finished: int = 0
    paired: dict[str, str] = field(default_factory=dict)
    """The seek that paired each game under way that a seek made (game id: seek id)."""


class Staying:
    """One account's bot, online until stopped (`run`)."""

    def __init__(
        self,
        client: Client,
        key: str,
        bot: Bot,
        settings: Settings,
        state: Path,
        say: Callable[[str], None] = print,
        lang: str = "en",
    ) -> None:
        self.french = lang == "fr"
        """What the bot says, in English or French (the command line's `--lang`)."""
        self.client = client
        self.key = key
        self.bot = bot
        self.settings = settings
        self.path = state
        self.say = say
        self.lock = threading.Lock()
        self.state = State(**json.loads(state.read_text())) if state.exists() else State()
        self.threads: dict[str, threading.Thread] = {}
        self.stopping = threading.Event()
        self.done = threading.Event()
        self.account = ""
        self.pending: set[str] = set()
        """Games paired at once by a seek, not joined yet (they count as games)."""

    def _save(self) -> None:
        """Written whole to a new file, then renamed over the old: a kill leaves one or the other."""
        fresh = self.path.with_suffix(".tmp")
        fresh.write_text(json.dumps(self.state.__dict__))
        os.replace(fresh, self.path)

    def run(self) -> None:
        """Stay online until Ctrl-C (then stop as `on_stop` says) or until `games` games are finished."""
        me = self._retrying(lambda: self.client.whoami(self.key))
        self.account = me.account_id
        url = self.client.base_url
        who = f"{me.name} ({me.account_id})"
        self._say(f"online as {who} at {url}", f"en ligne : {who} sur {url}")
        try:  # from here on Ctrl-C stops as `on_stop` says, even while the games resume or the first seek is made
            for game_id, token in list(self.state.games.items()):
                self._say_game(game_id, "resumed", "reprise")
                self._start(game_id, token)
            self._seek_if_room()
            follower = threading.Thread(target=self._follow, daemon=True)
            follower.start()
            while not self.done.wait(0.2):
                pass
        except KeyboardInterrupt:
            self.stopping.set()  # before saying so: once it is said, nothing new is taken
            with self.lock:
                under_way = len(self.state.games)
            finish = self.settings.on_stop == "finish"
            self._say(
                f"stopping: {self.settings.on_stop} {under_way} game(s)",
                f"arrêt : {'finir' if finish else 'abandonner'} {under_way} partie(s)",
            )
            self.stop()
            self._say(
                f"stopped: {under_way} game(s) {'finished' if finish else 'resigned'}",
                f"arrêté : {under_way} partie(s) {'finie(s)' if finish else 'abandonnée(s)'}",
            )
            return
        self.stop()

    def stop(self) -> None:
        self.stopping.set()
        for seek_id in list(self.state.seeks):
            with suppress(RefereeError, httpx.HTTPError):  # paired meanwhile, or gone: nothing to withdraw
                self.client.cancel_seek(seek_id, self.key)
        with self.lock:
            self.state.seeks.clear()
            self._save()
            if self.settings.on_stop == "resign":
                for game_id, token in self.state.games.items():
                    with suppress(RefereeError, httpx.HTTPError):  # over already
                        self.client.seat(token).resign(game_id)
        with self.lock:
            threads = list(self.threads.values())
        for thread in threads:
            thread.join()

    def _retrying(self, call: Callable[[], Any]) -> Any:
        failures = 0
        while True:
            try:
                return call()
            except (httpx.TransportError, RefereeError) as error:
                if self.stopping.is_set() or not unreachable(error):
                    raise
                failures += 1
                self._away(error, failures)

    def _away(self, error: Exception, failures: int, where: str = "") -> None:
        """Say that the referee could not be reached and when it is tried again, then wait that long: a bot left
        retrying in silence looks like a bot that hangs."""
        wait = pause(failures)
        self._say(
            f"{where}referee unreachable ({why(error)}): trying again in {wait:g} s",
            f"{where}arbitre injoignable ({why(error)}) : nouvel essai dans {wait:g} s",
        )
        time.sleep(wait)

    def _say(self, en: str, fr: str) -> None:
        self.say(fr if self.french else en)

    def _say_game(self, game_id: str, en: str, fr: str) -> None:
        """One line about one game: "game G: …" (« partie G : … »)."""
        self.say(self._game(game_id) + (fr if self.french else en))

    def _game(self, game_id: str) -> str:
        """How a line about one game starts: "game G: " (« partie G : »)."""
        return f"partie {game_id} : " if self.french else f"game {game_id}: "

    def _follow(self) -> None:
        """Read the account's stream for ever, reconnecting after the referee is gone for a while."""
        failures = 0
        while not self.stopping.is_set():
            try:
                for event in self.client.account_events(self.account, self.key, after=self.state.last):
                    failures = 0
                    if self.stopping.is_set():
                        return
                    self._handle(event)
                    with self.lock:
                        self.state.last = event.id
                        self._save()
            except (httpx.TransportError, RefereeError) as error:
                failures += 1
                self._away(error, failures)

    def _handle(self, event: AccountEvent) -> None:
        if event.type == "challenge_received" and event.challenge is not None:
            challenge = event.challenge
            if challenge["status"] != "open" or challenge["challenged"]["account_id"] != self.account:
                return
            room = len(self.state.games) + len(self.state.seeks) + len(self.pending) < self.settings.at_once
            try:
                if room and self.settings.accepts(challenge) and not self.stopping.is_set():
                    seat = self.client.accept(challenge["challenge_id"], self.key)
                    self._took(seat.game_id, seat.token)
                else:
                    self.client.decline(challenge["challenge_id"], self.key)
            except RefereeError:
                pass  # withdrawn or settled already: nothing to do
        elif event.type == "game_unfilled" and event.seek_id is not None:
            # a game made for this account ended unplayed: its seek is back in the queue (the account had taken its
            # seat) or expired; either way the game no longer holds a place
            with self.lock:
                self.pending.discard(event.game_id or "")
                if event.requeued and event.seek_id not in self.state.seeks:
                    self.state.seeks.append(event.seek_id)
                self._save()
            self._seek_if_room()
        elif event.type == "game_started" and event.game_id is not None:
            with self.lock:
                if event.seek_id in self.state.seeks:
                    self.state.seeks.remove(event.seek_id)
                if event.seek_id is not None:
                    self.state.paired[event.game_id] = event.seek_id
            if not event.joined and event.game_id not in self.state.games:
                # a seat taken already (by this bot, before a restart that lost its token) is refused: nothing to resume
                with suppress(RefereeError):
                    self._took(event.game_id, self.client.join_as(event.game_id, self.key).token)

    def _took(self, game_id: str, token: str) -> None:
        with self.lock:
            self.state.games[game_id] = token
            self.pending.discard(game_id)
            self._save()
        self._say_game(game_id, "started", "commencée")
        self._start(game_id, token)

    def _start(self, game_id: str, token: str) -> None:
        thread = threading.Thread(target=self._play, args=(game_id, token), daemon=True)
        with self.lock:  # registered once started: `stop` joins only threads that run (a Ctrl-C may come between)
            self.threads[game_id] = thread
            thread.start()

    def _play(self, game_id: str, token: str) -> None:
        """Play the game to its end, again after every lost connection (read afresh: a move lost with the connection
        is asked again, one the referee took is not)."""
        seat = self.client.seat(token)
        failures = 0
        aborted = False
        while True:
            try:
                game = play(seat, game_id, self.bot)
                if game.over:
                    aborted = game.view.aborted
                    break  # (else the stream ended with the game under way: the referee stopping, say)
            except (httpx.TransportError, RefereeError) as error:
                if not unreachable(error):
                    self.say(f"{self._game(game_id)}{error}")
                    break
                failures += 1
                self._away(error, failures, self._game(game_id))
            except Exception:  # the bot's own code failed: its seat resigns (RULINGS §12), the others play on
                failed = traceback.format_exc().rstrip()
                self._say_game(
                    game_id,
                    f"the bot failed, its seat resigns\n{failed}",
                    f"le robot a échoué, son siège abandonne\n{failed}",
                )
                with suppress(httpx.TransportError, RefereeError):
                    seat.resign(game_id)
                break
        with self.lock:
            seek_id = self.state.paired.pop(game_id, None)
        if aborted and seek_id is not None:
            self._settled(seek_id)
        with self.lock:
            self.state.games.pop(game_id, None)
            self.threads.pop(game_id, None)
            self.state.finished += 1
            self._save()
            finished = self.state.finished
        self._say(f"game {game_id} over ({finished} finished)", f"partie {game_id} terminée ({finished} finie(s))")
        if self.settings.games is not None and finished >= self.settings.games:
            self.stopping.set()
            self.done.set()
            return
        self._seek_if_room()

    def _settled(self, seek_id: str, seconds: float = 10.0) -> None:
        """After a game a seek made ended unplayed: wait (a little) for the referee to settle that seek, and count it
        as open again if it went back to the queue, so that the bot does not seek twice."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not self.stopping.is_set():
            with suppress(httpx.HTTPError, RefereeError):
                status = self.client.get_seek(seek_id).status
                if status != "paired":
                    if status == "open":
                        with self.lock:
                            if seek_id not in self.state.seeks:
                                self.state.seeks.append(seek_id)
                    return
            time.sleep(0.2)

    def _seek_if_room(self) -> None:
        """Seek until the open seeks and the games under way fill `at_once`."""
        s = self.settings
        while s.seek and not self.stopping.is_set():
            with self.lock:
                if len(self.state.games) + len(self.state.seeks) + len(self.pending) >= s.at_once:
                    return
            made = self._retrying(
                lambda: self.client.seek(self.key, ruleset=s.seek_ruleset, players=s.seek_players, rated=s.seek_rated)
            )
            with self.lock:
                if made.status == "open":
                    self.state.seeks.append(made.seek_id)
                    self._save()
                elif made.game_id is not None and made.game_id not in self.state.games:
                    self.pending.add(made.game_id)  # paired at once: the stream tells of its game
