"""`loveletter solve`: an exact answer on a reduced two-player deck. The published N-card game is solved by CFR+
through the rules core (`play.solver`), and the solution's exploitability, computed exactly by best responses over
the whole tree, is printed as the iterations go, then the built-in bots' own on the same game (docs/engine.md)."""

from __future__ import annotations

import sys
from collections import Counter
from typing import Any

import click
import orjson

from loveletter.cli.options import UI, _, command, lang_option
from loveletter.cli.text import Integer, OneOf
from loveletter.core.lang import Lang, Text, number, percent
from loveletter.play.solver.exploit import Exploitability
from loveletter.play.solver.games import PUBLISHED, CutGame

BOTS = ("random", "heuristic", "expert")
SOLVABLE = range(PUBLISHED.start, 9)
"""The published games whose whole tree fits in memory (docs/engine.md: about 170 bytes a node, ×40 a card)."""


class Percent(click.ParamType):
    """A share written in percent ("1", "0.5"), refused in the user's language."""

    name = "percent"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "PCT"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            share = float(str(value).strip().removesuffix("%").replace(",", ".")) / 100
        except ValueError:
            share = -1.0
        if not 0 < share < 1:
            self.fail(Text(f"{value!r} is not a percentage", f"« {value} » n'est pas un pourcentage")(UI))
        return share


@command(
    help=_(
        "Solve a reduced two-player game exactly: CFR+ through the rules core, then the exact exploitability of the "
        "solution and of the built-in bots.",
        "Résoudre exactement une partie réduite à deux joueurs : CFR+ sur le cœur des règles, puis l'exploitabilité "
        "exacte de la solution et des robots intégrés.",
    )
)
@click.option(
    "--cards",
    type=OneOf(UI, tuple(str(n) for n in SOLVABLE)),
    default="4",
    show_default=True,
    help=_(
        "the published game of this many cards (jackie-scholl/love-letter-AI, rebuilt with the project's cards; "
        "beyond 8 cards the tree would not fit in memory)",
        "la partie publiée de ce nombre de cartes (jackie-scholl/love-letter-AI, refaite avec les cartes du projet ; "
        "au-delà de 8 cartes, l'arbre ne tiendrait pas en mémoire)",
    ),
)
@click.option(
    "--iterations",
    type=Integer(UI, 1),
    default=None,
    metavar="N",
    help=_("stop after N iterations (100 when no limit is given)", "s'arrêter après N itérations (100 sans limite)"),
)
@click.option(
    "--seconds",
    type=Integer(UI, 1),
    default=None,
    metavar="S",
    help=_("stop after S seconds of CPU time", "s'arrêter après S secondes de temps processeur"),
)
@click.option(
    "--target",
    type=Percent(),
    default=None,
    help=_(
        "stop once the exploitability is at most PCT percent",
        "s'arrêter dès que l'exploitabilité est d'au plus PCT pour cent",
    ),
)
@click.option(
    "--against",
    type=OneOf(UI, BOTS),
    multiple=True,
    help=_(
        "also measure this built-in bot on the same game (repeatable)",
        "mesurer aussi ce robot intégré sur la même partie (option à répéter pour plusieurs robots)",
    ),
)
@click.option(
    "--seed",
    type=Integer(UI, 0),
    default=0,
    show_default=True,
    metavar="S",
    help=_("the bots' seed", "la graine des robots"),
)
@click.option("--json", "as_json", is_flag=True, help=_("print the figures as JSON", "afficher les chiffres en JSON"))
@lang_option
def solve(
    cards: str,
    iterations: int | None,
    seconds: int | None,
    target: float | None,
    against: tuple[str, ...],
    seed: int,
    as_json: bool,
    lang: Lang,
) -> None:
    import time

    from loveletter.play.solver.exploit import measure
    from loveletter.play.solver.games import published
    from loveletter.play.solver.run import Step, bot_strategy
    from loveletter.play.solver.run import solve as run

    game = published(int(cards))
    say(_title(game, lang), as_json)

    def built(nodes: int) -> None:
        count = number(nodes, lang)
        say(Text(f"  writing the tree: {count} nodes…", f"  écriture de l'arbre : {count} nœuds…")(lang), True)

    def step(s: Step) -> None:
        pct, secs = _pct(s.exploitability, lang, 3), _secs(s.seconds, lang)
        if lang == "fr":
            say(f"  itération {s.iterations} : exploitabilité {pct} ({secs})", True)
        else:
            say(f"  iteration {s.iterations}: exploitability {pct} ({secs})", True)

    solved = run(game, iterations, seconds, target, on_step=step, on_build=built)
    tree, result = solved.tree, solved.result
    assert result is not None
    figures: dict[str, Any] = {
        "game": game.name,
        "ruleset": game.ruleset.id,
        "in_play": [str(c) for c in game.in_play],
        "face_up": [str(c) for c in game.face_up],
        "nodes": len(tree),
        "infosets": len(tree.infosets),
        "build_seconds": round(solved.build_seconds, 3),
        "iterations": solved.iterations,
        "seconds": round(solved.seconds, 3),
        **_figures(result),
        "steps": [
            {"iterations": s.iterations, "seconds": round(s.seconds, 3), "exploitability": s.exploitability}
            for s in solved.steps
        ],
        "bots": {},
    }
    lines = [_tree_line(figures, lang), _solution_line(figures, lang)]
    for bot in dict.fromkeys(against):
        began = time.process_time()
        mine = measure(tree, bot_strategy(tree, bot, seed))
        figures["bots"][bot] = {**_figures(mine), "seconds": round(time.process_time() - began, 3)}
        lines.append(_bot_line(bot, mine, lang))
    if as_json:
        print(orjson.dumps(figures, option=orjson.OPT_INDENT_2).decode())
    else:
        print("\n".join(lines))


def say(text: str, quiet: bool) -> None:
    """Progress on stderr (always: the figures on stdout stay clean); the title on stdout too unless JSON."""
    print(text, file=sys.stderr if quiet else sys.stdout, flush=True)


def _figures(result: Exploitability) -> dict[str, float]:
    return {
        "exploitability": result.exploitability,
        "north_best": result.north_best,
        "south_best": result.south_best,
        "value": result.value,
    }


def _title(game: CutGame, lang: Lang) -> str:
    rs = game.ruleset
    dealt = _cards(game.in_play, game, lang)
    up = _cards(game.face_up, game, lang)
    n = len(game.in_play)
    if lang == "fr":
        return (
            f"Résolution de la partie publiée à {n} cartes ({rs.id}) : {dealt} distribuées au hasard ; {up} face "
            "visible ; règles de 2012, Nord joue en premier."
        )
    return (
        f"Solving the published {n}-card game ({rs.id}): {dealt} dealt at random; {up} face up; 2012 rules, North "
        "first."
    )


def _cards(cards: tuple[Any, ...], game: CutGame, lang: Lang) -> str:
    return ", ".join(
        game.ruleset.name(card, lang) + (f" ×{count}" if count > 1 else "") for card, count in Counter(cards).items()
    )


def _tree_line(f: dict[str, Any], lang: Lang) -> str:
    nodes, sets, secs = (
        number(f["nodes"], lang),
        number(f["infosets"], lang),
        _secs(f["build_seconds"], lang),
    )
    if lang == "fr":
        return f"arbre : {nodes} nœuds, {sets} ensembles d'information, écrit en {secs}"
    return f"tree: {nodes} nodes, {sets} information sets, written in {secs}"


def _solution_line(f: dict[str, Any], lang: Lang) -> str:
    its, secs = f["iterations"], _secs(f["seconds"], lang)
    head = (
        f"solution : {its} itérations, {secs} de processeur en tout — "
        if lang == "fr"
        else f"solution: {its} iterations, {secs} of CPU in all — "
    )
    return head + _measured(f["exploitability"], f["north_best"], f["south_best"], f["value"], lang)


def _bot_line(bot: str, r: Exploitability, lang: Lang) -> str:
    return f"{bot}{' :' if lang == 'fr' else ':'} " + _measured(
        r.exploitability, r.north_best, r.south_best, r.value, lang
    )


def _measured(e: float, north: float, south: float, value: float, lang: Lang) -> str:
    if lang == "fr":
        return (
            f"exploitabilité {_pct(e, lang, 3)} (une meilleure réponse gagne {_pct(north, lang)} de la manche en Nord, "
            f"{_pct(south, lang)} en Sud ; contre elle-même, Nord gagne {_pct(value, lang)})"
        )
    return (
        f"exploitability {_pct(e, lang, 3)} (a best response wins {_pct(north, lang)} of the round as North, "
        f"{_pct(south, lang)} as South; against itself, North wins {_pct(value, lang)})"
    )


def _pct(x: float, lang: Lang, digits: int = 1) -> str:
    return percent(x, lang, digits)


def _secs(x: float, lang: Lang) -> str:
    return number(x, lang, 1) + " s"
