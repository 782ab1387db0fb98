"""`loveletter demo`: one seeded game between heuristic bots, told turn by turn in plain English.

The narrator is a spectator allowed to see everything (it is a demonstration): it names the card each
player draws and what every Priest, Baron and King revealed.
"""

from __future__ import annotations

from collections.abc import Iterator

from api.simulate import play_game, root_key
from core.bots import get_bot
from core.cards import Card
from core.rulesets import RULESETS
from events.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    FavorGained,
    GameEnded,
    GameStarted,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
    RoundStarted,
    TurnStarted,
)

DEMO_NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")
_FAVOR_WHY = {"round": "for winning the round", "spy": "for the Spy", "amira-sadie": "for Amira & Sadie"}


def play_demo(ruleset: str = "2019", players: int = 4, seed: int = 1) -> list[Event]:
    """The events of one game between heuristic bots (game 0 of simulation `seed`)."""
    bots = [get_bot("heuristic")] * players
    record: list[Event] = []
    play_game(ruleset, bots, root_key(seed), 0, record=record)
    return record


def narrate(events: list[Event], names: tuple[str, ...] = DEMO_NAMES) -> Iterator[str]:
    """One line of English per event worth telling."""
    started = events[0]
    assert isinstance(started, GameStarted)
    rs = RULESETS[started.ruleset]
    who = names[: len(started.players)]
    favors = [0] * len(who)

    def card(c: Card | None) -> str:
        return "nothing" if c is None else f"the {rs.name(c)} ({rs.values[c]})"

    for e in events:
        if isinstance(e, GameStarted):
            yield f"A game of {rs.title} between {', '.join(who)}."
        elif isinstance(e, RoundStarted):
            yield ""
            yield f"Round {e.round}: {who[e.first_player]} plays first; {len(e.deck)} cards in the deck."
            if e.face_up:
                yield f"  Set aside face up: {', '.join(rs.name(c) for c in e.face_up)}."
            yield "  Dealt: " + ", ".join(f"{who[i]} {rs.name(c)}" for i, c in enumerate(e.hands)) + "."
        elif isinstance(e, TurnStarted):
            yield f"{who[e.player]} draws {card(e.card)}."
        elif isinstance(e, CardPlayed):
            line = f"  {who[e.player]} plays {card(e.card)}"
            if e.target is not None:
                line += " on " + ("themself" if e.target == e.player else who[e.target])
            if e.guess is not None:
                line += f", naming the {rs.name(e.guess)}"
            yield line + "."
        elif isinstance(e, HandSeen):
            yield f"  {who[e.player]} looks at {who[e.target]}'s hand: {card(e.card)}."
        elif isinstance(e, HandsCompared):
            yield (
                f"  {who[e.player]} ({rs.name(e.player_card)}) and {who[e.target]} ({rs.name(e.target_card)})"
                " compare hands."
            )
        elif isinstance(e, HandsTraded):
            yield f"  {who[e.player]} and {who[e.target]} trade hands."
        elif isinstance(e, HandDiscarded):
            yield f"  {who[e.player]} discards {card(e.card)}."
        elif isinstance(e, CardDrawn):
            source = "the deck" if e.source == "deck" else "the set-aside card"
            yield f"  {who[e.player]} draws a new card from {source}."
        elif isinstance(e, ChancellorDrew):
            yield f"  {who[e.player]} draws {' and '.join(card(c) for c in e.cards)}."
        elif isinstance(e, ChancellorReturned):
            yield f"  {who[e.player]} keeps {card(e.kept)} and returns {len(e.bottom)} to the bottom of the deck."
        elif isinstance(e, PlayerEliminated):
            shown = f", showing {', '.join(rs.name(c) for c in e.cards)}" if e.cards else ""
            yield f"  {who[e.player]} is out of the round ({rs.name(e.cause)}){shown}."
        elif isinstance(e, RoundEnded):
            winners = " and ".join(who[i] for i in e.winners) or "nobody"
            how = "last one standing" if e.reason == "last-standing" else "the deck ran out"
            yield f"Round {e.round} ends ({how}): {winners} wins. The set-aside card was {card(e.set_aside)}."
            if e.hands:
                yield "  Hands: " + ", ".join(f"{who[i]} {rs.name(c)}" for i, c in enumerate(e.hands) if c) + "."
        elif isinstance(e, FavorGained):
            favors[e.player] += 1
            yield f"  {who[e.player]} gains a favor {_FAVOR_WHY[e.reason]} ({favors[e.player]} in all)."
        elif isinstance(e, GameEnded):
            yield ""
            yield f"{' and '.join(who[i] for i in e.winners)} wins the game!"
