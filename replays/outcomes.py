"""Each round's outcome as a dispute needs it: who went out and how, who won the round and why, the favors.

The event log records what happened; a dispute asks why. This module reads the why back from the events, without
changing them: an elimination's cause and whose card caused it (a Princess played, or discarded to whose Prince),
a round won by the last one standing, by the highest card, by the 2012 discard sums (with the sums), or by a tie,
and each favor with its reason. `replay --json` reports it per round.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    CardPlayed,
    Event,
    FavorGained,
    GameStarted,
    HandDiscarded,
    PlayerEliminated,
    RoundEnded,
    RoundStarted,
)
from loveletter.core.rulesets import RULESETS, TieRule
from loveletter.events.log import Entry


def _why(rs_id: str, ended: RoundEnded, front: list[list[Card]]) -> tuple[str, dict[int, int]]:
    """Why the round's winners won: last-standing, highest-card, discard-sum (with each tied player's sum) or tie."""
    if ended.reason == "last-standing":
        return "last-standing", {}
    rs = RULESETS[rs_id]
    shown = {i: rs.values[c] for i, c in enumerate(ended.hands) if c is not None}
    if not shown:
        return "tie", {}
    best = max(shown.values())
    tied = [i for i, v in shown.items() if v == best]
    if len(tied) == 1:
        return "highest-card", {}
    if rs.tie_rule is TieRule.ALL_WIN:
        return "tie", {}
    sums = {i: sum(rs.values[c] for c in front[i]) for i in tied}
    return ("discard-sum" if len(ended.winners) == 1 else "tie"), sums


def round_outcomes(events: Sequence[Event] | Sequence[Entry]) -> list[dict[str, Any]]:
    """One record per round the events reach: eliminations, how the round ended, winners and why, favors."""
    players: tuple[str, ...] = ()
    rs_id = "2019"
    rounds: list[dict[str, Any]] = []
    front: list[list[Card]] = []
    last_play: CardPlayed | None = None

    def name(seat: int | None) -> str | None:
        return players[seat] if seat is not None and 0 <= seat < len(players) else None

    for item in events:
        event = item.event if isinstance(item, Entry) else item
        if isinstance(event, GameStarted):
            players, rs_id = event.players, event.ruleset if event.ruleset in RULESETS else "2019"
        elif isinstance(event, RoundStarted):
            front = [[] for _ in players]
            last_play = None
            rounds.append(
                {
                    "round": event.round,
                    "first_player": name(event.first_player),
                    "eliminations": [],
                    "end": None,
                    "winners": [],
                    "why": None,
                    "hands": None,
                    "discard_sums": None,
                    "favors": [],
                }
            )
        elif not rounds:
            continue
        elif isinstance(event, CardPlayed):
            last_play = event
            front[event.player].append(event.card)
        elif isinstance(event, HandDiscarded):
            front[event.player].append(event.card)
        elif isinstance(event, PlayerEliminated):
            by = last_play.player if last_play is not None else None
            out: dict[str, Any] = {
                "player": name(event.player),
                "cause": event.cause.value,
                "by": name(by),
                "cards": [c.value for c in event.cards],
            }
            if event.cause is Card.PRINCESS:
                played = last_play is not None and last_play.card is Card.PRINCESS and by == event.player
                out["princess"] = "played" if played else "discarded"
            rounds[-1]["eliminations"].append(out)
        elif isinstance(event, RoundEnded):
            why, sums = _why(rs_id, event, front)
            rounds[-1].update(
                end=event.reason,
                winners=[name(w) for w in event.winners],
                why=why,
                hands=None if not event.hands else {name(i): c.value for i, c in enumerate(event.hands) if c},
                discard_sums=None if not sums else {name(i): s for i, s in sums.items()},
            )
        elif isinstance(event, FavorGained):
            rounds[-1]["favors"].append({"player": name(event.player), "reason": event.reason})
    return rounds
