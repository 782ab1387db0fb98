"""One game read from a file for the commands that look inside a single game (`show`, `explain`): its events from a
log or a transcript, and the point in it that `--at` names. Every failure is a one-line error (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loveletter.cli.failures import fail, fail_with


def load_events(file: Path) -> list[Any]:
    """The events of the single game in a log or a transcript (one-line error, exit 2, if unreadable)."""
    from loveletter.replays.one_game import NotOneGame, one_game
    from loveletter.replays.report import Unreadable, read_input

    try:
        data, doc = read_input(str(file))
        return one_game(data if doc is None else doc, str(file))
    except (Unreadable, NotOneGame) as exc:
        fail_with(exc)


def seq_at(written: str, events: list[Any]) -> int:
    """--at as an event number or as people say it ("round 2, Bob's third turn"); one-line error otherwise."""
    from loveletter.replays.position import PositionError, turn_seq

    try:
        return turn_seq(events, written)
    except PositionError as exc:
        fail_with(exc)


def check_at(at: int, events: list[Any]) -> None:
    """A point inside the game: after one of its events, 1 to the last (one-line error otherwise)."""
    if not 0 < at <= len(events):
        fail(
            f"--at must be a seq from 1 to {len(events)}", f"--at doit être un numéro d'événement de 1 à {len(events)}"
        )
