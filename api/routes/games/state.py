"""What the caller could see at any point of a game: `GET /games/{id}/state?at=SEQ` answers what `loveletter show
--at SEQ --seat NAME` prints, for the caller's seat (a spectator as far as the game's spectator delay lets them);
`full=true`, or the admin token, the whole state once the game is over (or for the admin)."""

from __future__ import annotations

from typing import Annotated, Any

import orjson
from fastapi import APIRouter, Query
from fastapi.responses import Response

from loveletter.api.openapi import answers, problem
from loveletter.api.routes.deps import OPTIONAL, GameId, RefereeDep, SeatOrAdminToken
from loveletter.api.routes.games.answers import JSON, PRIVATE
from loveletter.api.routes.replies import reply
from loveletter.client.answers import SeatAt

router = APIRouter(tags=["games"])

STATE_EXAMPLE: dict[str, Any] = {
    "game_id": "g_TxbfBms_7EMRga6P",
    "at": 5,
    "version": 128,
    "seat": 0,
    "view": {
        "seat": 0,
        "ruleset": "2019",
        "options": {"tie_2012": "nobody", "guard_unknown": "refuse"},
        "round": 1,
        "phase": "resolving",
        "active": 0,
        "deck_size": 14,
        "set_aside_face_down": True,
        "face_up": ["handmaid", "guard", "guard"],
        "seats": [
            {
                "seat": 0,
                "name": "Ann",
                "favors": 0,
                "in_round": True,
                "protected": False,
                "hand_size": 1,
                "front": ["baron"],
                "known_hand": None,
                "in_game": True,
                "open": False,
            },
            {
                "seat": 1,
                "name": "Bo",
                "favors": 0,
                "in_round": True,
                "protected": False,
                "hand_size": 1,
                "front": [],
                "known_hand": "handmaid",
                "in_game": True,
                "open": False,
            },
        ],
        "hand": ["spy"],
        "deck_known": [],
        "unseen": {
            "spy": 1,
            "guard": 4,
            "priest": 2,
            "baron": 1,
            "handmaid": 0,
            "prince": 2,
            "chancellor": 2,
            "king": 1,
            "countess": 1,
            "princess": 1,
        },
        "round_winners": [],
        "winners": [],
        "version": 5,
        "clock": None,
        "aborted": False,
    },
}
"""What Ann could see after seq 5 of a real game (a whole view, as `GET /games/{id}` gives it)."""
OUT_OF_RANGE_EXAMPLE: dict[str, Any] = {
    "type": "https://loveletter-referee.example/problems/at_out_of_range",
    "title": "No such point",
    "status": 422,
    "detail": "at: a seq from 1 to 6, not 99",
    "code": "at_out_of_range",
    "errors": [{"field": "at", "type": "less_than_equal", "message": "a seq from 1 to 6"}],
}


@router.get(
    "/games/{game_id}/state",
    openapi_extra=OPTIONAL,
    responses=answers(SeatAt, 403, 404, 422, example=STATE_EXAMPLE)
    | {422: problem(422, OUT_OF_RANGE_EXAMPLE, "A point out of range")},
)
async def get_state(
    game_id: GameId,
    token: SeatOrAdminToken,
    referee: RefereeDep,
    at: Annotated[int | None, Query(description="the seq to look at (default: the current version)")] = None,
    full: Annotated[bool, Query(description="the whole state: once the game is over, or for the admin")] = False,
) -> Response:
    """What the caller's seat (spectator without a token, as far as the game's spectator delay lets them) could
    see after seq `at`; `full=true`, or the admin token, gives the whole state (every hand, the deck) — only once
    the game is over or for the admin."""
    reader = await referee.reader(game_id, token, asker="seat_or_admin")
    body = await reader.state_at(at, full=full)
    if "state" in body:  # the whole state: orjson as it is (its keys are not all strings the reply's way)
        return Response(orjson.dumps(body), media_type=JSON, headers=PRIVATE)
    return reply(body, headers=PRIVATE)
