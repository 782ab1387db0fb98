"""The request bodies of the public routes (rulings, replay views, simulations, analyses), typed with pydantic.

Every value a body carries is bounded here, before a handler sees it: a number by its range, a list by its length,
a string by its length. FastAPI checks them as it reads the body, and a refusal is the same 422 `invalid_request`
problem as any other route's (`api.problems.invalid_request`, naming each field). What depends on the log a body
carries (how many events it has, whose seats it names) is judged after the log is read, in a worker thread, and
refused with `invalid` in the same form. The routers of these routes (`json_router`) parse the JSON in a worker
thread too, as the body of a replay may be 8 MiB. Uploaded logs (`POST /audits`, `POST /simulations/tally`) are not
JSON: `LOG_UPLOAD` documents them once for both, `log_upload` checks their media type.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter
from fastapi.routing import APIRoute
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StrictInt,
    WithJsonSchema,
    field_validator,
)
from pydantic_core import PydanticCustomError
from pydantic_core.core_schema import ValidationInfo
from starlette.requests import Request
from starlette.responses import Response

from loveletter.api import parse
from loveletter.api.problems import Problem, field_fr
from loveletter.core.lang import BilingualError, Text
from loveletter.core.rulesets import RULESETS
from loveletter.play.bots import BOTS
from loveletter.replays.one_game import NotOneGame, one_game

MOST_PLAYERS = max(rs.max_players for rs in RULESETS.values())
FEWEST_PLAYERS = min(rs.min_players for rs in RULESETS.values())
MAX_GAMES = 5000
"""Games one simulation may ask for (about 15 s of random bots on this machine; the heuristic bot is slower)."""
MAX_SEQ = 1_000_000
"""Beyond any game's length (a log of 8 MiB holds far fewer events): `at` is checked against the log's own
length once it is read."""
SEED_BITS = 63
"""A simulation's seed is a signed 64-bit integer."""


class _JsonInThread(Request):
    """A request whose JSON body is parsed by orjson in a worker thread: FastAPI parses a body on the event loop
    with the standard library (about 100 ms for an 8 MiB log). orjson's errors are `json.JSONDecodeError`s, so
    a body that is not JSON is FastAPI's 400 `json_invalid` all the same."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            self._json = await asyncio.to_thread(orjson.loads, await self.body())
        return self._json


class _JsonOffTheLoop(APIRoute):
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route(request: Request) -> Response:
            return await handler(_JsonInThread(request.scope, request.receive))

        return route


def json_router() -> APIRouter:
    """A router of routes with a JSON body: read off the event loop, and read as JSON when no Content-Type is sent
    (as `api.parse.json_content_type` allows; FastAPI would refuse it)."""
    return APIRouter(route_class=_JsonOffTheLoop, strict_content_type=False)


def invalid(field: str, message: Text, kind: str = "value_error", status: int = 422) -> Problem:
    """A request refused for one field's value: the problem pydantic's refusals give (`kind`: the pydantic error
    type it amounts to)."""
    return Problem(
        status,
        "invalid_request",
        Text(f"{field}: {message.en}", f"{field_fr(field)} : {message.fr}"),
        errors=[{"field": field, "type": kind, "message": message}],
    )


def events_of(log: Any) -> list[Any]:
    """The events of the one game a body's `log` holds (`replays.one_game`), or a 422 naming the field. Reading a
    log takes time: call it in a worker thread."""
    try:
        return one_game(log)
    except NotOneGame as exc:
        raise invalid("log", exc.text, exc.kind) from None


def refused(text: Text) -> PydanticCustomError:
    """A value refused by a validator of ours, said in both languages: pydantic's `value_error`, whose message is
    the English text as it is (not "Value error, …") and whose French `api.problems.french_error` takes from
    the `BilingualError` in its context."""
    return PydanticCustomError("value_error", text.en, {"error": BilingualError(text)})


def _log(value: Any) -> Any:
    if isinstance(value, (str, dict)):
        return value
    raise refused(
        Text(
            "a JSONL log as text, or a transcript object",
            "un journal JSONL sous forme de texte, ou un objet de transcription",
        )
    )


LogIn = Annotated[
    Any,
    PlainValidator(_log),
    WithJsonSchema(
        {
            "description": "a JSONL log of one game (text), or a transcript object",
            "oneOf": [{"type": "string"}, {"type": "object"}],
        }
    ),
]
"""A game's log as text, or a transcript: read later, in a thread (its size is the route's body limit)."""

LangIn = Annotated[Literal["en", "fr"] | None, Field(description="default: Accept-Language")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RulingIn(_Body):
    """`POST /rulings`: was this move legal after seq `at` of this log?"""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "log": "<the JSONL log as text, or a transcript object>",
                    "at": 5,
                    "move": {"player": "Claire", "card": "prince", "target": "Thibault"},
                    "lang": "fr",
                }
            ]
        },
    )
    log: LogIn
    at: StrictInt = Field(ge=1, le=MAX_SEQ, description="judge after this seq")
    move: dict[str, Any] = Field(
        max_length=16, description="the disputed move, as POST /games/{id}/moves takes it, with `player`"
    )
    nearest: Literal["before", "after"] | None = Field(
        None,
        description="where nobody decides after `at` (inside a move, before a deal, after the end): judge at the "
        "nearest point before or after it where a player does (the answer's `at`; `asked_at` is this `at`). "
        "Without it such a point is refused (422), the problem naming both nearest decisions in `nearest`; where "
        "a player decides it changes nothing (as `loveletter explain --nearest`)",
    )
    lang: LangIn = None


def _pov(value: Any) -> int | str:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < MOST_PLAYERS:
        return value
    if isinstance(value, str) and 0 < len(value) <= 40:
        return value
    raise refused(
        Text(
            f"spectator, all, a seat from 0 to {MOST_PLAYERS - 1}, or its player's name",
            f"« spectator », « all », un siège de 0 à {MOST_PLAYERS - 1}, ou le nom de son joueur",
        )
    )


PovIn = Annotated[
    int | str,
    PlainValidator(_pov),
    WithJsonSchema(
        {
            "description": "spectator (default), all (once the game is over), or a seat (its number or its "
            "player's name)",
            "oneOf": [
                {"type": "string", "minLength": 1, "maxLength": 40},
                {"type": "integer", "minimum": 0, "maximum": MOST_PLAYERS - 1},
            ],
        }
    ),
]


class ViewsIn(_Body):
    """`POST /replays/views`: every position of a log as one point of view saw it."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"log": "<the JSONL log as text, or a transcript object>", "pov": "Bo"}]},
    )
    log: LogIn
    pov: PovIn = "spectator"
    lang: LangIn = None


SIMULATION_BOTS = tuple(sorted(BOTS))
"""The bots a simulation on the referee may seat: every built-in one."""
THINKING_BOTS = ("expert",)
"""Bots whose simulations run in the thinking room's worker processes, a game at a time (`play.thinking`)."""
MAX_EXPERT_GAMES = 50
"""Games of a simulation that seats the `expert`: it searches for ~25 ms a decision (more with more players), so a
game takes it one to a few seconds of a worker, and 50 games a few minutes at most."""
BotName = Literal[SIMULATION_BOTS]  # type: ignore[valid-type]


class SimulationIn(_Body):
    """`POST /simulations`: bots against bots, `games` times."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"ruleset": "2019", "players": 2, "bots": ["heuristic", "random"], "games": 500}]
        },
    )
    ruleset: str = Field("2019", max_length=40, description=", ".join(RULESETS))
    players: StrictInt = Field(2, ge=FEWEST_PLAYERS, le=MOST_PLAYERS, description="as the ruleset allows")
    bots: list[BotName] | None = Field(  # type: ignore[valid-type]
        None, max_length=MOST_PLAYERS, description="one per player (default: random ones)"
    )
    games: StrictInt = Field(
        100, ge=1, le=MAX_GAMES, validate_default=True, description=f"at most {MAX_EXPERT_GAMES} with the expert"
    )
    seed: StrictInt = Field(1, ge=-(2**SEED_BITS), lt=2**SEED_BITS, description="the same seed plays the same games")

    @field_validator("games", mode="before")
    @classmethod
    def _games_in_range(cls, games: Any) -> Any:
        """Said as people count games (the bounds stay in the schema for clients)."""
        if isinstance(games, int) and not isinstance(games, bool) and not 1 <= games <= MAX_GAMES:
            shown = games if abs(games) < 10**12 else f"{str(games)[:6]}…"
            raise refused(
                Text(f"from 1 to {MAX_GAMES} games, not {shown}", f"de 1 à {MAX_GAMES} parties, et non {shown}")
            )
        return games

    @field_validator("games")
    @classmethod
    def _few_games_for_the_expert(cls, games: int, info: ValidationInfo) -> int:
        bots = info.data.get("bots") or ()
        thinking = sorted(set(bots) & set(THINKING_BOTS))
        if thinking and games > MAX_EXPERT_GAMES:
            raise refused(
                Text(
                    f"from 1 to {MAX_EXPERT_GAMES} games with the {thinking[0]} bot, not {games}",
                    f"de 1 à {MAX_EXPERT_GAMES} parties avec le robot {thinking[0]}, et non {games}",
                )
            )
        return games

    @field_validator("bots")
    @classmethod
    def _one_per_player(cls, bots: list[str] | None, info: ValidationInfo) -> list[str] | None:
        players = info.data.get("players")
        if bots is not None and players is not None and len(bots) != players:
            raise refused(
                Text(
                    f"one bot per player: {players}, not {len(bots)}",
                    f"un robot par joueur : {players}, et non {len(bots)}",
                )
            )
        return bots


MAX_ANALYSIS_BUDGET = 1000
"""Rollouts a legal move of a reviewed decision may get over HTTP (the command line's default is 200)."""
MAX_GAME_INDEX = 100_000


class AnalysisIn(_Body):
    """`POST /analyses`: review every decision of a game (or of one seat), as `loveletter analyse` does."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"log": "<the JSONL log as text, or a transcript object>", "seat": "Alice", "budget": 100},
                {"game_id": "g_3kq9ZrT1x0aB", "budget": 200, "seed": 7, "lang": "fr"},
            ]
        },
    )
    log: LogIn | None = None
    game_id: str | None = Field(
        None, min_length=1, max_length=64, description="instead of a log: a game of this server, once it is over"
    )
    seat: PovIn | None = Field(None, description="review this seat only (its number or its player's name)")
    budget: StrictInt = Field(200, ge=1, le=MAX_ANALYSIS_BUDGET, description="rollouts for each legal move")
    seed: StrictInt = Field(0, ge=0, lt=2**SEED_BITS, description="the same seed gives the same figures")
    game: StrictInt | None = Field(
        None, ge=1, le=MAX_GAME_INDEX, description="which game of a log holding several (counted from 1)"
    )
    lang: LangIn = None

    def source(self) -> None:
        """Either a log or a game id, not both and not neither (a 422 naming `log`)."""
        if (self.log is None) == (self.game_id is None):
            raise invalid(
                "log",
                Text(
                    "send either a log or a game_id, not both and not neither",
                    "envoyez soit un journal (« log »), soit un « game_id », pas les deux ni aucun",
                ),
            )


# -- uploaded logs ----------------------------------------------------------------------------------------------

LOG_TYPES = ("application/x-ndjson", "application/jsonl", "application/json-lines", "text/plain")
"""The media types of a log sent as text, and `application/octet-stream`: a file as it is, what generated clients
upload (openapi-python-client's File)."""


def log_upload(request: Request) -> None:
    """A dependency of the routes that take a log as it is (not JSON): 415 for any other media type."""
    content_type = parse.media_type(request.headers.get("content-type"))
    if content_type is None or content_type[0] not in (*LOG_TYPES, "application/octet-stream"):
        raise Problem(
            415,
            "unsupported_media_type",
            Text(
                "send the log as application/x-ndjson (or text/plain, or application/octet-stream)",
                "envoyez le journal en application/x-ndjson (ou en text/plain, ou en application/octet-stream)",
            ),
        )


LOG_UPLOAD: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/x-ndjson": {"schema": {"type": "string", "description": "a JSONL game log"}},
            "text/plain": {  # the example here: a tool that cannot write x-ndjson (schemathesis) sends it as text
                "schema": {"type": "string"},
                "example": '{"format": "loveletter-log", "game_id": "sim-1-0", "…": "…"}',
            },
            "application/octet-stream": {
                "schema": {"type": "string", "format": "binary", "description": "the log file's bytes"}
            },
        },
    }
}
"""The body of a route that takes a log as it is: FastAPI declares JSON bodies only, so this one is written out."""


# -- accounts (docs/accounts.md) -----------------------------------------------------------------------------


class AccountIn(_Body):
    """`POST /accounts`: a name (checked and normalized by the referee, `referee.accounts`) and what it is."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Zoé", "kind": "person"}]})
    name: Annotated[str, Field(min_length=1, max_length=200, description="at most 40 characters once normalized")]
    kind: Literal["person", "bot"] = Field("person", description="a person, or a bot (its games say so)")


class AccountKeyIn(_Body):
    """The account's current key, in the body of the calls that change the account."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"key": "ak_…"}]})
    key: Annotated[str, Field(min_length=1, max_length=200, description="the account's current key")]


class ChallengeIn(_Body):
    """`POST /challenges`: the challenger's key, whom it challenges (an account id or name), and the game."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"key": "ak_…", "to": "Zoé", "ruleset": "2019", "rated": True}]}
    )
    key: Annotated[str, Field(min_length=1, max_length=200, description="the challenger's account key")]
    to: Annotated[str, Field(min_length=1, max_length=200, description="the challenged account: its id or its name")]
    ruleset: str = Field("2019", description="2019, 2019-classic, 2012 or princess-princess (two seats)")
    rated: bool = Field(False, description="a rated game (docs/accounts.md)")
