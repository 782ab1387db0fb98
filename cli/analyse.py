"""`loveletter analyse`: the review of every decision of a game. Each legal move's chance of winning the game (and
the round) is estimated from the deciding seat's view only, by the engine's worlds and heuristic rollouts
(`play.engine.review`), and the played move is marked by what it gave up against the best one (docs/engine.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
import orjson

from loveletter.cli.game_file import load_events
from loveletter.cli.logs import _seat_of
from loveletter.cli.options import FILE, UI, _, command, game_option, lang_option
from loveletter.cli.text import Integer
from loveletter.core.lang import Lang, Text, number
from loveletter.play.engine import analysis
from loveletter.play.engine.analysis import pct as _pct
from loveletter.play.engine.review import DEFAULT_ROLLOUTS

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
    header = analysis.header(str(file), game, None if who is None else players[who], budget, seed, lang)
    if as_json:
        print(orjson.dumps({**header, "decisions": entries}, option=orjson.OPT_INDENT_2).decode())
        return
    print(_title(header, players, lang))
    print(header["model"])
    for entry in entries:
        print()
        print(_render(entry, lang))


def _review(events: list[Any], who: int | None, budget: int, seed: int, lang: Lang, name: str) -> list[dict[str, Any]]:
    """One entry per decision of the seat (or of every seat), searched unless forced (`play.engine.analysis`)."""
    from loveletter.play.engine.analysis import chosen, entry

    picked = chosen(events, who)
    entries = []
    with _Bar(name, len(picked), lang) as bar:
        for d in picked:
            entries.append(entry(d, events, budget, seed, lang))
            bar.advance()
    return entries


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
    why = entry["played"].get("cannot_succeed")
    lines = [head + played + note + (f" — {why}" if why else "")]
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
