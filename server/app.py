"""The HTTP referee (FastAPI). `create_app()` builds one; tests build their own with their own store."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Callable

import structlog
from fastapi import FastAPI
from fastapi.routing import APIRoute

from loveletter.api import docs_pages, problems
from loveletter.api.limits import TALLY, Guard, Limits, Shared
from loveletter.api.moves import RefereeApp
from loveletter.api.openapi import complete
from loveletter.api.routes import (
    account_streams,
    accounts,
    analyses,
    audits,
    challenges,
    games,
    ladder,
    lobby,
    replays,
    rulings,
    seeks,
    service,
    simulations,
    standing,
)
from loveletter.events.signing import SigningKey
from loveletter.events.store import EventStore
from loveletter.referee.referee import Referee, Timing
from loveletter.server import metrics
from loveletter.server.credentials import admin_tokens, redact_access_log
from loveletter.server.logs import RequestContext, configure
from loveletter.server.metrics import Metrics
from loveletter.server.settings import Settings
from loveletter.web import pages as web
from loveletter.web import rulings as rulings_page
from loveletter.web import viewer as viewer_pages

log = structlog.get_logger()


def open_store(settings: Settings) -> EventStore:
    if settings.is_sqlite:
        from loveletter.events.sqlite_store import SqliteStore

        return SqliteStore(settings.sqlite_path, settings.durability)
    if settings.database_url.startswith(("postgresql://", "postgres://")):
        from loveletter.events.postgres_store import PostgresStore

        return PostgresStore(settings.database_url)
    raise ValueError(f"unsupported database URL {settings.database_url!r} (sqlite:///… or postgresql://…)")


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
        timing=Timing(
            settings.clock_poll,
            settings.stream_keep_alive,
            settings.clock_rescan,
            settings.join_seconds,
            settings.open_seat_seconds,
            settings.challenge_seconds,
        ),
        owns_store=owned,
        identified=_seat_in_log,
        **({"clock": clock} if clock is not None else {}),
    )
    redact_access_log()  # a stream's ?token= stays out of uvicorn's access log, when it is on
    watchers: list[Callable[[str], None]] = []

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # A move allocates many short-lived tuples and events but makes no reference cycles worth chasing:
        # move what start-up built out of the collector's sight and collect the young generation rarely.
        gc.freeze()
        gc.set_threshold(50_000, 20, 100)
        await referee.start()  # turn clocks, the seek queue's pairing
        TALLY.watchers.extend(watchers)  # the limits' refusals, counted by this app's metrics
        yield
        for watcher in watchers:
            TALLY.watchers.remove(watcher)
        await referee.stop()  # and the expert's worker processes, and the store it opened

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
    app.include_router(rulings_page.router)  # GET /rulings: the rulings an answer links to (`/rulings#s5`)
    app.state.referee = referee
    problems.install(app)

    guard = Guard(settings)  # rate limits, in-flight and stream caps: outside RequestContext
    if settings.shared_limits and isinstance(the_store, Shared):
        guard.shared = app.state.shared_limits = the_store  # every worker's and host's limits are one (PostgreSQL)
    answered = None
    if settings.metrics != "off":
        watched = Metrics()
        the_store.commit_observer = watched.commits.observe
        watchers.append(watched.limit_hit)

        def answered(method: str, route: str | None, status: int, seconds: float) -> None:
            watched.answered(method, route, status, seconds, app.moves_route.path if app.moves_route else None)

        metrics.install(app, watched, guard, anyone=settings.metrics == "open")
    # Built once, around both ways in (the move route's shortcut and FastAPI's stack; api/moves.py).
    app.add_middleware(
        RequestContext, max_body=settings.max_body_bytes, level=settings.request_log_level, answered=answered
    )
    app.add_middleware(Limits, guard=guard)
    app.state.guard = guard
    app.state.creation_refill = settings.creation_refill  # the accounts', challenges' and seeks' `Throttle`s

    for resource in (
        service,
        games,
        lobby,
        audits,
        rulings,
        replays,
        simulations,
        accounts,
        ladder,
        challenges,
        analyses,
        standing,  # GET /accounts/{id}/history, POST /accounts/holder: the account page and My games
        account_streams,
        seeks,
    ):
        app.include_router(resource.router)
    app.moves_route = next(r for r in games.moves.router.routes if isinstance(r, APIRoute) and r.name == "play_move")
    app.moves = games.moves.shortcut(lambda: app.state.referee)
    app.state.body_limits = audits.BODY_LIMITS | replays.BODY_LIMITS | simulations.BODY_LIMITS | analyses.BODY_LIMITS
    documented = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's document, plus the definitions the answers refer to."""
        if app.openapi_schema is None:
            complete(documented())
        return app.openapi_schema or documented()

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _seat_in_log(game_id: str, seat: int) -> None:
    """The referee found a token to be a seat's: the request's log line names the game and the seat."""
    structlog.contextvars.bind_contextvars(game_id=game_id, seat=seat)


def operation_id(route: APIRoute) -> str:
    """A route's operation id is its handler's name (`create_game`, `play_move`…): what a generated client names its
    methods after, so it is short and says what the call does."""
    return route.name
