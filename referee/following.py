"""What follows a move by itself: chance's deals (or a scenario's), a person's clock started, and the bot seats'
moves, until a person must decide or the game is over.

`random` and `heuristic` answer in microseconds, inline (`automatic`). A bot that thinks (the `expert`,
`play.thinking.OFF_THE_LOOP`) is asked in the thinking room's worker processes, never on the event loop:
`following` awaits its move and judges it by `decide` like any seat's move, in the same batch. Its seed comes from
the game's server seed and the position (`play.thinking.bot_seed`), so the same game is played the same way; when
the room is full or slow, the heuristic decides with that seed instead, so that no game waits long for a bot."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool

import structlog

from loveletter.core.catalogue import Event
from loveletter.core.chance import chance_move
from loveletter.core.commands import Command, DealRound, PlayerCommand, SetClock
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_DEAL, PHASE_PLAY, GameState
from loveletter.core.views import view
from loveletter.play.bots import get_bot
from loveletter.play.policies import choose_heuristic
from loveletter.play.thinking import OFF_THE_LOOP, Busy, Thinking, bot_seed
from loveletter.referee.record import GameRecord

log = structlog.get_logger()


def thinker(state: GameState, record: GameRecord) -> str | None:
    """The bot that must think before the game goes on (a seat of `OFF_THE_LOOP` to decide), if any."""
    if state.phase not in (PHASE_PLAY, PHASE_CHANCELLOR):
        return None
    bot = record.seats[state.active].bot
    return bot if bot in OFF_THE_LOOP else None


class Following:
    """The moves nobody at the table decides; `now` is the time source (Unix milliseconds), `thinking` where the
    bots that think are asked."""

    def __init__(self, now: Callable[[], int], thinking: Thinking) -> None:
        self.now = now
        self.thinking = thinking
        self.rng = random.Random(secrets.randbits(128))
        """What the inline bots draw from."""

    def automatic(
        self, state: GameState, record: GameRecord, scenario_deals: list[DealRound]
    ) -> tuple[list[Event], GameState]:
        """Let chance and the bot seats move until a person must decide, a bot must think (`following` goes on
        from there) or the game is over (a person's clock started, on a clocked game): the events, and the state
        they lead to."""
        events: list[Event] = []
        seats = record.seats
        server_seed = bytes.fromhex(record.server_seed)
        while True:
            command: Command | None
            if state.phase == PHASE_DEAL and state.round == 0 and state.open_seats:
                break  # dealt once the last seat is taken
            if state.phase == PHASE_DEAL and state.round < len(scenario_deals):
                command = scenario_deals[state.round]
            elif (command := chance_move(state, server_seed)) is None:
                if state.over:
                    break
                bot = seats[state.active].bot
                if bot is None:
                    if state.turn_seconds is None or state.deadline is not None:
                        break
                    command = SetClock(state.active, self.now())  # a person must decide: start their clock
                elif bot in OFF_THE_LOOP:
                    break
                else:
                    command = self.bot_move(state, bot)
            new = decide(state, command)
            events.extend(new)
            state = fold(new, state)
        return events, state

    def bot_move(self, state: GameState, bot: str) -> Command:
        moves = legal_moves(state, state.active)
        choice: Command = get_bot(bot).choose(view(state, state.active), moves, self.rng)
        return choice

    async def following(
        self, state: GameState, record: GameRecord, scenario_deals: list[DealRound]
    ) -> tuple[list[Event], GameState]:
        """`automatic`, with each move of a bot that thinks awaited from the thinking room and judged by `decide`
        as any seat's move is: everything that follows `state` until a person must decide or the game is over."""
        events, state = self.automatic(state, record, scenario_deals)
        while (bot := thinker(state, record)) is not None:
            new = decide(state, await self.thought(state, record, bot))
            events.extend(new)
            more, state = self.automatic(fold(new, state), record, scenario_deals)
            events.extend(more)
        return events, state

    async def thought(self, state: GameState, record: GameRecord, bot: str) -> PlayerCommand:
        """The active seat's move by `bot`, thought in a worker process with a seed drawn from the game's server
        seed (the same game is played the same way); when the room is full, or the answer does not come within
        its time, the heuristic decides with that seed instead, so that no game waits long for a bot."""
        seat = state.active
        moves = legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        seen = view(state, seat)
        seed = bot_seed(record.server_seed, state.seq, seat)
        try:
            return await self.thinking.choose(bot, seen, moves, seed)
        except (Busy, TimeoutError, BrokenProcessPool) as exc:
            log.warning("bot decided by the heuristic", bot=bot, seat=seat, seq=state.seq, why=type(exc).__name__)
        except Exception:  # a bug of the bot's: the game goes on all the same
            log.exception("bot decided by the heuristic", bot=bot, seat=seat, seq=state.seq)
        return choose_heuristic(seen, moves, random.Random(seed))
