"""`POST /analyses`: the review of every decision of a game (`loveletter analyse`) as a background job, and
`GET /analyses/{id}`: its progress, then the very JSON that `loveletter analyse --json` prints.

A job is read and checked before it is accepted (the log parsed in a thread, its seat named, its decisions
counted: every bad input is a 4xx problem), then answered 202 with a Location to poll. Its decisions are reviewed
one at a time in the thinking room's worker processes (`play.thinking`, background lane), each by
`play.engine.analysis.entry`, the command line's own function: the event loop only counts them. Bounded: a log of
`MAX_ANALYSIS_BYTES` and `MAX_EVENTS` events, a budget of `bodies.MAX_ANALYSIS_BUDGET` rollouts a move, `RUNNING`
jobs at once and `QUEUED` more waiting (beyond, 503 `overloaded` with Retry-After). Jobs live in this worker's
memory: a finished one is kept `KEEP_SECONDS`, and at most `KEPT` finished ones (with several workers, poll the
worker that answered the POST, or send the job again)."""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated, Any

import orjson
from fastapi import Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import Problem, lang_of
from loveletter.api.routes.bodies import AnalysisIn, invalid, json_router
from loveletter.api.routes.replies import reply
from loveletter.core.lang import Lang, Text
from loveletter.play.engine.analysis import chosen, entry_at, header
from loveletter.play.engine.review import Decision
from loveletter.play.thinking import Busy, Thinking
from loveletter.replays.one_game import NotOneGame, one_game
from loveletter.replays.players import seat_names

ANALYSES_PATH = "/analyses"
MAX_ANALYSIS_BYTES = 1024 * 1024
"""A log of one game is far smaller (a long four-player game is about 100 KiB)."""
BODY_LIMITS = {ANALYSES_PATH: MAX_ANALYSIS_BYTES}
MAX_EVENTS = 1000
"""As the replay viewer: beyond the longest game of any ruleset and table size."""
RUNNING = 2
"""Jobs reviewed at once (their decisions take turns in the thinking room)."""
QUEUED = 8
"""Jobs waiting for a turn; beyond, 503."""
KEEP_SECONDS = 3600.0
KEPT = 100
RETRY_AFTER = "10"
router = json_router()


@dataclass
class Job:
    """One review: what it reviews, its progress, and its answer once done."""

    id: str
    events: list[Any]
    decisions: list[Decision]
    head: dict[str, Any]
    lang: Lang
    status: str = "queued"
    done: int = 0
    result: dict[str, Any] | None = None
    failed: Text | None = None
    finished: float | None = None
    """When it ended (`time.monotonic`), for its expiry."""
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def as_dict(self, lang: str) -> dict[str, Any]:
        return {
            "id": self.id,
            "status": self.status,
            "done": self.done,
            "total": len(self.decisions),
            "url": f"{ANALYSES_PATH}/{self.id}",
            "analysis": self.result,
            "error": self.failed(lang) if self.failed else None,
        }


class Analyses:
    """The jobs of one worker: `RUNNING` reviewed at once, `QUEUED` waiting, finished ones kept a while."""

    def __init__(self, thinking: Thinking) -> None:
        self.thinking = thinking
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self.slots = asyncio.Semaphore(RUNNING)

    def _expire(self) -> None:
        now = time.monotonic()
        ended = [j for j in self.jobs.values() if j.finished is not None]
        for job in ended[: max(0, len(ended) - KEPT)]:
            del self.jobs[job.id]
        for job in ended:
            if job.finished is not None and now - job.finished > KEEP_SECONDS:
                self.jobs.pop(job.id, None)

    def start(self, job: Job) -> None:
        self._expire()
        waiting = sum(1 for j in self.jobs.values() if j.finished is None)
        if waiting >= RUNNING + QUEUED:
            raise Problem(
                503,
                "overloaded",
                Text(
                    f"{waiting} analyses are under way or waiting on this server: try again shortly",
                    f"{waiting} analyses sont en cours ou en attente sur ce serveur : réessayez bientôt",
                ),
                headers={"Retry-After": RETRY_AFTER},
            )
        self.jobs[job.id] = job
        job.task = asyncio.get_running_loop().create_task(self._run(job))

    async def _run(self, job: Job) -> None:
        try:
            async with self.slots:
                job.status = "running"
                entries = []
                for d in job.decisions:
                    budget, seed = job.head["rollouts"], job.head["seed"]
                    prefix = job.events[: d.at + 1]
                    entries.append(await self.thinking.run(entry_at, prefix, d.at, budget, seed, job.lang))
                    job.done += 1
                job.result = {**job.head, "decisions": entries}
                job.status = "done"
        except Busy:
            job.status = "failed"
            job.failed = Text("the server is too busy to finish this analysis", "le serveur est trop occupé")
        except Exception as exc:  # a bug of the engine: say so rather than spin forever
            job.status = "failed"
            job.failed = Text(f"the analysis failed: {exc}", f"l'analyse a échoué : {exc}")
        finally:
            job.finished = time.monotonic()
            job.events = []  # the answer is all that is kept

    def get(self, job_id: str) -> Job:
        self._expire()
        job = self.jobs.get(job_id)
        if job is None:
            raise Problem(
                404,
                "not_found",
                Text(
                    f"no analysis {job_id!r} on this server (a finished one is kept an hour)",
                    f"aucune analyse « {job_id} » sur ce serveur (une analyse finie est gardée une heure)",
                ),
            )
        return job


def _events(body: AnalysisIn) -> list[Any]:
    """The one game of the body's log (its `game`-th when it holds several); a 422 naming `log` otherwise."""
    assert body.log is not None
    try:
        return list(one_game(body.log, game=body.game))
    except NotOneGame as exc:
        raise invalid("log", exc.text, exc.kind) from None


def plan(body: AnalysisIn, events: list[Any], lang: Lang, file: str | None) -> Job:
    """The job a body asks for: its events and decisions checked (a 422 naming the field at fault). In a thread: a
    game's decisions are found by folding it."""
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
    return Job(secrets.token_urlsafe(9), events, chosen(events, who), head, lang)


def _seat(value: int | str, players: list[str]) -> int:
    if isinstance(value, int) and value < len(players):
        return value
    if isinstance(value, str) and value in players:
        return players.index(value)
    listed = ", ".join(players)
    raise invalid(
        "seat",
        Text(f"{value!r} is not a player of this game ({listed})", f"« {value} » n'est pas un joueur ({listed})"),
    )


async def analyses_of(request: Request) -> Analyses:
    """This app's analyses, made at their first use (on the event loop: never two), in the referee's room."""
    state = request.app.state
    if getattr(state, "analyses", None) is None:
        state.analyses = Analyses(state.referee.thinking)
    found: Analyses = state.analyses
    return found


Jobs = Annotated[Analyses, Depends(analyses_of)]

ANALYSIS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["id", "status", "done", "total", "url"],
    "properties": {
        "id": {"type": "string"},
        "status": {"type": "string", "enum": ["queued", "running", "done", "failed"]},
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
async def start_analysis(body: AnalysisIn, request: Request, jobs: Jobs) -> Response:
    """Review every decision of a game (a log, or a finished game of this server) in the background, as `loveletter
    analyse` does; poll the Location for its progress and, once done, the review."""
    body.source()
    lang: Lang = body.lang or ("fr" if lang_of(request) == "fr" else "en")
    if body.game_id is not None:
        events, file = await request.app.state.referee.finished_events(parse.game_id(body.game_id)), body.game_id
    else:
        events, file = await asyncio.to_thread(_events, body), None
    job = await asyncio.to_thread(plan, body, events, lang, file)
    jobs.start(job)
    answer = job.as_dict(lang_of(request))
    return Response(
        orjson.dumps(answer), status_code=202, media_type="application/json", headers={"Location": answer["url"]}
    )


@router.get(f"{ANALYSES_PATH}/{{job_id}}", tags=["analyses"], responses=answers(ANALYSIS_SCHEMA, 404, example=EXAMPLE))
async def get_analysis(job_id: str, request: Request, jobs: Jobs) -> Response:
    """An analysis's progress (`done` of `total` decisions) and, once done, the review (`analysis`)."""
    return reply(jobs.get(job_id).as_dict(lang_of(request)))
