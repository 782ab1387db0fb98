"""The routes' typed dependencies: the referee, a game id read from the path, and the bearer credentials.

The credentials are declared with `HTTPBearer(auto_error=False)`, so the OpenAPI document names the security
scheme each route takes (`seat`: a seat's or the organiser's token; `admin`: an admin token) and a generated client
sends its token by itself; the header is read by `api.parse`, so a missing or malformed one gets the project's own
401 problem, not FastAPI's. Every dependency is `async def`: FastAPI runs a plain `def` in a thread pool, which
costs more than the dependency itself."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from loveletter.api import parse
from loveletter.referee.referee import Referee

SEAT = HTTPBearer(
    auto_error=False,
    scheme_name="seat",
    description="a seat token (each seat's, from the game's creation or a join), or the game's organiser token",
)
ADMIN = HTTPBearer(auto_error=False, scheme_name="admin", description="an admin token of the referee's settings")
Scheme = Annotated[HTTPAuthorizationCredentials | None, Depends(SEAT)]
AdminScheme = Annotated[HTTPAuthorizationCredentials | None, Depends(ADMIN)]


async def referee(request: Request) -> Referee:
    """The app's referee (`app.state.referee`, set by the app factory)."""
    found: Referee = request.app.state.referee
    return found


async def game_id(game_id: str) -> str:
    """The path's game id: one the referee could have issued, or 404 without asking the store."""
    return parse.game_id(game_id)


def _token(request: Request) -> str | None:
    return parse.bearer(request.headers.get("authorization"))


async def seat_token(request: Request, _: Scheme) -> str | None:
    """A seat's (or the organiser's) bearer token, if one was sent."""
    return _token(request)


async def admin_token(request: Request, _: AdminScheme) -> str | None:
    """An admin's bearer token, if one was sent."""
    return _token(request)


async def any_token(request: Request, _seat: Scheme, _admin: AdminScheme) -> str | None:
    """A seat's, the organiser's or an admin's bearer token, if one was sent."""
    return _token(request)


OPTIONAL: dict[str, Any] = {"security": [{}]}
"""`openapi_extra` of a route whose credential may be left out (a spectator reads a game without a token): FastAPI
lists the schemes of its dependencies, and this adds the empty requirement, OpenAPI's "or none"."""

RefereeDep = Annotated[Referee, Depends(referee)]
GameId = Annotated[str, Depends(game_id)]
SeatToken = Annotated[str | None, Depends(seat_token)]
AdminToken = Annotated[str | None, Depends(admin_token)]
SeatOrAdminToken = Annotated[str | None, Depends(any_token)]
