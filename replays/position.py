"""Positions as people count them: "round 2, Bob's third turn", and whose decision is pending there.

A dispute is argued about a moment of the game, and a table names it by round and turn, not by event number. This
module tells where a (possibly unfinished) game stands, in English and French, and lists every legal completion
of the decision that is pending, so a transcript may stop exactly where the argument stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.catalogue import Event, RoundStarted, TurnStarted
from loveletter.core.lang import Text, de, plural_en
from loveletter.core.legal import legal_moves_as_dicts
from loveletter.core.rulesets import RULESETS
from loveletter.core.state import (
    PHASE_CHANCELLOR,
    PHASE_DEAL,
    PHASE_NEW,
    PHASE_OVER,
    PHASE_PLAY,
    GameState,
)
from loveletter.events.log import Entry
from loveletter.replays.replay import check

_ORDINALS_EN = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
_ORDINALS_FR = ("premier", "deuxième", "troisième", "quatrième", "cinquième", "sixième", "septième", "huitième")


def ordinal(n: int, lang: str = "en") -> str:
    """3 -> "third", « troisième »; past the words, "11th", « 11e »."""
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
            Text(
                f"round {state.round} is over; the next round is to be dealt",
                f"la manche {state.round} est terminée ; la suivante reste à distribuer",
            ),
        )
    seat = state.active
    name = state.players[seat]
    turn = turn_number(events, seat)
    where = _turn_words(state, name, turn)
    rs = state.ruleset
    assert rs is not None
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
    text = Text(f"{where.en}: {pending.en}", f"{where.fr} : {pending.fr}")
    moves = legal_moves_as_dicts(state, seat) if state.phase in (PHASE_PLAY, PHASE_CHANCELLOR) else []
    return Position(state.round, state.phase, name, turn, text, moves, rs.id)


def position_at(events: Sequence[Event] | Sequence[Entry], at: int) -> Position:
    """The position after the first `at` events (replayed leniently: a dispute may follow a bad move)."""
    prefix = events[:at]
    return position(check(prefix, lenient=True).state, prefix)


def render_position(where: Position, at: int, lang: str = "en") -> str:
    """The position as the command line prints it: where, after which event, and every legal completion."""
    from loveletter.replays.rulings import describe_move

    fr = lang == "fr"
    after = f"après l'événement {at}" if fr else f"after event {at}"
    lines = [f"{where.text(lang)} ({after})"]
    if where.legal_moves:
        rs = RULESETS[where.ruleset]
        lines.append(f"  {'coups légaux :' if fr else 'legal moves:'}")
        lines += [f"    - {describe_move(m, rs, lang)}" for m in where.legal_moves]
    return "\n".join(lines)
