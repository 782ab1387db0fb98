"""`POST /analyses`: the review of every decision of a game (`loveletter analyse`) as a background job, and
`GET /analyses/{id}`: its progress, then the very JSON that `loveletter analyse --json` prints.

A job is read and checked before it is accepted (the log parsed in a thread, its seat named, its decisions
counted: every bad input is a 4xx problem), then answered 202 with a Location to poll; `DELETE` stops it after the
decision it is reviewing. The referee's job runner (`referee.jobs`) reviews its decisions one at a time in the
thinking room's worker processes, each by `play.engine.analysis.entry`, the command line's own function: the event
loop only counts them. Bounded: a log of `MAX_ANALYSIS_BYTES` and `MAX_EVENTS` events, a budget of
`bodies.MAX_ANALYSIS_BUDGET` rollouts a move, and the runner's two jobs at once and eight more waiting (beyond, 503
`overloaded` with Retry-After). Jobs live in this worker's memory: a finished one is kept an hour, and at most 100
finished ones (with several workers, poll the worker that answered the POST, or send the job again)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import lang_of
from loveletter.api.routes.bodies import AnalysisIn, invalid, json_router
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.core.lang import Lang, Text
from loveletter.referee.referee import Job
from loveletter.replays.one_game import NotOneGame, one_game
from loveletter.replays.players import seat_names

ANALYSES_PATH = "/analyses"
MAX_ANALYSIS_BYTES = 1024 * 1024
"""A log of one game is far smaller (a long four-player game is about 100 KiB)."""
BODY_LIMITS = {ANALYSES_PATH: MAX_ANALYSIS_BYTES}
MAX_EVENTS = 1000
"""As the replay viewer: beyond the longest game of any ruleset and table size."""
router = json_router()


def analysis_json(job: Job, lang: str) -> dict[str, Any]:
    """An analysis as `GET /analyses/{id}` answers it: its progress, the review once done."""
    return {
        "id": job.id,
        "status": job.status,
        "done": job.done,
        "total": job.total,
        "url": f"{ANALYSES_PATH}/{job.id}",
        "analysis": job.result,
        "error": job.failed(lang) if job.failed else None,
    }


def _events(body: AnalysisIn) -> list[Any]:
    """The one game of the body's log (its `game`-th when it holds several); a 422 naming `log` otherwise."""
    assert body.log is not None
    try:
        return list(one_game(body.log, game=body.game))
    except NotOneGame as exc:
        raise invalid("log", exc.text, exc.kind) from None


Plan = tuple[list[Any], list[Any], dict[str, Any]]
"""The events, the decisions to review (`play.engine.review.Decision`) and the answer's head."""


def plan(body: AnalysisIn, events: list[Any], lang: Lang, file: str | None) -> Plan:
    """The job a body asks for: its events and decisions checked (a 422 naming the field at fault). In a thread: a
    game's decisions are found by folding it."""
    from loveletter.play.engine.analysis import chosen, header  # the engine: loaded when a review is asked for

    if not events:
        raise invalid("log", Text("the log holds no event", "le journal ne contient aucun événement"))
    if len(events) > MAX_EVENTS:
        raise invalid(
            "log",
            Text(
                f"at most {MAX_EVENTS} events can be analysed, not {len(events)}",
                f"au plus {MAX_EVENTS} événements peuvent être analysés, et non {len(events)}",
            ),
        )
    players = list(seat_names(events))
    who = None if body.seat is None else _seat(body.seat, players)
    name = None if who is None else players[who]
    head = header(file, body.game, name, body.budget, body.seed, lang)
    return events, chosen(events, who), head


def _seat(value: int | str, players: list[str]) -> int:
    if isinstance(value, int) and value < len(players):
        return value
    if isinstance(value, str) and value in players:
        return players.index(value)
    listed = ", ".join(players)
    raise invalid(
        "seat",
        Text(f"{value!r} is not a player of this game ({listed})", f"« {value} » n'est pas un joueur ({listed})"),
    )


ANALYSIS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["id", "status", "done", "total", "url"],
    "properties": {
        "id": {"type": "string"},
        "status": {"type": "string", "enum": ["queued", "running", "done", "failed", "cancelled"]},
        "done": {"type": "integer", "description": "decisions reviewed so far"},
        "total": {"type": "integer", "description": "decisions to review"},
        "url": {"type": "string", "description": "where to poll"},
        "analysis": {
            "description": "once done: what `loveletter analyse --json` prints (docs/engine.md)",
            "oneOf": [{"type": "object"}, {"type": "null"}],
        },
        "error": {"oneOf": [{"type": "string"}, {"type": "null"}]},
    },
}
EXAMPLE: dict[str, Any] = {
    "id": "q0Zk3v9aT1cB",
    "status": "running",
    "done": 12,
    "total": 31,
    "url": "/analyses/q0Zk3v9aT1cB",
    "analysis": None,
    "error": None,
}
BUSY: dict[str, Any] = {
    "type": "https://loveletter-referee.example/problems/overloaded",
    "title": "Referee busy",
    "status": 503,
    "detail": "10 analyses are under way or waiting on this server: try again shortly",
    "code": "overloaded",
}


@router.post(
    ANALYSES_PATH,
    dependencies=[Depends(parse.json_body)],
    status_code=202,
    tags=["analyses"],
    responses=answers(
        ANALYSIS_SCHEMA,
        404,
        409,
        413,
        422,
        status=202,
        example=EXAMPLE,
        headers={"Location": "the job's address, to poll"},
        more={503: problem(503, BUSY, "Too many analyses under way or waiting on this worker")},
    ),
)
async def start_analysis(body: AnalysisIn, request: Request, referee: RefereeDep) -> Response:
    """Review every decision of a game (a log, or a finished game of this server) in the background, as `loveletter
    analyse` does; poll the Location for its progress and, once done, the review."""
    body.source()
    lang: Lang = body.lang or ("fr" if lang_of(request) == "fr" else "en")
    if body.game_id is not None:
        events, file = await referee.finished_events(parse.game_id(body.game_id)), body.game_id
    else:
        events, file = await asyncio.to_thread(_events, body), None
    events, decisions, head = await asyncio.to_thread(plan, body, events, lang, file)
    answer = analysis_json(referee.start_analysis(events, decisions, head, lang), lang_of(request))
    return Response(
        orjson.dumps(answer), status_code=202, media_type="application/json", headers={"Location": answer["url"]}
    )


@router.get(f"{ANALYSES_PATH}/{{job_id}}", tags=["analyses"], responses=answers(ANALYSIS_SCHEMA, 404, example=EXAMPLE))
async def get_analysis(job_id: str, request: Request, referee: RefereeDep) -> Response:
    """An analysis's progress (`done` of `total` decisions) and, once done, the review (`analysis`)."""
    return reply(analysis_json(referee.analysis(job_id), lang_of(request)))


@router.delete(
    f"{ANALYSES_PATH}/{{job_id}}", tags=["analyses"], responses=answers(ANALYSIS_SCHEMA, 404, example=EXAMPLE)
)
async def cancel_analysis(job_id: str, request: Request, referee: RefereeDep) -> Response:
    """Stop an analysis after the decision it is reviewing (`status` becomes `cancelled`; a finished one is left
    as it is)."""
    return reply(analysis_json(referee.cancel_analysis(job_id), lang_of(request)))
