"""Simulations run by the referee for the statistics page (`/stats`), and the statistics of a simulation's log.

`POST /simulations` starts `play.simulate`'s engine in a thread of its own and answers 202 at once; the page polls
`GET /simulations/{id}` for its progress and, at the end, `play.report.statistics` (every figure with its 95%
interval) plus how many games lasted each number of rounds. A visitor cannot exhaust the server: every value of
the request is bounded before it is used (`api.routes.bodies.SimulationIn`), at most `MAX_GAMES` games a
simulation, one simulation at a time per worker (a second is a 409 `simulation_running` with Retry-After: the
server is not failing, this one resource is taken), and only the last `KEPT` answers are kept. A simulation that
seats the `expert` (at most `MAX_EXPERT_GAMES` games) is played a game at a time in the thinking room's worker
processes (`play.thinking`), behind the seats' decisions, since its search would hold the interpreter.
`POST /simulations/tally` counts the same figures from a log written by `loveletter simulate --log`.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import Problem, lang_of
from loveletter.api.routes.bodies import LOG_UPLOAD, THINKING_BOTS, SimulationIn, invalid, json_router, log_upload
from loveletter.api.routes.replies import reply
from loveletter.client.answers import Simulation, Tally
from loveletter.core.catalogue import FavorGained, GameEnded, GameStarted, PlayerEliminated, RoundStarted, TurnStarted
from loveletter.core.lang import Text
from loveletter.events.log import LogFormatError, read_games
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, SimulationError, Stats, simulate
from loveletter.play.thinking import Thinking, add_game, simulated_game

KEPT = 20
"""Finished simulations whose answers are kept, oldest dropped first."""
TALLY_PATH = "/simulations/tally"
MAX_TALLY_BYTES = 8 * 1024 * 1024
BODY_LIMITS = {TALLY_PATH: MAX_TALLY_BYTES}
router = json_router()


@dataclass
class Run:
    """One simulation: its progress while it runs, its answer once done."""

    id: str
    games: int
    done: int = 0
    rounds: Counter[int] = field(default_factory=Counter)
    result: dict[str, Any] | None = None
    failed: Text | None = None
    _last_rounds: int = 0

    def seen(self, stats: Stats) -> None:
        """After each game: its number of rounds is how far the running total moved."""
        self.rounds[stats.rounds - self._last_rounds] += 1
        self._last_rounds = stats.rounds
        self.done = stats.games

    def as_dict(self, lang: str) -> dict[str, Any]:
        status = "failed" if self.failed else "done" if self.result is not None else "running"
        return {
            "id": self.id,
            "status": status,
            "done": self.done,
            "games": self.games,
            "statistics": self.result,
            "rounds_per_game": rounds_histogram(self.rounds),
            "error": self.failed(lang) if self.failed else None,
        }


def rounds_histogram(rounds: Counter[int]) -> list[dict[str, int]]:
    """How many games lasted each number of rounds, from the fewest rounds to the most."""
    return [{"rounds": n, "games": rounds[n]} for n in sorted(rounds)]


class Simulations:
    """The simulations of one worker: one running at a time, the last `KEPT` kept."""

    def __init__(self, thinking: Thinking | None = None) -> None:
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self.busy = threading.Lock()
        self.thinking = thinking if thinking is not None else Thinking()
        self._thought: set[asyncio.Task[None]] = set()

    def start(self, config: Config) -> Run:
        if not self.busy.acquire(blocking=False):
            raise Problem(
                409,
                "simulation_running",
                Text(
                    "a simulation is already running on this server: try again when it ends",
                    "une simulation tourne déjà sur ce serveur : réessayez quand elle sera finie",
                ),
                headers={"Retry-After": "5"},
            )
        run = Run(secrets.token_urlsafe(9), config.games)
        self.runs[run.id] = run
        while len(self.runs) > KEPT:
            self.runs.popitem(last=False)
        if set(config.bots) & set(THINKING_BOTS):
            task = asyncio.get_running_loop().create_task(self._think(run, config))
            self._thought.add(task)
            task.add_done_callback(self._thought.discard)
        else:
            threading.Thread(target=self._play, args=(run, config), name=f"simulation-{run.id}", daemon=True).start()
        return run

    async def _think(self, run: Run, config: Config) -> None:
        """The simulation a game at a time in the thinking room, the totals added up here (`simulate`'s own)."""
        result: dict[str, Any] | None = None
        failed: Text | None = None
        try:
            start = time.perf_counter()
            total = Stats(config, wins_by_seat=[0] * config.players)
            for game in range(config.games):
                add_game(total, await self.thinking.run(simulated_game, config, game))
                run.seen(total)
            total.seconds = time.perf_counter() - start
            result = statistics(total)
        except Exception as exc:  # the room closed, say: say so rather than spin forever
            failed = Text(f"the simulation failed: {exc}", f"la simulation a échoué : {exc}")
        finally:
            self.busy.release()
        run.result, run.failed = result, failed

    def _play(self, run: Run, config: Config) -> None:
        result: dict[str, Any] | None = None
        failed: Text | None = None
        try:
            result = statistics(simulate(config, on_stats=run.seen))
        except Exception as exc:  # pragma: no cover - a bug of the engine: say so rather than spin forever
            failed = Text(f"the simulation failed: {exc}", f"la simulation a échoué : {exc}")
        finally:
            self.busy.release()  # free before the answer shows: whoever saw it done may start the next at once
        run.result, run.failed = result, failed

    def get(self, run_id: str) -> Run:
        run = self.runs.get(run_id)
        if run is None:
            raise Problem(
                404,
                "not_found",
                Text(
                    f"no simulation {run_id!r} here (only the last {KEPT} are kept)",
                    f"aucune simulation « {run_id} » ici (seules les {KEPT} dernières sont gardées)",
                ),
            )
        return run


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
    """`statistics` of the games of a simulation's log, counted from their events (the bot of each seat is its
    player's name without the `-N` that `loveletter simulate` adds)."""
    try:
        games = list(read_games(data.splitlines()))
    except LogFormatError as exc:
        raise Problem(422, "unreadable_log", exc.text, line=exc.line) from None
    first = games[0].events[0] if games and games[0].events else None
    if not isinstance(first, GameStarted):
        raise Problem(422, "unreadable_log", Text("no game in this log", "ce journal ne contient aucune partie"))
    bots = tuple(name.rsplit("-", 1)[0] for name in first.players)
    named = games[0].header.game_id or ""  # "sim-SEED-GAME" when `loveletter simulate` wrote it
    seed = named.split("-")[1] if named.startswith("sim-") else "0"
    options = tuple(sorted(first.options.items()))
    config = Config(str(first.ruleset), len(bots), len(games), int(seed) if seed.isdigit() else 0, bots, options)
    stats = Stats(config, wins_by_seat=[0] * len(bots))
    rounds: Counter[int] = Counter()
    for game in games:
        events = game.events
        started = events[0] if events else None
        if not isinstance(started, GameStarted) or started.ruleset != first.ruleset or started.players != first.players:
            raise Problem(
                422,
                "unreadable_log",
                Text(
                    f"line {game.header_line}: every game of a simulation has the first game's ruleset and players",
                    f"ligne {game.header_line} : chaque partie d'une simulation a les règles et les joueurs de la "
                    "première",
                ),
                line=game.header_line,
            )
        counts: Counter[str] = Counter(events=len(events))
        for event in events:
            if isinstance(event, RoundStarted):
                counts["rounds"] += 1
            elif isinstance(event, TurnStarted):
                counts["turns"] += 1
            elif isinstance(event, FavorGained):
                counts[f"favor:{event.reason}"] += 1
                stats.favors_by_reason[str(event.reason)] = stats.favors_by_reason.get(str(event.reason), 0) + 1
            elif isinstance(event, PlayerEliminated):
                counts[f"elimination:{event.cause}"] += 1
                card = str(event.cause)
                stats.eliminations_by_card[card] = stats.eliminations_by_card.get(card, 0) + 1
            elif isinstance(event, GameEnded):
                for seat in event.winners:
                    stats.wins_by_seat[seat] += 1
        stats.games += 1
        stats.rounds += counts["rounds"]
        stats.turns += counts["turns"]
        stats.events += counts["events"]
        rounds[counts["rounds"]] += 1
        for key, n in counts.items():
            stats.squares[key] = stats.squares.get(key, 0) + n * n
    return {"statistics": statistics(stats), "rounds_per_game": rounds_histogram(rounds)}


RUN_EXAMPLE: dict[str, Any] = {
    "id": "Zk3v9q0aT1cB",
    "status": "running",
    "done": 120,
    "games": 500,
    "statistics": None,
    "rounds_per_game": [{"rounds": 3, "games": 40}, {"rounds": 4, "games": 80}],
    "error": None,
}
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


async def simulations_of(request: Request) -> Simulations:
    """This app's simulations, made at its first use (on the event loop: never two)."""
    state = request.app.state
    if getattr(state, "simulations", None) is None:
        referee = getattr(state, "referee", None)
        state.simulations = Simulations(referee.thinking if referee is not None else None)
    runs: Simulations = state.simulations
    return runs


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
async def start_simulation(
    body: SimulationIn, request: Request, runs: Annotated[Simulations, Depends(simulations_of)]
) -> Response:
    """Start a bot-against-bot simulation (at most 5000 games, 50 with the expert; one at a time per worker); poll
    its `url`."""
    run = runs.start(config_of(body))
    answer = {**run.as_dict(lang_of(request)), "url": f"/simulations/{run.id}"}
    return reply(answer, 202)


@router.get("/simulations/{run_id}", tags=["simulations"], responses=answers(Simulation, 404, example=RUN_EXAMPLE))
async def simulation(run_id: str, request: Request, runs: Annotated[Simulations, Depends(simulations_of)]) -> Response:
    """A simulation's progress (`done` of `games`) and, once done, its statistics with 95% intervals."""
    return reply(runs.get(run_id).as_dict(lang_of(request)))


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
