"""What a tournament's games say about its bots: ratings with their 95% intervals, the head-to-head table, win rates,
and what went wrong per bot; as a rich table, JSON, CSV and a chart of the ratings over the games.

Ratings are OpenSkill's Plackett–Luce model (a Bayesian rating for games of more than two, `openskill` on PyPI):
each seat is a team of one, ranked by the game's outcome (winners first, then by favors, a seat that left last).
A bot that sits twice at one table (fewer bots than seats) has both seats' updates applied to its one rating.
The interval is the model's own posterior, mu ± 1.96·sigma (docs/bots.md says why not a bootstrap). The table is
sorted by mu and says so; ratings may start from, and be written back to, a `--ratings` file.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from loveletter.core.lang import Text, number, percent
from loveletter.play.outcome import Outcome
from loveletter.play.report import Z95, wilson

if TYPE_CHECKING:
    from rich.table import Table

    from loveletter.play.tournament import Config


@dataclass(slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def low(self) -> float:
        return self.mu - Z95 * self.sigma

    @property
    def high(self) -> float:
        return self.mu + Z95 * self.sigma


@dataclass(slots=True)
class Ratings:
    """Every bot's rating after the games, and after each game (`history[g][b]`, for the chart)."""

    final: list[Rating]
    history: list[tuple[tuple[float, float], ...]] = field(default_factory=list)


def rate(
    outcomes: Sequence[Outcome], bots: int, keep_history: bool = True, start: Sequence[Rating | None] = ()
) -> Ratings:
    """Rate `bots` bots from the games in order (an aborted game says nothing and is skipped), each from its rating
    in `start` (`--ratings`), or afresh where it has none."""
    model = PlackettLuce(tau=0.0)  # a bot does not learn during a tournament: no drift (docs/bots.md)
    given = list(start) + [None] * (bots - len(start))
    ratings = [Rating(model.mu, model.sigma) if r is None else Rating(r.mu, r.sigma) for r in given[:bots]]
    history: list[tuple[tuple[float, float], ...]] = []
    for outcome in outcomes:
        if not outcome.aborted:
            teams = [[model.rating(mu=ratings[b].mu, sigma=ratings[b].sigma)] for b in outcome.seats]
            rated = model.rate(teams, ranks=list(outcome.ranks))
            mu_change = [0.0] * bots
            shrink = [1.0] * bots
            for b, before, (after,) in zip(outcome.seats, teams, rated, strict=True):
                mu_change[b] += after.mu - before[0].mu
                shrink[b] *= after.sigma / before[0].sigma
            for b in set(outcome.seats):
                ratings[b] = Rating(ratings[b].mu + mu_change[b], ratings[b].sigma * shrink[b])
        if keep_history:
            history.append(tuple((r.mu, r.sigma) for r in ratings))
    return Ratings(ratings, history)


@dataclass(slots=True)
class Totals:
    """Per bot: seat-games played, seat-games won, and what went wrong."""

    played: list[int]
    won: list[int]
    crashes: list[int]
    timeouts: list[int]
    refused: list[int]
    hangs: list[int]
    tracebacks: list[str]
    """Each bot's first crash's traceback, in game order ("" if it never crashed)."""
    placings: list[int]
    """The sum of the bot's places (1 is best) over its seat-games."""
    aborted: int = 0

    @classmethod
    def of(cls, outcomes: Sequence[Outcome], bots: int) -> Totals:
        t = cls([0] * bots, [0] * bots, [0] * bots, [0] * bots, [0] * bots, [0] * bots, [""] * bots, [0] * bots)
        for o in outcomes:
            if o.aborted:
                t.aborted += 1
            ranks = o.ranks
            for seat, b in enumerate(o.seats):
                t.crashes[b] += o.crashes[seat]
                t.timeouts[b] += o.timeouts[seat]
                t.refused[b] += o.refused[seat]
                t.hangs[b] += o.hangs[seat]
                if not t.tracebacks[b] and seat < len(o.tracebacks):
                    t.tracebacks[b] = o.tracebacks[seat]
                if not o.aborted:
                    t.played[b] += 1
                    t.won[b] += seat in o.winners
                    t.placings[b] += ranks[seat]
        return t


def head_to_head(outcomes: Sequence[Outcome], bots: int) -> list[list[tuple[int, int, int]]]:
    """`table[a][b]`: (times a finished ahead of b, level, behind) over the games where both sat."""
    table = [[(0, 0, 0) for _ in range(bots)] for _ in range(bots)]
    for o in outcomes:
        if o.aborted:
            continue
        ranks = o.ranks
        for s, a in enumerate(o.seats):
            for t, b in enumerate(o.seats):
                if a == b:
                    continue
                ahead, level, behind = table[a][b]
                if ranks[s] < ranks[t]:
                    table[a][b] = (ahead + 1, level, behind)
                elif ranks[s] == ranks[t]:
                    table[a][b] = (ahead, level + 1, behind)
                else:
                    table[a][b] = (ahead, level, behind + 1)
    return table


SORTED_BY = Text(
    "ranked by rating (OpenSkill mu), highest first; the interval is mu ± 1.96·sigma",
    "classés par note, la plus haute d'abord ; l'intervalle est la note ± 1,96 fois son incertitude",
)
"""The order of the ratings table, said with it: win rate and placing may order the bots otherwise."""


def results(
    config: Config,
    outcomes: Sequence[Outcome],
    seconds: float,
    mode: str = "in-process",
    start: Sequence[Rating | None] = (),
) -> dict[str, Any]:
    """Every figure of the tournament, as `--json` prints it (the ratings from `start`, if given)."""
    b = len(config.bots)
    from loveletter.play.tournament import short_names  # the tournament plays over HTTP: imported when used

    names = short_names(config.bots)
    ratings = rate(outcomes, b, keep_history=False, start=start).final
    totals = Totals.of(outcomes, b)
    h2h = head_to_head(outcomes, b)
    order = sorted(range(b), key=lambda i: -ratings[i].mu)
    rows = []
    for place, i in enumerate(order, 1):
        r = ratings[i]
        low, high = wilson(totals.won[i], totals.played[i])
        rows.append(
            {
                "place": place,
                "bot": config.bots[i],
                "name": names[i],
                "mu": r.mu,
                "sigma": r.sigma,
                "low": r.low,
                "high": r.high,
                "seat_games": totals.played[i],
                "wins": totals.won[i],
                "win_rate": totals.won[i] / max(1, totals.played[i]),
                "win_rate_low": low,
                "win_rate_high": high,
                "average_placing": totals.placings[i] / totals.played[i] if totals.played[i] else None,
                "crashes": totals.crashes[i],
                "timeouts": totals.timeouts[i],
                "refused_moves": totals.refused[i],
                "hangs": totals.hangs[i],
                "first_traceback": totals.tracebacks[i] or None,
            }
        )
    pairs = []
    for a in range(b):
        for o in range(b):
            ahead, level, behind = h2h[a][o]
            met = ahead + level + behind
            if a == o or met == 0:
                continue
            low, high = wilson(2 * ahead + level, 2 * met)
            pairs.append(
                {
                    "bot": names[a],
                    "opponent": names[o],
                    "met": met,
                    "ahead": ahead,
                    "level": level,
                    "behind": behind,
                    "score": (ahead + level / 2) / met,
                    "low": low,
                    "high": high,
                }
            )
    return {
        "mode": mode,
        "ruleset": config.ruleset,
        "players": config.players,
        "games": len(outcomes),
        "aborted_games": totals.aborted,
        "seed": config.seed,
        "duplicate_deals": config.duplicate and mode == "in-process",
        "bots": list(config.bots),
        "options": dict(config.options),
        "rating": {"model": "openskill.PlackettLuce", "interval": "mu ± 1.96·sigma", "confidence": 0.95},
        "sorted_by": SORTED_BY.en,
        "seconds": seconds,
        "games_per_second": len(outcomes) / seconds if seconds > 0 else None,
        "ratings": rows,
        "head_to_head": pairs,
    }


CSV_COLUMNS = ("section", "bot", "opponent", "count", "trials", "estimate", "low", "high")


def render_csv(figures: dict[str, Any]) -> str:
    """One row per figure: the order of the bots (`sorted_by`, first), a rating (mu, its interval), a win rate
    (wins of seat-games, Wilson interval), an average placing (sum of places of seat-games), a head-to-head score
    (ahead + half the levels, of the meetings), and each bot's incidents. Bots come in the ratings' order."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    w.writerow(["sorted_by", "", "", "", "", figures["sorted_by"], "", ""])
    for r in figures["ratings"]:
        w.writerow(["rating", r["name"], "", "", r["seat_games"], _g(r["mu"]), _g(r["low"]), _g(r["high"])])
    for r in figures["ratings"]:
        row = [r["wins"], r["seat_games"], _g(r["win_rate"]), _g(r["win_rate_low"]), _g(r["win_rate_high"])]
        w.writerow(["win_rate", r["name"], "", *row])
    for r in figures["ratings"]:
        placing = "" if r["average_placing"] is None else _g(r["average_placing"])
        total = "" if r["average_placing"] is None else round(r["average_placing"] * r["seat_games"])
        w.writerow(["average_placing", r["name"], "", total, r["seat_games"], placing, "", ""])
    for p in figures["head_to_head"]:
        w.writerow(["head_to_head", p["bot"], p["opponent"], p["ahead"], p["met"], _g(p["score"]), _g(p["low"]),
                    _g(p["high"])])  # fmt: skip
    for r in figures["ratings"]:
        for what in ("crashes", "timeouts", "refused_moves", "hangs"):
            w.writerow([what, r["name"], "", r[what], r["seat_games"], "", "", ""])
    return out.getvalue()


def _g(value: float) -> str:
    return f"{value:.6g}"


def render_tables(figures: dict[str, Any], lang: str = "en") -> list[Table]:
    """The ratings (with what went wrong per bot) and the head-to-head table, for the terminal."""
    from rich.table import Table  # the terminal's library: the referee rates its ladder without it

    fr = lang == "fr"

    def n(value: float, digits: int = 0) -> str:
        return number(value, lang, digits)

    games = n(figures["games"])
    title = (
        f"{games} parties de {figures['ruleset']}, {figures['players']} joueurs, graine {figures['seed']}"
        if fr
        else f"{games} games of {figures['ruleset']}, {figures['players']} players, seed {figures['seed']}"
    )
    ratings = Table(title=title, caption=SORTED_BY(lang))
    columns = [
        ("#", "right"),
        ("robot" if fr else "bot", "left"),
        ("note" if fr else "rating (mu)", "right"),
        ("intervalle à 95 %" if fr else "95% interval", "right"),
        ("victoires" if fr else "win rate", "right"),
        ("place moyenne" if fr else "avg placing", "right"),
        ("parties" if fr else "seat-games", "right"),
        ("échecs" if fr else "crashes", "right"),
        ("hors délai" if fr else "timeouts", "right"),
    ]
    more = ("refused_moves", "hangs")
    shown = figures["mode"] == "http" or any(r[k] for r in figures["ratings"] for k in more)
    if shown:  # refused moves and hung processes: always over HTTP, and in process when there were any
        columns += [("coups refusés" if fr else "refused", "right"), ("bloqués" if fr else "hung", "right")]
    for head, justify in columns:
        ratings.add_column(head, justify=justify)  # type: ignore[arg-type]
    for r in figures["ratings"]:
        placing = r["average_placing"]
        cells = [
            str(r["place"]),
            r["name"],
            n(r["mu"], 2),
            f"{n(r['low'], 2)} – {n(r['high'], 2)}",
            percent(r["win_rate"], lang),
            "—" if placing is None else n(placing, 2),
            n(r["seat_games"]),
            str(r["crashes"]),
            str(r["timeouts"]),
        ]
        ratings.add_row(*cells, *([str(r[k]) for k in more] if shown else []))
    names = [r["name"] for r in figures["ratings"]]
    h2h = Table(
        title="Face-à-face" if fr else "Head to head",
        caption="part des rencontres que le robot de la ligne finit devant celui de la colonne ; une égalité compte "
        "pour moitié"
        if fr
        else "share of meetings the row's bot finished ahead of the column's; a tie counts half",
    )
    h2h.add_column("")
    for name in names:
        h2h.add_column(name, justify="right")
    scores = {(p["bot"], p["opponent"]): p for p in figures["head_to_head"]}
    for a in names:
        cells = []
        for o in names:
            p = scores.get((a, o))
            cells.append("—" if p is None else f"{percent(p['score'], lang)} ({n(p['met'])})")
        h2h.add_row(a, *cells)
    return [ratings, h2h]


def plot(
    config: Config, outcomes: Sequence[Outcome], path: str, lang: str = "en", start: Sequence[Rating | None] = ()
) -> None:
    """Each bot's rating after every game, with its 95% band, in one PNG or SVG file (by `path`'s extension);
    matplotlib draws off-screen and is imported only here."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    from loveletter.play.report import plot_format

    fr = lang == "fr"
    history = rate(outcomes, len(config.bots), start=start).history
    xs = list(range(1, len(history) + 1))
    chart, ax = pyplot.subplots(figsize=(10, 6))
    from loveletter.play.tournament import short_names

    for i, name in enumerate(short_names(config.bots)):
        mu = [h[i][0] for h in history]
        band = [Z95 * h[i][1] for h in history]
        ax.plot(xs, mu, label=name)
        ax.fill_between(xs, [m - d for m, d in zip(mu, band, strict=True)],
                        [m + d for m, d in zip(mu, band, strict=True)], alpha=0.2)  # fmt: skip
    ax.set_xlabel("parties jouées" if fr else "games played")
    ax.set_ylabel("note OpenSkill (mu ± 1,96·sigma)" if fr else "OpenSkill rating (mu ± 1.96·sigma)")
    ax.set_title(
        f"Notes au fil du tournoi ({config.ruleset}, {config.players} joueurs, graine {config.seed})"
        if fr
        else f"Ratings over the tournament ({config.ruleset}, {config.players} players, seed {config.seed})"
    )
    ax.grid(alpha=0.3)
    ax.legend()
    chart.tight_layout()
    try:
        chart.savefig(path, format=plot_format(path))
    finally:
        pyplot.close(chart)


# -- ratings kept across tournaments: --ratings FILE ------------------------------------------------------------------

RATINGS_FORMAT = "loveletter-ratings/1"


def read_ratings(data: bytes) -> dict[str, Rating]:
    """The ratings of a `--ratings` file, by bot as `--bots` names it (a `ValueError` saying what is wrong)."""
    doc = json.loads(data)
    if not isinstance(doc, dict) or doc.get("format") != RATINGS_FORMAT or not isinstance(doc.get("ratings"), dict):
        raise ValueError(f'not a ratings file (a JSON object with "format": "{RATINGS_FORMAT}" and "ratings")')
    out = {}
    for bot, r in doc["ratings"].items():
        mu, sigma = (r.get(k) if isinstance(r, dict) else None for k in ("mu", "sigma"))
        if not isinstance(mu, int | float) or not isinstance(sigma, int | float) or not sigma > 0:
            raise ValueError(f"the rating of {bot} needs a number mu and a positive number sigma")
        out[bot] = Rating(float(mu), float(sigma))
    return out


def write_ratings(known: dict[str, Rating], config: Config, ratings: Sequence[Rating]) -> bytes:
    """The `--ratings` file after the tournament: the bots it knew, with this tournament's bots' new ratings."""
    merged = dict(known)
    merged.update(zip(config.bots, ratings, strict=True))
    doc = {
        "format": RATINGS_FORMAT,
        "model": "openskill.PlackettLuce",
        "tau": 0.0,
        "ratings": {bot: {"mu": r.mu, "sigma": r.sigma} for bot, r in sorted(merged.items())},
    }
    return (json.dumps(doc, indent=2, ensure_ascii=False) + "\n").encode()
