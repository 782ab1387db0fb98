"""What each seat may know, built only from the events it was entitled to see (RULINGS §10), never from `core`'s
views: the machines compare every view `core` gives a seat with this. (The rules themselves are judged by the
independent table of `property_tests.table`.)"""

from __future__ import annotations

from dataclasses import dataclass, field

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    GameStarted,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerResigned,
    RoundStarted,
    TurnStarted,
)

# Fields of each event that only some seats may see (RULINGS §10), and who may see them.
HIDDEN: dict[type, tuple[str, ...]] = {
    RoundStarted: ("deck", "set_aside", "hands"),
    TurnStarted: ("card",),
    CardDrawn: ("card",),
    ChancellorDrew: ("cards",),
    ChancellorReturned: ("kept", "bottom"),
    HandSeen: ("card",),
    HandsCompared: ("player_card", "target_card"),
    HandsTraded: ("player_card", "target_card"),
}


BASE = {"type", "v"}
# Everything a seat that may not see an event is allowed to receive of it: our own statement of RULINGS §10.
REDACTED: dict[type, set[str]] = {
    RoundStarted: BASE | {"round", "first_player", "first_player_rule", "face_up", "deck_size", "hand"},
    TurnStarted: BASE | {"player"},
    CardDrawn: BASE | {"player", "source"},
    ChancellorDrew: BASE | {"player", "count"},
    ChancellorReturned: BASE | {"player", "count"},
    HandSeen: BASE | {"player", "target"},
    HandsCompared: BASE | {"player", "target"},
    HandsTraded: BASE | {"player", "target"},
}


def entitled(event: Event, seat: int | None) -> bool:
    """May `seat` see the hidden fields of `event`?"""
    if seat is None or isinstance(event, RoundStarted):
        return False
    if isinstance(event, (HandsCompared, HandsTraded)):
        return seat in (event.player, event.target)
    return getattr(event, "player", None) == seat


@dataclass
class Model:
    """Each seat's knowledge: `knows[viewer][subject]`, the card `viewer` knows `subject` holds, and `deck_known`,
    the (position, card) pairs of the round's draw pile a seat put there with a Chancellor."""

    n: int = 0
    knows: list[list[Card | None]] = field(default_factory=list)
    deck_known: list[set[tuple[int, Card]]] = field(default_factory=list)
    drawn: int = 0
    deck_len: int = 0

    # -- folding events --------------------------------------------------------------------------------

    def _forget(self, subject: int) -> None:
        for row in self.knows:
            row[subject] = None

    def apply(self, e: Event) -> None:
        if isinstance(e, GameStarted):
            self.n = len(e.players)
            self.knows = [[None] * self.n for _ in range(self.n)]
            self.deck_known = [set() for _ in range(self.n)]
        elif isinstance(e, RoundStarted):
            self.knows = [[None] * self.n for _ in range(self.n)]
            self.deck_known = [set() for _ in range(self.n)]
            self.drawn, self.deck_len = 0, len(e.deck)
        elif isinstance(e, TurnStarted):
            self.drawn += 1
            self.deck_len -= 1
        elif isinstance(e, CardPlayed):
            for row in self.knows:  # the known card may be the one played: nobody can be sure any more
                if row[e.player] is e.card:
                    row[e.player] = None
        elif isinstance(e, HandSeen):
            self.knows[e.player][e.target] = e.card
        elif isinstance(e, HandsCompared):
            self.knows[e.player][e.target] = e.target_card
            self.knows[e.target][e.player] = e.player_card
        elif isinstance(e, HandsTraded):
            for row in self.knows:
                row[e.player], row[e.target] = row[e.target], row[e.player]
            self.knows[e.player][e.target] = e.player_card
            self.knows[e.target][e.player] = e.target_card
        elif isinstance(e, HandDiscarded):
            self._forget(e.player)
        elif isinstance(e, CardDrawn):
            if e.source == "deck":
                self.drawn += 1
                self.deck_len -= 1
        elif isinstance(e, ChancellorDrew):
            self.drawn += len(e.cards)
            self.deck_len -= len(e.cards)
        elif isinstance(e, ChancellorReturned):
            start = self.drawn + self.deck_len
            self.deck_known[e.player] |= {(start + i, c) for i, c in enumerate(e.bottom)}
            self.deck_len += len(e.bottom)
            self._forget(e.player)
        # out of the round, or left during one (a resignation between rounds discards nothing, reveals nothing)
        elif isinstance(e, PlayerEliminated) or (isinstance(e, PlayerResigned) and e.cards):
            self._forget(e.player)
