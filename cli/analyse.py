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
from loveletter.core.lang import Lang, Text, number, plural
from loveletter.play.engine import analysis
from loveletter.play.engine.analysis import pct as _pct
from loveletter.play.engine.review import DEFAULT_ROLLOUTS

MARKS = {
    "inaccuracy": Text("inaccuracy", "imprécision"),
    "mistake": Text("mistake", "erreur"),
    "blunder": Text("blunder", "gaffe"),
}
ROUND = Text(" in the round", " dans la manche")
LOSES_ROUND = Text(": loses the round", " : perd la manche")
"""Said after a mark the round's drop gave: `LOSES_ROUND` when the played move won the round in no world (the entry's
`loses_round`), `ROUND` otherwise."""


@command(
    help=_(
        "Review every decision of a game: each legal move's chance of winning, from the seat's information only, "
        "and the played move's inaccuracies, mistakes and blunders.",
        "Passer en revue chaque décision d'une partie : la chance de gagner de chaque coup légal, d'après ce que le "
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
        "la graine des mondes tirés : la même graine donne les mêmes chiffres",
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
        print(_render(entry, lang, budget))


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
        return f"Revue de {header['file']}{game} : {seats}, {n} simulations par coup, graine {seed}"
    return f"Review of {header['file']}{game}: {seats}, {n} rollouts a move, seed {seed}"


def _render(entry: dict[str, Any], lang: Lang, budget: int | None = None) -> str:
    fr = lang == "fr"
    after = f"après l'événement {entry['at']}" if fr else f"after event {entry['at']}"
    head = f"{entry['when']} ({after}) : " if fr else f"{entry['when']} ({after}): "
    played = str(entry["played"]["text"])
    if entry["forced"]:
        return head + played + (" — forcé" if fr else " — forced")
    if entry["drop"] is None:
        note = " — pas un coup légal ici" if fr else " — not a legal move here"
    else:
        note = _mark(entry, lang)
    why = entry["played"].get("cannot_succeed")
    lines = [head + played + note + (f" — {why}" if why else "") + _worlds(entry, lang, budget)]
    for move in entry["moves"]:
        tag = ""
        if move["action_code"] == entry["played"]["action_code"]:
            tag = " ◀ " + ("joué" if fr else "played")
        lines.append(f"  {_pct(move['game'], lang):>8} ({_pct(move['round'], lang):>7})  {move['text']}{tag}")
    return "\n".join(lines)


def _mark(entry: dict[str, Any], lang: Lang) -> str:
    """ " — blunder: loses the round (−45.0 points of the round, −8.0 of the game; best: Spy)" when the round's drop
    gave the mark (the move named is the best for the round among those no worse for the game, when not the best),
    " — mistake (−12.0 points of the game, −5.0 of the round; best: Spy)" when the game's did; nothing when
    unmarked."""
    mark = entry["verdict"]
    if mark is None:
        return ""
    game = number(100 * entry["drop"], lang, 1)
    rnd = number(100 * entry["round_drop"], lang, 1)
    of_game, of_round = Text("of the game", "de la partie")(lang), Text("of the round", "de la manche")(lang)
    kind = ""
    if entry["by"] == "round":
        kind = (LOSES_ROUND if entry["loses_round"] else ROUND)(lang)
        figures = f"−{rnd} points {of_round}, −{game} {of_game}"
    else:
        figures = f"−{game} points {of_game}, −{rnd} {of_round}"
    best = Text("; best: ", " ; meilleur coup : ")(lang) + entry["best"]["text"]
    other = entry["round_best"]
    if entry["by"] == "round" and other["action_code"] != entry["best"]["action_code"]:
        best = Text("; best for the round: ", " ; meilleur coup pour la manche : ")(lang) + other["text"]
    return f" — {MARKS[mark](lang)}{kind} ({figures}{best})"


def _worlds(entry: dict[str, Any], lang: Lang, budget: int | None) -> str:
    """ " [800 worlds]" where the decision was tried in more worlds than the budget's, ", uncertain" when its mark
    is still in doubt; nothing otherwise."""
    n = entry["rollouts"]
    if not entry["uncertain"] and (budget is None or n <= budget):
        return ""
    worlds = plural(n, "monde", "mondes", "fr") if lang == "fr" else plural(n, "world", "worlds", "en")
    return f" [{worlds}{Text(', uncertain', ', incertain')(lang) if entry['uncertain'] else ''}]"


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
