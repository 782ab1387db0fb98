"""The commands that settle a dispute: `loveletter explain` (was this move legal at this point of a game, under
which rule, what would it cause; or what is pending there) and `loveletter situation` (the turns that follow a
position described mid-round, judged every way the unseen cards can lie). The rulings come from `replays.rulings`,
`replays.position` and `replays.situations`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
import orjson

from loveletter.cli.failures import fail, fail_with
from loveletter.cli.game_file import check_at, load_events, seq_at
from loveletter.cli.options import FILE, _, command, game_option, lang_option
from loveletter.core.lang import Lang


@command(
    help=_(
        "Was this move legal at this point, under which rule, and what would it cause?",
        "Ce coup était-il légal à ce moment, selon quelle règle, et qu'aurait-il entraîné ?",
    )
)
@FILE
@click.option(
    "--at",
    default=None,
    metavar="WHEN",
    help=_(
        "judge the move after this event number, or at this turn ('round 2, Bob's third turn'); default: the end "
        "of the file",
        "juger le coup après cet événement (numéro), ou à ce tour (« manche 2, troisième tour de Bob ») ; par "
        "défaut : la fin du fichier",
    ),
)
@click.option(
    "--move",
    default=None,
    metavar="JSON",
    help=_(
        'the move, e.g. \'{"player": "Bob", "card": "guard", …}\'; without it, the decision pending there and '
        "every legal way to make it",
        'le coup, par exemple \'{"player": "Bob", "card": "guard", …}\' ; sans lui, la décision attendue à ce '
        "moment et toutes les façons légales de la prendre",
    ),
)
@click.option("--json", "as_json", is_flag=True, help=_("print the ruling as JSON", "afficher la décision en JSON"))
@game_option
@lang_option
def explain(file: Path, at: str | None, move: str | None, as_json: bool, game: int | None, lang: Lang) -> None:
    from loveletter.replays.rulings import MoveFormatError, render_ruling
    from loveletter.replays.rulings import explain as judge

    events = load_events(file, game)
    point = len(events) if at is None else seq_at(at, events)
    check_at(point, events)
    if move is None:
        _pending(events, point, as_json, lang)
        return
    try:
        ruling = judge(events, point, orjson.loads(move), lang)
    except orjson.JSONDecodeError as exc:
        from loveletter.events.codec import json_reason

        reason = json_reason(exc)
        fail(f"--move is not JSON: {exc}", f"--move n'est pas du JSON valide ({reason.fr}, position {exc.pos})")
    except MoveFormatError as exc:
        fail(f"--move: {exc.message('en')}", f"--move : {exc.message('fr')}")
    if as_json:
        print(orjson.dumps(ruling.as_dict(), option=orjson.OPT_INDENT_2).decode())
    else:
        print(render_ruling(ruling, lang))
    sys.exit(0 if ruling.legal else 1)


def _pending(events: list[Any], at: int, as_json: bool, lang: Lang) -> None:
    """Where the game stands after event `at`, whose decision is pending, and every legal way to make it."""
    from loveletter.replays.position import position_at, render_position

    where = position_at(events, at)
    if as_json:
        print(orjson.dumps({"at": at, **where.as_dict(lang), "legal_moves": where.legal_moves}).decode())
    else:
        print(render_position(where, at, lang))


@command(
    help=_(
        "Judge the turns that follow a position described mid-round, every way the unseen cards can lie: the cases "
        "and their chances. Exit 0 judged, 1 impossible position, 2 unreadable.",
        "Juger les tours qui suivent une position décrite en cours de manche, de toutes les façons dont les cartes "
        "non vues peuvent se trouver : les cas et leurs chances. Code 0 jugé, 1 position impossible, 2 illisible.",
    )
)
@FILE
@click.option("--json", "as_json", is_flag=True, help=_("print the answer as JSON", "afficher la réponse en JSON"))
@lang_option
def situation(file: Path, as_json: bool, lang: Lang) -> None:
    from loveletter.events.codec import json_reason
    from loveletter.replays.report import Unreadable, cannot_read
    from loveletter.replays.situations import SituationError, describe, judge

    try:
        doc = orjson.loads(file.read_bytes())
    except OSError as exc:
        fail_with(Unreadable(cannot_read(str(file), exc)))
    except orjson.JSONDecodeError as exc:
        fail(
            f"invalid JSON in {file}: {exc}",
            f"JSON invalide dans {file} : {json_reason(exc).fr} (ligne {exc.lineno}, colonne {exc.colno})",
        )
    try:
        result = judge(doc)
    except SituationError as exc:
        if exc.rule_id is None:
            fail_with(exc)
        where = f" ({exc.where})" if exc.where else ""
        if as_json:
            print(orjson.dumps({"possible": False, "rule_id": exc.rule_id, "message": exc.message(lang)}).decode())
        else:
            print(
                f"{file}{where}: {exc.rule_id}: {exc.message(lang)}"
                if lang == "en"
                else f"{file}{where} : {exc.rule_id} : {exc.message(lang)}"
            )
        sys.exit(1)
    if as_json:
        answer = {
            "possible": True,
            "players": list(result.players),
            "ruleset": result.ruleset,
            "unseen": {card.value: k for card, k in sorted(result.unseen.items())},
            "ways": result.ways,
            "complete": result.complete,
            "cases": [case.as_dict(lang) for case in result.cases],
        }
        print(orjson.dumps(answer, option=orjson.OPT_INDENT_2).decode())
    else:
        print("\n".join(describe(result, lang)))
