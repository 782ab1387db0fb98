"""The audit's fast path: a clean game proved by regenerating it, line for line.

A log this referee wrote is, byte for byte, what the rules regenerate from its decisions: the canonical line
of every event `decide` derives, numbered from 1 and chained to the SHA-256 of the raw line before it, every
deck derived from the revealed server seed. So instead of validating each line field by field and then judging
it again, `regenerate` judges each decision once and compares whole lines. Equal bytes prove everything the full
audit checks about a line at once — its schema, its seq, its chain link, its deck's derivation and its outcome —
because a line equal to a regenerated one is a valid one.

Anything else returns None: one differing byte, a scenario's given deals, a seed not revealed, a log written by
another program in another key order. The game then goes through the full audit (`replays.audit_game.audit_game`),
which is the authority and explains what is wrong. This path can only ever say "valid", never explain, so its
only risk is speed, and `tests/test_audit_regenerate.py` checks that both paths give the same report.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from loveletter.core.cards import Card
from loveletter.core.catalogue import GameStarted, SeedRevealed
from loveletter.core.chance import commitment, committed_deal
from loveletter.core.commands import Command, DealRound, PlayCard, ReturnCards
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all
from loveletter.core.state import INITIAL, GameState, Transient
from loveletter.events.codec import decode, dumps, event_line
from loveletter.events.log import FORMAT, SIGNATURE_FORMAT, Header, digest, parse_header
from loveletter.replays.decisions import command_of
from loveletter.replays.replay import header_problems


@dataclass(frozen=True, slots=True)
class Regenerated:
    """What a proved game's audit reports: every fact the full audit would have found."""

    header: Header
    events: int
    rounds: int
    state: GameState
    last_hash: str
    last_line: int
    signature: dict[str, Any] | None
    signature_line: int | None


class _Differs(Exception):
    """The log is not exactly the regenerated game: leave it to the full audit."""


def regenerate(lines: Sequence[bytes], first_line: int) -> Regenerated | None:
    """`lines` hold one game (its header line first, numbered `first_line`); the proof that every line is
    exactly the one the rules regenerate, or None."""
    try:
        return _regenerate(lines, first_line)
    except Exception:  # any doubt at all, a malformed line included: the full audit decides and explains
        return None


def _object(raw: bytes) -> dict[str, Any]:
    data = orjson.loads(raw)
    if type(data) is not dict:
        raise _Differs
    return data


def _regenerate(lines: Sequence[bytes], first_line: int) -> Regenerated:
    head = _object(lines[0])
    if head.get("format") != FORMAT or dumps(head) != lines[0]:
        raise _Differs
    header = parse_header(first_line, head)
    end = len(lines)
    last = _object(lines[-1])
    signature = last if last.get("format") == SIGNATURE_FORMAT else None
    if signature is not None:
        end -= 1
    started, reveal = decode(_object(lines[1])), decode(_object(lines[end - 1]))
    if not isinstance(started, GameStarted) or not isinstance(reveal, SeedRevealed) or started.scenario:
        raise _Differs
    if header_problems(header, started, first_line):
        raise _Differs
    server_seed = bytes.fromhex(reveal.seed)
    if len(server_seed) != 32 or commitment(server_seed) != started.seed_commitment:
        raise _Differs

    state = INITIAL.thaw()
    sha256, line_of = hashlib.sha256, event_line
    prev = digest(lines[0])
    seq, pos, rounds = 0, 1, 0
    while pos < end:
        command = _command(_object(lines[pos]), state, server_seed)
        expected = decide(state, command)
        if pos + len(expected) > end:
            raise _Differs  # the log stops inside this move
        for event in expected:
            raw = lines[pos]
            seq += 1
            if raw != line_of(event, seq, prev):
                raise _Differs
            prev = sha256(raw).hexdigest()
            pos += 1
        rounds += type(command) is DealRound
        apply_all(state, expected)
    return Regenerated(
        header,
        seq,
        rounds,
        state.freeze(),
        prev,
        first_line + end - 1,
        signature,
        first_line + end if signature is not None else None,
    )


def _command(data: dict[str, Any], state: Transient, server_seed: bytes) -> Command:
    """The decision a line records. The frequent ones are read by hand with exact types (a `true` is no seat
    number), the rare ones through the validating decoder; a deal is derived, not read."""
    kind = data.get("type")
    if kind == "card_played":
        target, guess = data.get("target"), data.get("guess")
        return PlayCard(
            _seat(data.get("player")),
            _card(data.get("card")),
            None if target is None else _seat(target),
            None if guess is None else _card(guess),
        )
    if kind == "chancellor_returned":
        bottom = data.get("bottom")
        if type(bottom) is not list:
            raise _Differs
        return ReturnCards(_seat(data.get("player")), _card(data.get("kept")), tuple(_card(c) for c in bottom))
    if kind == "round_started":
        return committed_deal(state, server_seed)
    command = command_of(decode(data))
    if command is None:
        raise _Differs
    return command


def _seat(value: Any) -> int:
    if type(value) is not int:
        raise _Differs
    return value


_CARDS: dict[str, Card] = {card.value: card for card in Card}


def _card(value: Any) -> Card:
    card = _CARDS.get(value) if type(value) is str else None
    if card is None:
        raise _Differs
    return card
