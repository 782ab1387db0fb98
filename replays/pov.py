"""The story of a game as one player lived it: what the whole table saw, and what only that seat learned.

`show` tells the public story (`replays.narrative`); a dispute often turns on what one player knew at a moment —
the card they were dealt and drew, what their Priest saw, their Baron's comparison, the hand a King gave them,
what their Chancellor drew and returned. This story adds exactly those (RULINGS §10) and nothing of the others'.
"""

from __future__ import annotations

from collections.abc import Sequence

from loveletter.core.catalogue import (
    CardDrawn,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    HandsCompared,
    HandSeen,
    HandsTraded,
    RoundStarted,
    TurnStarted,
)
from loveletter.replays.narrative import Narrator, narrate


def private_to(seat: int, event: Event) -> bool:
    """Whether `event` shows `seat` a card the rest of the table does not see (RULINGS §10)."""
    if isinstance(event, TurnStarted | CardDrawn | ChancellorDrew | ChancellorReturned):
        return event.player == seat
    if isinstance(event, HandSeen):
        return event.player == seat
    if isinstance(event, HandsCompared | HandsTraded):
        return seat in (event.player, event.target)
    return False


def narrate_pov(events: Sequence[Event], seat: int, lang: str = "en", flagged: Sequence[int] = ()) -> list[str]:
    """The public story of `events` with `seat`'s private knowledge in its place."""
    told = iter(narrate(events, lang, flagged))  # the public lines, with their hit/miss endings and marks
    public, omniscient = Narrator(lang), Narrator(lang, omniscient=True)
    lines: list[str] = []
    marks = set(flagged)
    for seq, event in enumerate(events, start=1):
        seen = public.line(event)
        known = omniscient.line(event)
        line = next(told) if seen is not None or seq in marks else None
        if private_to(seat, event):
            line = known
        if line is not None:
            lines.append(line)
        dealt = event.hands[seat] if isinstance(event, RoundStarted) else None
        if dealt is not None:  # None: nothing dealt to a seat that left the game
            name, card = omniscient.who(seat), omniscient.card(dealt)
            lines.append(f"    ({name} reçoit {card})" if lang == "fr" else f"    ({name} is dealt {card})")
    return lines
