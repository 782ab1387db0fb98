"""`GET /metrics`: the referee's figures in Prometheus' text format, through the `prometheus-client` library.

What is counted as it happens, in every worker: requests by method, route (its template, never the raw path: a game
id in a label would make a series per game) and status, with a latency histogram; moves accepted and refused, and
every refusal by its code and rule id; requests the limits turned away, by code; store commits, with a latency
histogram. What is read when Prometheus asks: the games by status (from the store, the same for every worker), and
this worker's open event streams, the engine's waiting work and the background jobs under way.

With several workers (`LOVELETTER_WORKERS`), `loveletter serve` gives them a directory for the library's
multiprocess mode (`PROMETHEUS_MULTIPROC_DIR`): each worker writes its counters there, and whichever worker answers
a scrape reports the sum over all of them. Who may read the page is a setting (`LOVELETTER_METRICS`): `admin` (an
admin token, the default: the figures say how busy the service is), `open`, or `off`.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

import structlog
from fastapi import Depends, FastAPI, Request
from fastapi.responses import Response
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest, multiprocess
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from loveletter.api.limits import Guard
from loveletter.api.openapi import answers
from loveletter.api.routes.deps import admin_token

MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR"
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
"""Seconds: a move is answered in milliseconds; a review's or an audit's request in seconds."""


class Metrics:
    """One app's metrics, in a registry of its own (the tests run several apps in one process)."""

    def __init__(self) -> None:
        self.shared = bool(os.environ.get(MULTIPROCESS))
        self.registry = CollectorRegistry()
        r = self.registry
        self.requests = Counter(
            "loveletter_http_requests", "HTTP requests answered", ["method", "route", "status"], registry=r
        )
        self.latency = Histogram(
            "loveletter_http_request_duration_seconds",
            "Time to answer an HTTP request, from its head read to its answer sent (a stream: until it ends)",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.moves = Counter("loveletter_moves", "Moves answered, accepted or refused", ["outcome"], registry=r)
        self.refusals = Counter(
            "loveletter_refusals",
            "Requests refused by the referee, by code and rule id",
            ["code", "rule_id"],
            registry=r,
        )
        self.limited = Counter(
            "loveletter_limits_hit", "Requests the limits turned away, by code", ["code"], registry=r
        )
        self.commits = Histogram(
            "loveletter_store_commit_seconds",
            "Time from a command's append handed to the store to its commit acknowledged",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        live: Any = {"multiprocess_mode": "livesum"}
        latest: Any = {"multiprocess_mode": "mostrecent"}
        self.games = Gauge(
            "loveletter_games", "Games in the lobby's index, by status", ["status"], registry=r, **latest
        )
        self.streams = Gauge("loveletter_open_streams", "Event streams open", registry=r, **live)
        self.engine = Gauge(
            "loveletter_engine_waiting", "Engine tasks queued or running, by lane", ["lane"], registry=r, **live
        )
        self.jobs = Gauge("loveletter_jobs", "Background jobs under way, by kind", ["kind"], registry=r, **live)

    def answered(self, method: str, route: str | None, status: int, seconds: float, moves_route: str | None) -> None:
        """One request answered (`RequestContext` calls it): its counts, its latency, and a move's outcome."""
        shown = route or "unmatched"
        self.requests.labels(method, shown, str(status)).inc()
        self.latency.labels(method, shown).observe(seconds)
        said = structlog.contextvars.get_contextvars()
        code = said.get("code")
        if code is not None:
            self.refusals.labels(code, said.get("rule_id") or "").inc()
        if route is not None and route == moves_route and method == "POST":
            self.moves.labels("accepted" if status < 400 else "refused").inc()

    def limit_hit(self, code: str) -> None:
        self.limited.labels(code).inc()

    def sample(self, figures: dict[str, Any], guard: Guard) -> None:
        """The figures read when asked: the referee's (games, engine, jobs) and this worker's open streams."""
        for status, count in figures["games"].items():
            self.games.labels(status).set(count)
        self.streams.set(guard.streams)
        self.engine.labels("urgent").set(figures["engine"]["urgent_waiting"])
        self.engine.labels("background").set(figures["engine"]["background_waiting"])
        for kind, count in figures["jobs"].items():
            self.jobs.labels(kind).set(count)

    def page(self) -> tuple[bytes, str]:
        """The text Prometheus reads: this registry's, or every worker's with several."""
        if self.shared:
            registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(registry)
            return generate_latest(registry), CONTENT_TYPE_LATEST
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


def install(app: FastAPI, metrics: Metrics, guard: Guard, anyone: bool) -> None:
    """`GET /metrics` on `app`: for an admin token, or for anyone (`anyone`: the `open` setting)."""

    @app.get(
        "/metrics",
        tags=["service"],
        responses=answers(
            {"type": "string"},
            401,
            403,
            media="text/plain",
            description="Prometheus' text format (version 0.0.4)",
        ),
    )
    async def read_metrics(request: Request, token: Annotated[str | None, Depends(admin_token)]) -> Response:
        """The referee's figures for Prometheus (docs/operations.md says what each one is). An admin token is
        needed unless the referee's `metrics` setting is `open`."""
        figures = await request.app.state.referee.figures(token, anyone=anyone)
        metrics.sample(figures, guard)
        body, media = metrics.page()
        return Response(body, media_type=media)
