"""The HTTP referee (FastAPI). `create_app()` builds one; tests build their own with their own store."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Callable

import orjson
import structlog
from fastapi import FastAPI
from fastapi.responses import Response
from fastapi.routing import APIRoute

from loveletter.api import audit_routes, docs_pages, parse, problems, replay_routes, ruling_routes, stats_routes
from loveletter.api.credentials import admin_tokens, redact_access_log
from loveletter.api.limits import Guard, Limits
from loveletter.api.logs import RequestContext, configure
from loveletter.api.moves import RefereeApp
from loveletter.api.openapi import EXAMPLES, answers, complete, ref
from loveletter.api.routes import games, lobby, moves, streams
from loveletter.api.settings import Settings
from loveletter.client.answers import Health, Keys
from loveletter.client.answers import Ruleset as RulesetAnswer
from loveletter.core.cards import CARD_ORDER
from loveletter.core.rulesets import RULESETS, Ruleset
from loveletter.events.signing import SigningKey
from loveletter.events.store import EventStore
from loveletter.referee.clocks import Timing
from loveletter.referee.referee import Referee
from loveletter.web import pages as web
from loveletter.web import viewer as viewer_pages

log = structlog.get_logger()


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


def ruleset_json(rs: Ruleset) -> dict[str, Any]:
    return {
        "id": rs.id,
        "title": rs.title,
        "players": {"min": rs.min_players, "max": rs.max_players},
        "favors_to_win": {str(n): f for n, f in rs.favors_to_win.items()},
        "deck_size": len(rs.deck),
        "tie_rule": rs.tie_rule.value,
        "spy_favor": rs.spy_favor,
        "amira_sadie_favor": rs.amira_sadie_favor,
        "options": {"tie_2012": ["nobody", "all"], "guard_unknown": ["refuse", "miss"]},
        "cards": [
            {
                "id": card.value,
                "value": rs.values[card],
                "copies": rs.copies[card],
                "name": {"en": rs.name(card, "en"), "fr": rs.name(card, "fr")},
            }
            for card in CARD_ORDER
            if rs.has(card)
        ],
    }


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
        admin_tokens=admin_tokens(settings),
        signing_key=signing_key,
        timing=Timing(settings.clock_poll, settings.stream_keep_alive, settings.clock_rescan),
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
    docs_pages.install(app)  # /docs and /redoc with their assets served here: they work offline
    web.install(app, referee)  # the web pages: lobby, seat (docs/web.md)
    viewer_pages.install(app, referee)  # the replay viewer and the statistics page
    app.state.referee = referee
    problems.install(app)

    # Built once, around both ways in (the move route's shortcut and FastAPI's stack; api/moves.py).
    app.add_middleware(RequestContext, max_body=settings.max_body_bytes, level=settings.request_log_level)
    guard = Guard(settings)  # rate limits, in-flight and stream caps: outside RequestContext
    app.add_middleware(Limits, guard=guard)
    app.state.guard = guard

    @app.get("/healthz", tags=["service"], responses=answers(Health, example="healthz"))
    async def health() -> Response:
        return _json({"status": "ok", "store": type(the_store).__name__})

    @app.get("/keys", tags=["service"], responses=answers(Keys, example="keys"))
    async def get_keys() -> Response:
        """The public key exported logs are signed with: Ed25519, as hex (what `loveletter audit --key` takes),
        base64 and PEM, and the message each signature covers."""
        return _json({"keys": [signing_key.published()]})

    @app.get("/rulesets", tags=["rulesets"], responses=answers(_list_of(RulesetAnswer), example=[EXAMPLES["ruleset"]]))
    async def list_rulesets() -> Response:
        return _json([ruleset_json(rs) for rs in RULESETS.values()])

    @app.get("/rulesets/{ruleset_id}", tags=["rulesets"], responses=answers(RulesetAnswer, 404, example="ruleset"))
    async def get_ruleset(ruleset_id: str) -> Response:
        return _json(ruleset_json(RULESETS[parse.ruleset_id(ruleset_id)]))

    for router in (games.router, moves.router, lobby.router, streams.router):
        app.include_router(router)
    app.moves_route = next(r for r in moves.router.routes if isinstance(r, APIRoute) and r.name == "play_move")
    app.moves = moves.shortcut(lambda: app.state.referee)
    audit_routes.install(app, referee)
    ruling_routes.install(app, referee)
    replay_routes.install(app, referee)
    stats_routes.install(app, referee)
    documented = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's document, plus the definitions the answers refer to."""
        if app.openapi_schema is None:
            complete(documented())
        return app.openapi_schema or documented()

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _list_of(model: Any) -> dict[str, Any]:
    return {"type": "array", "items": ref(model)}


def operation_id(route: APIRoute) -> str:
    """A route's operation id is its handler's name (`create_game`, `play_move`…): what a generated client names its
    methods after, so it is short and says what the call does."""
    return route.name
