"""`loveletter analyse`: the review of every decision of a game. Each legal move's chance of winning the game (and
the round) is estimated from the deciding seat's view only, by the engine's worlds and heuristic rollouts
(`play.engine.review`), and the played move is marked by what it gave up against the best one (docs/engine.md)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import click
import orjson

from loveletter.cli.game_file import load_events
from loveletter.cli.logs import _seat_of
from loveletter.cli.options import FILE, UI, _, command, game_option, lang_option
from loveletter.cli.text import Integer
from loveletter.core.lang import Lang, Text, number
from loveletter.play.engine.review import BLUNDER, DEFAULT_ROLLOUTS, INACCURACY, MISTAKE, OPPONENTS

MARKS = {
    "inaccuracy": Text("inaccuracy", "imprécision"),
    "mistake": Text("mistake", "erreur"),
    "blunder": Text("blunder", "gaffe"),
}


@command(
    help=_(
        "Review every decision of a game: each legal move's chance of winning, from the seat's information only, "
        "and the played move's inaccuracies, mistakes and blunders.",
        "Passer en revue chaque décision d'une partie : la chance de gagner de chaque coup légal, d'après ce que le "
        "siège savait seulement, et les imprécisions, erreurs et gaffes du coup joué.",
    )
)
@FILE
@click.option(
    "--seat",
    default=None,
    metavar="NAME",
    help=_("review this seat only (a name or seat number)", "ne passer en revue que ce siège (un nom ou un numéro)"),
)
@click.option(
    "--budget",
    type=Integer(UI, 1),
    default=DEFAULT_ROLLOUTS,
    show_default=True,
    metavar="N",
    help=_("rollouts for each legal move of a decision", "simulations pour chaque coup légal d'une décision"),
)
@click.option(
    "--seed",
    type=Integer(UI, 0),
    default=0,
    show_default=True,
    metavar="S",
    help=_(
        "the seed of the sampled worlds: the same seed gives the same figures",
        "la graine des mondes tirés : la même graine donne les mêmes chiffres",
    ),
)
@click.option("--json", "as_json", is_flag=True, help=_("print the review as JSON", "afficher la revue en JSON"))
@game_option
@lang_option
def analyse(file: Path, seat: str | None, budget: int, seed: int, as_json: bool, game: int | None, lang: Lang) -> None:
    from loveletter.replays.players import seat_names

    events = load_events(file, game)
    players = list(seat_names(events))
    who = None if seat is None else _seat_of(seat, players, "--seat")
    entries = _review(events, who, budget, seed, lang, str(file))
    header = {
        "file": str(file),
        "game": game,
        "seat": None if who is None else players[who],
        "rollouts": budget,
        "seed": seed,
        "model": _model(budget)(lang),
        "others": OPPONENTS,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
    }
    if as_json:
        print(orjson.dumps({**header, "decisions": entries}, option=orjson.OPT_INDENT_2).decode())
        return
    print(_title(header, players, lang))
    print(header["model"])
    for entry in entries:
        print()
        print(_render(entry, lang))


def _model(budget: int) -> Text:
    return Text(
        f"Model: every legal move is tried in {budget} worlds drawn from what the seat knew (never the hidden "
        f"cards); then every seat, this one included, plays {OPPONENTS} from its own view to the end of the round. "
        f"Figures: chance of winning the game (round won in brackets). Marks by the game's chance lost against the "
        f"best move: inaccuracy from {_pct(INACCURACY, 'en')}, mistake from {_pct(MISTAKE, 'en')}, blunder from "
        f"{_pct(BLUNDER, 'en')}.",
        f"Modèle : chaque coup légal est essayé dans {budget} mondes tirés de ce que le siège savait (jamais les "
        f"cartes cachées) ; puis chaque siège, celui-ci compris, joue {OPPONENTS} d'après ce qu'il voit jusqu'à la "
        f"fin de la manche. Chiffres : chance de gagner la partie (manche gagnée entre parenthèses). Marques selon la "
        f"chance perdue face au meilleur coup : imprécision dès {_pct(INACCURACY, 'fr')}, erreur dès "
        f"{_pct(MISTAKE, 'fr')}, gaffe dès {_pct(BLUNDER, 'fr')}.",
    )


def _review(events: list[Any], who: int | None, budget: int, seed: int, lang: Lang, name: str) -> list[dict[str, Any]]:
    """One entry per decision of the seat (or of every seat), searched unless forced."""
    from loveletter.core.legal import action_code, legal_moves, move_as_dict
    from loveletter.core.views import view
    from loveletter.play.engine.review import decisions, review, verdict
    from loveletter.replays.moves import describe_move
    from loveletter.replays.position import position

    chosen = [d for d in decisions(events) if who is None or d.seat == who]
    entries = []
    with _Bar(name, len(chosen), lang) as bar:
        for d in chosen:
            rs = d.state.ruleset
            assert rs is not None
            moves = legal_moves(d.state, d.seat)
            played = action_code(d.played)

            def shown(move: Any, state: Any = d.state, rs: Any = rs) -> dict[str, Any]:
                fields = move_as_dict(state, move)
                return {**fields, "text": describe_move(fields, rs, lang)}

            entry: dict[str, Any] = {
                "at": d.at,
                "round": d.state.round,
                "player": d.state.players[d.seat],
                "when": position(d.state, events[: d.at]).when(lang),
                "played": shown(d.played),
                "forced": len(moves) == 1,
            }
            if len(moves) > 1:
                rng = random.Random(f"{seed}/{d.at}")  # public: the seed and how many events came before
                values = review(view(d.state, d.seat), moves, rng, budget)
                ranked = sorted(values, key=lambda v: -v.game)  # stable: ties keep the rules core's order
                best = ranked[0]
                mine = next((v for v in values if action_code(v.move) == played), None)
                drop = None if mine is None else max(0.0, best.game - mine.game)
                entry.update(
                    best=shown(best.move),
                    drop=drop,
                    verdict=None if drop is None else verdict(drop),
                    moves=[{**shown(v.move), "game": v.game, "round": v.round, "rollouts": v.rollouts} for v in ranked],
                )
            entries.append(entry)
            bar.advance()
    return entries


def _pct(x: float, lang: str) -> str:
    return number(f"{100 * x:.1f}%", lang)


def _title(header: dict[str, Any], players: list[str], lang: Lang) -> str:
    seats = header["seat"] or ", ".join(players)
    game = (
        ""
        if header["game"] is None
        else (f" (partie {header['game']})" if lang == "fr" else f" (game {header['game']})")
    )
    n, seed = header["rollouts"], header["seed"]
    if lang == "fr":
        return f"Revue de {header['file']}{game} : {seats}, {n} simulations par coup, graine {seed}"
    return f"Review of {header['file']}{game}: {seats}, {n} rollouts a move, seed {seed}"


def _render(entry: dict[str, Any], lang: Lang) -> str:
    fr = lang == "fr"
    after = f"après l'événement {entry['at']}" if fr else f"after event {entry['at']}"
    head = f"{entry['when']} ({after}) : " if fr else f"{entry['when']} ({after}): "
    played = str(entry["played"]["text"])
    if entry["forced"]:
        return head + played + (" — forcé" if fr else " — forced")
    mark = entry["verdict"]
    if entry["drop"] is None:
        note = " — pas un coup légal ici" if fr else " — not a legal move here"
    elif mark is not None:
        best = entry["best"]["text"]
        lost = number(f"{100 * entry['drop']:.1f}", lang)
        if fr:
            note = f" — {MARKS[mark](lang)} (−{lost} points, meilleur coup : {best})"
        else:
            note = f" — {MARKS[mark](lang)} (−{lost} points, best: {best})"
    else:
        note = ""
    lines = [head + played + note]
    for move in entry["moves"]:
        tag = ""
        if move["action_code"] == entry["played"]["action_code"]:
            tag = " ◀ " + ("joué" if fr else "played")
        lines.append(f"  {_pct(move['game'], lang):>8} ({_pct(move['round'], lang):>7})  {move['text']}{tag}")
    return "\n".join(lines)


class _Bar:
    """Decisions reviewed so far, as a rich bar on stderr when it is a terminal (nothing otherwise)."""

    def __init__(self, name: str, total: int, lang: Lang) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        err = Console(stderr=True)
        columns = (
            TextColumn(Text("analysing", "analyse de")(lang) + f" {name}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(Text("decisions", "décisions")(lang)),
            TimeRemainingColumn(),
        )
        self.bar = Progress(*columns, console=err, transient=True, disable=not err.is_terminal)
        self.task = self.bar.add_task(name, total=total)

    def __enter__(self) -> _Bar:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)

    def advance(self) -> None:
        self.bar.advance(self.task)
