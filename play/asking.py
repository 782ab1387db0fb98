"""How a bot of the user's own is asked in process: by a tournament on a thread of its own with a time limit
(`Worker`), or by the simulator as a policy of `play.bots` (`as_policy`). Either way it is given the seat's `Game`,
the shape it gets over HTTP (`play.harness`)."""

from __future__ import annotations

import queue
import random
import threading
import traceback
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import cast

from loveletter.client.models import Game, LegalMove
from loveletter.core.commands import PlayerCommand
from loveletter.core.lang import BilingualError, Text
from loveletter.core.legal import action_code, move_as_dict
from loveletter.core.state import GameState
from loveletter.core.views import View as CoreView
from loveletter.play.bots import Bot as Policy
from loveletter.play.harness import Bot, decide, short_name

# -- a decision on a time limit, in process --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Crashed:
    """A bot's decision that raised: the exception's traceback, as Python prints it."""

    traceback: str


class TimedOut:
    """A bot's decision that did not come within its limit."""


class Worker:
    """One seat's bot, asked on a daemon thread of its own so that a decision can be given up after `seconds`.

    Python cannot stop a thread: an overrunning decision goes on in the background and its answer is ignored. The
    seat's next question waits behind it, as it would in the bot's own process over HTTP, and so times out too unless
    the bot is back by then. A thread rather than a process: the bot keeps its memory, gets the very `Game` object,
    and a decision costs microseconds instead of a pickle round trip; a daemon thread never holds the interpreter
    open at exit (docs/bots.md)."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.inbox: queue.SimpleQueue[tuple[Game, Future[LegalMove | int | Crashed]] | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="loveletter-bot", daemon=True)
        self.thread.start()

    def ask(self, game: Game, seconds: float) -> LegalMove | int | Crashed | TimedOut:
        """The bot's answer; its crash; or `TimedOut` if neither came within `seconds`."""
        answer: Future[LegalMove | int | Crashed] = Future()
        self.inbox.put((game, answer))
        try:
            return answer.result(timeout=seconds)
        except TimeoutError:
            return TimedOut()

    def close(self) -> None:
        """Let the thread end once it is done with what it was asked (at once if it is idle)."""
        self.inbox.put(None)

    def _serve(self) -> None:
        while (item := self.inbox.get()) is not None:
            game, answer = item
            try:
                answer.set_result(decide(self.bot, game))
            except BaseException:  # a bot calling sys.exit() has crashed too, not this process
                answer.set_result(Crashed(traceback.format_exc()))


# -- a bot as a policy, for the simulator ----------------------------------------------------------------------------


class BotFailed(BilingualError):
    """A bot of the user's own raised, or answered a move that is not legal, outside a tournament (`simulate`),
    where nothing stands in for it."""


def as_policy(bot: Bot, spec: str) -> Policy:
    """The bot as a policy of `play.bots`, for the simulator: each decision gives it the seat's `Game` built from
    the seat's view and legal moves (without `events`: the simulator keeps no log unless asked)."""

    def choose(seen: CoreView, moves: Sequence[PlayerCommand], rng: random.Random) -> PlayerCommand:
        names = [s.name for s in seen.seats]
        table = cast(GameState, _Names(tuple(names)))  # all `move_as_dict` reads of a state: the players' names
        listed = [move_as_dict(table, move) for move in moves]
        game = Game.of(
            {
                "game_id": "simulation",
                "version": seen.version,
                "players": names,
                "bots": [None] * len(names),
                "scenario": False,
                "over": False,
                "your_turn": True,
                "rematch": None,
                "view": seen.as_dict(),
                "legal_moves": listed,
            }
        )
        try:
            answer = decide(bot, game)
        except Exception as exc:
            raise BotFailed(
                Text(
                    f"the bot {spec} failed: {type(exc).__name__}: {exc}",
                    f"le robot {spec} a échoué : {type(exc).__name__} : {exc}",
                )
            ) from exc
        code = answer if isinstance(answer, int) else getattr(answer, "action_code", None)
        chosen = next((m for m in moves if action_code(m) == code), None)
        if chosen is None:
            raise BotFailed(
                Text(
                    f"the bot {spec} answered {answer!r}, not one of its legal moves",
                    f"le robot {spec} a répondu {answer!r}, qui n'est pas l'un de ses coups légaux",
                )
            )
        return chosen

    return Policy(short_name(spec)[:36], choose)


@dataclass(frozen=True, slots=True)
class _Names:
    players: tuple[str, ...]
