"""Rulings over HTTP: judge a disputed move from a log prefix, and show what a seat knew at any point of a game.

`POST /rulings` takes a log (JSONL text, or a transcript object) and answers what `loveletter explain` prints;
`GET /games/{id}/state?at=SEQ` answers what `loveletter show --at SEQ --seat NAME` prints, for the caller's seat.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import orjson
from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import Problem, field_fr, lang_of
from loveletter.client.answers import Ruling, SeatAt
from loveletter.core.catalogue import Event
from loveletter.core.evolve import fold
from loveletter.core.lang import BilingualError, Text, plural_fr
from loveletter.events.log import LogFormatError, read_games
from loveletter.referee.referee import Referee
from loveletter.replays.rulings import MoveFormatError, explain, seat_view_at
from loveletter.replays.transcript import TranscriptFormatError, expand, is_transcript, transcript_in

JSON = "application/json"
RULING_FIELDS = ("log", "at", "move", "lang")

# Answers of a real run on examples/reader-question.json (docs/audit.md shows the same).
RULING_EXAMPLE: dict[str, Any] = {
    "at": 5,
    "mover": "Claire",
    "legal": False,
    "rule_id": "target.protected",
    "rule": "Un joueur protégé par la Servante ne peut pas être ciblé par les effets des autres joueurs ; un coup qui "
    "le cible est refusé, et non joué sans effet.",
    "sources": ["RULINGS §5", "000_91a7d2231e64ad36.txt", "003_0fc648c025107d8d.txt", "001_d78694f395ea141b.txt"],
    "message": "la Servante protège Thibault, qui ne peut pas être la cible d'un autre joueur",
    "events": [],
    "legal_moves": [
        {"type": "play", "card": "princess", "action_code": 792},
        {"type": "play", "card": "prince", "target": 0, "target_name": "Claire", "action_code": 451},
    ],
    "prefix_problem": None,
    "lang": "fr",
}
RULING_REQUEST: dict[str, Any] = {
    "log": "<the JSONL log as text, or a transcript object>",
    "at": 5,
    "move": {"player": "Claire", "card": "prince", "target": "Thibault"},
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
STATE_EXAMPLE: dict[str, Any] = {
    "game_id": "g_TxbfBms_7EMRga6P",
    "at": 5,
    "version": 128,
    "seat": 0,
    "view": {
        "seat": 0,
        "ruleset": "2019",
        "options": {"tie_2012": "nobody", "guard_unknown": "refuse"},
        "round": 1,
        "phase": "resolving",
        "active": 0,
        "deck_size": 14,
        "set_aside_face_down": True,
        "face_up": ["handmaid", "guard", "guard"],
        "seats": [
            {
                "seat": 0,
                "name": "Ann",
                "favors": 0,
                "in_round": True,
                "protected": False,
                "hand_size": 1,
                "front": ["baron"],
                "known_hand": None,
                "in_game": True,
                "open": False,
            },
            {
                "seat": 1,
                "name": "Bo",
                "favors": 0,
                "in_round": True,
                "protected": False,
                "hand_size": 1,
                "front": [],
                "known_hand": "handmaid",
                "in_game": True,
                "open": False,
            },
        ],
        "hand": ["spy"],
        "deck_known": [],
        "unseen": {
            "spy": 1,
            "guard": 4,
            "priest": 2,
            "baron": 1,
            "handmaid": 0,
            "prince": 2,
            "chancellor": 2,
            "king": 1,
            "countess": 1,
            "princess": 1,
        },
        "round_winners": [],
        "winners": [],
        "version": 5,
        "clock": None,
        "aborted": False,
    },
}
"""What Ann could see after seq 5 of a real game (a whole view, as `GET /games/{id}` gives it)."""
OUT_OF_RANGE_EXAMPLE: dict[str, Any] = {
    "type": "https://loveletter-referee.example/problems/at_out_of_range",
    "title": "No such point",
    "status": 422,
    "detail": "at: a seq from 1 to 6, not 99",
    "code": "at_out_of_range",
    "errors": [{"field": "at", "type": "less_than_equal", "message": "a seq from 1 to 6"}],
}


def _invalid(field: str, message: Text, kind: str = "value_error", status: int = 422) -> Problem:
    """A malformed ruling request: problem+json naming the field (`kind`: the pydantic error type it amounts to)."""
    return Problem(
        status,
        "invalid_request",
        Text(f"{field}: {message.en}", f"{field_fr(field)} : {message.fr}"),
        errors=[{"field": field, "type": kind, "message": message}],
    )


def _events_of(log: Any) -> list[Any]:
    """The events of the one game in `log`: JSONL text (events with their lines) or a transcript (object or text)."""
    doc: Any = log
    if isinstance(log, str):
        try:
            doc = transcript_in(log)
        except orjson.JSONDecodeError as exc:
            raise _invalid(
                "log",
                Text(
                    f"the transcript is not JSON: {exc}",
                    f"la transcription n'est pas du JSON valide (ligne {exc.lineno}, colonne {exc.colno})",
                ),
                "json_invalid",
            ) from None
    if is_transcript(doc):
        try:
            expansion = expand(doc)
        except TranscriptFormatError as exc:
            reason = exc.text
            raise _invalid("log", Text(f"transcript {reason.en}", f"transcription {reason.fr}")) from None
        events: list[Any] = list(expansion.events)
        if not events:
            raise _invalid("log", Text("the transcript holds no event", "la transcription ne contient aucun événement"))
        return events
    if not isinstance(log, str):
        raise _invalid(
            "log",
            Text(
                "a JSONL log as text, or a transcript object",
                "un journal JSONL sous forme de texte, ou un objet de transcription",
            ),
            "string_type",
        )
    try:
        games = list(read_games(log.splitlines()))
    except LogFormatError as exc:
        raise _invalid("log", exc.text) from None
    if len(games) != 1:
        raise _invalid(
            "log",
            Text(
                f"the log holds {len(games)} games; a ruling reads a log of one game",
                f"le journal contient {plural_fr(len(games), 'partie', 'parties')} ; "
                "une décision ne porte que sur le journal d'une seule partie",
            ),
        )
    entries = list(games[0].entries)
    if not entries:
        raise _invalid("log", Text("the game has no event", "la partie ne contient aucun événement"))
    return entries


def _range(at: int, last: int) -> Text:
    return Text(f"a seq from 1 to {last}, not {at}", f"un numéro d'événement de 1 à {last}, et non {at}")


def ruling(body: Any, header_lang: str) -> dict[str, Any]:
    """The ruling a request body asks for (raises `Problem` 422 naming the field for any malformed part)."""
    if not isinstance(body, dict):
        raise _invalid(
            "body",
            Text("a JSON object with log, at and move", "un objet JSON avec « log », « at » et « move »"),
            "dict_type",
        )
    unknown = sorted(set(body) - set(RULING_FIELDS))
    if unknown:
        raise _invalid(
            unknown[0],
            Text(
                f"unknown field (known: {', '.join(RULING_FIELDS)})",
                f"champ inconnu (champs connus : {', '.join(f'« {f} »' for f in RULING_FIELDS)})",
            ),
            "extra_forbidden",
        )
    for name in ("log", "at", "move"):
        if name not in body:
            raise _invalid(name, Text("required", "champ obligatoire manquant"), "missing")
    lang = body.get("lang", header_lang)
    if lang not in ("en", "fr"):
        raise _invalid("lang", Text(f"en or fr, not {lang!r}", f"« en » ou « fr », et non « {lang} »"), "literal_error")
    at = body["at"]
    if not isinstance(at, int) or isinstance(at, bool):
        raise _invalid("at", Text("a seq (an integer)", "un numéro d'événement (un nombre entier)"), "int_type")
    if not isinstance(body["move"], dict):
        example = "{'player': 'Bob', 'card': 'guard', 'target': 'Ann', ...}"
        raise _invalid(
            "move",
            Text(f"a JSON object, e.g. {example}", f"un objet JSON, par exemple {example}"),
            "dict_type",
        )
    events = _events_of(body["log"])
    if not 0 < at <= len(events):
        raise _invalid("at", _range(at, len(events)), "greater_than_equal" if at < 1 else "less_than_equal")
    try:
        answer = explain(events, at, body["move"], lang)
    except MoveFormatError as exc:
        raise _invalid("move", exc.text) from None
    except (ValueError, KeyError, IndexError, TypeError) as exc:  # a move the rules cannot even state here
        said = f"ce coup ne peut pas être jugé après l'événement {at}"
        if isinstance(exc, BilingualError):
            said += f" : {exc.message('fr')}"
        raise _invalid("move", Text(f"cannot be judged after seq {at}: {exc}", said)) from None
    out = answer.as_dict()
    out["lang"] = lang
    return out


async def json_of(request: Request) -> Any:
    """The request's body read as JSON, or a 400 `json_invalid` that says where it stops being JSON."""
    try:
        return orjson.loads(await request.body())
    except orjson.JSONDecodeError as exc:
        raise _invalid(
            "body",
            Text(f"not JSON: {exc}", f"ce n'est pas du JSON valide (ligne {exc.lineno}, colonne {exc.colno})"),
            "json_invalid",
            status=400,
        ) from None


def install(app: FastAPI, referee: Referee) -> None:
    """Add `POST /rulings` and `GET /games/{id}/state` to `app`."""

    @app.post(
        "/rulings",
        dependencies=[Depends(parse.json_body)],
        tags=["rulings"],
        responses=answers(Ruling, 413, 415, 422, example=RULING_EXAMPLE)
        | {422: problem(422, INVALID_EXAMPLE, "A malformed request (the field is named)")},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "required": ["log", "at", "move"],
                            "additionalProperties": False,
                            "properties": {
                                "log": {
                                    "description": "a JSONL log of one game (text), or a transcript object",
                                    "oneOf": [{"type": "string"}, {"type": "object"}],
                                },
                                "at": {"type": "integer", "minimum": 1, "description": "judge after this seq"},
                                "move": {"type": "object", "description": "the disputed move, as POST /moves"},
                                "lang": {"enum": ["en", "fr"], "description": "default: Accept-Language"},
                            },
                        },
                        "example": RULING_REQUEST,
                    }
                },
            }
        },
    )
    async def ask_ruling(request: Request) -> Response:
        """Was this move legal after seq `at` of this log, under which rule, and what would it have caused?"""
        body = await json_of(request)
        answer = await asyncio.to_thread(ruling, body, lang_of(request))
        return Response(orjson.dumps(answer), media_type=JSON)

    @app.get(
        "/games/{game_id}/state",
        tags=["games"],
        responses=answers(SeatAt, 403, 404, 422, example=STATE_EXAMPLE)
        | {422: problem(422, OUT_OF_RANGE_EXAMPLE, "A point out of range")},
    )
    async def get_state(
        game_id: str,
        at: Annotated[int | None, Query(description="the seq to look at (default: the current version)")] = None,
        full: Annotated[bool, Query(description="the whole state: once the game is over, or for the admin")] = False,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        """What the caller's seat (spectator without a token) could see after seq `at`; `full=true`, or the admin
        token, gives the whole state (every hand, the deck) — only once the game is over or for the admin."""
        table = await referee.table(parse.game_id(game_id))
        token = parse.bearer(authorization)
        admin = referee.is_admin(token)
        events: list[Event] = list(table.events)
        point = len(events) if at is None else at
        if not 0 < point <= len(events):
            within = Text(f"a seq from 1 to {len(events)}", f"un numéro d'événement de 1 à {len(events)}")
            said = _range(point, len(events))
            raise Problem(
                422,
                "at_out_of_range",
                Text(f"at: {said.en}", f"« at » : {said.fr}"),
                errors=[
                    {
                        "field": "at",
                        "type": "greater_than_equal" if point < 1 else "less_than_equal",
                        "message": within,
                    }
                ],
            )
        seat = None if admin else referee.seat_for(table, token, required=False)
        if full or admin:
            if not (table.state.over or admin):
                raise Problem(
                    403,
                    "game_not_over",
                    Text(
                        "the full state is shown once the game is over, or to the admin",
                        "l'état complet n'est montré qu'une fois la partie terminée, "
                        "ou sur présentation du jeton d'administration",
                    ),
                )
            state = await asyncio.to_thread(fold, events[:point])
            return Response(
                orjson.dumps({"game_id": game_id, "at": point, "version": table.version, "state": state.as_dict()}),
                media_type=JSON,
            )
        seen = await asyncio.to_thread(seat_view_at, events, point, seat)
        body = {"game_id": game_id, "at": point, "version": table.version, "seat": seat, "view": seen}
        return Response(orjson.dumps(body), media_type=JSON)
