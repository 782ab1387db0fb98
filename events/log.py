"""The JSONL game log: one header line, then one event per line; a file may hold several games.

    {"format":"loveletter-log","version":1,"ruleset":"2019","players":["Ann","Bob"],"options":{...}}
    {"prev":"<sha-256 of the header line>","seq":1,"type":"game_started","v":1,...}
    {"prev":"<sha-256 of the line before>","seq":2,"type":"round_started","v":1,...}
    {"format":"loveletter-signature","version":1,"hash":"<sha-256 of the last line>",...}

Every line is canonical JSON (sorted keys). `seq` counts a game's events from 1; `prev` chains each
event to the line before it; an exported log ends with the referee's signature. A new header line
starts the next game. Reading never raises anything but `LogFormatError`, which names the line.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import orjson

from loveletter.core.catalogue import Event, GameStarted
from loveletter.core.lang import BilingualError, Text
from loveletter.events.codec import EventFormatError, decode, dumps, encode, event_line, json_reason, quoted_fr

FORMAT = "loveletter-log"
FORMAT_VERSION = 1
SIGNATURE_FORMAT = "loveletter-signature"
SIGNED_MESSAGE_PREFIX = b"loveletter-log/v1\n"
"""An exported log is signed over this prefix followed by the hex hash of its last line."""
MAX_LINE_BYTES = 1 << 20
NO_GAME = Text(
    "no game in this log (it has no header line)",
    "ce journal ne contient aucune partie (il n'a pas de ligne d'en-tête)",
)


class LogFormatError(BilingualError):
    """A log line that cannot be read, with its 1-based line number."""

    def __init__(self, line: int, message: Text | str) -> None:
        reason = message if isinstance(message, Text) else Text(message, message)
        super().__init__(Text(f"line {line}: {reason.en}", f"ligne {line} : {reason.fr}"))
        self.line = line
        self.reason = reason.en
        self.reason_text = reason


@dataclass(frozen=True, slots=True)
class Header:
    ruleset: str
    players: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)
    game_id: str | None = None

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "ruleset": self.ruleset,
            "players": list(self.players),
            "options": dict(self.options),
        }
        if self.game_id is not None:
            out["game_id"] = self.game_id
        return out

    @classmethod
    def of(cls, started: GameStarted, game_id: str | None = None) -> Header:
        return cls(started.ruleset, started.players, dict(started.options), game_id)


@dataclass(frozen=True, slots=True)
class Entry:
    """One event as read from a log: where it stood, the seq it claimed, the hash of the line before it
    that it carries (`prev`), and the hash of its own line."""

    line: int
    seq: int
    event: Event
    prev: str | None = None
    hash: str = ""


@dataclass(slots=True)
class GameLog:
    header: Header
    header_line: int
    entries: list[Entry] = field(default_factory=list)
    header_hash: str = ""
    signature: dict[str, Any] | None = None
    signature_line: int | None = None

    @property
    def events(self) -> list[Event]:
        return [e.event for e in self.entries]


def digest(line: bytes) -> str:
    """The hash of a line: SHA-256 of its canonical JSON bytes, in hex."""
    return hashlib.sha256(line).hexdigest()


def header_line(header: Header) -> bytes:
    return dumps(header.as_dict())


@dataclass(frozen=True, slots=True)
class Chained:
    """One event placed in its game's hash chain: its body (the event's JSON alone), the hash of the line
    before it, and the full line with its hash."""

    seq: int
    body: bytes
    prev: str
    line: bytes
    hash: str


def chain(events: Iterable[Event], prev: str, first_seq: int = 1) -> list[Chained]:
    """Chain `events` after a line whose hash is `prev` (the header's hash before the first event)."""
    out = []
    for seq, event in enumerate(events, start=first_seq):
        line = event_line(event, seq, prev)
        new = digest(line)
        out.append(Chained(seq, dumps(encode(event)), prev, line, new))
        prev = new
    return out


Signer = Callable[[str], dict[str, str]]
"""Given the hash of a log's last line, the fields of its signature line (algorithm, public_key, signature)."""


def game_lines(
    events: Iterable[Event], header: Header | None = None, first_seq: int = 1, signer: Signer | None = None
) -> Iterator[bytes]:
    """The lines of one game: header, chained events, and a signature line when a `signer` is given.
    The header defaults to one made from `game_started`."""
    events = list(events)
    if header is None:
        if not events or not isinstance(events[0], GameStarted):
            raise ValueError("a log starts with game_started")
        header = Header.of(events[0])
    head = header_line(header)
    yield head
    last = digest(head)
    for item in chain(events, last, first_seq):
        yield item.line
        last = item.hash
    if signer is not None:
        yield dumps({"format": SIGNATURE_FORMAT, "version": 1, "hash": last, **signer(last)})


def write_game(
    fp: IO[bytes], events: Iterable[Event], header: Header | None = None, signer: Signer | None = None
) -> None:
    for line in game_lines(events, header, signer=signer):
        fp.write(line + b"\n")


def parse_header(line_no: int, data: dict[str, Any]) -> Header:
    """The header of a game from its parsed line; `LogFormatError` if it is not one this reader knows."""
    if data.get("version") != FORMAT_VERSION:
        version = data.get("version")
        raise LogFormatError(
            line_no,
            Text(
                f"log format version {version!r} is not supported (expected 1)",
                f"la version {quoted_fr(version)} du format de journal n'est pas prise en charge (attendue : 1)",
            ),
        )
    ruleset, players, options = data.get("ruleset"), data.get("players"), data.get("options", {})
    if not isinstance(ruleset, str):
        raise LogFormatError(
            line_no,
            Text(
                "the header's ruleset must be a string",
                "le jeu de règles (« ruleset ») de l'en-tête doit être une chaîne de caractères",
            ),
        )
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise LogFormatError(
            line_no,
            Text(
                "the header's players must be a list of names",
                "les joueurs (« players ») de l'en-tête doivent être une liste de noms",
            ),
        )
    if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
        raise LogFormatError(
            line_no,
            Text(
                "the header's options must map option names to strings",
                "les options de l'en-tête doivent associer chaque nom d'option à une chaîne de caractères",
            ),
        )
    game_id = data.get("game_id")
    return Header(ruleset, tuple(players), dict(options), game_id if isinstance(game_id, str) else None)


def parse_line(line_no: int, raw: bytes | str) -> dict[str, Any]:
    if len(raw) > MAX_LINE_BYTES:
        raise LogFormatError(
            line_no,
            Text(
                f"line longer than {MAX_LINE_BYTES} bytes",
                f"ligne plus longue que {MAX_LINE_BYTES} octets",
            ),
        )
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        reason = json_reason(exc)
        raise LogFormatError(line_no, Text(f"invalid JSON ({reason.en})", f"JSON invalide ({reason.fr})")) from None
    if not isinstance(data, dict):
        raise LogFormatError(line_no, Text("each line is a JSON object", "chaque ligne doit être un objet JSON"))
    return data


def read_games(lines: Iterable[bytes | str], first_line: int = 1, *, final: bool = True) -> Iterator[GameLog]:
    """The games of a log, in order. Blank lines are skipped; anything unreadable is a `LogFormatError`.
    `first_line` numbers a slice of a bigger file; with `final=False` a slice holding no game is no error."""
    game: GameLog | None = None
    line_no = first_line - 1
    for line_no, raw in enumerate(lines, start=first_line):
        if not raw.strip():
            continue
        data = parse_line(line_no, raw)
        if data.get("format") == FORMAT:
            if game is not None:
                yield game
            game = GameLog(parse_header(line_no, data), line_no, header_hash=digest(dumps(data)))
            continue
        if data.get("format") == SIGNATURE_FORMAT:
            if game is None or game.signature is not None:
                raise LogFormatError(
                    line_no,
                    Text(
                        "a signature line must close a game (after its events, once)",
                        "une ligne de signature doit clore une partie (après ses événements, une seule fois)",
                    ),
                )
            game.signature, game.signature_line = data, line_no
            continue
        if "format" in data:
            raise LogFormatError(
                line_no,
                Text(
                    f"unknown format {data['format']!r} (expected {FORMAT!r})",
                    f"format inconnu {quoted_fr(data['format'])} (attendu : « {FORMAT} »)",
                ),
            )
        if game is None:
            raise LogFormatError(
                line_no, Text("an event before any header line", "un événement avant toute ligne d'en-tête")
            )
        if game.signature is not None:
            raise LogFormatError(
                line_no,
                Text(
                    "an event after the game's signature line",
                    "un événement après la ligne de signature de la partie",
                ),
            )
        seq = data.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise LogFormatError(
                line_no,
                Text(
                    "every event needs a positive integer seq",
                    "chaque événement doit porter un numéro d'ordre (« seq ») entier et positif",
                ),
            )
        try:
            event = decode(data)
        except EventFormatError as exc:
            raise LogFormatError(line_no, exc.text) from None
        prev = data.get("prev")
        if prev is not None and not isinstance(prev, str):
            raise LogFormatError(
                line_no,
                Text(
                    "prev must be a hex string",
                    "le champ « prev » doit être une chaîne hexadécimale",
                ),
            )
        game.entries.append(Entry(line_no, seq, event, prev, digest(dumps(data))))
    if game is None:
        if final:
            raise LogFormatError(max(line_no, 1), NO_GAME)
        return
    yield game


def read_path(path: str) -> list[GameLog]:
    """Every game of a log file; a file that is not UTF-8 JSON lines is a `LogFormatError`."""
    with open(path, "rb") as fp:
        return list(read_games(fp))
