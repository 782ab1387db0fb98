"""What a simulation's totals say: the summary table `loveletter simulate` prints, and every figure with its 95%
confidence interval (Wilson for win rates, normal for per-game means) as JSON figures, CSV or a chart (`--json`,
`--csv`, `--plot`). Playing the games is `play/simulate.py`'s; the tournament ratings reuse the intervals here.
"""

from __future__ import annotations

import csv
import io
import math
from typing import Any

from rich.table import Table

from loveletter.core.cards import Card
from loveletter.core.lang import Text, number
from loveletter.core.lang import percent as percentage
from loveletter.core.rulesets import RULESETS, Options, Ruleset
from loveletter.play.simulate import Stats


def render_summary(stats: Stats, lang: str = "en") -> Table:
    """The summary table the command line prints after a simulation."""
    fr = lang == "fr"
    cfg = stats.config
    games = max(1, stats.games)
    rs = RULESETS[cfg.ruleset]
    per_game = "/partie" if fr else "/game"

    def n(value: float, digits: int = 0) -> str:
        return number(value, lang, digits)

    def share(value: float) -> str:
        return percentage(value, lang)

    def per(count: int) -> str:
        return f"{n(count)} ({n(count / games, 2)}{per_game})"

    title = (
        f"{n(stats.games)} parties de {cfg.ruleset}, {cfg.players} joueurs, graine {cfg.seed}"
        if fr
        else f"{stats.games:,} games of {cfg.ruleset}, {cfg.players} players, seed {cfg.seed}"
    )
    table = Table(title=title)

    table.add_column("mesure" if fr else "figure")
    table.add_column("valeur" if fr else "value", justify="right")
    table.add_row("parties/s" if fr else "games/s", n(stats.games / stats.seconds) if stats.seconds > 0 else "-")
    table.add_row("manches par partie" if fr else "rounds per game", n(stats.rounds / games, 2))
    table.add_row("tours par partie" if fr else "turns per game", n(stats.turns / games, 2))
    table.add_row("événements par partie" if fr else "events per game", n(stats.events / games, 1), end_section=True)
    for seat, name in enumerate(cfg.bots):
        label = f"victoires, siège {seat} ({name})" if fr else f"win rate, seat {seat} ({name})"
        table.add_row(label, share(stats.wins_by_seat[seat] / games))
    table.rows[-1].end_section = True
    for name, (wins, played) in stats.wins_by_bot().items():
        table.add_row(f"victoires, robot {name}" if fr else f"win rate, bot {name}", share(wins / max(1, played)))
    table.rows[-1].end_section = True
    reasons = _reason_names(rs)
    for reason in favor_reasons(rs):
        count = stats.favors_by_reason.get(reason, 0)
        label = f"faveurs : {reasons[reason].fr}" if fr else f"favors: {reasons[reason].en}"
        table.add_row(label, per(count))
    table.rows[-1].end_section = True
    for card in sorted(stats.eliminations_by_card, key=lambda c: rs.values[Card(c)]):
        count = stats.eliminations_by_card[card]
        name = rs.name(Card(card), "fr" if fr else "en")
        label = f"éliminations : {name}" if fr else f"eliminations: {name}"
        table.add_row(label, per(count))
    return table


# -- every figure with its 95% confidence interval: --json, --csv, --plot ------------------------------------------

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
    reasons = _reason_names(rs)

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
            ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: percentage(y, lang, 0)))
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
    games = number(stats.games, lang)
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


def _reason_names(rs: Ruleset) -> dict[str, Text]:
    """How each reason for a favor is named in the table and the chart."""
    spy = Text("Spy", rs.name(Card.SPY, "fr") if rs.has(Card.SPY) else "Espionne")
    return {
        "round": Text("round won", "manche gagnée"),
        "spy": spy,
        "amira-sadie": Text("Amira & Sadie", "Amira & Sadie"),
    }
