"""`POST /replays/views`: every position of an uploaded log (or transcript) as one point of view saw it.

The replay viewer (`/replay`) steps through a game without knowing a single rule: each position's view, story and
place in the game come from here, computed by the same functions as the live referee (`core.evolve`,
`core.views.view`, `replays.narrative`, `replays.pov`, `replays.position`). A point of view is the spectator, one
seat, or everything (every hand and the deck, only for a game that is over, as `GET /games/{id}/state?full=true`).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict
from dataclasses import replace
from typing import Any

import orjson
from fastapi import Depends, Request
from fastapi.responses import Response

from loveletter.api import parse
from loveletter.api.openapi import answers, problem
from loveletter.api.problems import Problem, lang_of
from loveletter.api.routes.bodies import ViewsIn, events_of, invalid, json_router
from loveletter.client.answers import ReplayViews
from loveletter.core.catalogue import Event, GameEnded, GameStarted
from loveletter.core.evolve import evolve
from loveletter.core.lang import Text
from loveletter.core.state import INITIAL, GameState
from loveletter.core.views import view
from loveletter.events.log import Entry
from loveletter.replays.narrative import narrate
from loveletter.replays.players import seat_names
from loveletter.replays.position import Position, position, render_position
from loveletter.replays.pov import narrate_pov
from loveletter.replays.replay import check

VIEWS_PATH = "/replays/views"
MAX_VIEWS_BYTES = 8 * 1024 * 1024
"""As POST /audits: a log of one game is far smaller, but a viewer may be handed a long one."""
MAX_EVENTS = 1000
"""Events of one game the viewer steps through: each position's story is told again from the start, so the work
grows with the square of the length; the longest of 900 simulated games (every ruleset, up to six players) had
under 400 events."""
BODY_LIMITS = {VIEWS_PATH: MAX_VIEWS_BYTES}
router = json_router()
CACHE_SIZE = 16
"""Answers kept, by (log, point of view, language): stepping back to a point of view already seen costs nothing."""

_cache: OrderedDict[tuple[str, str, str], bytes] = OrderedDict()


def _pov(value: Any, names: tuple[str, ...]) -> int | str:
    """`spectator`, `all`, or a seat (its number, or its player's name)."""
    if value in ("spectator", "all"):
        return str(value)
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
        return value
    if isinstance(value, str) and value in names:
        return names.index(value)
    last = len(names) - 1
    raise invalid(
        "pov",
        Text(
            f"spectator, all, or a seat from 0 to {last} (or its player's name), not {value!r}",
            f"« spectator », « all », ou un siège de 0 à {last} (ou le nom de son joueur), et non « {value} »",
        ),
    )


def _story_step(before: list[str], now: list[str]) -> dict[str, Any]:
    """`now` as a change of `before`: keep its first `keep` lines, then add `add` (a story told again from a
    longer prefix may word an earlier line differently, e.g. once a round's outcome is known)."""
    keep = 0
    for a, b in zip(before, now, strict=False):
        if a != b:
            break
        keep += 1
    return {"keep": keep, "add": now[keep:]}


def _seen_position(state: GameState, told: list[Event], pov: int | str) -> Position:
    """The position as `pov` may read it: the legal moves of the player to move would tell their hand, so only
    that player (and `all`, after the end) sees them listed."""
    where = position(state, told)
    if pov == "all" or pov == state.active:
        return where
    return replace(where, legal_moves=[])


def positions(events: list[Event], pov: int | str, lang: str) -> dict[str, Any]:
    """Every position of `events` (after seq 1, 2, …) as `pov` saw it. Events that cannot be applied (a tampered
    log) end the positions there: `stopped` is the seq of the first one."""
    started = events[0]
    if not isinstance(started, GameStarted):
        raise invalid(
            "log", Text("the first event must be game_started", "le premier événement doit être game_started")
        )
    names = seat_names(events)  # every join included, as the log gives them
    seat = pov if isinstance(pov, int) else None
    over = any(isinstance(e, GameEnded) for e in events)
    if pov == "all" and not over:
        raise Problem(
            403,
            "game_not_over",
            Text(
                "everything (every hand, the deck) is shown once the game is over",
                "tout (chaque main, la pioche) n'est montré qu'une fois la partie terminée",
            ),
        )
    state: GameState = INITIAL
    story: list[str] = []
    out: list[dict[str, Any]] = []
    stopped: int | None = None
    for at, event in enumerate(events, start=1):
        try:
            state = evolve(state, event)
        except Exception:  # the log's word cannot be taken here (the audit says why): show what came before
            stopped = at
            break
        told = events[:at]
        if pov == "all":
            lines = narrate(told, lang, omniscient=True)
        elif seat is None:
            lines = narrate(told, lang)
        else:
            lines = narrate_pov(told, seat, lang)
        entry: dict[str, Any] = {
            "at": at,
            "event": type(event).TYPE,
            "where": render_position(_seen_position(state, told, pov), at, lang),
            "view": view(state, seat).as_dict(),
            "story": _story_step(story, [line.strip() for line in lines]),
        }
        if pov == "all":
            entry["all"] = {
                "hands": [[str(c) for c in hand] for hand in state.hands],
                "deck": [str(c) for c in state.deck],
                "set_aside": str(state.set_aside) if state.set_aside else None,
            }
        out.append(entry)
        story = [line.strip() for line in lines]
    verdict = check(events, lenient=False)
    first = verdict.problems[0].as_dict(lang) if verdict.problems else None
    return {
        "ruleset": str(started.ruleset),
        "players": list(names),
        "events": len(events),
        "over": over,
        "pov": pov,
        "lang": lang,
        "stopped": stopped,
        "replay": {"verdict": "valid" if first is None else "invalid", "first_problem": first},
        "positions": out,
    }


def views(body: ViewsIn, header_lang: str) -> bytes:
    """The JSON answer for a request body (a `Problem` for what the log refuses, naming the field)."""
    lang = body.lang or header_lang
    key_log = hashlib.sha256(orjson.dumps(body.log)).hexdigest()
    key = (key_log, str(body.pov), lang)
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    found = events_of(body.log)
    events = [e.event if isinstance(e, Entry) else e for e in found]
    if len(events) > MAX_EVENTS:
        raise invalid(
            "log",
            Text(
                f"a game of {len(events)} events; the viewer steps through games of at most {MAX_EVENTS}",
                f"une partie de {len(events)} événements ; la relecture se limite aux parties d'au plus {MAX_EVENTS}",
            ),
            "too_long",
        )
    started = events[0]
    names = seat_names(events) if isinstance(started, GameStarted) else ()
    pov = _pov(body.pov, names)
    answer = orjson.dumps(positions(events, pov, lang))
    _cache[key] = answer
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return answer


_POSITION_EXAMPLE: dict[str, Any] = {
    "at": 3,
    "event": "round_started",
    "where": "after seq 3: round 1, before Alice's first turn",
    "view": {"seat": None, "round": 1, "deck_size": 11, "hand": [], "seats": ["…"], "version": 3},
    "story": {"keep": 1, "add": ["Round 1 begins: 3 cards face up (Guard, Priest, Guard)."]},
}


VIEWS_EXAMPLE: dict[str, Any] = {
    "ruleset": "2019",
    "players": ["Alice", "Bob"],
    "events": 120,
    "over": True,
    "pov": "spectator",
    "lang": "en",
    "stopped": None,
    "replay": {"verdict": "valid", "first_problem": None},
    "positions": [_POSITION_EXAMPLE],
}


@router.post(
    VIEWS_PATH,
    dependencies=[Depends(parse.json_body)],
    tags=["rulings"],
    responses=answers(
        ReplayViews,
        413,
        422,
        example=VIEWS_EXAMPLE,
        more={403: problem(403, description="pov=all before the game's end")},
    ),
)
async def replay_views(body: ViewsIn, request: Request) -> Response:
    """Every position of a game's log as one point of view saw it: the view (`GET /games/{id}/state`'s), the
    story told up to there, and where the game stood; with the strict replay's first problem, if any."""
    answer = await asyncio.to_thread(views, body, lang_of(request))
    return Response(answer, media_type="application/json")
