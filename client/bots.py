"""Bots: a bot is a function (or an object with `choose`) that is given the seat's `Game` — its view and its legal
moves — and answers one of those moves. `play` plays a seat with it over HTTP until the game ends, woken by the
game's event stream (never polling); `load` finds a bot by `module:name`, as `loveletter bot run` is told."""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from typing import Any, Protocol, Union

from loveletter.client.models import Game, LegalMove
from loveletter.client.sync import Client


class BotObject(Protocol):
    def choose(self, game: Game) -> LegalMove | int: ...


Bot = Union[Callable[[Game], Union[LegalMove, int]], BotObject]


def decide(bot: Bot, game: Game) -> LegalMove | int:
    choose = getattr(bot, "choose", None)
    return choose(game) if callable(choose) else bot(game)  # type: ignore[operator]


def play(seat: Client, game_id: str, bot: Bot) -> Game:
    """Play the seat of `seat` (a client with that seat's token) until the game is over: the final game."""
    game = seat.game(game_id)
    if game.your_turn and not game.over:
        seat.play(game_id, decide(bot, game))
    for event in seat.stream(game_id):
        if event.seq < game.version:
            continue  # the stream's beginning: events the seat has already answered
        game = seat.game(game_id)
        if game.over:
            break
        if game.your_turn:
            seat.play(game_id, decide(bot, game))
    return seat.game(game_id)


def load(spec: str) -> Bot:
    """The bot named `module:name` (a class is made into an instance); the current directory is importable, as
    with `python -m`, so a bot file beside the caller needs no installing."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise ValueError(f"a bot is named MODULE:NAME, not {spec!r}")
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    found: Any = getattr(importlib.import_module(module_name), attribute)
    return found() if isinstance(found, type) else found  # type: ignore[no-any-return]
