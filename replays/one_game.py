"""One game from a log or a transcript: what `loveletter explain` and `show` read, and the HTTP rulings and replay
viewer (`POST /rulings`, `POST /replays/views`).

A source is a JSONL log (text or bytes) that must hold exactly one game, or a transcript (its JSON text, or the
object already read). Its events come back as the log has them (`Entry`, with their lines) or, for a transcript,
as the events it expands to. Whatever keeps the source from being one game is a `NotOneGame` saying why in both
languages.
"""

from __future__ import annotations

from typing import Any

import orjson

from loveletter.core.catalogue import Event
from loveletter.core.lang import BilingualError, Text, plural_en, plural_fr
from loveletter.events.log import Entry, LogFormatError, read_games
from loveletter.replays.transcript import TranscriptFormatError, expand, is_transcript, transcript_in

THE_LOG = Text("the log", "le journal")


class NotOneGame(BilingualError):
    """A source that is not one readable game. `kind` is the closest pydantic error type, for an HTTP answer that
    names the field the source came in."""

    def __init__(self, text: Text, kind: str = "value_error", *, reason: str | None = None, games: int = 1) -> None:
        super().__init__(text)
        self.kind = kind
        self.reason = reason
        """SEVERAL or NO_SUCH_GAME where a reader that can pick a game would name its option; else None."""
        self.games = games
        """How many games the source holds."""


SEVERAL = "several_games"
NO_SUCH_GAME = "no_such_game"


def one_game(
    source: bytes | str | dict[str, Any], called: Text | str = THE_LOG, game: int | None = None
) -> list[Entry] | list[Event]:
    """The events of the one game in `source`, or of its `game`-th (counted from 1, as `replay` and `audit` number
    them) when it holds several; `called` is how a message names it (a file's path, say)."""
    name = Text(called, called) if isinstance(called, str) else called
    doc: Any = source
    if isinstance(source, (bytes, str)):
        try:
            doc = transcript_in(source)
        except orjson.JSONDecodeError as exc:
            raise NotOneGame(
                Text(
                    f"the transcript is not JSON: {exc}",
                    f"la transcription n'est pas du JSON valide (ligne {exc.lineno}, colonne {exc.colno})",
                ),
                "json_invalid",
            ) from None
    if is_transcript(doc):
        if game not in (None, 1):
            raise _no_such_game(name, game, 1)
        return _transcript_events(doc)
    if not isinstance(source, (bytes, str)):
        raise NotOneGame(
            Text(
                "a JSONL log as text, or a transcript object",
                "un journal JSONL sous forme de texte, ou un objet de transcription",
            ),
            "string_type",
        )
    try:
        games = list(read_games(source.splitlines()))
    except LogFormatError as exc:
        raise NotOneGame(exc.text) from None
    if game is not None and not 1 <= game <= len(games):
        raise _no_such_game(name, game, len(games))
    if game is None and len(games) != 1:
        raise NotOneGame(
            Text(
                f"{name.en} holds {plural_en(len(games), 'game', 'games')}; one game is read at a time",
                f"{name.fr} contient {plural_fr(len(games), 'partie', 'parties')} ; une seule partie est lue à la fois",
            ),
            reason=SEVERAL,
            games=len(games),
        )
    entries = list(games[(game or 1) - 1].entries)
    if not entries:
        raise NotOneGame(Text("the game has no event", "la partie ne contient aucun événement"))
    return entries


def _no_such_game(name: Text, game: int, count: int) -> NotOneGame:
    return NotOneGame(
        Text(
            f"{name.en} has no game {game}; it holds {count}, the first being game 1",
            f"{name.fr} n'a pas de partie {game} ; il en contient {count}, la première étant la partie 1",
        ),
        reason=NO_SUCH_GAME,
        games=count,
    )


def _transcript_events(doc: dict[str, Any]) -> list[Event]:
    try:
        expansion = expand(doc)
    except TranscriptFormatError as exc:
        reason = exc.text
        raise NotOneGame(Text(f"transcript {reason.en}", f"transcription {reason.fr}")) from None
    events = list(expansion.events)
    if not events:
        raise NotOneGame(Text("the transcript holds no event", "la transcription ne contient aucun événement"))
    return events
