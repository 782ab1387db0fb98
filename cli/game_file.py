"""One game read from a file for the commands that look inside a single game (`show`, `explain`): its events from a
log or a transcript (the one `--game` picks in a log of several), and the point in it that `--at` names. Every
failure is a one-line error (exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, NoReturn

from loveletter.cli.failures import fail, fail_with


def load_events(file: Path, game: int | None = None) -> list[Any]:
    """The events of one game in a log or a transcript: the only one, or the `game`-th (counted from 1, as `replay`
    and `audit` number them) of a log holding several (one-line error, exit 2, if unreadable or not there)."""
    from loveletter.replays.one_game import NO_SUCH_GAME, SEVERAL, NotOneGame, one_game
    from loveletter.replays.report import Unreadable, read_input

    try:
        data, doc = read_input(str(file))
        return one_game(data if doc is None else doc, str(file), game)
    except NotOneGame as exc:
        if exc.reason == SEVERAL:
            n = exc.games
            fail(
                f"{file} holds {n} games; pick one with --game (1 to {n}, as replay numbers them)",
                f"{file} contient {n} parties ; choisissez-en une avec --game (de 1 à {n}, comme replay les numérote)",
            )
        if exc.reason == NO_SUCH_GAME:
            _no_such_game(file, game or 1, exc.games)
        fail_with(exc)
    except Unreadable as exc:
        fail_with(exc)


def _no_such_game(file: Path, game: int, count: int) -> NoReturn:
    fail(
        f"--game {game}: {file} has no game {game}; it holds {count}, the first being game 1",
        f"--game {game} : {file} n'a pas de partie {game} ; il en contient {count}, la première étant la partie 1",
    )


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
