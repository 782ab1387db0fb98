"""`loveletter serve`: run the HTTP referee with uvicorn (one worker on SQLite, several on PostgreSQL)."""

from __future__ import annotations

import os
import sys
from typing import Any

import uvicorn

from loveletter.api.settings import Settings
from loveletter.core.lang import BilingualError, Text


class ServeError(BilingualError):
    pass


def serve(settings: Settings, lang: str = "en") -> None:
    """Start uvicorn with `settings`; worker processes read the same settings from the environment."""
    if not settings.is_sqlite and not settings.database_url.startswith(("postgresql://", "postgres://")):
        raise ServeError(
            Text(
                f"unsupported database URL {settings.database_url!r} (sqlite:///… or postgresql://…)",
                f"adresse de base de données non prise en charge « {settings.database_url} » "
                "(sqlite:///… ou postgresql://…)",
            )
        )
    if settings.workers > 1 and settings.is_sqlite:
        raise ServeError(
            Text(
                "several workers need PostgreSQL: set LOVELETTER_DATABASE_URL=postgresql://… "
                "(SQLite serves one worker)",
                "plusieurs processus demandent PostgreSQL : réglez LOVELETTER_DATABASE_URL=postgresql://… "
                "(SQLite ne sert qu'un processus)",
            )
        )
    for name, value in settings.model_dump().items():
        if value is not None:
            os.environ[f"LOVELETTER_{name.upper()}"] = str(value)
    store = settings.sqlite_path if settings.is_sqlite else settings.database_url.split("@")[-1]
    kind = "SQLite" if settings.is_sqlite else "PostgreSQL"
    url = f"http://{settings.host}:{settings.port}"
    said = Text(
        f"Love Letter Referee listening on {url}  (store: {kind} {store}, workers: {settings.workers}; "
        "API docs at /docs)",
        f"Arbitre Love Letter à l'écoute sur {url}  (stockage : {kind} {store}, processus : {settings.workers} ; "
        "documentation de l'API sur /docs)",
    )
    print(said(lang), file=sys.stderr, flush=True)
    uvicorn.run(
        "loveletter.api.app:create_app",
        factory=True,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        log_level="warning",
        access_log=False,
        **server_options(settings),
    )


def server_options(settings: Settings, protocol: Any = None) -> dict[str, Any]:
    """uvicorn's options for the referee's timeouts and limits (docs/reliability.md): its HTTP protocol with
    deadlines for reading a request (`api.limits`; by name, for worker processes, unless `protocol` is given: a
    class from `api.limits.protocol_class`, for a server in this process), the keep-alive timeout, h11's cap on a
    request's head, and how long open requests and streams get when the server stops."""
    from loveletter.api.limits import HTTP_PROTOCOL

    return {
        "http": protocol if protocol is not None else HTTP_PROTOCOL,
        "timeout_keep_alive": settings.keep_alive_timeout,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "timeout_graceful_shutdown": settings.shutdown_timeout,
    }
