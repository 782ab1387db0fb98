"""Simulations run by the referee for the statistics page (`/stats`), and the statistics of a simulation's log.

`POST /simulations` starts `play.simulate`'s engine in a thread of its own and answers 202 at once; the page polls
`GET /simulations/{id}` for its progress and, at the end, `play.report.statistics` (every figure with its 95%
interval) plus how many games lasted each number of rounds. A visitor cannot exhaust the server: every value of
the request is bounded before it is used (`api.routes.bodies.SimulationIn`), at most `MAX_GAMES` games a
simulation, one simulation at a time per worker (a second is a 409 `simulation_running` with Retry-After: the
server is not failing, this one resource is taken), and only the last 20 answers are kept; `DELETE` stops one
after the game it is playing. The runner is the referee's (`referee.jobs`), which plays a simulation that seats the
`expert` (at most `MAX_EXPERT_GAMES` games) a game at a time in the thinking room's worker processes. `POST
/simulations/tally` counts the same figures from a log written by `loveletter simulate --log` (`play.tally`).
This module only reads the requests and words the answers.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from fastapi import Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import Problem, lang_of
from loveletter.api.routes.bodies import LOG_UPLOAD, SimulationIn, invalid, json_router, log_upload
from loveletter.api.routes.deps import RefereeDep
from loveletter.api.routes.replies import reply
from loveletter.client.answers import Simulation, Tally
from loveletter.events.log import LogFormatError
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, SimulationError
from loveletter.play.tally import NoGame, tally_simulation_log
from loveletter.referee.referee import Job

TALLY_PATH = "/simulations/tally"
MAX_TALLY_BYTES = 8 * 1024 * 1024
BODY_LIMITS = {TALLY_PATH: MAX_TALLY_BYTES}
router = json_router()


def simulation_json(job: Job, lang: str) -> dict[str, Any]:
    """A simulation as `GET /simulations/{id}` answers it: its progress, its statistics once done."""
    return {
        "id": job.id,
        "status": job.status,
        "done": job.done,
        "games": job.total,
        "statistics": job.result,
        "rounds_per_game": rounds_histogram(job.rounds),
        "error": job.failed(lang) if job.failed else None,
    }


def rounds_histogram(rounds: Counter[int]) -> list[dict[str, int]]:
    """How many games lasted each number of rounds, from the fewest rounds to the most."""
    return [{"rounds": n, "games": rounds[n]} for n in sorted(rounds)]


def config_of(body: SimulationIn) -> Config:
    """The simulation a request body asks for (a 422 for a ruleset that cannot be played by so many players)."""
    bots = body.bots if body.bots is not None else ["random"] * body.players
    config = Config(body.ruleset, body.players, body.games, body.seed, tuple(bots))
    try:
        config.check()
    except SimulationError as exc:
        raise invalid("body", exc.text) from None
    return config


def tally(data: bytes) -> dict[str, Any]:
    """`statistics` of the games of a simulation's log (`play.tally`), or a 422 `unreadable_log` saying why not."""
    try:
        tallied = tally_simulation_log(data)
    except LogFormatError as exc:
        raise Problem(422, "unreadable_log", exc.text, line=exc.line) from None
    except NoGame as exc:
        raise Problem(422, "unreadable_log", exc.text) from None
    return {"statistics": statistics(tallied.stats), "rounds_per_game": rounds_histogram(tallied.rounds)}


RUN_EXAMPLE: dict[str, Any] = {
    "id": "Zk3v9q0aT1cB",
    "status": "running",
    "done": 120,
    "games": 500,
    "statistics": None,
    "rounds_per_game": [{"rounds": 3, "games": 40}, {"rounds": 4, "games": 80}],
    "error": None,
}
CANCELLED_EXAMPLE: dict[str, Any] = {**RUN_EXAMPLE, "status": "cancelled"}
TALLY_EXAMPLE: dict[str, Any] = {
    "statistics": {"games": 500, "win_rate": {"by_seat": ["…"], "by_bot": ["…"]}, "favors": ["…"], "…": "…"},
    "rounds_per_game": [{"rounds": 3, "games": 97}, {"rounds": 4, "games": 201}],
}
BUSY_EXAMPLE: dict[str, Any] = {
    "type": "https://loveletter-referee.example/problems/simulation_running",
    "title": "A simulation is already running",
    "status": 409,
    "detail": "a simulation is already running on this server: try again when it ends",
    "code": "simulation_running",
}


@router.post(
    "/simulations",
    dependencies=[Depends(parse.json_body)],
    status_code=202,
    tags=["simulations"],
    responses=answers(
        Simulation,
        422,
        status=202,
        example=RUN_EXAMPLE,
        more={409: problem(409, BUSY_EXAMPLE, "A simulation is already running on this worker")},
    ),
)
async def start_simulation(body: SimulationIn, request: Request, referee: RefereeDep) -> Response:
    """Start a bot-against-bot simulation (at most 5000 games, 50 with the expert; one at a time per worker); poll
    its `url`."""
    job = referee.start_simulation(config_of(body))
    answer = {**simulation_json(job, lang_of(request)), "url": f"/simulations/{job.id}"}
    return reply(answer, 202)


@router.get("/simulations/{run_id}", tags=["simulations"], responses=answers(Simulation, 404, example=RUN_EXAMPLE))
async def simulation(run_id: str, request: Request, referee: RefereeDep) -> Response:
    """A simulation's progress (`done` of `games`) and, once done, its statistics with 95% intervals."""
    return reply(simulation_json(referee.simulation(run_id), lang_of(request)))


@router.delete(
    "/simulations/{run_id}", tags=["simulations"], responses=answers(Simulation, 404, example=CANCELLED_EXAMPLE)
)
async def cancel_simulation(run_id: str, request: Request, referee: RefereeDep) -> Response:
    """Stop a simulation after the game it is playing (`status` becomes `cancelled`; a finished one is left as it
    is): the server is free for the next at once."""
    return reply(simulation_json(referee.cancel_simulation(run_id), lang_of(request)))


@router.post(
    TALLY_PATH,
    dependencies=[Depends(log_upload)],
    tags=["simulations"],
    responses=answers(Tally, 413, 415, 422, example=TALLY_EXAMPLE),
    openapi_extra=LOG_UPLOAD,
)
async def tally_log(request: Request) -> Response:
    """The statistics of a simulation's log (`loveletter simulate --log`), counted from its events."""
    data = await request.body()
    answer = await asyncio.to_thread(tally, data)
    return reply(answer)
