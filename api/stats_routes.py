"""Simulations run by the referee for the statistics page (`/stats`), and the statistics of a simulation's log.

`POST /simulations` starts `play.simulate`'s engine in a thread of its own and answers 202 at once; the page polls
`GET /simulations/{id}` for its progress and, at the end, `play.report.statistics` (every figure with its 95%
interval) plus how many games lasted each number of rounds. A visitor cannot exhaust the server: at most
`MAX_GAMES` games a simulation, one simulation at a time per worker (a second is a 409 `simulation_running`
with Retry-After: the server is not failing, this one resource is taken), and only the last `KEPT` answers are
kept. `POST /simulations/tally` counts the same figures from a log written by `loveletter simulate --log`.
"""

from __future__ import annotations

import asyncio
import secrets
import threading
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import Problem, lang_of
from loveletter.api.ruling_routes import _invalid, json_of
from loveletter.client.answers import Simulation, Tally
from loveletter.core.catalogue import FavorGained, GameEnded, GameStarted, PlayerEliminated, RoundStarted, TurnStarted
from loveletter.core.lang import Text
from loveletter.events.log import LogFormatError, read_games
from loveletter.play.bots import BOTS
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, SimulationError, Stats, simulate
from loveletter.referee.referee import Referee

MAX_GAMES = 5000
"""Games one simulation may ask for (about 15 s of random bots on this machine; the heuristic bot is slower)."""
KEPT = 20
"""Finished simulations whose answers are kept, oldest dropped first."""
TALLY_PATH = "/simulations/tally"
MAX_TALLY_BYTES = 8 * 1024 * 1024
FIELDS = ("ruleset", "players", "bots", "games", "seed")


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

    def __init__(self) -> None:
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self.busy = threading.Lock()

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
        threading.Thread(target=self._play, args=(run, config), name=f"simulation-{run.id}", daemon=True).start()
        return run

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


def config_of(body: Any) -> Config:
    """The simulation a request body asks for (a 422 naming the field for anything wrong)."""
    if not isinstance(body, dict):
        raise _invalid("body", Text("a JSON object", "un objet JSON"), "dict_type")
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise _invalid(
            unknown[0],
            Text(
                f"unknown field (known: {', '.join(FIELDS)})",
                f"champ inconnu (champs connus : {', '.join(f'« {f} »' for f in FIELDS)})",
            ),
            "extra_forbidden",
        )
    games, seed, players = body.get("games", 100), body.get("seed", 1), body.get("players", 2)
    for name, value in (("games", games), ("seed", seed), ("players", players)):
        if not isinstance(value, int) or isinstance(value, bool):
            raise _invalid(name, Text("an integer", "un nombre entier"), "int_type")
    if not 1 <= games <= MAX_GAMES:
        raise _invalid(
            "games",
            Text(f"from 1 to {MAX_GAMES} games, not {games}", f"de 1 à {MAX_GAMES} parties, et non {games}"),
            "less_than_equal" if games > 1 else "greater_than_equal",
        )
    bots = body.get("bots", ["random"] * players)
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots):
        raise _invalid("bots", Text("a list of bot names", "une liste de noms de robots"), "list_type")
    if len(bots) != players:
        raise _invalid(
            "bots",
            Text(
                f"one bot per player: {players}, not {len(bots)}",
                f"un robot par joueur : {players}, et non {len(bots)}",
            ),
        )
    unknown_bots = sorted(set(bots) - set(BOTS))
    if unknown_bots:
        known = ", ".join(sorted(BOTS))
        raise _invalid(
            "bots",
            Text(
                f"unknown bot {unknown_bots[0]!r} (known: {known})",
                f"robot inconnu « {unknown_bots[0]} » (robots connus : {', '.join(f'« {b} »' for b in sorted(BOTS))})",
            ),
        )
    config = Config(str(body.get("ruleset", "2019")), players, games, seed, tuple(bots))
    try:
        config.check()
    except SimulationError as exc:
        raise _invalid("body", exc.text) from None
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


TALLY_TYPES = ("application/x-ndjson", "text/plain", "application/octet-stream")
"""A log as text, or as a file's bytes (what generated clients upload, as for POST /audits)."""
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


def install(app: FastAPI, referee: Referee) -> None:
    """Add `POST /simulations`, `GET /simulations/{id}` and `POST /simulations/tally` to `app`."""
    runs = Simulations()
    app.state.simulations = runs
    limits = getattr(app.state, "body_limits", None) or {}
    limits[TALLY_PATH] = MAX_TALLY_BYTES
    app.state.body_limits = limits

    @app.post(
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
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": {
                            "type": "object",
                            "additionalProperties": False,
                            "properties": {
                                "ruleset": {"type": "string", "description": "default 2019"},
                                "players": {"type": "integer", "description": "default 2"},
                                "bots": {"type": "array", "items": {"enum": sorted(BOTS)}},
                                "games": {"type": "integer", "minimum": 1, "maximum": MAX_GAMES},
                                "seed": {"type": "integer", "description": "the same seed plays the same games"},
                            },
                        },
                        "example": {"ruleset": "2019", "players": 2, "bots": ["heuristic", "random"], "games": 500},
                    }
                },
            }
        },
    )
    async def start_simulation(request: Request) -> Response:
        """Start a bot-against-bot simulation (at most 5000 games, one at a time per worker); poll its `url`."""
        body = await json_of(request)
        run = runs.start(config_of(body))
        answer = {**run.as_dict(lang_of(request)), "url": f"/simulations/{run.id}"}
        return Response(orjson.dumps(answer), status_code=202, media_type="application/json")

    @app.get("/simulations/{run_id}", tags=["simulations"], responses=answers(Simulation, 404, example=RUN_EXAMPLE))
    async def simulation(run_id: str, request: Request) -> Response:
        """A simulation's progress (`done` of `games`) and, once done, its statistics with 95% intervals."""
        return Response(orjson.dumps(runs.get(run_id).as_dict(lang_of(request))), media_type="application/json")

    @app.post(
        TALLY_PATH,
        tags=["simulations"],
        responses=answers(Tally, 413, 415, 422, example=TALLY_EXAMPLE),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/x-ndjson": {
                        "schema": {"type": "string"},
                        "example": '{"format": "loveletter-log", "game_id": "sim-1-0", "…": "…"}',
                    },
                    "text/plain": {"schema": {"type": "string"}},
                    "application/octet-stream": {
                        "schema": {"type": "string", "format": "binary", "description": "the log file's bytes"}
                    },
                },
            }
        },
    )
    async def tally_log(request: Request) -> Response:
        """The statistics of a simulation's log (`loveletter simulate --log`), counted from its events."""
        content_type = parse.media_type(request.headers.get("content-type"))
        if content_type is None or content_type[0] not in TALLY_TYPES:
            raise Problem(
                415,
                "unsupported_media_type",
                Text(
                    "send the log as application/x-ndjson (or text/plain, or application/octet-stream)",
                    "envoyez le journal en application/x-ndjson (ou en text/plain, ou en application/octet-stream)",
                ),
            )
        data = await request.body()
        answer = await asyncio.to_thread(tally, data)
        return Response(orjson.dumps(answer), media_type="application/json")
