"""Tournaments between bots: who sits where, which shuffles each table plays, and each game played in process.

A tournament is a sequence of games. Games are grouped in *deal sets* of `players` games: a set has one lineup of
bots, played once in every rotation of the seats, and (with duplicate deals, the default) every game of the set is
dealt from the same server seed — so round k of each game is shuffled alike, and each bot of the lineup gets to
hold the cards every other one held. Luck of the deal then cancels out within the set instead of over thousands of
games. Lineups cycle through the bots (in a new seeded order every cycle), so every bot sits equally often.

The built-in bots (`expert`, `heuristic`, `random`) are played through `play.bots` directly; any other bot is
given the seat's `Game` built by `loveletter.play.harness.seat_game` — the very shape it gets over HTTP — and its
answer is judged like a move sent to the referee. It is asked on a thread of its own (`play.asking.Worker`) and
waited for `turn_seconds` at most. A decision the bot does not make costs what it costs over HTTP, where the turn
clock then runs out (RULINGS §12): with `on_timeout` resign (the default) the seat resigns, with `on_timeout` bot
the stand-in (`play.bots.STAND_IN`, the referee's too) plays that decision for it; either way it is a timeout. A
bot that raises is done for the game, as its process is over HTTP (its later decisions all time out), and its
first traceback is kept; an illegal answer counts as refused and times out that one decision. The in-process game's
log has no clock: a timeout that resigns is recorded as the seat's resignation.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import IO

from loveletter.client.models import Game
from loveletter.core.catalogue import ClockRanOut, Event, GameEnded
from loveletter.core.chance import chance_move, commitment
from loveletter.core.commands import Command, PlayerCommand, Resign, StartGame
from loveletter.core.decide import decide as judge
from loveletter.core.evolve import apply_all
from loveletter.core.lang import BilingualError, Text
from loveletter.core.legal import from_action_code, legal_moves
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_OVER, PHASE_PLAY, GameState
from loveletter.core.views import view
from loveletter.events.log import Header, write_game
from loveletter.play.asking import Crashed, TimedOut, Worker
from loveletter.play.bots import BOTS, STAND_IN, get_bot
from loveletter.play.bots import Bot as Policy
from loveletter.play.harness import Bot, LogTold, load, seat_game, short_name
from loveletter.play.outcome import Outcome
from loveletter.play.simulate import Config as SimulationConfig
from loveletter.play.simulate import SeedKey, SimulationError


class TournamentError(BilingualError):
    """A tournament that cannot be run as asked (one line, for the command line)."""


@dataclass(frozen=True, slots=True)
class Config:
    bots: tuple[str, ...] = ("heuristic", "random")
    players: int = 4
    ruleset: str = "2019"
    games: int = 100
    seed: int = 1
    options: tuple[tuple[str, str], ...] = ()
    duplicate: bool = True
    """Every game of a deal set dealt from the same server seed (over HTTP, with the admin token only: docs/bots.md)."""
    on_timeout: str = "resign"
    """What a decision the bot does not make costs, in process as over HTTP: `resign` or `bot` (RULINGS §12)."""
    turn_seconds: float = 5.0
    """In process, how long a bot may take over one decision before it counts as a timeout (over HTTP the referee's
    clock counts whole seconds: `HttpConfig.turn_seconds`)."""

    def check(self) -> None:
        """Raise `TournamentError` for a tournament that cannot be played: the ruleset, the seats, the number of
        games and the options are judged as a simulation's are, the bots here."""
        try:
            seats = ("random",) * self.players
            SimulationConfig(self.ruleset, self.players, self.games, self.seed, seats, self.options).check()
        except SimulationError as exc:
            raise TournamentError(exc.text) from None
        if self.on_timeout not in ("resign", "bot"):
            raise TournamentError(
                Text(
                    f"on_timeout is resign or bot, not {self.on_timeout!r}",
                    f"on_timeout vaut resign ou bot, pas « {self.on_timeout} »",
                )
            )
        if not 0 < self.turn_seconds <= 7 * 24 * 3600:
            raise TournamentError(
                Text(
                    f"a decision's time limit is more than 0 seconds and at most 7 days, not {self.turn_seconds}",
                    f"le temps d'une décision est de plus de 0 seconde et d'au plus 7 jours, pas {self.turn_seconds}",
                )
            )
        if len(self.bots) < 2:
            raise TournamentError(
                Text(
                    "a tournament needs at least two bots (--bots heuristic,random)",
                    "un tournoi demande au moins deux robots (--bots heuristic,random)",
                )
            )
        if len(set(self.bots)) != len(self.bots):
            twice = next(b for b in self.bots if self.bots.count(b) > 1)
            raise TournamentError(
                Text(f"the bot {twice} is entered twice", f"le robot {twice} est inscrit deux fois"),
            )


def load_bots(specs: Sequence[str]) -> list[Bot | Policy]:
    """Each entrant: a built-in policy by its name, or the bot `MODULE:NAME` or `path/to/bot.py:NAME` loaded (a
    `TournamentError` naming the first that cannot be)."""
    out: list[Bot | Policy] = []
    for spec in specs:
        if spec in BOTS:
            out.append(get_bot(spec))
            continue
        try:
            out.append(load(spec))
        except (ImportError, AttributeError, ValueError, SyntaxError) as exc:
            raise TournamentError(
                Text(
                    f"cannot load the bot {spec}: {exc}",
                    f"impossible de charger le robot {spec} : module, fichier ou nom introuvable, ou écrit autrement "
                    "que MODULE:NOM ou chemin/du/robot.py:NOM",
                )
            ) from None
    return out


def short_names(specs: Sequence[str]) -> list[str]:
    """How each bot is named in tables and logs: a built-in by its name, `pkg.mod:Name` as `mod:Name`,
    `path/to/mine.py:Name` as `mine:Name` (the whole spec when two would read alike)."""
    short = [short_name(s) for s in specs]
    return [s if short.count(s) == 1 else spec for s, spec in zip(short, specs, strict=True)]


def seat_names(config: Config, seating: Seating) -> tuple[str, ...]:
    """The players' names of one game: each seat's bot and the seat (`heuristic-2`), at most 40 characters."""
    short = short_names(config.bots)
    return tuple(f"{short[b][:36]}-{seat}" for seat, b in enumerate(seating.seats))


# -- the schedule ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seating:
    """One game of the tournament: its number, its deal set and which bot (by index) sits in each seat."""

    game: int
    deal: int
    seats: tuple[int, ...]


def schedule(config: Config) -> Iterator[Seating]:
    """Every game's seating. Set `d` plays lineup `d` in each of the `players` rotations of the seats; lineups are
    windows of a bot order that is shuffled again (from the seed) every cycle through the bots."""
    n, b = config.players, len(config.bots)
    key = tournament_key(config.seed)
    order: list[int] = []
    for game in range(config.games):
        deal_set, turn = divmod(game, n)
        cycle, at = divmod(deal_set, b)
        if at == 0 and turn == 0:
            order = list(range(b))
            random.Random(int.from_bytes(key.derive(b"tournament/lineup:%d" % cycle), "big")).shuffle(order)
        lineup = [order[(at + k) % b] for k in range(n)]
        seats = tuple(lineup[(s + turn) % n] for s in range(n))
        yield Seating(game, deal_set if config.duplicate else game, seats)


def tournament_key(seed: int) -> SeedKey:
    """The key every seed of tournament `seed` is derived from (its messages start with `tournament/`, so they
    never meet a simulation's)."""
    return SeedKey(seed)


def server_seed(key: SeedKey, deal: int) -> bytes:
    """The server seed every round of deal set `deal` is shuffled from (committed to, then revealed, per game)."""
    return key.derive(b"tournament/deal:%d" % deal)


def bot_seed(key: SeedKey, game: int, seat: int) -> int:
    """The seed of the random generator of the bot in `seat` of `game` (a built-in's ties and draws)."""
    return int.from_bytes(key.derive(b"tournament/bot:%d:%d" % (game, seat))[:8], "big")


# -- one game's outcome -------------------------------------------------------------------------------------------


def outcome_of(seating: Seating, state: GameState, events: Sequence[Event]) -> Outcome:
    """A game's outcome from its seating, its final state and its events (the clocks that ran out by seat)."""
    n = len(seating.seats)
    timeouts = [0] * n
    for e in events:
        if type(e) is ClockRanOut:
            timeouts[e.player] += 1
    return Outcome(
        seating.game,
        seating.deal,
        seating.seats,
        tuple(state.winners),
        tuple(state.favors),
        tuple(state.resigned),
        state.aborted or not any(type(e) is GameEnded for e in events),
        timeouts,
        [0] * n,
        [0] * n,
        [0] * n,
        [""] * n,
    )


# -- in process -----------------------------------------------------------------------------------------------------


def play_in_process(
    config: Config, seating: Seating, entrants: Sequence[Bot | Policy], key: SeedKey, record: list[Event]
) -> Outcome:
    """Play one game of the tournament with the bots in this process; its events go to `record`."""
    names = seat_names(config, seating)
    seed = server_seed(key, seating.deal)
    rngs = [random.Random(bot_seed(key, seating.game, s)) for s in range(config.players)]
    # A bot of the author's is loaded afresh for each seat of each game: a class is made once per game and seat, as
    # over HTTP (one process each), so what it remembers never leaks into another game or another seat.
    bots: list[Worker | Policy] = []
    for i in seating.seats:
        entrant = entrants[i]
        bots.append(entrant if isinstance(entrant, Policy) else Worker(load(config.bots[i])))
    try:
        return _play(config, seating, bots, seed, rngs, names, record)
    finally:
        for bot in bots:
            if isinstance(bot, Worker):
                bot.close()


def _play(
    config: Config,
    seating: Seating,
    bots: Sequence[Worker | Policy],
    seed: bytes,
    rngs: Sequence[random.Random],
    names: tuple[str, ...],
    record: list[Event],
) -> Outcome:
    n = config.players
    refused, crashes, timeouts, tracebacks = [0] * n, [0] * n, [0] * n, [""] * n
    told = [LogTold(record, seat) for seat in range(n)]  # what each seat was told, read when its bot asks
    fallback = get_bot(STAND_IN)
    game_id = _game_id(config, seating)
    state = INITIAL.thaw()
    command: Command = StartGame(config.ruleset, names, dict(config.options), seed_commitment=commitment(seed))
    while True:
        events = judge(state, command)
        apply_all(state, events)
        record.extend(events)
        phase = state.phase
        if phase in (PHASE_PLAY, PHASE_CHANCELLOR):
            seat = state.active
            bot = bots[seat]
            if isinstance(bot, Policy):
                command = bot.choose(view(state, seat), legal_moves(state, seat), rngs[seat])
                continue
            if not crashes[seat]:  # a bot that crashed is gone for the game, as its process is over HTTP
                game = seat_game(state, seat, game_id, told=told[seat])
                move = _answer(bot, game, seat, config.turn_seconds)
                if isinstance(move, Crashed):
                    crashes[seat], tracebacks[seat] = 1, move.traceback
                elif move is None:
                    refused[seat] += 1
                elif not isinstance(move, TimedOut):
                    command = move
                    continue
            timeouts[seat] += 1
            command = _timed_out(config, state, seat, fallback, rngs[seat])
        else:
            chance = chance_move(state, seed)  # the next deal, or the seed revealed at the end
            if chance is None:
                if phase != PHASE_OVER:  # pragma: no cover - decide always stops at a decision
                    raise RuntimeError(f"tournament game stuck in phase {phase!r}")
                break  # over, and the seed revealed
            command = chance
    outcome = outcome_of(seating, state.freeze(), record)
    outcome.refused, outcome.crashes, outcome.timeouts, outcome.tracebacks = refused, crashes, timeouts, tracebacks
    return outcome


def _timed_out(config: Config, state: GameState, seat: int, fallback: Policy, rng: random.Random) -> Command:
    """What the referee's clock does to a seat whose decision did not come (RULINGS §12): it resigns, at the time
    this process saw it, or the stand-in (`play.bots.STAND_IN`, as the referee's) decides for it."""
    if config.on_timeout == "resign":
        return Resign(seat, max(state.clock, int(time.time() * 1000)))
    return fallback.choose(view(state, seat), legal_moves(state, seat), rng)


def _answer(bot: Worker, game: Game, seat: int, seconds: float) -> PlayerCommand | Crashed | TimedOut | None:
    """The bot's move as a command; its crash; its overrun; or None for an answer that is not a legal move."""
    answer = bot.ask(game, seconds)
    if isinstance(answer, Crashed | TimedOut):
        return answer
    code = answer if isinstance(answer, int) else getattr(answer, "action_code", None)
    legal = {m.action_code for m in game.legal_moves}
    if not isinstance(code, int) or code not in legal:
        return None
    try:
        return from_action_code(code, seat)
    except (ValueError, RuleViolation):
        return None


def run_in_process(
    config: Config,
    log: IO[bytes] | None = None,
    on_game: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Play the whole tournament in this process; every game to `log` (JSONL) if given."""
    config.check()
    entrants = load_bots(config.bots)
    key = tournament_key(config.seed)
    outcomes: list[Outcome] = []
    record: list[Event] = []
    for seating in schedule(config):
        record.clear()
        outcome = play_in_process(config, seating, entrants, key, record)
        outcomes.append(outcome)
        if log is not None:
            started = record[0]
            header = Header(config.ruleset, started.players, dict(started.options), _game_id(config, seating))  # type: ignore[union-attr]
            write_game(log, record, header)
        if on_game is not None:
            on_game(outcome)
    return outcomes


def _game_id(config: Config, seating: Seating) -> str:
    return f"tournament-{config.seed}-{seating.game}"
