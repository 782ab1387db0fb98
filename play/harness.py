"""The bot harness: a bot is a function (or an object with `choose`) that is given the seat's `Game` — its view and
its legal moves — and answers one of those moves. `play` plays a seat with it over HTTP until the game ends, woken by
the game's event stream (never polling); `seat_game` builds the very same `Game` in process, so one bot file plays
both ways; either way the `Game` carries the events its seat was told so far (`Game.events`: from the log in
process, `LogTold`; from the stream and the events endpoint over HTTP, `HttpTold`). `load` finds a bot by
`module:name`, `path/to/bot.py:name` or a built-in's name, wherever a bot is named (`bot run`, `tournament`,
`simulate`)."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, Protocol, Union

from loveletter.client.errors import RefereeError
from loveletter.client.models import Event, Game, LegalMove
from loveletter.client.sync import Client
from loveletter.core.cards import Card
from loveletter.core.catalogue import Event as CoreEvent
from loveletter.core.legal import action_code, from_action_code, legal_moves_as_dicts
from loveletter.core.state import GameState
from loveletter.core.views import SeatPublic, redact, view
from loveletter.core.views import View as CoreView
from loveletter.events.codec import encode
from loveletter.play.bots import BOTS, get_bot


class BotObject(Protocol):
    def choose(self, game: Game) -> LegalMove | int: ...


Bot = Union[Callable[[Game], Union[LegalMove, int]], BotObject]


def decide(bot: Bot, game: Game) -> LegalMove | int:
    choose = getattr(bot, "choose", None)
    return choose(game) if callable(choose) else bot(game)  # type: ignore[operator]


def play(seat: Client, game_id: str, bot: Bot, *, on_refused: Callable[[RefereeError], None] | None = None) -> Game:
    """Play the seat of `seat` (a client with that seat's token) until the game is over: the final game.

    A refused move raises, unless `on_refused` is given: then it is told the refusal and the seat waits for the
    game to move on (a game with a turn clock times the seat out and plays or resigns for it)."""

    asked = -1  # the version the bot last answered: a refused answer is not asked for again at the same place
    told = HttpTold(seat, game_id)

    def move(game: Game) -> None:
        nonlocal asked
        if not game.your_turn or game.over or game.version == asked:
            return
        asked = game.version
        try:
            seat.play(game_id, decide(bot, game.tell(told.upto(game.version))))
        except RefereeError as refusal:
            if on_refused is None or refusal.status not in (409, 422):
                raise
            on_refused(refusal)

    game = seat.game(game_id)
    move(game)
    for event in seat.stream(game_id):
        told.heard(event)
        if event.seq < game.version:
            continue  # the stream's beginning: events the seat has already answered
        game = seat.game(game_id)
        if game.over:
            break
        move(game)
    return seat.game(game_id)


# -- the same game in process --------------------------------------------------------------------------------------


def seat_game(
    state: GameState,
    seat: int,
    game_id: str = "in-process",
    bots: Sequence[str | None] | None = None,
    told: LogTold | None = None,
) -> Game:
    """The `Game` that `GET /games/{id}` answers `seat` at `state`, built in process from the seat's view and legal
    moves (the referee's own `core.views.view` and `core.legal`) — never from the full state — so a bot cannot tell
    the two apart (tests/test_bot_harness.py compares them move by move); with `told`, its `events` are the seat's
    view of the log up to `state`."""
    game = Game.of(
        {
            "game_id": game_id,
            "version": state.seq,
            "players": list(state.players),
            "bots": list(bots) if bots is not None else [None] * len(state.players),
            "scenario": state.scenario,
            "over": state.over,
            "your_turn": state.active == seat,
            "rematch": None,
            "view": view(state, seat).as_dict(),
            "legal_moves": legal_moves_as_dicts(state, seat),
        }
    )
    return game if told is None else game.tell(Told(told, state.seq))


# -- the events a seat was told ---------------------------------------------------------------------------------------


class SeatLog(ABC):
    """The events one seat was told so far, each read once and kept (a bot asks at every decision); where they
    come from is each subclass's `more` (the log in process, the events route over HTTP)."""

    def __init__(self) -> None:
        self.read: list[Event] = []

    def upto(self, version: int) -> tuple[Event, ...]:
        """The seat's events of seq 1 to `version`."""
        while len(self.read) < version:
            more = self.more(len(self.read), version)
            if not more:
                break
            self.read += [e for e in more if len(self.read) < e.seq <= version]
        return tuple(self.read[:version])

    def heard(self, event: Event) -> None:
        """An event the seat was sent anyway (the game's stream): kept if it is the next one."""
        if event.seq == len(self.read) + 1:
            self.read.append(event)

    @abstractmethod
    def more(self, after: int, version: int) -> Sequence[Event]:
        """The seat's events after seq `after`, up to `version`."""


class LogTold(SeatLog):
    """In process: the game's log (the list the tournament appends to) redacted for `seat` by the referee's own
    `core.views.redact`, as `GET /games/{id}/events` answers the seat."""

    def __init__(self, log: Sequence[CoreEvent], seat: int) -> None:
        super().__init__()
        self.log, self.seat = log, seat

    def more(self, after: int, version: int) -> Sequence[Event]:
        out = []
        for seq in range(after + 1, min(version, len(self.log)) + 1):
            event = self.log[seq - 1]
            fields = encode(event)
            fields["seq"] = seq
            out.append(Event.of(redact(event, fields, self.seat)))
        return out


class HttpTold(SeatLog):
    """Over HTTP: the events the game's stream sent the seat, and those it has not sent yet from the game's events
    endpoint (asked with the seat's token), read before the bot is asked: the seat's client may be closed by the
    time a bot looks at a `Game` it kept."""

    def __init__(self, seat: Client, game_id: str) -> None:
        super().__init__()
        self.seat, self.game_id = seat, game_id

    def more(self, after: int, version: int) -> Sequence[Event]:
        return self.seat.events(self.game_id, after=after).events


class Told:
    """A `Game`'s events, read from its seat's log only when the bot first asks (a bot that never does costs
    nothing); two are equal when they hold the same events."""

    def __init__(self, log: SeatLog, version: int) -> None:
        self.log, self.version = log, version

    def __call__(self) -> tuple[Event, ...]:
        return self.log.upto(self.version)

    def __eq__(self, other: object) -> bool:
        return self() == (other() if isinstance(other, Told) else other)

    __hash__ = None  # type: ignore[assignment]


def core_view(game: Game) -> CoreView:
    """The rules core's `View` of the seat, read back from the `Game` it was sent: what a built-in policy of
    `play.bots` reads, so the built-in bots play over HTTP exactly as they do in process."""
    d = game.view.raw
    clock = d.get("clock")
    deadline = clock.get("deadline") if clock else None
    return CoreView(
        seat=d["seat"],
        ruleset=d["ruleset"],
        options=dict(d["options"]),
        round=d["round"],
        phase=d["phase"],
        active=d["active"],
        deck_size=d["deck_size"],
        set_aside_face_down=d["set_aside_face_down"],
        face_up=tuple(Card(c) for c in d["face_up"]),
        seats=tuple(
            SeatPublic(
                s["seat"],
                s["name"],
                s["favors"],
                s["in_round"],
                s["protected"],
                s["hand_size"],
                tuple(Card(c) for c in s["front"]),
                Card(s["known_hand"]) if s["known_hand"] else None,
                s["in_game"],
                s["open"],
            )
            for s in d["seats"]
        ),
        hand=tuple(Card(c) for c in d["hand"]),
        deck_known=tuple((k["from_top"], Card(k["card"])) for k in d["deck_known"]),
        unseen={Card(c): n for c, n in d["unseen"].items()},
        round_winners=tuple(d["round_winners"]),
        winners=tuple(d["winners"]),
        version=d["version"],
        deadline=(deadline["seat"], deadline["at"]) if deadline else None,
        turn_seconds=clock["turn_seconds"] if clock else None,
        on_timeout=clock["on_timeout"] if clock else None,
        aborted=d["aborted"],
    )


class BuiltinBot:
    """A built-in policy of `play.bots` (`heuristic`, `random`) as a bot like any other: its own seeded random
    generator, so the same seed makes the same choices over HTTP and in process."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        self.name = name
        self.policy = get_bot(name)
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> LegalMove:
        seat = game.view.seat
        assert seat is not None
        moves = [from_action_code(m.action_code, seat) for m in game.legal_moves]
        code = action_code(self.policy.choose(core_view(game), moves, self.rng))
        return next(m for m in game.legal_moves if m.action_code == code)


def load(spec: str, seed: int | None = None) -> Bot:
    """The bot named `module:name` or `path/to/bot.py:name` (a class is made into an instance), or a built-in by its
    name (`heuristic`, `random`, seeded with `seed`). A module is looked up with the current directory importable,
    as with `python -m`, so a bot file beside the caller needs no installing; a file is loaded from its path, from
    anywhere, with its own folder importable (as `python path/to/bot.py` would have it)."""
    if spec in BOTS:
        return BuiltinBot(spec, seed)
    where, _, attribute = spec.rpartition(":")
    if not where or not attribute:
        raise ValueError(f"a bot is a built-in ({', '.join(BOTS)}), MODULE:NAME or path/to/bot.py:NAME, not {spec!r}")
    if is_file_spec(spec):
        module = _load_file(where)
    else:
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        module = importlib.import_module(where)
    found: Any = getattr(module, attribute)
    return found() if isinstance(found, type) else found  # type: ignore[no-any-return]


def is_file_spec(spec: str) -> bool:
    """Whether `spec` names its bot by a file's path (`bots/mine.py:Bot`) rather than a module (`bots.mine:Bot`)."""
    where = spec.rpartition(":")[0]
    return where.endswith(".py") or "/" in where or os.sep in where


def short_name(spec: str) -> str:
    """A bot as tables and player names show it: a built-in by its name, `pkg.mod:Name` as `mod:Name`,
    `path/to/mine.py:Name` as `mine:Name`."""
    if ":" not in spec:
        return spec
    where, _, name = spec.rpartition(":")
    if is_file_spec(spec):
        return os.path.splitext(os.path.basename(where))[0] + ":" + name
    return where.rsplit(".", 1)[-1] + ":" + name


def _load_file(path: str) -> Any:
    """The module of the bot file at `path`, run once per process (each bot is then made afresh from it): its name
    comes from the file's full path, so two files of one name never meet."""
    full = os.path.realpath(path)
    name = "loveletter_bot_" + hashlib.sha256(full.encode()).hexdigest()[:12]
    if name in sys.modules:
        return sys.modules[name]
    if not os.path.isfile(full):
        raise ImportError(f"no bot file {path}")
    found = importlib.util.spec_from_file_location(name, full)
    if found is None or found.loader is None:  # pragma: no cover - a .py file always has a loader
        raise ImportError(f"{path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(found)
    folder = os.path.dirname(full)
    if folder not in sys.path:
        sys.path.insert(0, folder)
    sys.modules[name] = module
    try:
        found.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
