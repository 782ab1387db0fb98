"""`loveletter serve`: run the HTTP referee with uvicorn (one worker on SQLite, several on PostgreSQL)."""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from typing import Any

import uvicorn

from loveletter.core.lang import BilingualError, Text
from loveletter.events.sqlite_store import DatabaseInUse, ensure_free
from loveletter.server.settings import Settings


class ServeError(BilingualError):
    pass


def serve(settings: Settings, lang: str = "en") -> None:
    """Start uvicorn with `settings`; worker processes read the same settings from the environment."""
    if not settings.is_sqlite and not settings.database_url.startswith(("postgresql://", "postgres://")):
        raise ServeError(
            Text(
                f"unsupported database URL {settings.database_url!r} (sqlite:///… or postgresql://…)",
                f"adresse de base de données non prise en charge « {settings.database_url} » "
                "(sqlite:///… ou postgresql://…)",
            )
        )
    if settings.workers > 1 and settings.is_sqlite:
        raise ServeError(
            Text(
                "several workers need PostgreSQL: set LOVELETTER_DATABASE_URL=postgresql://… "
                "(SQLite serves one worker)",
                "plusieurs processus demandent PostgreSQL : réglez LOVELETTER_DATABASE_URL=postgresql://… "
                "(SQLite ne sert qu'un processus)",
            )
        )
    if settings.is_sqlite:
        try:
            ensure_free(settings.sqlite_path)
        except DatabaseInUse as exc:
            raise in_use(exc) from None
    for name, value in settings.model_dump().items():
        if value is not None:
            os.environ[f"LOVELETTER_{name.upper()}"] = str(value)
    store = settings.sqlite_path if settings.is_sqlite else settings.database_url.split("@")[-1]
    kind = "SQLite" if settings.is_sqlite else "PostgreSQL"
    url = f"http://{settings.host}:{settings.port}"
    said = Text(
        f"Love Letter Referee listening on {url}  (store: {kind} {store}, workers: {settings.workers}; "
        "API docs at /docs)",
        f"Arbitre Love Letter à l'écoute sur {url}  (stockage : {kind} {store}, processus : {settings.workers} ; "
        "documentation de l'API sur /docs)",
    )
    print(said(lang), file=sys.stderr, flush=True)
    shared = None
    if settings.workers > 1 and settings.metrics != "off" and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        # the workers' counters, summed by whichever worker answers GET /metrics (server/metrics.py)
        shared = tempfile.mkdtemp(prefix="loveletter-metrics-")
        os.environ["PROMETHEUS_MULTIPROC_DIR"] = shared
    try:
        uvicorn.run(
            "loveletter.server.app:create_app",
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            log_level="warning",
            access_log=False,
            **server_options(settings),
        )
    except DatabaseInUse as exc:  # another process took the file since the check above
        raise in_use(exc) from None
    finally:
        if shared is not None:
            shutil.rmtree(shared, ignore_errors=True)


def in_use(exc: DatabaseInUse) -> ServeError:
    """A second referee on a SQLite file another one serves (it would answer from a stale cache): refused."""
    en_by = f" (process {exc.holder})" if exc.holder else ""
    fr_by = f" (processus {exc.holder})" if exc.holder else ""
    return ServeError(
        Text(
            f"the SQLite database {exc.path} is in use by another referee{en_by}: one SQLite file serves one "
            "process. Stop the other one, or give this one its own file (--database-url sqlite:///…); for several "
            "workers, use PostgreSQL (--database-url postgresql://…, or LOVELETTER_DATABASE_URL)",
            f"la base SQLite {exc.path} est déjà utilisée par un autre arbitre{fr_by} : un fichier SQLite ne sert "
            "qu'un processus. Arrêtez l'autre, ou donnez à celui-ci son propre fichier (--database-url "
            "sqlite:///…) ; pour plusieurs processus, utilisez PostgreSQL (--database-url postgresql://…, ou "
            "LOVELETTER_DATABASE_URL)",
        )
    )


def server_options(settings: Settings, protocol: Any = None) -> dict[str, Any]:
    """uvicorn's options for the referee's timeouts and limits (docs/reliability.md): its HTTP protocol with
    deadlines for reading a request (`server.deadlines`; by name, for worker processes, unless `protocol` is given: a
    class from `server.deadlines.protocol_class`, for a server in this process), the keep-alive timeout, h11's cap on a
    request's head, and how long open requests and streams get when the server stops."""
    from loveletter.server.deadlines import HTTP_PROTOCOL

    return {
        "http": protocol if protocol is not None else HTTP_PROTOCOL,
        "timeout_keep_alive": settings.keep_alive_timeout,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "timeout_graceful_shutdown": settings.shutdown_timeout,
        "proxy_headers": True,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
        "ws": "none",  # the referee has no WebSocket route: uvicorn need not load a WebSocket library at start
    }
