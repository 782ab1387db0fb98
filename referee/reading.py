"""What one credential may see of a game. Every read goes through a `Reader` the referee makes for the credential that
asked (a seat, a spectator, the admin), so no caller outside the referee holds a `Table` with every hand in it, and
no route can forget the filter: a spectator sees a game with a spectator delay as it was that many moves ago, a seat
sees its own hand, the admin everything; the full log and state wait for the game's end (or the admin).

A stream reads the game afresh at each wake-up (`Tables.current`) and holds its id, never its `Table`: the cache may
evict the game meanwhile. Each event is encoded once per viewer, and kept with the table."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Sequence
from typing import Any

from loveletter.core.catalogue import CardPlayed, ChancellorReturned, ClockSet, Event
from loveletter.core.evolve import fold
from loveletter.core.lang import Lang, Text
from loveletter.core.legal import legal_moves_as_dicts
from loveletter.core.state import GameState
from loveletter.core.views import redact, view
from loveletter.events.codec import dumps, encode
from loveletter.events.log import Header, game_lines
from loveletter.events.signing import SigningKey
from loveletter.referee.clocks import Idle
from loveletter.referee.refusals import Refusal
from loveletter.referee.tables import Table, Tables
from loveletter.replays.narrative import clock_time, narrate
from loveletter.replays.pov import narrate_pov
from loveletter.replays.rulings import seat_view_at

MOVES = (CardPlayed, ChancellorReturned)
"""The events a spectator delay counts: a seat's decisions in play (a card played, the cards a Chancellor keeps
and returns), whoever made them (the person, a bot, or the bot a clock called)."""

Item = tuple[int, str, bytes]
"""One item of a stream: its id (an event's seq, a news or account event id), its kind, its JSON."""


def seen_by(table: Table, seat: int | None) -> int:
    """How many of the game's events `seat` may see (None: a spectator). A seat sees every one, and so does
    anyone once the game is over; a spectator of a game with a spectator delay of N moves sees the events before
    the N-th last move (before the first, if fewer were made): the game as it was N moves ago."""
    delay = table.state.options.spectator_delay
    if not delay or seat is not None or table.state.over:
        return len(table.events)
    cut = len(table.events)
    for index in range(len(table.events) - 1, -1, -1):
        if type(table.events[index]) in MOVES:
            cut = index
            delay -= 1
            if not delay:
                break
    return cut


def state_seen_by(table: Table, seat: int | None) -> GameState:
    """The state `seat` sees: the table's, or a spectator's delayed one (`seen_by`), folded on from the last."""
    shown = seen_by(table, seat)
    if shown == len(table.events):
        return table.state
    delayed = table.delayed
    if delayed is None or delayed.seq > shown:
        delayed = fold(table.events[:shown])
    elif delayed.seq < shown:
        delayed = fold(table.events[delayed.seq : shown], delayed)
    table.delayed = delayed
    return delayed


def events_json(events: list[Event], first_seq: int, seat: int | None) -> list[dict[str, Any]]:
    """`events` (the first numbered `first_seq`) as `seat` may see them (None: a spectator)."""
    out = []
    for seq, event in enumerate(events, start=first_seq):
        fields = encode(event)
        fields["seq"] = seq
        out.append(redact(event, fields, seat))
    return out


def game_not_over(en: str, fr: str, *, read: bool = False) -> Refusal:
    """The game is still in play; `read`: what was asked is hidden until its end (not a command that needs it)."""
    return Refusal("game_not_over", Text(en, fr), about={"read": read})


def at_out_of_range(point: int, last: int) -> Refusal:
    """A point of the game the caller cannot look at (none, or past what it may see)."""
    said = Text(f"a seq from 1 to {last}, not {point}", f"un numéro d'événement de 1 à {last}, et non {point}")
    within = Text(f"a seq from 1 to {last}", f"un numéro d'événement de 1 à {last}")
    return Refusal(
        "at_out_of_range",
        Text(f"at: {said.en}", f"« at » : {said.fr}"),
        errors=[{"field": "at", "type": "greater_than_equal" if point < 1 else "less_than_equal", "message": within}],
    )


class Reader:
    """A game as one credential sees it: `seat` (None: a spectator or the organiser) or the admin (`admin`)."""

    def __init__(
        self,
        tables: Tables,
        table: Table,
        seat: int | None,
        *,
        admin: bool = False,
        signing_key: SigningKey | None = None,
        keep_alive: float = 15.0,
    ) -> None:
        self._tables = tables
        self._table = table
        self._signing_key = signing_key
        self._keep_alive = keep_alive
        self.game_id = table.game_id
        self.seat = seat
        self.admin = admin

    @property
    def version(self) -> int:
        """How far into the game this viewer sees (a spectator's lags by the spectator delay)."""
        return len(self._table.events) if self.admin else seen_by(self._table, self.seat)

    @property
    def over(self) -> bool:
        return self._table.state.over

    @property
    def ruleset(self) -> str:
        state = self._table.state
        return state.ruleset.id if state.ruleset else "2019"

    def game(self) -> dict[str, Any]:
        """The game as this viewer sees it: its view and, for a seat, its legal moves."""
        table, seat = self._table, self.seat
        state = state_seen_by(table, seat)
        return {
            "game_id": table.game_id,
            "version": state.seq,
            "players": list(state.players),
            "bots": [s.bot for s in table.record.seats],
            "scenario": state.scenario,
            "over": state.over,
            "your_turn": seat is not None and state.active == seat,
            "rematch": table.record.rematch,
            "view": view(state, seat).as_dict(),
            "legal_moves": legal_moves_as_dicts(state, seat) if seat is not None else [],
        }

    def events(self, after: int = 0) -> dict[str, Any]:
        """The events after seq `after` that this viewer may see, as it may see them."""
        shown = self.version
        return {"version": shown, "events": events_json(self._table.events[after:shown], after + 1, self.seat)}

    async def state_at(self, at: int | None, *, full: bool = False) -> dict[str, Any]:
        """What this viewer could see after seq `at` (default: now); `full`, or the admin, the whole state (every
        hand, the deck), which is shown once the game is over, or to the admin."""
        table = self._table
        events = list(table.events[: self.version])
        point = len(events) if at is None else at
        if not 0 < point <= len(events):
            raise at_out_of_range(point, len(events))
        if full or self.admin:
            if not (table.state.over or self.admin):
                raise game_not_over(
                    "the full state is shown once the game is over, or to the admin",
                    "l'état complet n'est montré qu'une fois la partie terminée, "
                    "ou sur présentation du jeton d'administration",
                    read=True,
                )
            state = await asyncio.to_thread(fold, events[:point])
            return {"game_id": self.game_id, "at": point, "version": table.version, "state": state.as_dict()}
        seen = await asyncio.to_thread(seat_view_at, events, point, self.seat)
        return {"game_id": self.game_id, "at": point, "version": len(events), "seat": self.seat, "view": seen}

    def log(self) -> bytes:
        """The game's complete JSONL log: header, hash-chained events and the referee's signature (what `loveletter
        replay` and `loveletter audit` verify); published once the game is over, or to the admin."""
        table = self._table
        if not table.state.over and not self.admin:
            raise game_not_over(
                "the full log is published when the game is over",
                "le journal complet est publié quand la partie est terminée",
                read=True,
            )
        header = Header.of(table.events[0], table.game_id)  # type: ignore[arg-type]
        signer = self._signing_key.sign if self._signing_key is not None else None
        return b"".join(line + b"\n" for line in game_lines(table.events, header, signer=signer))

    def story(self, lang: Lang) -> dict[str, Any]:
        """The game told so far as this viewer lived it (a seat: the table's story and its own secrets; anyone else:
        the table's story, as far as it may see) and the deadlines it names (each line's text and its time)."""
        table, seat = self._table, self.seat
        shown = self.version
        told = table.events[:shown] if seat is None else table.events
        lines = narrate(told, lang) if seat is None else narrate_pov(table.events, seat, lang)
        times = {clock_time(e.deadline): e.deadline for e in told if isinstance(e, ClockSet)}
        return {"version": shown, "seat": seat, "lines": lines, "times": times} | self._last_move(told, lang)

    def _last_move(self, told: Sequence[Event], lang: Lang) -> dict[str, int | None]:
        """`last_move`, the index in the story of the line that tells the last move (a card played, the
        Chancellor's cards returned), and `last_mover`, its seat; None before the first: the round's opening, the
        seed's reveal, a draw are not moves. The story told up to that event ends with its line (a line's ending
        may wait on later events; its place does not)."""
        moves = [(i, e.player) for i, e in enumerate(told) if isinstance(e, CardPlayed | ChancellorReturned)]
        if not moves:
            return {"last_move": None, "last_mover": None}
        at, player = moves[-1]
        upto, seat = told[: at + 1], self.seat
        index = len(narrate(upto, lang) if seat is None else narrate_pov(upto, seat, lang)) - 1
        return {"last_move": index, "last_mover": player}

    def presence(self, page: str | None = None) -> dict[str, Any]:
        """Which seats are present, and for a seat's own page (`page`, its stream's id) alone, whether the same seat
        is also open in another page: nobody else learns how many pages a seat has open."""
        presence = self._tables.presence
        answer: dict[str, Any] = {"present": presence.seats(self.game_id, len(self._table.state.players))}
        if self.seat is not None:
            answer["elsewhere"] = presence.elsewhere(self.game_id, self.seat, page)
        return answer

    async def follow(self, cursor: int, page: str | None = None) -> AsyncGenerator[list[Item] | None, None]:
        """The events after seq `cursor` this viewer may see, then each new one as it is appended, until the game is
        over; None when the stream has been idle for a keep-alive. The seat is present while this runs."""
        tables, game_id, seat = self._tables, self.game_id, self.seat
        del self._table  # a stream keeps no evicted game alive
        idle = Idle(self._keep_alive)
        with tables.watching(game_id) as watch, tables.presence.hold(game_id, seat, page):
            while True:
                waiter = watch.changed  # taken before reading: an append made meanwhile wakes the wait below
                table = await tables.current(game_id, watch)
                shown = seen_by(table, seat)
                if cursor < shown:
                    items = _encoded(table, seat, shown)[cursor:shown]
                    cursor = shown
                    idle.sent()
                    yield items
                elif idle.due():  # the ticker's poke on an idle stream
                    yield None
                if table.state.over:
                    return
                del table
                await waiter.wait()


def _encoded(table: Table, seat: int | None, upto: int) -> list[Item]:
    """The table's first `upto` events as `seat` sees them, each encoded once per viewer and kept with the table."""
    done: list[Item] = table.rendered.setdefault(seat, [])
    if len(done) < upto:
        for item in events_json(table.events[len(done) : upto], len(done) + 1, seat):
            done.append((item["seq"], item["type"], dumps(item)))
    return done
