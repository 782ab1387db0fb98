"""A typed client of the referee's HTTP API, blocking (`Client`) and asyncio (`AsyncClient`), so bots and tools
never write HTTP, server-sent events, tokens, retries or problem parsing by hand (docs/client.md).

Each call is described once, without I/O, in `loveletter.client.calls` (method, path, body, answer model, retries);
the two faces (`sync`, `aio`) only carry the descriptions out.

It imports nothing of the server: the answers' shapes are its own (`loveletter.client.models` and
`loveletter.client.answers`, which the server declares its OpenAPI document with), and the rules core's `Card` is
accepted wherever a card is named."""

from loveletter.client._common import RetryPolicy
from loveletter.client.account_models import Accepted, AccountEvent, Challenge, Seek
from loveletter.client.aio import AsyncClient
from loveletter.client.errors import RefereeError, RuleRefusal
from loveletter.client.models import (
    Created,
    CreatedSeat,
    Event,
    Events,
    Game,
    Joined,
    LegalMove,
    LobbyGame,
    LobbyNews,
    LobbyPage,
    LobbySeat,
    MoveResult,
    Rematch,
    SeatView,
    View,
)
from loveletter.client.sync import Client

__all__ = [
    "Accepted",
    "AccountEvent",
    "AsyncClient",
    "Challenge",
    "Client",
    "Created",
    "CreatedSeat",
    "Event",
    "Events",
    "Game",
    "Joined",
    "LegalMove",
    "LobbyGame",
    "LobbyNews",
    "LobbyPage",
    "LobbySeat",
    "MoveResult",
    "RefereeError",
    "Rematch",
    "RetryPolicy",
    "RuleRefusal",
    "SeatView",
    "Seek",
    "View",
]
