"""A game, one resource in one room: everything under `/games/{game_id}` — the game created and read (`table`), the
state at a point (`state`), its seats (`seats`), its moves (`moves`) and its event stream (`stream`). The lobby's
list of public games is the lobby's (`api.routes.lobby`)."""

from __future__ import annotations

from fastapi import APIRouter

from loveletter.api.routes.games import moves, seats, state, stream, table

router = APIRouter()
for part in (table, moves, seats, state, stream):
    router.include_router(part.router)
