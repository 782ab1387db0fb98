"""The commands that settle a dispute: `loveletter explain` (was this move legal at this point of a game, under
which rule, what would it cause; or what is pending there; where nobody decides, the nearest points where a player
does, judged there on request) and `loveletter situation` (the turns that follow a position described mid-round,
judged every way the unseen cards can lie). The rulings come from `replays.rulings`,
`replays.position` and `replays.situations`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import orjson

from loveletter.cli.failures import fail, fail_with
from loveletter.cli.game_file import check_at, load_events, seq_at
from loveletter.cli.options import FILE, UI, _, command, game_option, lang_option
from loveletter.cli.text import OneOf
from loveletter.core.lang import Lang, Text

if TYPE_CHECKING:
    from loveletter.replays.position import Decision, Position


@command(
    help=_(
        "Was this move legal at this point, under which rule, and what would it cause?",
        "Ce coup était-il légal à ce moment, selon quelle règle, et qu'aurait-il entraîné ?",
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
        "juger le coup après cet événement (numéro), ou à ce tour (« manche 2, troisième tour de Bob ») ; par "
        "défaut : la fin du fichier",
    ),
)
@click.option(
    "--move",
    default=None,
    metavar="JSON",
    help=_(
        'the move, e.g. \'{"player": "Bob", "card": "guard", …}\'; without it, the decision pending there and '
        "every legal way to make it",
        'le coup, par exemple \'{"player": "Bob", "card": "guard", …}\' ; sans lui, la décision attendue à ce '
        "moment et toutes les façons légales de la prendre",
    ),
)
@click.option(
    "--nearest",
    type=OneOf(UI, ("before", "after")),
    default=None,
    help=_(
        "where nobody decides (inside a move, between rounds, after the end): judge at the nearest point before or "
        "after it where a player does",
        "là où personne ne décide (au milieu d'un coup, entre deux manches, après la fin) : juger au point le plus "
        "proche, avant ou après, où un joueur décide",
    ),
)
@click.option("--json", "as_json", is_flag=True, help=_("print the ruling as JSON", "afficher la décision en JSON"))
@game_option
@lang_option
def explain(
    file: Path, at: str | None, move: str | None, nearest: str | None, as_json: bool, game: int | None, lang: Lang
) -> None:
    from loveletter.replays.position import DECIDING, nearest_decisions, position_at
    from loveletter.replays.rulings import MoveFormatError, render_ruling
    from loveletter.replays.rulings import explain as judge

    events = load_events(file, game)
    point = len(events) if at is None else seq_at(at, events)
    check_at(point, events)
    asked, where = point, position_at(events, point)
    if where.phase not in DECIDING:
        before, after = nearest_decisions(events, point)
        if nearest is None and move is None:
            _undecided(asked, where, before, after, as_json, lang)
            return
        if nearest is None:
            en, fr = _nearest_words(before, after)
            fail(
                f"--move: nobody is to move here, after event {asked} ({where.text.en}); the nearest decisions: {en}; "
                "judge at one with --nearest before or --nearest after",
                f"--move : personne n'a la main ici, après l'événement {asked} ({where.text.fr}) ; les décisions les "
                f"plus proches : {fr} ; jugez à l'une d'elles avec --nearest before ou --nearest after",
            )
        chosen = before if nearest == "before" else after
        if chosen is None:
            fail(
                f"--nearest {nearest}: nobody decides {nearest} event {asked} ({where.text.en})",
                f"--nearest {nearest} : personne ne décide {'avant' if nearest == 'before' else 'après'} "
                f"l'événement {asked} ({where.text.fr})",
            )
        point = chosen.at
        if not as_json:
            print(_moved(asked, where, nearest, point)(lang))
    if move is None:
        _pending(events, point, asked, as_json, lang)
        return
    try:
        ruling = judge(events, point, orjson.loads(move), lang)
    except orjson.JSONDecodeError as exc:
        from loveletter.events.codec import json_reason

        reason = json_reason(exc)
        fail(f"--move is not JSON: {exc}", f"--move n'est pas du JSON valide ({reason.fr}, position {exc.pos})")
    except MoveFormatError as exc:
        fail(f"--move: {exc.message('en')}", f"--move : {exc.message('fr')}")
    if as_json:
        asked_at = {} if asked == point else {"asked_at": asked}
        print(orjson.dumps({**ruling.as_dict(), **asked_at}, option=orjson.OPT_INDENT_2).decode())
    else:
        print(render_ruling(ruling, lang))
    sys.exit(0 if ruling.legal else 1)


def _pending(events: list[Any], at: int, asked: int, as_json: bool, lang: Lang) -> None:
    """Where the game stands after event `at`, whose decision is pending, and every legal way to make it."""
    from loveletter.replays.position import position_at, render_position

    where = position_at(events, at)
    if as_json:
        asked_at = {} if asked == at else {"asked_at": asked}
        answer = {
            "at": at,
            **asked_at,
            **where.as_dict(lang),
            "decides": True,
            "legal_moves": where.legal_moves,
            "nearest": None,
        }
        print(orjson.dumps(answer).decode())
    else:
        print(render_position(where, at, lang))


def _undecided(
    at: int, where: Position, before: Decision | None, after: Decision | None, json: bool, lang: Lang
) -> None:
    """A point where nobody decides: where it stands, and the nearest points before and after where a player does."""
    if json:
        nearest = {"before": None if before is None else before.as_dict(lang)}
        nearest["after"] = None if after is None else after.as_dict(lang)
        answer = {"at": at, **where.as_dict(lang), "decides": False, "legal_moves": [], "nearest": nearest}
        print(orjson.dumps(answer).decode())
        return
    fr = lang == "fr"
    here = f"après l'événement {at}" if fr else f"after event {at}"
    lines = [f"{where.text(lang)} ({here})"]
    lines.append(
        "  personne ne décide ici ; les décisions les plus proches :"
        if fr
        else "  nobody decides here; the nearest decisions:"
    )
    for side, found in (("avant" if fr else "before", before), ("après" if fr else "after", after)):
        if found is None:
            lines.append(f"    {side} — {'aucune' if fr else 'none'}")
        else:
            after_event = f"après l'événement {found.at}" if fr else f"after event {found.at}"
            lines.append(f"    {side} — {after_event}{' :' if fr else ':'} {found.where.text(lang)}")
    lines.append(
        "  jugez à l'une d'elles avec --nearest before ou --nearest after"
        if fr
        else "  judge at one with --nearest before or --nearest after"
    )
    print("\n".join(lines))


def _nearest_words(before: Decision | None, after: Decision | None) -> Text:
    """The nearest decisions in one line: "before: after event 40 (round 2, Bob's second turn); after: none"."""
    en, fr = [], []
    for side_en, side_fr, found in (("before", "avant", before), ("after", "après", after)):
        if found is None:
            en.append(f"{side_en}: none")
            fr.append(f"{side_fr} : aucune")
        else:
            en.append(f"{side_en}: after event {found.at} ({found.where.when.en})")
            fr.append(f"{side_fr} : après l'événement {found.at} ({found.where.when.fr})")
    return Text(", ".join(en), ", ".join(fr))


def _moved(asked: int, where: Position, nearest: str, at: int) -> Text:
    """The line that says a ruling was moved to the nearest decision."""
    side_fr = "avant" if nearest == "before" else "après"
    return Text(
        f"nobody decides after event {asked} ({where.text.en}): judged at the nearest decision {nearest} it, after "
        f"event {at}",
        f"personne ne décide après l'événement {asked} ({where.text.fr}) : jugé à la décision la plus proche "
        f"{side_fr}, après l'événement {at}",
    )


@command(
    help=_(
        "Judge the turns that follow a position described mid-round, every way the unseen cards can lie: the cases "
        "and their chances. Exit 0 judged, 1 impossible position, 2 unreadable.",
        "Juger les tours qui suivent une position décrite en cours de manche, de toutes les façons dont les cartes "
        "non vues peuvent se trouver : les cas et leurs chances. Code 0 jugé, 1 position impossible, 2 illisible.",
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
            f"JSON invalide dans {file} : {json_reason(exc).fr} (ligne {exc.lineno}, colonne {exc.colno})",
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
                else f"{file}{where} : {exc.rule_id} : {exc.message(lang)}"
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
