"""What a seat page shows, read from its DOM, and what that seat may know, read independently from the game's log:
the published log is folded by `core` to the version the page shows and `core.views.view` says what the seat
knows there (RULINGS §10); the story is `replays.pov.narrate_pov` of the events up to the version it was told at.
Nothing here reads the page's own code."""

from __future__ import annotations

from collections import Counter
from typing import Any

import httpx

from loveletter.core.catalogue import Event
from loveletter.core.evolve import fold
from loveletter.core.views import view
from loveletter.events.log import read_games
from loveletter.replays.narrative import narrate
from loveletter.replays.pov import narrate_pov

SNAPSHOT = """() => {
  const known = new Set();
  const zone = (sel) => {
    const found = [...document.querySelectorAll(sel)];
    found.forEach((e) => known.add(e));
    return found;
  };
  const hand = zone('#hand [data-card]');
  const faceUp = zone('#face-up [data-card]');
  const deckKnown = zone('#deck-known [data-card]');
  const unseen = zone('#unseen [data-card]');
  const moveCards = zone('#moves [data-card]');
  const seats = [...document.querySelectorAll('#players > li')].map((li) => ({
    seat: Number(li.dataset.seat),
    front: zone(`#players > li[data-seat="${li.dataset.seat}"] .front [data-card]`).map((e) => e.dataset.card),
    known: zone(`#players > li[data-seat="${li.dataset.seat}"] .known [data-card]`).map((e) => e.dataset.card),
    favors: Number(li.querySelector('.favors').textContent),
    protected: !!li.querySelector('.tag.protected'),
  }));
  const stray = [...document.querySelectorAll('[data-card]')].filter((e) => !known.has(e)).map((e) => e.outerHTML);
  return {
    version: Number(document.body.dataset.version || 0),
    storyVersion: Number(document.getElementById('story').dataset.version || -1),
    story: [...document.querySelectorAll('#story li')].map((li) => li.textContent),
    hand: hand.map((e) => e.dataset.card),
    faceUp: faceUp.map((e) => e.dataset.card),
    deckKnown: deckKnown.map((e) => e.dataset.card),
    unseen: Object.fromEntries([...document.querySelectorAll('#unseen [data-unseen]')].map((li) =>
      [li.dataset.unseen, Number(li.textContent.split('×').pop())])),
    moveCards: moveCards.map((e) => e.dataset.card),
    deckSize: Number(document.getElementById('deck-size').textContent),
    seats,
    stray,
  };
}"""


def snapshot(page: Any) -> dict[str, Any]:
    """The cards the page shows, zone by zone, with the version its table and its story were drawn at."""
    result: dict[str, Any] = page.evaluate(SNAPSHOT)
    return result


def published_events(base: str, game_id: str) -> list[Event]:
    """The finished game's events, from its published log."""
    answer = httpx.get(f"{base}/games/{game_id}/log")
    assert answer.status_code == 200, answer.text
    (game,) = read_games(answer.content.splitlines())
    return game.events


def check(shown: dict[str, Any], events: list[Event], seat: int | None, lang: str) -> None:
    """The snapshot shows exactly what `seat` (None: a spectator) knows at its version, card for card."""
    state = fold(events[: shown["version"]])
    known = view(state, seat)
    where = f"seat {seat} at version {shown['version']}"
    assert shown["stray"] == [], f"{where}: a card outside the page's zones: {shown['stray']}"
    assert shown["hand"] == [str(c) for c in known.hand], where
    assert shown["faceUp"] == [str(c) for c in known.face_up], where
    assert shown["deckKnown"] == [str(c) for _, c in known.deck_known], where
    assert shown["deckSize"] == known.deck_size, where
    assert shown["unseen"] == {str(c): n for c, n in known.unseen.items()}, where
    assert Counter(shown["moveCards"]) <= Counter(shown["hand"]), f"{where}: a move names a card not in hand"
    for s in known.seats:
        drawn = shown["seats"][s.seat]
        assert drawn["front"] == [str(c) for c in s.front], where
        assert drawn["known"] == ([str(s.known_hand)] if s.known_hand else []), where
        assert drawn["favors"] == s.favors and drawn["protected"] == s.protected, where
    if shown["storyVersion"] >= 0:
        told = events[: shown["storyVersion"]]
        expected = narrate(told, lang) if seat is None else narrate_pov(told, seat, lang)
        assert shown["story"] == [line.strip() for line in expected], f"{where}: the story"
