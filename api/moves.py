"""`RefereeApp`: FastAPI, with the move route's shortcut taken inside the one middleware stack.

The middleware (`Limits`, `RequestContext`) is built once, by FastAPI, around both ways in: a request for the
declared move route (`api.routes.moves.play_move`, matched by that route's own path pattern and method) goes to its
`shortcut`, a plain ASGI handler answering from the same declaration; every other request goes on to FastAPI's own
error handling, routing and exception handlers. A move also skips FastAPI's per-request telemetry check, which cost
it more than the rest of the way in. Under a root path every request takes FastAPI's way."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.routing import APIRoute
from starlette.types import ASGIApp, Receive, Scope, Send


class RefereeApp(FastAPI):
    """FastAPI whose user middleware wraps a dispatch: `moves` (set by `create_app`; None turns the shortcut off)
    answers requests for the declared `moves_route`, FastAPI's stack everything else."""

    moves: ASGIApp | None = None
    moves_route: APIRoute | None = None

    def build_middleware_stack(self) -> ASGIApp:
        user, self.user_middleware = self.user_middleware, []
        try:
            app: ASGIApp = _Dispatch(self, super().build_middleware_stack())
        finally:
            self.user_middleware = user
        for cls, args, kwargs in reversed(user):
            app = cls(app, *args, **kwargs)
        return app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = self.moves_route
        if (
            self.moves is not None
            and route is not None
            and scope["type"] == "http"
            and scope["method"] == "POST"
            and not scope.get("root_path")
            and (match := route.path_regex.match(scope["path"])) is not None
        ):
            scope["app"] = self
            scope["path_params"] = match.groupdict()
            scope["route"] = route  # what the dispatch below, and the request's log line, read
            if self.middleware_stack is None:
                self.middleware_stack = self.build_middleware_stack()
            await self.middleware_stack(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


class _Dispatch:
    """The innermost of the user middleware: the move route's shortcut, or FastAPI's own stack."""

    def __init__(self, app: RefereeApp, fastapi: ASGIApp) -> None:
        self.owner = app
        self.fastapi = fastapi

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        moves = self.owner.moves
        if moves is not None and scope.get("route") is self.owner.moves_route is not None:
            await moves(scope, receive, send)
            return
        await self.fastapi(scope, receive, send)
