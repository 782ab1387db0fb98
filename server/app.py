"""The HTTP referee (FastAPI). `create_app()` builds one; tests build their own with their own store."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Callable, Literal

import orjson
import structlog
from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.responses import Response, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import TypeAdapter

from loveletter.api import docs_pages, parse, problems
from loveletter.api.credentials import AdminTokens, redact_access_log
from loveletter.api.limits import Guard, Limits
from loveletter.api.logs import RequestContext, configure
from loveletter.api.moves import MOVE, RefereeApp, answer, media_of, move_handler, parse_body
from loveletter.api.openapi import ETAG, NDJSON, REF, SSE, answers, complete, ref, seat_links, stream_schema
from loveletter.api.problems import Problem, lang_of
from loveletter.api.routes import audits, replays, rulings, service, simulations
from loveletter.api.schemas import CreateGameIn, JoinIn, SeedIn
from loveletter.api.settings import Settings
from loveletter.client.models import Created, Events, Game, Joined, LobbyGame, LobbyPage, MoveResult, Rematch
from loveletter.core.catalogue import EVENT_TYPES
from loveletter.core.lang import Text
from loveletter.core.rules import RuleViolation
from loveletter.events.signing import SigningKey
from loveletter.events.store import EventStore
from loveletter.referee.referee import KEEP_ALIVE, Referee, events_json, sse_frame
from loveletter.web import pages as web
from loveletter.web import viewer as viewer_pages

log = structlog.get_logger()
SEED: TypeAdapter[Any] = TypeAdapter(SeedIn)


JSON = "application/json"


def open_store(settings: Settings) -> EventStore:
    if settings.is_sqlite:
        from loveletter.events.sqlite_store import SqliteStore

        return SqliteStore(settings.sqlite_path, settings.durability)
    if settings.database_url.startswith(("postgresql://", "postgres://")):
        from loveletter.events.postgres_store import PostgresStore

        return PostgresStore(settings.database_url)
    raise ValueError(f"unsupported database URL {settings.database_url!r} (sqlite:///… or postgresql://…)")


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> Response:
    return Response(orjson.dumps(data), status_code=status, media_type=JSON, headers=headers)


def create_app(
    settings: Settings | None = None, store: EventStore | None = None, clock: Callable[[], int] | None = None
) -> FastAPI:
    """The referee's HTTP app; `clock` (Unix milliseconds) replaces the wall clock, for tests of turn clocks."""
    settings = settings or Settings()
    configure(settings.log_format, settings.log_level)
    owned = store is None
    the_store = store or open_store(settings)
    signing_key = SigningKey.load_or_create(settings.key_path)
    if signing_key.created:
        structlog.get_logger().warning("signing key created", path=str(Path(settings.key_path).resolve()))
    referee = Referee(
        the_store,
        cache_games=settings.cache_games,
        admin_tokens=AdminTokens.of(settings),
        signing_key=signing_key,
        **({"clock": clock} if clock is not None else {}),
    )
    redact_access_log()  # a stream's ?token= stays out of uvicorn's access log, when it is on

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        referee.bind_loop()
        # A move allocates many short-lived tuples and events but makes no reference cycles worth chasing:
        # move what start-up built out of the collector's sight and collect the young generation rarely.
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)
        await referee.start_clocks()
        yield
        await referee.stop_clocks()
        if owned:
            the_store.close()

    app = RefereeApp(
        title="Love Letter Referee",
        version="0.1.0",
        summary="Create games, take seats, submit moves: every move is judged by the rules, every hand kept secret.",
        lifespan=lifespan,
        generate_unique_id_function=operation_id,
        docs_url=None,
        redoc_url=None,
    )
    LEAVE = answers(MoveResult, 401, 403, 404, 409, 422, headers=ETAG)  # resign and abort answer as a move does
    docs_pages.install(app)  # /docs and /redoc with their assets served here: they work offline
    web.install(app, referee)  # the web pages: lobby, seat (docs/web.md)
    viewer_pages.install(app, referee)  # the replay viewer and the statistics page
    app.state.referee = referee
    problems.install(app)

    level = settings.request_log_level
    app.add_middleware(RequestContext, max_body=settings.max_body_bytes, level=level)
    app.moves = RequestContext(move_handler(referee), max_body=settings.max_body_bytes, level=level)
    guard = Guard(settings)  # rate limits, in-flight and stream caps: outside RequestContext, on both paths
    app.add_middleware(Limits, guard=guard)
    app.moves = Limits(app.moves, guard)
    app.state.guard = guard

    @app.post(
        "/games/{game_id}/seed",
        dependencies=[Depends(parse.json_body)],
        tags=["games"],
        responses=answers(MoveResult, 401, 403, 404, 409, 413, 415, 422, example="seed", headers=ETAG),
        openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": _schema(SEED)}}}},
    )
    async def contribute_seed(game_id: str, request: Request) -> Response:
        """Add the seat's own 256-bit seed to the shuffles of the rounds dealt after it (once per seat)."""
        game = parse.game_id(game_id)
        raw = await request.body()
        parsed = parse_body(SEED, raw)
        status, body, version = await referee.move(
            game,
            parse.bearer(request.headers.get("authorization")),
            parsed,
            raw_body=raw,
            if_match=None,
            idempotency_key=None,
        )
        return Response(body, status_code=status, media_type=JSON, headers={"ETag": f'"{version}"'})

    @app.post(
        "/games",
        status_code=201,
        dependencies=[Depends(parse.json_body)],
        tags=["games"],
        responses=answers(
            Created,
            403,
            413,
            415,
            422,
            status=201,
            example="create",
            description="Created",
            headers={"Location": "the new game's path, /games/{game_id}"},
            links=seat_links(
                {
                    "GetGame": "get_game",
                    "PlayMove": "play_move",
                    "ListEvents": "list_events",
                    "GetState": "get_state",
                    "ContributeSeed": "contribute_seed",
                    "ResignSeat": "resign_seat",
                }
            )
            | seat_links({"AbortGame": "abort_game"}, "$response.body#/organiser_token"),
        ),
    )
    async def create_game(body: CreateGameIn, authorization: Annotated[str | None, Header()] = None) -> Response:
        if body.server_seed is not None and not referee.is_admin(parse.bearer(authorization)):
            raise Problem(
                403,
                "admin_required",
                Text(
                    "only the referee's admin may choose a game's server seed",
                    "seul l'administrateur de l'arbitre peut choisir la graine serveur d'une partie",
                ),
            )
        try:
            created = await referee.create(body)
        except RuleViolation as v:
            raise problems.violation(v) from None
        return _json(created, 201, {"Location": f"/games/{created['game_id']}"})

    @app.get("/games", tags=["lobby"], responses=answers(LobbyPage, 404, 422))
    async def list_games(
        status: Annotated[Literal["open", "running", "finished"] | None, Query()] = None,
        ruleset: Annotated[str | None, Query(max_length=40)] = None,
        cursor: Annotated[str | None, Query(max_length=200)] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> Response:
        """Public games, newest first, with public facts only; `next` is the cursor of the following page."""
        before = parse.lobby_cursor(cursor)
        chosen = parse.ruleset_id(ruleset) if ruleset is not None else None
        rows = await asyncio.to_thread(the_store.lobby, status, chosen, before, limit + 1)
        games = [{"game_id": game, **orjson.loads(listing)} for _, game, listing in rows[:limit]]
        more = len(rows) > limit
        return _json({"games": games, "next": parse.lobby_cursor_of(*rows[limit - 1][:2]) if more else None})

    @app.get("/lobby/stream", tags=["lobby"], responses=answers(LOBBY_STREAM, 422, media=SSE))
    async def stream_lobby(
        request: Request,
        after: Annotated[int | None, Query(ge=0, description="replay the news after this id (0: all)")] = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        """The lobby's news as server-sent events — `game_opened`, `seat_filled`, `game_started`, `game_finished` —
        each with the game's public facts; `id:` is the news id (resume with `Last-Event-ID`). Without a cursor the
        stream starts with the next news."""
        resumed = parse.version(last_event_id, "Last-Event-ID")
        cursor = resumed if resumed is not None else after
        if cursor is None:
            cursor = await asyncio.to_thread(the_store.lobby_feed_head)
        return StreamingResponse(
            _lobby_sse(referee, the_store, cursor, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @app.post(
        "/games/{game_id}/join",
        dependencies=[Depends(parse.json_body)],
        tags=["lobby"],
        responses=answers(Joined, 401, 403, 404, 409, 413, 415, 422),
    )
    async def join_game(game_id: str, body: JoinIn) -> Response:
        """Take an open seat, by invite (or any open seat of a public game): answers that seat's own token."""
        return _json(await referee.join(parse.game_id(game_id), body))

    @app.post("/games/{game_id}/rematch", tags=["lobby"], responses=answers(Rematch, 401, 403, 404, 409))
    async def rematch_game(game_id: str, authorization: Annotated[str | None, Header()] = None) -> Response:
        """The rematch of a finished game: same players, seats rotated by one. With a seat token, also that player's
        seat (and token) in the rematch; each player calls it with their own token."""
        return _json(await referee.rematch(parse.game_id(game_id), parse.bearer(authorization)))

    @app.post("/games/{game_id}/resign", tags=["lobby"], responses=LEAVE)
    async def resign_seat(game_id: str, authorization: Annotated[str | None, Header()] = None) -> Response:
        """The seat of the bearer token leaves the game (RULINGS §12)."""
        body, version = await referee.resign(parse.game_id(game_id), parse.bearer(authorization))
        return Response(body, media_type=JSON, headers={"ETag": f'"{version}"'})

    @app.post("/games/{game_id}/abort", tags=["lobby"], responses=LEAVE)
    async def abort_game(game_id: str, authorization: Annotated[str | None, Header()] = None) -> Response:
        """The organiser (or an admin) stops the game: nobody wins (RULINGS §12)."""
        body, version = await referee.abort(parse.game_id(game_id), parse.bearer(authorization))
        return Response(body, media_type=JSON, headers={"ETag": f'"{version}"'})

    @app.get(
        "/games/{game_id}",
        tags=["games"],
        responses=answers(Game, 403, 404, example="game", more=NOT_MODIFIED, headers=ETAG),
    )
    async def get_game(
        game_id: str,
        authorization: Annotated[str | None, Header()] = None,
        if_none_match: Annotated[str | None, Header()] = None,
    ) -> Response:
        table = await referee.table(parse.game_id(game_id))
        seat = referee.seat_for(table, parse.bearer(authorization), required=False)
        seen = parse.versions(if_none_match, "If-None-Match")
        etag = f'"{table.version}"'
        if seen is not None and (seen == "*" or table.version in seen):
            return Response(status_code=304, headers={"ETag": etag})
        return _json(referee.game_json(table, seat), headers={"ETag": etag})

    @app.post(
        "/games/{game_id}/moves",
        tags=["games"],
        responses=answers(
            MoveResult,
            401,
            403,
            404,
            409,
            412,
            413,
            415,
            422,
            example="move",
            headers={
                "ETag?": ETAG["ETag"],
                "Idempotent-Replayed?": "true when this is the first answer to the same Idempotency-Key, replayed",
            },
        ),
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": _schema(MOVE), "examples": _MOVE_EXAMPLES}},
            },
            "parameters": [
                {"name": "Authorization", "in": "header", "required": True, "schema": {"type": "string"}},
                {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"}},
                {"name": "Idempotency-Key", "in": "header", "required": False, "schema": {"type": "string"}},
            ],
        },
    )
    async def play_move(game_id: str, request: Request) -> Response:
        """Submit the seat's move (the seat is the bearer token's). Answers the events as this seat sees them,
        the new view and the seat's legal moves."""
        # Declared here for the OpenAPI document; `RefereeApp` answers it on a shorter path (api/moves.py).
        try:  # refusals are answered here: common enough that unwinding through every middleware shows
            path = request.url.path
            status, body, extra = await answer(referee, game_id, await request.body(), request.headers.get, path)
        except Problem as problem:
            return problems.problem_response(problem, lang_of(request), request.url.path)
        return Response(body, status_code=status, media_type=media_of(status), headers=extra)

    @app.get("/games/{game_id}/events", tags=["games"], responses=answers(Events, 403, 404, 422, example="events"))
    async def list_events(
        game_id: str,
        after: Annotated[int, Query(ge=0)] = 0,
        authorization: Annotated[str | None, Header()] = None,
    ) -> Response:
        table = await referee.table(parse.game_id(game_id))
        seat = referee.seat_for(table, parse.bearer(authorization), required=False)
        return _json({"version": table.version, "events": events_json(table.events[after:], after + 1, seat)})

    @app.get(
        "/games/{game_id}/stream",
        tags=["games"],
        responses=answers(GAME_STREAM, 403, 404, 422, media=SSE, example="stream"),
    )
    async def stream_game(
        game_id: str,
        request: Request,
        after: Annotated[int | None, Query(ge=0)] = None,
        token: Annotated[
            str | None,
            Query(
                description="seat token, only for a browser's EventSource, which cannot send headers; any other "
                "client sends Authorization: Bearer <token>"
            ),
        ] = None,
        authorization: Annotated[str | None, Header()] = None,
        last_event_id: Annotated[str | None, Header()] = None,
    ) -> StreamingResponse:
        table = await referee.table(parse.game_id(game_id))
        seat = referee.seat_for(table, parse.bearer(authorization) or parse.token(token), required=False)
        resumed = parse.version(last_event_id, "Last-Event-ID")
        cursor = resumed if resumed is not None else after or 0
        return StreamingResponse(
            _sse(referee, table.game_id, seat, cursor, request),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @app.get(
        "/games/{game_id}/log",
        tags=["games"],
        responses=answers(LOG, 403, 404, media=NDJSON, example=_LOG_EXAMPLE, description="The signed JSONL log"),
    )
    async def get_log(game_id: str, authorization: Annotated[str | None, Header()] = None) -> Response:
        table = await referee.table(parse.game_id(game_id))
        token = parse.bearer(authorization)
        if not table.state.over and not referee.is_admin(token):
            raise Problem(
                403,
                "game_not_over",
                Text(
                    "the full log is published when the game is over",
                    "le journal complet est publié quand la partie est terminée",
                ),
            )
        return Response(referee.log_bytes(table), media_type="application/x-ndjson")

    for resource in (service, audits, rulings, replays, simulations):
        app.include_router(resource.router)
    app.state.body_limits = audits.BODY_LIMITS | replays.BODY_LIMITS | simulations.BODY_LIMITS
    documented = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's document, plus the definitions the hand-documented request bodies and the answers refer to."""
        if app.openapi_schema is None:
            schema = documented()
            schema.setdefault("components", {}).setdefault("schemas", {}).update(_DEFINITIONS)
            complete(schema)
        return app.openapi_schema or documented()

    app.openapi = openapi  # type: ignore[method-assign]
    return app


_DEFINITIONS: dict[str, Any] = {}


LOBBY_STREAM = stream_schema(
    dict.fromkeys(("game_opened", "seat_filled", "game_started", "game_finished"), ref(LobbyGame)["$ref"]),
    "the lobby's news, `id:` the news id; each `data:` is the game's public facts",
)
GAME_STREAM = stream_schema(
    {kind: f"{REF}{cls.__name__}Event" for kind, cls in EVENT_TYPES.items()},
    "the game's events as the caller may see them, `id:` the event's seq; the stream ends with the game",
)
LOG: dict[str, Any] = {
    "type": "string",
    "description": "JSON lines: the header, every event chained by `prev`, the signature; `x-line` is the schema "
    "of each line (docs/schema/log.schema.json)",
    "x-line": {"$ref": "#/components/schemas/LogLine"},
}
NOT_MODIFIED = {
    304: {
        "description": "Not modified: the game is still at the version If-None-Match names",
        "headers": {"ETag": {"description": ETAG["ETag"], "required": True, "schema": {"type": "string"}}},
    }
}


def operation_id(route: APIRoute) -> str:
    """A route's operation id is its handler's name (`create_game`, `play_move`…): what a generated client names its
    methods after, so it is short and says what the call does."""
    return route.name


def _schema(adapter: TypeAdapter[Any]) -> dict[str, Any]:
    """A request body's JSON Schema whose references point into the OpenAPI document's components."""
    schema = adapter.json_schema(ref_template="#/components/schemas/{model}")
    _DEFINITIONS.update(schema.pop("$defs", {}))
    return schema


async def _sse(referee: Referee, game_id: str, seat: int | None, cursor: int, request: Request) -> AsyncIterator[bytes]:
    """The game's events after `cursor`, then each new one as it is appended, until the game is over.

    The stream holds the game's id, not its `Table`: the cache may evict the game and a later request rebuild it
    from the store, so each round reads the game afresh (`Referee.current`), woken by the game's watch. Each event is
    framed once per viewer (`Table.sse`) and a wake-up's events go out as one chunk; an idle stream waits on the watch
    alone, which the referee's one ticker pokes every 15 seconds for a keep-alive."""
    loop = asyncio.get_running_loop()
    written = loop.time()
    with referee.watching(game_id) as watch, referee.presence.hold(game_id, seat):
        while True:
            waiter = watch.changed  # taken before reading: an append made meanwhile wakes the wait below
            table = await referee.current(game_id, watch)
            if cursor < len(table.events):
                chunk = table.sse(seat, cursor)
                cursor = len(table.events)
                written = loop.time()
                yield chunk
            elif loop.time() - written >= KEEP_ALIVE * 0.9:  # the ticker's poke on an idle stream
                if await request.is_disconnected():
                    return
                written = loop.time()
                yield b": keep-alive\n\n"
            if table.state.over:
                return
            del table  # a stream keeps no evicted game alive
            await waiter.wait()


LOBBY_PAGE = 500
"""News read from the store at once by a lobby stream."""


async def _lobby_sse(referee: Referee, store: EventStore, cursor: int, request: Request) -> AsyncIterator[bytes]:
    """The lobby's news after `cursor`, then each new item as the feed grows (woken by this worker's commits and,
    on PostgreSQL, by every worker's)."""
    referee.lobby_streams += 1
    loop = asyncio.get_running_loop()
    written = loop.time()
    try:
        while True:
            news = referee.lobby_news  # taken before reading: news written meanwhile wakes the wait below
            rows = await asyncio.to_thread(store.lobby_feed, cursor, LOBBY_PAGE)
            for item, game_id, kind, listing in rows:
                data = b'{"game_id":"' + game_id.encode() + b'",' + listing[1:]
                yield sse_frame(item, kind, data)
                cursor = item
                written = loop.time()
            if len(rows) == LOBBY_PAGE:
                continue
            await news.wait()  # woken by news, or by the referee's ticker every 15 seconds
            if loop.time() - written >= KEEP_ALIVE * 0.9:
                if await request.is_disconnected():
                    return
                written = loop.time()
                yield b": keep-alive\n\n"
    finally:
        referee.lobby_streams -= 1


_LOG_EXAMPLE = (
    '{"format":"loveletter-log","game_id":"g_…","options":{…},"players":["Alice","Bob"],"ruleset":"2019","version":1}\n'
    '{"first_player":0,…,"prev":"be19…","seq":1,"type":"game_started","v":1}\n'
    "…\n"
    '{"algorithm":"ed25519","format":"loveletter-signature","hash":"b63c…","public_key":"2128…","signature":"4813…"}\n'
)

_MOVE_EXAMPLES: dict[str, Any] = {
    "guard": {
        "summary": "Guard on Bob, naming the Priest",
        "value": {"type": "play", "card": "guard", "target": "Bob", "guess": "priest"},
    },
    "handmaid": {"summary": "Handmaid (no target)", "value": {"type": "play", "card": "handmaid"}},
    "chancellor": {
        "summary": "Chancellor: keep the Princess, Guard then Spy to the bottom",
        "value": {"type": "return", "keep": "princess", "bottom": ["guard", "spy"]},
    },
    "code": {"summary": "Any move by its action code", "value": {"type": "code", "action_code": 95}},
}
