"""A typed client of the referee's HTTP API, blocking (`Client`) and asyncio (`AsyncClient`), so bots and tools
never write HTTP, server-sent events, tokens, retries or problem parsing by hand (docs/client.md).

Each call is described once, without I/O, in `loveletter.client.calls` (method, path, body, answer model, retries);
the two faces (`sync`, `aio`) only carry the descriptions out.

It imports nothing of the server: the answers' shapes are its own (`loveletter.client.models` and
`loveletter.client.answers`, which the server declares its OpenAPI document with), and the rules core's `Card` is
accepted wherever a card is named.

Its names are imported at their first use (`__getattr__`): the server imports the answers' models from this package
and must not pay for the HTTP client's libraries at every start."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOMES = {
    "Accepted": "account_models",
    "AccountEvent": "account_models",
    "AsyncClient": "aio",
    "Challenge": "account_models",
    "Client": "sync",
    "Created": "models",
    "CreatedSeat": "models",
    "Event": "models",
    "Events": "models",
    "Game": "models",
    "Joined": "models",
    "LegalMove": "models",
    "LobbyGame": "models",
    "LobbyNews": "models",
    "LobbyPage": "models",
    "LobbySeat": "models",
    "MoveResult": "models",
    "RefereeError": "errors",
    "Rematch": "models",
    "RetryPolicy": "_common",
    "RuleRefusal": "errors",
    "SeatView": "models",
    "Seek": "account_models",
    "View": "models",
}


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'loveletter.client' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"loveletter.client.{_HOMES[name]}"), name)
    globals()[name] = value
    return value


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
