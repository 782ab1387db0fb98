"""Rulings over HTTP: judge a disputed move from a log prefix, and show what a seat knew at any point of a game.

`POST /rulings` takes a log (JSONL text, or a transcript object) and answers what `loveletter explain` prints (the
rule's sources by id, `sources`, and named with their links on the referee's own rulings page, `rule_sources`;
where nobody decides, the nearest decisions, or a ruling at the one `nearest` picks);
`GET /games/{id}/state?at=SEQ` answers what `loveletter show --at SEQ --seat NAME` prints, for the caller's seat.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import lang_of
from loveletter.api.routes.bodies import RulingIn, events_of, invalid, json_router
from loveletter.api.routes.replies import reply
from loveletter.client.answers import Ruling
from loveletter.core.catalogue import Event
from loveletter.core.lang import BilingualError, Text
from loveletter.replays.position import DECIDING, Decision, nearest_decisions, position_at
from loveletter.replays.rulings import MoveFormatError, explain

JSON = "application/json"
router = json_router()

# Answers of a real run on examples/reader-question.json (docs/audit.md shows the same).
RULING_EXAMPLE: dict[str, Any] = {
    "at": 5,
    "mover": "Claire",
    "legal": False,
    "rule_id": "target.protected",
    "rule": "Un joueur protégé par la Servante ne peut pas être ciblé par les effets des autres joueurs ; un coup qui "
    "le cible est refusé, et non joué sans effet.",
    "sources": ["RULINGS §5", "000_91a7d2231e64ad36.txt", "003_0fc648c025107d8d.txt", "001_d78694f395ea141b.txt"],
    "rule_sources": [
        {"text": "Décisions §5", "href": "/rulings#s5"},
        {"text": "Love Letter (2019), règles françaises", "href": "/rulings#sources"},
        {"text": "Love Letter (2019), règles anglaises", "href": "/rulings#sources"},
        {
            "text": "une page web de règles pour l'édition 2019, avec la question d'un lecteur",
            "href": "/rulings#sources",
        },
    ],
    "message": "la Servante protège Thibault, qui ne peut pas être la cible d'un autre joueur",
    "events": [],
    "legal_moves": [
        {"type": "play", "card": "princess", "action_code": 792},
        {"type": "play", "card": "prince", "target": 0, "target_name": "Claire", "action_code": 451},
    ],
    "prefix_problem": None,
    "lang": "fr",
}
INVALID_EXAMPLE: dict[str, Any] = {
    "type": "https://loveletter-referee.example/problems/invalid_request",
    "title": "Invalid request",
    "status": 422,
    "detail": "at: a seq from 1 to 10, not 50",
    "code": "invalid_request",
    "instance": "/rulings",
    "errors": [{"field": "at", "type": "less_than_equal", "message": "a seq from 1 to 10, not 50"}],
}


def _range(at: int, last: int) -> Text:
    return Text(f"a seq from 1 to {last}, not {at}", f"un numéro d'événement de 1 à {last}, et non {at}")


def _decision(found: Decision | None) -> dict[str, Any] | None:
    """A nearest decision as the problem's `nearest` gives it: `loveletter explain --json`'s, its words in both
    languages (the problem is rendered in the answer's language)."""
    if found is None:
        return None
    return {"at": found.at, **found.where.as_dict(), "text": found.where.text}


def _deciding_point(events: list[Event], asked: int, nearest: str | None) -> int:
    """Where to judge a move asked after seq `asked`: there if a player decides, else the nearest decision before
    or after it that `nearest` picks; without one, a 422 naming both nearest decisions (who, after which seq), as
    `loveletter explain` does."""
    where = position_at(events, asked)
    if where.phase in DECIDING:
        return asked
    before, after = nearest_decisions(events, asked)
    if nearest is None:
        en, fr = [], []
        for side_en, side_fr, found in (("before", "avant", before), ("after", "après", after)):
            en.append(f"{side_en}: " + ("none" if found is None else f"after seq {found.at} ({found.where.text.en})"))
            fr.append(
                f"{side_fr} : "
                + ("aucune" if found is None else f"après l'événement {found.at} ({found.where.text.fr})")
            )
        said = Text(
            f"nobody is to move after seq {asked} ({where.text.en}); the nearest decisions: {'; '.join(en)}; judge "
            'at one with "nearest": "before" or "after"',
            f"personne n'a la main après l'événement {asked} ({where.text.fr}) ; les décisions les plus proches : "
            f"{' ; '.join(fr)} ; jugez à l'une d'elles avec « nearest » : « before » ou « after »",
        )
        problem = invalid("at", said)
        problem.extra["nearest"] = {"before": _decision(before), "after": _decision(after)}
        raise problem
    chosen = before if nearest == "before" else after
    if chosen is None:
        side_fr = "avant" if nearest == "before" else "après"
        raise invalid(
            "nearest",
            Text(
                f"nobody decides {nearest} seq {asked} ({where.text.en})",
                f"personne ne décide {side_fr} l'événement {asked} ({where.text.fr})",
            ),
        )
    return chosen.at


def ruling(body: RulingIn, header_lang: str) -> dict[str, Any]:
    """The ruling a request body asks for (raises `Problem` 422 naming the field for what the log refuses); where
    nobody decides after `at`, judged at the nearest decision the body's `nearest` picks, `asked_at` keeping `at`."""
    lang = body.lang or header_lang
    events = events_of(body.log)
    if body.at > len(events):
        raise invalid("at", _range(body.at, len(events)), "less_than_equal")
    at = _deciding_point(events, body.at, body.nearest)
    try:
        answer = explain(events, at, body.move, lang)
    except MoveFormatError as exc:
        raise invalid("move", exc.text) from None
    except (ValueError, KeyError, IndexError, TypeError) as exc:  # a move the rules cannot even state here
        said = f"ce coup ne peut pas être jugé après l'événement {at}"
        if isinstance(exc, BilingualError):
            said += f" : {exc.message('fr')}"
        raise invalid("move", Text(f"cannot be judged after seq {at}: {exc}", said)) from None
    out = answer.as_dict()
    if at != body.at:
        out["asked_at"] = body.at
    out["lang"] = lang
    return out


@router.post(
    "/rulings",
    dependencies=[Depends(parse.json_body)],
    tags=["rulings"],
    responses=answers(Ruling, 413, 415, 422, example=RULING_EXAMPLE)
    | {422: problem(422, INVALID_EXAMPLE, "A malformed request (the field is named)")},
)
async def ask_ruling(body: RulingIn, request: Request) -> Response:
    """Was this move legal after seq `at` of this log, under which rule, and what would it have caused?"""
    answer = await asyncio.to_thread(ruling, body, lang_of(request))
    return reply(answer)
