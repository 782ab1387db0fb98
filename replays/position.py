"""Positions as people count them: "round 2, Bob's third turn", and whose decision is pending there.

A dispute is argued about a moment of the game, and a table names it by round and turn, not by event number. This
module tells where a (possibly unfinished) game stands, in English and French, and lists every legal completion
of the decision that is pending, so a transcript may stop exactly where the argument stopped.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.catalogue import Event, RoundStarted, TurnStarted
from loveletter.core.evolve import apply
from loveletter.core.lang import BilingualError, Text, de, plural_en
from loveletter.core.legal import legal_moves_as_dicts
from loveletter.core.rulesets import RULESETS
from loveletter.core.state import (
    INITIAL,
    PHASE_CHANCELLOR,
    PHASE_DEAL,
    PHASE_NEW,
    PHASE_OVER,
    PHASE_PLAY,
    GameState,
)
from loveletter.events.log import Entry
from loveletter.replays.moves import describe_move
from loveletter.replays.players import seat_names
from loveletter.replays.replay import check

_ORDINALS_EN = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_ORDINALS_FR = ("premier", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième")


def ordinal(n: int, lang: str = "en") -> str:
    """3 -> "third", « troisième »; past the words, "11th", « 11e »."""
    if lang == "fr":
        return _ORDINALS_FR[n - 1] if 0 < n <= len(_ORDINALS_FR) else f"{n}e"
    if 0 < n <= len(_ORDINALS_EN):
        return _ORDINALS_EN[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _plain(events: Sequence[Event] | Sequence[Entry]) -> list[Event]:
    return [e.event if isinstance(e, Entry) else e for e in events]


def turn_number(events: Sequence[Event] | Sequence[Entry], seat: int) -> int:
    """How many turns `seat` has begun in the current round (its current turn's number)."""
    count = 0
    for event in _plain(events):
        if isinstance(event, RoundStarted):
            count = 0
        elif isinstance(event, TurnStarted) and event.player == seat:
            count += 1
    return count


@dataclass(slots=True)
class Position:
    """Where a game stands: round, whose turn (and which of theirs), the decision pending, and its wording."""

    round: int
    phase: str
    player: str | None
    turn: int | None
    text: Text
    legal_moves: list[dict[str, Any]] = field(default_factory=list)
    ruleset: str = "2019"
    when: Text = field(default_factory=lambda: Text("", ""))
    """The moment alone, as people count it: "round 2, Bob's third turn" (the text, between turns)."""

    def __post_init__(self) -> None:
        if not self.when.en:
            self.when = self.text

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "player": self.player,
            "turn": self.turn,
            "text": self.text(lang),
        }


def _turn_words(state: GameState, name: str, turn: int) -> Text:
    return Text(
        f"round {state.round}, {name}'s {ordinal(turn)} turn",
        f"manche {state.round}, {ordinal(turn, 'fr')} tour {de(name)}",
    )


def position(state: GameState, events: Sequence[Event] | Sequence[Entry]) -> Position:
    """The position `state` (reached by `events`) is in, with the pending decision said in words."""
    if state.phase == PHASE_NEW:
        return Position(0, state.phase, None, None, Text("no game yet", "aucune partie encore"))
    if state.phase == PHASE_OVER:
        return Position(state.round, state.phase, None, None, Text("the game is over", "la partie est terminée"))
    if state.phase == PHASE_DEAL:
        return Position(
            state.round,
            state.phase,
            None,
            None,
            Text("the first round is to be dealt", "la première manche reste à distribuer")
            if state.round == 0  # no round played yet: people count rounds from 1
            else Text(
                f"round {state.round} is over; the next round is to be dealt",
                f"la manche {state.round} est terminée ; la suivante reste à distribuer",
            ),
        )
    rs = state.ruleset
    assert rs is not None
    seat = state.active
    name = state.players[seat]
    turn = turn_number(events, seat)
    if turn == 0:  # a round begun, its first turn not: the seat still active is last round's, not a turn "0"
        dealing = Text(f"round {state.round}, at the deal", f"manche {state.round}, à la donne")
        text = Text(f"{dealing.en}: the cards are being dealt", f"{dealing.fr} : les cartes sont distribuées")
        return Position(state.round, state.phase, None, None, text, [], rs.id, dealing)
    where = _turn_words(state, name, turn)
    if state.phase == PHASE_CHANCELLOR:
        others = len(state.hands[seat]) - 1
        chancellor_en, chancellor_fr = rs.the(Card.CHANCELLOR, "en"), rs.the(Card.CHANCELLOR, "fr")
        rest_fr = "l'autre" if others == 1 else f"les {others} autres"
        pending = Text(
            f"{name} is to keep one card and put the other {plural_en(others, 'card', 'cards')} on the bottom of the "
            f"deck ({chancellor_en})",
            f"{name} doit garder une carte et placer {rest_fr} sous la pioche ({chancellor_fr})",
        )
    elif state.phase == PHASE_PLAY:
        pending = Text(f"{name} is to play a card", f"{name} doit jouer une carte")
    else:  # a log cut inside a move: its consequences are missing
        pending = Text("in the middle of a move", "au milieu d'un coup")
    text = Text(f"{where.en}: {pending.en}", f"{where.fr} : {pending.fr}")
    moves = legal_moves_as_dicts(state, seat) if state.phase in (PHASE_PLAY, PHASE_CHANCELLOR) else []
    return Position(state.round, state.phase, name, turn, text, moves, rs.id, where)


def position_at(events: Sequence[Event] | Sequence[Entry], at: int) -> Position:
    """The position after the first `at` events (replayed leniently: a dispute may follow a bad move)."""
    prefix = events[:at]
    return position(check(prefix, lenient=True).state, prefix)


DECIDING = (PHASE_PLAY, PHASE_CHANCELLOR)
"""The phases where a player decides; elsewhere chance moves (a deal), a move is being resolved, or the game is over."""


@dataclass(frozen=True, slots=True)
class Decision:
    """A point of a game where a player decides: after event `at`, at `where`."""

    at: int
    where: Position

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"at": self.at, **self.where.as_dict(lang)}


def nearest_decisions(events: Sequence[Event] | Sequence[Entry], at: int) -> tuple[Decision | None, Decision | None]:
    """The nearest points before and after event `at` where a player decides (None where there is none), so that a
    dispute argued about a point inside a move, between rounds or after the end can be judged where someone moved.
    One pass folds the events (the log's word taken, as `position_at` does); only the two points found are replayed
    again for their wording."""
    work = INITIAL.thaw()
    deciding: list[int] = []
    for seq, event in enumerate(_plain(events), start=1):
        try:
            apply(work, event)
        except Exception:  # a forged log may reach a state no game has: the points past it are not offered
            break
        if work.phase in DECIDING:
            deciding.append(seq)
    before = max((seq for seq in deciding if seq < at), default=None)
    after = min((seq for seq in deciding if seq > at), default=None)

    def there(seq: int | None) -> Decision | None:
        return None if seq is None else Decision(seq, position_at(events, seq))

    return there(before), there(after)


def render_position(where: Position, at: int, lang: str = "en") -> str:
    """The position as the command line prints it: where, after which event, and every legal completion."""
    fr = lang == "fr"
    after = f"après l'événement {at}" if fr else f"after event {at}"
    lines = [f"{where.text(lang)} ({after})"]
    if where.legal_moves:
        rs = RULESETS[where.ruleset]
        lines.append(f"  {'coups légaux :' if fr else 'legal moves:'}")
        lines += [f"    - {describe_move(m, rs, lang)}" for m in where.legal_moves]
    return "\n".join(lines)


class PositionError(BilingualError):
    """A position written by round and turn that the game does not have, or that cannot be read."""


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in text if not unicodedata.combining(ch)).replace("’", "'")


_WORDS = {
    **{word: n for n, word in enumerate(_ORDINALS_EN, start=1)},
    **{_fold(word): n for n, word in enumerate(_ORDINALS_FR, start=1)},
    "premiere": 1,
    "second": 2,
    "seconde": 2,
}
_ROUND = re.compile(r"\b(?:round|manche)\s*(\d+)")
_TURN_AFTER = re.compile(r"\b(?:turn|tour)\s*(\d+)")
_TURN_BEFORE = re.compile(r"\b(\d+|[a-z]+)(?:st|nd|rd|th|e|eme|er|ere)?\s+(?:turn|tour)\b")


def _turn_number(text: str) -> int | None:
    if (found := _TURN_AFTER.search(text)) is not None:
        return int(found[1])
    if (found := _TURN_BEFORE.search(text)) is not None:
        word = found[1]
        return int(word) if word.isdigit() else _WORDS.get(word)
    return None


def turn_seq(events: Sequence[Event] | Sequence[Entry], written: str) -> int:
    """The event number a position written as people say it stands at: "round 2, Bob's third turn", "round 2,
    turn 5", « manche 2, 3e tour de Bob », or a plain event number. A turn stands just after its draw (the
    player holds two cards and is to play)."""
    text = _fold(written.strip())
    if text.isascii() and text.isdigit():
        return int(text)
    plain = _plain(events)
    players = seat_names(plain)
    round_found = _ROUND.search(text)
    number = int(round_found[1]) if round_found is not None else 1
    rest = text[: round_found.start()] + text[round_found.end() :] if round_found is not None else text
    seat = None
    for i, name in sorted(((i, n) for i, n in enumerate(players) if n), key=lambda p: -len(p[1])):
        if re.search(rf"(?<!\w){re.escape(_fold(name))}(?!\w)", rest):
            seat = i
            rest = rest.replace(_fold(name), " ")
            break
    turn = _turn_number(rest)
    if turn is None and re.search(r"\d", rest) is None and (seat is not None or round_found is not None):
        turn = 1
    if turn is None or turn < 1:
        raise PositionError(
            Text(
                f"{written!r} is neither an event number nor a position such as 'round 2, Bob's third turn'",
                f"« {written} » n'est ni un numéro d'événement ni une position comme « manche 2, troisième tour de "
                "Bob »",
            )
        )
    current, count = 0, 0
    for seq, event in enumerate(plain, start=1):
        if isinstance(event, RoundStarted):
            current, count = event.round, 0
        elif isinstance(event, TurnStarted) and current == number and (seat is None or event.player == seat):
            count += 1
            if count == turn:
                return seq
    whose = "" if seat is None else players[seat]
    owner_en = f"{whose}'s " if whose else ""
    owner_fr = f" {de(whose)}" if whose else ""
    said = Text(
        f"round {number}, {owner_en}{ordinal(turn)} turn", f"manche {number}, {ordinal(turn, 'fr')} tour{owner_fr}"
    )
    raise PositionError(
        Text(f"the game has no {said.en} in this file", f"la partie n'a pas de {said.fr} dans ce fichier")
    )
