"""Bot-vs-bot simulation: the same `decide`/`evolve` as every other client, chance from derived seeds.

Every game starts from `StartGame` and is driven command by command: chance moves by `core.chance.chance_move`,
dealing each round from a server seed derived from the simulation seed and the game's index (committed to in
`game_started`, revealed after `game_ended`); each seat's bot picks one of its legal moves; `decide` judges the
command and its events are applied in place to the game's one `Transient` (no copy per command). The same seed
always gives the same games, so the optional JSONL log is byte-identical from run to run. What the totals say (the
summary table, the 95% intervals, CSV and charts) is `play/report.py`'s.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, cast

from loveletter.core.catalogue import Event, FavorGained, GameEnded, PlayerEliminated, RoundStarted, TurnStarted
from loveletter.core.chance import chance_move, commitment, committed_deal
from loveletter.core.commands import Command, PlayerCommand, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all, fold
from loveletter.core.lang import BilingualError, Text, plural_fr
from loveletter.core.legal import legal_move_tuple, legal_moves
from loveletter.core.rulesets import RULESETS, Options
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_DEAL, PHASE_OVER, PHASE_PLAY, GameState
from loveletter.core.views import view
from loveletter.events.log import Header, write_game
from loveletter.play.bots import BOTS, Bot, Policy, get_bot

SEED_DOMAIN = b"loveletter-simulate/1"


class SimulationError(BilingualError):
    """A simulation that cannot be run as asked (one line, for the command line)."""


@dataclass(frozen=True, slots=True)
class Config:
    ruleset: str = "2019"
    players: int = 4
    games: int = 1000
    seed: int = 1
    bots: tuple[str, ...] = ("random", "random", "random", "random")
    options: tuple[tuple[str, str], ...] = ()
    own_bots: bool = False
    """Whether a seat may name a bot of the user's own (`MODULE:NAME`, `path/to/bot.py:NAME`): the command line
    allows it; the HTTP API never does, since loading a bot runs its code."""

    def check(self) -> None:
        """Raise `SimulationError` for a configuration that cannot be simulated."""
        if self.ruleset not in RULESETS:
            known = ", ".join(RULESETS)
            raise SimulationError(
                Text(
                    f"unknown ruleset {self.ruleset!r} (known: {known})",
                    f"jeu de règles inconnu « {self.ruleset} » (connus : {known})",
                )
            )
        rs = RULESETS[self.ruleset]
        if not rs.min_players <= self.players <= rs.max_players:
            low, high, n = rs.min_players, rs.max_players, self.players
            raise SimulationError(
                Text(
                    f"ruleset {rs.id} is played by {low} to {high} players, not {n}",
                    f"le jeu de règles {rs.id} se joue de {low} à {high} joueurs, pas {n}",
                )
            )
        if len(self.bots) != self.players:
            given, n = len(self.bots), self.players
            raise SimulationError(
                Text(
                    f"{given} bots given for {n} players (one bot per seat)",
                    f"{plural_fr(given, 'robot donné', 'robots donnés')} pour {n} joueurs (un robot par siège)",
                )
            )
        unknown = [b for b in self.bots if b not in BOTS and not (self.own_bots and ":" in b)]
        if unknown:
            known = ", ".join(BOTS) + (", MODULE:NAME, path/to/bot.py:NAME" if self.own_bots else "")
            raise SimulationError(
                Text(
                    f"unknown bot {unknown[0]!r} (known: {known})",
                    f"robot inconnu « {unknown[0]} » (connus : {known})",
                )
            )
        if self.games < 1:
            raise SimulationError(
                Text(f"--games must be at least 1, not {self.games}", f"--games vaut au moins 1, pas {self.games}")
            )
        try:
            Options.from_dict(dict(self.options))
        except BilingualError as exc:
            raise SimulationError(Text(f"--option: {exc.text.en}", f"--option : {exc.text.fr}")) from None


def parse_options(written: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """`--option KEY=VALUE`, as given (their keys and values are checked by `Config.check`)."""
    out = []
    for item in written:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise SimulationError(
                Text(
                    f"--option {item!r} is not KEY=VALUE (e.g. tie_2012=all)",
                    f"--option « {item} » n'a pas la forme CLÉ=VALEUR (par exemple tie_2012=all)",
                )
            )
        out.append((key.strip(), value.strip()))
    return tuple(out)


@dataclass(slots=True)
class GameFigures:
    """One game's figures, the unit the totals add up: counted by the engine as it plays the game, or read from a
    recorded game's events (`figures`), the same figures either way."""

    rounds: int = 0
    turns: int = 0
    events: int = 0
    winners: tuple[int, ...] = ()
    favors: dict[str, int] = field(default_factory=dict)
    """Favors gained, by reason."""
    eliminations: dict[str, int] = field(default_factory=dict)
    """Players eliminated, by the card that caused it."""

    def count(self, events: Sequence[Event]) -> None:
        """Add the favors gained and the players eliminated among `events`."""
        for event in events:
            kind = type(event)
            if kind is PlayerEliminated:
                cause = event.cause.value  # type: ignore[union-attr]
                self.eliminations[cause] = self.eliminations.get(cause, 0) + 1
            elif kind is FavorGained:
                why = cast(FavorGained, event).reason
                self.favors[why] = self.favors.get(why, 0) + 1


def figures(events: Sequence[Event]) -> GameFigures:
    """A recorded game's figures, read from its events: what the engine counted while it played it."""
    game = GameFigures(
        rounds=sum(type(e) is RoundStarted for e in events),
        turns=sum(type(e) is TurnStarted for e in events),
        events=len(events),
        winners=tuple(seat for e in events if isinstance(e, GameEnded) for seat in e.winners),
    )
    game.count(events)
    return game


@dataclass(slots=True)
class Stats:
    """Totals over the simulated games."""

    config: Config
    games: int = 0
    rounds: int = 0
    turns: int = 0
    events: int = 0
    seconds: float = 0.0
    wins_by_seat: list[int] = field(default_factory=list)
    favors_by_reason: dict[str, int] = field(default_factory=dict)
    eliminations_by_card: dict[str, int] = field(default_factory=dict)
    squares: dict[str, int] = field(default_factory=dict)
    """Sum over the games of the square of each per-game count ("rounds", "turns", "favor:spy", "elimination:baron"):
    with the sums above, what a per-game mean's confidence interval needs."""

    def add(self, game: GameFigures) -> None:
        """Add one game: each figure to its total, and its square to `squares`. The one tally of a simulation, for the
        games played here, in the thinking room, or read from a log."""
        self.games += 1
        self.rounds += game.rounds
        self.turns += game.turns
        self.events += game.events
        for seat in game.winners:
            self.wins_by_seat[seat] += 1
        per_game = {"rounds": game.rounds, "turns": game.turns, "events": game.events}
        for reason, n in game.favors.items():
            self.favors_by_reason[reason] = self.favors_by_reason.get(reason, 0) + n
            per_game[f"favor:{reason}"] = n
        for card, n in game.eliminations.items():
            self.eliminations_by_card[card] = self.eliminations_by_card.get(card, 0) + n
            per_game[f"elimination:{card}"] = n
        for name, n in per_game.items():
            self.squares[name] = self.squares.get(name, 0) + n * n

    def wins_by_bot(self) -> dict[str, tuple[int, int]]:
        """Bot name -> (wins, seat-games played): a bot in k seats plays k seat-games per game."""
        out: dict[str, tuple[int, int]] = {}
        for seat, name in enumerate(self.config.bots):
            wins, played = out.get(name, (0, 0))
            out[name] = (wins + self.wins_by_seat[seat], played + self.games)
        return out


class SeedKey:
    """The key every seed of a simulation is derived from, with HMAC-SHA256's padded key blocks
    hashed once (RFC 2104), so each derived seed costs two hash copies."""

    __slots__ = ("_inner", "_outer", "key")

    def __init__(self, seed: int) -> None:
        self.key = hashlib.sha256(SEED_DOMAIN + b":" + str(seed).encode()).digest()
        block = self.key.ljust(64, b"\0")
        self._inner = hashlib.sha256(block.translate(_IPAD))
        self._outer = hashlib.sha256(block.translate(_OPAD))

    def derive(self, message: bytes) -> bytes:
        """HMAC-SHA256(key, message): 32 bytes."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()


_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))


def root_key(seed: int) -> SeedKey:
    """The key every seed of simulation `seed` is derived from."""
    return SeedKey(seed)


def bot_rng(key: SeedKey, game: int) -> random.Random:
    """The random generator the bots of game `game` draw from."""
    return random.Random(int.from_bytes(key.derive(b"bots:%d" % game), "big"))


def decisions(
    ruleset: str, players: int, games: int, policy: Policy, seed: int
) -> Iterator[tuple[GameState, int, list[PlayerCommand], PlayerCommand]]:
    """Every decision of `games` games with `policy` in every seat, each game dealt from its own committed seed (the
    tests' and the benchmarks' walk through positions): the state, who decides, the legal moves, the choice."""
    key = SeedKey(seed)
    for game in range(games):
        rng = bot_rng(key, game)
        server_seed = key.derive(b"server:%d" % game)
        names = tuple(f"p{i}" for i in range(players))
        command: Command = StartGame(ruleset, names, {}, None, False, commitment(server_seed))
        state = INITIAL
        while True:
            state = fold(decide(state, command), state)
            if state.phase == PHASE_OVER:
                break
            if state.phase == PHASE_DEAL:
                command = committed_deal(state, server_seed)
                continue
            seat = state.active
            moves = legal_moves(state, seat)
            command = policy(view(state, seat), moves, rng)
            yield state, seat, moves, command


def play_game(
    ruleset: str,
    bots: Sequence[Bot],
    key: SeedKey,
    game: int,
    options: dict[str, str] | None = None,
    record: list[Event] | None = None,
    stats: Stats | None = None,
    figures: GameFigures | None = None,
) -> tuple[int, ...]:
    """Play one whole game; return its winners. Events go to `record`; the game's figures are counted into
    `figures` and added to `stats`, each if given."""
    rng = bot_rng(key, game)
    names = tuple(f"{bot.name}-{i}" for i, bot in enumerate(bots))
    fast = [bot.blind for bot in bots]
    state = INITIAL.thaw()
    server_seed = key.derive(b"server:%d" % game)  # committed to at the start, revealed at the end
    command: Command = StartGame(ruleset, names, dict(options or {}), seed_commitment=commitment(server_seed))
    n_events = 0
    turns = 0
    counted = figures if figures is not None else GameFigures() if stats is not None else None
    while True:
        events = decide(state, command)
        apply_all(state, events)
        n_events += len(events)
        if record is not None:
            record.extend(events)
        if counted is not None and len(events) > 2:
            # A plain turn is card_played + turn_started: only longer answers can hold what we count.
            counted.count(events)
        phase = state.phase
        if phase in (PHASE_PLAY, PHASE_CHANCELLOR):
            turns += phase == PHASE_PLAY
            seat = state.active
            blind = fast[seat]
            if blind is not None:
                command = blind(legal_move_tuple(state, seat), rng)
            else:
                command = bots[seat].choose(view(state, seat), legal_moves(state, seat), rng)
        else:
            chance = chance_move(state, server_seed)  # the next deal, or the seed revealed at the end
            if chance is None:
                if phase != PHASE_OVER:  # pragma: no cover - decide always stops at a decision
                    raise RuntimeError(f"simulation stuck in phase {phase!r}")
                break  # over, and the seed revealed
            command = chance
    if counted is not None:
        counted.rounds, counted.turns, counted.events, counted.winners = state.round, turns, n_events, state.winners
        if stats is not None:
            stats.add(counted)
    return state.winners


def simulate(
    config: Config,
    log: IO[bytes] | None = None,
    on_game: Callable[[int], None] | None = None,
    on_stats: Callable[[Stats], None] | None = None,
) -> Stats:
    """Play `config.games` games; write each to `log` (JSONL) if given; call `on_game(done)` after each, and
    `on_stats(totals)` with the running totals (the web statistics page reads each game's rounds from them)."""
    config.check()
    own = any(name not in BOTS for name in config.bots)
    bots = _seats(config)
    key = root_key(config.seed)
    options = dict(config.options)
    stats = Stats(config, wins_by_seat=[0] * config.players)
    record: list[Event] | None = [] if log is not None else None
    start = time.perf_counter()
    for game in range(config.games):
        if record is not None:
            record.clear()
        if own and game:  # a bot of the user's own is made afresh for each game, as a tournament makes it
            bots = _seats(config)
        play_game(config.ruleset, bots, key, game, options, record, stats)
        if log is not None and record is not None:
            write_game(log, record, _header(record, config, game))
        if on_game is not None:
            on_game(game + 1)
        if on_stats is not None:
            on_stats(stats)
    stats.seconds = time.perf_counter() - start
    return stats


def _seats(config: Config) -> list[Bot]:
    """Each seat's policy: a built-in by its name, or a bot of the user's own loaded by `play.harness`."""
    from loveletter.play.asking import as_policy
    from loveletter.play.harness import load

    out = []
    for name in config.bots:
        if name in BOTS:
            out.append(get_bot(name))
            continue
        try:
            out.append(as_policy(load(name), name))
        except (ImportError, AttributeError, ValueError, SyntaxError) as exc:
            raise SimulationError(
                Text(f"cannot load the bot {name}: {exc}", f"impossible de charger le robot {name} : {exc}")
            ) from None
    return out


def _header(record: list[Event], config: Config, game: int) -> Header:
    started = record[0]
    return Header(config.ruleset, started.players, dict(started.options), f"sim-{config.seed}-{game}")  # type: ignore[union-attr]
