"""Bot-vs-bot simulation: the same `decide`/`evolve` as every other client, chance from derived seeds.

Every game starts from `StartGame` and is driven command by command: chance moves by `core.chance.chance_move`,
dealing each round from a server seed derived from the simulation seed and the game's index (committed to in
`game_started`, revealed after `game_ended`); each seat's bot picks one of its legal moves; `decide` judges the
command and its events are applied in place to the game's one `Transient` (no copy per command). The same seed
always gives the same games, so the optional JSONL log is byte-identical from run to run.
"""

from __future__ import annotations

import csv
import hashlib
import io
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from rich.table import Table

from loveletter.core.cards import Card
from loveletter.core.catalogue import Event, FavorGained, PlayerEliminated
from loveletter.core.chance import chance_move, commitment
from loveletter.core.commands import Command, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.lang import BilingualError, Text, number, plural_fr
from loveletter.core.legal import legal_move_tuple, legal_moves
from loveletter.core.rulesets import RULESETS, Options, Ruleset
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_OVER, PHASE_PLAY
from loveletter.core.views import view
from loveletter.events.log import Header, write_game
from loveletter.play.bots import BOTS, Bot, get_bot

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

    def check(self) -> None:
        """Raise `SimulationError` for a configuration that cannot be simulated."""
        if self.ruleset not in RULESETS:
            known = ", ".join(RULESETS)
            raise SimulationError(
                Text(
                    f"unknown ruleset {self.ruleset!r} (known: {known})",
                    f"jeu de règles inconnu « {self.ruleset} » (connus : {known})",
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
        unknown = [b for b in self.bots if b not in BOTS]
        if unknown:
            known = ", ".join(BOTS)
            raise SimulationError(
                Text(
                    f"unknown bot {unknown[0]!r} (known: {known})",
                    f"robot inconnu « {unknown[0]} » (connus : {known})",
                )
            )
        if self.games < 1:
            raise SimulationError(
                Text(f"--games must be at least 1, not {self.games}", f"--games vaut au moins 1, pas {self.games}")
            )
        try:
            Options.from_dict(dict(self.options))
        except BilingualError as exc:
            raise SimulationError(Text(f"--option: {exc.text.en}", f"--option : {exc.text.fr}")) from None


def parse_options(written: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """`--option KEY=VALUE`, as given (their keys and values are checked by `Config.check`)."""
    out = []
    for item in written:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise SimulationError(
                Text(
                    f"--option {item!r} is not KEY=VALUE (e.g. tie_2012=all)",
                    f"--option « {item} » n'a pas la forme CLÉ=VALEUR (par exemple tie_2012=all)",
                )
            )
        out.append((key.strip(), value.strip()))
    return tuple(out)


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


def play_game(
    ruleset: str,
    bots: Sequence[Bot],
    key: SeedKey,
    game: int,
    options: dict[str, str] | None = None,
    record: list[Event] | None = None,
    stats: Stats | None = None,
) -> tuple[int, ...]:
    """Play one whole game; return its winners. Events go to `record` and totals to `stats` if given."""
    rng = bot_rng(key, game)
    names = tuple(f"{bot.name}-{i}" for i, bot in enumerate(bots))
    fast = [bot.blind for bot in bots]
    state = INITIAL.thaw()
    server_seed = key.derive(b"server:%d" % game)  # committed to at the start, revealed at the end
    command: Command = StartGame(ruleset, names, dict(options or {}), seed_commitment=commitment(server_seed))
    n_events = 0
    turns = 0
    while True:
        events = decide(state, command)
        apply_all(state, events)
        n_events += len(events)
        if record is not None:
            record.extend(events)
        if stats is not None and len(events) > 2:
            # A plain turn is card_played + turn_started: only longer answers can hold what we count.
            for event in events:
                kind = type(event)
                if kind is PlayerEliminated:
                    cause = event.cause.value  # type: ignore[union-attr]
                    stats.eliminations_by_card[cause] = stats.eliminations_by_card.get(cause, 0) + 1
                elif kind is FavorGained:
                    why = event.reason  # type: ignore[union-attr]
                    stats.favors_by_reason[why] = stats.favors_by_reason.get(why, 0) + 1
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
    if stats is not None:
        stats.games += 1
        stats.rounds += state.round
        stats.turns += turns
        stats.events += n_events
        for seat in state.winners:
            stats.wins_by_seat[seat] += 1
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
    bots = [get_bot(name) for name in config.bots]
    key = root_key(config.seed)
    options = dict(config.options)
    stats = Stats(config, wins_by_seat=[0] * config.players)
    record: list[Event] | None = [] if log is not None else None
    start = time.perf_counter()
    for game in range(config.games):
        if record is not None:
            record.clear()
        before = _counts(stats)
        play_game(config.ruleset, bots, key, game, options, record, stats)
        squares = stats.squares
        for name, now in _counts(stats).items():
            squares[name] = squares.get(name, 0) + (now - before.get(name, 0)) ** 2
        if log is not None and record is not None:
            write_game(log, record, _header(record, config, game))
        if on_game is not None:
            on_game(game + 1)
        if on_stats is not None:
            on_stats(stats)
    stats.seconds = time.perf_counter() - start
    return stats


def _counts(stats: Stats) -> dict[str, int]:
    """The running totals whose per-game values get a confidence interval."""
    out = {"rounds": stats.rounds, "turns": stats.turns, "events": stats.events}
    for reason, n in stats.favors_by_reason.items():
        out[f"favor:{reason}"] = n
    for card, n in stats.eliminations_by_card.items():
        out[f"elimination:{card}"] = n
    return out


def _header(record: list[Event], config: Config, game: int) -> Header:
    started = record[0]
    return Header(config.ruleset, started.players, dict(started.options), f"sim-{config.seed}-{game}")  # type: ignore[union-attr]


def render_summary(stats: Stats, lang: str = "en") -> Table:
    """The summary table the command line prints after a simulation."""
    fr = lang == "fr"
    cfg = stats.config
    games = max(1, stats.games)
    rs = RULESETS[cfg.ruleset]
    per_game = "/partie" if fr else "/game"

    def n(formatted: str) -> str:
        return number(formatted, lang)

    title = (
        f"{n(f'{stats.games:,}')} parties de {cfg.ruleset}, {cfg.players} joueurs, graine {cfg.seed}"
        if fr
        else f"{stats.games:,} games of {cfg.ruleset}, {cfg.players} players, seed {cfg.seed}"
    )
    table = Table(title=title)

    table.add_column("mesure" if fr else "figure")
    table.add_column("valeur" if fr else "value", justify="right")
    table.add_row(
        "parties/s" if fr else "games/s", n(f"{stats.games / stats.seconds:,.0f}") if stats.seconds > 0 else "-"
    )
    table.add_row("manches par partie" if fr else "rounds per game", n(f"{stats.rounds / games:.2f}"))
    table.add_row("tours par partie" if fr else "turns per game", n(f"{stats.turns / games:.2f}"))
    table.add_row(
        "événements par partie" if fr else "events per game", n(f"{stats.events / games:.1f}"), end_section=True
    )
    for seat, name in enumerate(cfg.bots):
        label = f"victoires, siège {seat} ({name})" if fr else f"win rate, seat {seat} ({name})"
        table.add_row(label, n(f"{stats.wins_by_seat[seat] / games:.1%}"))
    table.rows[-1].end_section = True
    for name, (wins, played) in stats.wins_by_bot().items():
        table.add_row(f"victoires, robot {name}" if fr else f"win rate, bot {name}", n(f"{wins / max(1, played):.1%}"))
    table.rows[-1].end_section = True
    reasons = {
        "round": Text("round won", "manche gagnée"),
        "spy": _spy(rs),
        "amira-sadie": Text("Amira & Sadie", "Amira & Sadie"),
    }
    for reason in favor_reasons(rs):
        count = stats.favors_by_reason.get(reason, 0)
        label = f"faveurs : {reasons[reason].fr}" if fr else f"favors: {reasons[reason].en}"
        table.add_row(label, n(f"{count:,} ({count / games:.2f}") + f"{per_game})")
    table.rows[-1].end_section = True
    for card in sorted(stats.eliminations_by_card, key=lambda c: rs.values[Card(c)]):
        count = stats.eliminations_by_card[card]
        name = rs.name(Card(card), "fr" if fr else "en")
        label = f"éliminations : {name}" if fr else f"eliminations: {name}"
        table.add_row(label, n(f"{count:,} ({count / games:.2f}") + f"{per_game})")
    return table


# -- statistics with their 95% confidence intervals: --json, --csv, --plot -------------------------------------

Z95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike the textbook p ± z·√(p(1−p)/n), it stays within [0, 1]
    and does not shrink to nothing when a bot wins every game or none."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    scale = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / scale
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(total: int, squares: int, n: int, z: float = Z95) -> tuple[float | None, float | None]:
    """The normal interval of a per-game mean from the sum and the sum of squares of its per-game values (None
    with fewer than two games: no spread to measure)."""
    if n < 2:
        return (None, None)
    mean = total / n
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = z * math.sqrt(variance / n)
    return (mean - half, mean + half)


def favor_reasons(rs: Ruleset) -> tuple[str, ...]:
    """The reasons a favor can be gained in this ruleset: a Spy or Amira & Sadie row only where it exists."""
    return ("round", *(("spy",) if rs.spy_favor else ()), *(("amira-sadie",) if rs.amira_sadie_favor else ()))


def statistics(stats: Stats) -> dict[str, Any]:
    """Every figure of the summary with its 95% interval: Wilson for win rates, normal for per-game means."""
    cfg = stats.config
    rs = RULESETS[cfg.ruleset]
    n = stats.games

    def per_game(total: int, key: str) -> dict[str, Any]:
        low, high = mean_interval(total, stats.squares.get(key, 0), n)
        return {"count": total, "games": n, "per_game": total / max(1, n), "low": low, "high": high}

    def rate(wins: int, trials: int) -> dict[str, Any]:
        low, high = wilson(wins, trials)
        return {"wins": wins, "trials": trials, "rate": wins / max(1, trials), "low": low, "high": high}

    cards = sorted(stats.eliminations_by_card, key=lambda c: rs.values[Card(c)])
    return {
        "ruleset": cfg.ruleset,
        "players": cfg.players,
        "games": n,
        "seed": cfg.seed,
        "bots": list(cfg.bots),
        "options": Options.from_dict(dict(cfg.options)).as_dict(),
        "confidence": 0.95,
        "seconds": stats.seconds,
        "games_per_second": n / stats.seconds if stats.seconds > 0 else None,
        "per_game": {key: per_game(getattr(stats, key), key) for key in ("rounds", "turns", "events")},
        "win_rate": {
            "by_seat": [
                {"seat": seat, "bot": bot, **rate(stats.wins_by_seat[seat], n)} for seat, bot in enumerate(cfg.bots)
            ],
            "by_bot": [{"bot": bot, **rate(wins, played)} for bot, (wins, played) in stats.wins_by_bot().items()],
        },
        "favors": [
            {"reason": why, **per_game(stats.favors_by_reason.get(why, 0), f"favor:{why}")} for why in favor_reasons(rs)
        ],
        "eliminations": [
            {"card": card, **per_game(stats.eliminations_by_card[card], f"elimination:{card}")} for card in cards
        ],
    }


CSV_COLUMNS = ("section", "name", "count", "trials", "estimate", "low", "high")


def render_csv(stats: Stats) -> str:
    """One row per figure: a win rate (wins of trials, Wilson interval) or a per-game mean (count over games,
    normal interval); `low` and `high` bound the 95% interval."""
    figures = statistics(stats)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)

    def row(section: str, name: str, f: dict[str, Any], estimate: str) -> None:
        trials = f.get("trials", f.get("games"))
        writer.writerow(
            [section, name, f.get("wins", f.get("count")), trials, _g(f[estimate]), _g(f["low"]), _g(f["high"])]
        )

    for key, f in figures["per_game"].items():
        row("per_game", key, f, "per_game")
    for f in figures["win_rate"]["by_seat"]:
        row("win_rate_by_seat", f"{f['seat']} ({f['bot']})", f, "rate")
    for f in figures["win_rate"]["by_bot"]:
        row("win_rate_by_bot", f["bot"], f, "rate")
    for f in figures["favors"]:
        row("favors_per_game", f["reason"], f, "per_game")
    for f in figures["eliminations"]:
        row("eliminations_per_game", f["card"], f, "per_game")
    return out.getvalue()


def _g(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


PLOT_FORMATS = ("png", "svg")


def plot_format(path: str) -> str | None:
    """The chart's format from the file's extension: "png", "svg", or None for any other."""
    ext = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return ext if ext in PLOT_FORMATS else None


def plot(stats: Stats, path: str, lang: str = "en") -> None:
    """Four charts with their 95% intervals, in one PNG or SVG file (by `path`'s extension): win rate by seat
    and by bot, favors per game by reason, eliminations per game by the card that caused them. matplotlib draws
    them off-screen (Agg), so no display is needed; it is imported only here, as it is slow to import."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.ticker import FuncFormatter

    fr = lang == "fr"
    figures = statistics(stats)
    rs = RULESETS[stats.config.ruleset]
    reasons = {
        "round": Text("round won", "manche gagnée"),
        "spy": _spy(rs),
        "amira-sadie": Text("Amira & Sadie", "Amira & Sadie"),
    }

    def bars(ax: Any, labels: list[str], rows: list[dict[str, Any]], key: str, title: str, percent: bool) -> None:
        values = [r[key] for r in rows]
        below = [v - (r["low"] if r["low"] is not None else v) for v, r in zip(values, rows, strict=True)]
        above = [(r["high"] if r["high"] is not None else v) - v for v, r in zip(values, rows, strict=True)]
        ax.bar(range(len(values)), values, yerr=[below, above], capsize=4, color="#4c72b0")
        ax.set_xticks(
            range(len(values)),
            labels,
            rotation=30 if len(labels) > 4 else 0,
            ha="right" if len(labels) > 4 else "center",
        )
        ax.set_title(title)
        if percent:
            ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: number(f"{y:.0%}", lang)))
        ax.grid(axis="y", alpha=0.3)

    seat_word = "siège" if fr else "seat"
    by_seat = figures["win_rate"]["by_seat"]
    by_bot = figures["win_rate"]["by_bot"]
    chart, axes = pyplot.subplots(2, 2, figsize=(11, 8))
    bars(
        axes[0][0],
        [f"{seat_word} {r['seat']}\n{r['bot']}" for r in by_seat],
        by_seat,
        "rate",
        "Victoires par siège" if fr else "Win rate by seat",
        True,
    )
    bars(
        axes[0][1], [r["bot"] for r in by_bot], by_bot, "rate", "Victoires par robot" if fr else "Win rate by bot", True
    )
    favors = figures["favors"]
    bars(
        axes[1][0],
        [reasons[r["reason"]](lang) for r in favors],
        favors,
        "per_game",
        "Faveurs par partie, selon la raison" if fr else "Favors per game, by reason",
        False,
    )
    eliminated = figures["eliminations"]
    bars(
        axes[1][1],
        [rs.name(Card(r["card"]), "fr" if fr else "en") for r in eliminated],
        eliminated,
        "per_game",
        "Éliminations par partie, selon la carte" if fr else "Eliminations per game, by card",
        False,
    )
    cfg = stats.config
    games = number(f"{stats.games:,}", lang)
    title = (
        f"{games} parties de {cfg.ruleset}, {cfg.players} joueurs, graine {cfg.seed} (intervalles à 95 %)"
        if fr
        else f"{games} games of {cfg.ruleset}, {cfg.players} players, seed {cfg.seed} (95% intervals)"
    )
    chart.suptitle(title)
    chart.tight_layout()
    try:
        chart.savefig(path, format=plot_format(path))
    finally:
        pyplot.close(chart)


def _spy(rs: Ruleset) -> Text:
    return Text("Spy", rs.name(Card.SPY, "fr") if rs.has(Card.SPY) else "Espionne")
