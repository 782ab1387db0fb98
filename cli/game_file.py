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
    from loveletter.events.log import LogFormatError, read_games
    from loveletter.replays.report import Unreadable, read_input
    from loveletter.replays.transcript import TranscriptFormatError, expand

    try:
        data, doc = read_input(str(file))
        if doc is not None:
            if game not in (None, 1):
                _no_such_game(file, game, 1)
            return list(expand(doc).events)
        games: list[Any] = []
        for games_read, log in enumerate(read_games(data.splitlines()), start=1):
            games.append(log)
            if games_read == game:
                return list(log.entries)
    except TranscriptFormatError as exc:
        fail(f"transcript {exc.message('en')}", f"transcription {exc.message('fr')}")
    except (Unreadable, LogFormatError) as exc:
        fail_with(exc)
    if game is not None:
        _no_such_game(file, game, len(games))
    if len(games) != 1:
        fail(
            f"{file} holds {len(games)} games; pick one with --game (1 to {len(games)}, as replay numbers them)",
            f"{file} contient {len(games)} parties ; choisissez-en une avec --game (de 1 à {len(games)}, comme "
            "replay les numérote)",
        )
    return list(games[0].entries)


def _no_such_game(file: Path, game: int, count: int) -> NoReturn:
    fail(
        f"--game {game}: {file} has no game {game}; it holds {count}, the first being game 1",
        f"--game {game} : {file} n'a pas de partie {game} ; il en contient {count}, la première étant la partie 1",
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
