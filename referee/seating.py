"""Who sits at a table: a game created with its seats (named, bots, or open with invites), an open seat taken, a
finished game's rematch (seats rotated, each person's seat kept for them), a seat that resigns, a game its
organiser aborts."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import secrets
from dataclasses import replace
from typing import Any

import structlog

from loveletter.core.catalogue import SeatAccount, SeatBot
from loveletter.core.chance import commitment
from loveletter.core.commands import Abort, ContributeSeed, DealRound, JoinSeat, Resign, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.lang import Text
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, GameState
from loveletter.events.store import Append, ConflictError
from loveletter.play.bots import STAND_IN, seat_bot
from loveletter.referee.accounts import Accounts, joining_account, seat_accounts, twice
from loveletter.referee.clocks import Timing
from loveletter.referee.commands import seat_of
from loveletter.referee.inputs import Joining, NewDeal, NewGame, NewSeat
from loveletter.referee.lobby import game_index, lobby_news
from loveletter.referee.moves import Judge, Moved
from loveletter.referee.record import GameRecord, SeatRecord, indexed
from loveletter.referee.refusals import Refusal, not_a_seat_token, ruled_out, token_required
from loveletter.referee.tables import Table
from loveletter.referee.tokens import digest, matches, new_token

log = structlog.get_logger()


def rematch_id(game_id: str) -> str:
    """A finished game's rematch id: 16 url-safe characters of a SHA-256 of its id (ids are public; tokens guard)."""
    return "g_" + base64.urlsafe_b64encode(hashlib.sha256(f"rematch/{game_id}".encode()).digest())[:16].decode()


class Seating:
    """Creating, joining, rematching, resigning and aborting, judged and recorded through the `Judge`."""

    def __init__(self, judge: Judge, accounts: Accounts, timing: Timing) -> None:
        self.judge = judge
        self.timing = timing
        self.tables = judge.tables
        self.credentials = judge.credentials
        self.store = judge.store
        self.accounts = accounts

    async def create(
        self,
        game: NewGame,
        *,
        game_id: str | None = None,
        reserved: dict[int, str] | None = None,
        organiser_digest: str | None = None,
        reserved_accounts: dict[int, str] | None = None,
    ) -> dict[str, Any]:
        """Create a game: its id, version, and each seat's token (or invite). A rematch passes its id, the open
        seats `reserved` for the token (digest) of a player of the game before (no invite for those), and the
        organiser's token digest it keeps; an accepted challenge, the open seat `reserved_accounts` keeps for an
        account (taken by joining with its key). A game the rules refuse is refused with its rule."""
        reserved = {**(reserved or {}), **{i: "" for i in reserved_accounts or {}}}
        try:
            return await self._create(game, game_id, reserved, organiser_digest, reserved_accounts or {})
        except RuleViolation as v:
            raise ruled_out(v) from None

    def join_by(self, created: int, opened: tuple[int, ...], reserved_accounts: dict[int, str]) -> int | None:
        """When the open seats expire: `join_seconds` after creation when every one is kept for an account (paired
        seeks, an accepted challenge: the accounts are told and a bot joins at once), `open_seat_seconds` for any
        other; never without open seats, or when the setting is 0."""
        if not opened:
            return None
        kept = set(opened) <= set(reserved_accounts)
        seconds = self.timing.join_seconds if kept else self.timing.open_seat_seconds
        return created + seconds * 1000 if seconds > 0 else None

    async def _create(
        self,
        game: NewGame,
        game_id: str | None,
        reserved: dict[int, str],
        organiser_digest: str | None,
        reserved_accounts: dict[int, str],
    ) -> dict[str, Any]:
        accounts = await seat_accounts(self.accounts, game)  # a seat an account takes plays under its name
        names = tuple(a[0] if a else p.name or "" for p, a in zip(game.players, accounts, strict=True))
        opened = tuple(i for i, p in enumerate(game.players) if p.open)
        created = self.judge.now()
        first = None
        if game.first_player is not None:
            probe = fold(decide(INITIAL, StartGame(game.ruleset, names, game.options, open_seats=opened)))
            first = seat_of(probe, game.first_player, "first_player")
        # secret until the game ends; every deck derives from it (an admin may choose it: duplicate deals)
        server_seed = bytes.fromhex(game.server_seed) if game.server_seed else secrets.token_bytes(32)
        start = StartGame(
            game.ruleset,
            names,
            game.options,
            first,
            game.scenario is not None,
            commitment(server_seed),
            opened,
            game.turn_seconds,
            game.on_timeout,
            tuple(a[1] if a else None for a in accounts) if any(accounts) else (),
            game.rated,
            created if game.rated else None,  # the ladder's order: a rated game's log says when it began
            self.join_by(created, opened, reserved_accounts),
            _bots(game),
            seat_bot(STAND_IN, len(names)) if game.on_timeout == "bot" else None,
        )
        events = list(decide(INITIAL, start))
        for seat, player in enumerate(game.players):
            if not player.open and player.seed is not None:
                events += decide(fold(events), ContributeSeed(seat, player.seed))
        state = fold(events)
        deals = [_scenario_deal(state, d) for d in game.scenario] if game.scenario else []
        tokens = [None if p.open or p.bot else new_token() for p in game.players]
        invites = [new_token() if p.open and i not in reserved else None for i, p in enumerate(game.players)]
        organiser = new_token() if organiser_digest is None else None
        record = GameRecord(
            ruleset=state.ruleset.id if state.ruleset else game.ruleset,
            players=names,
            scenario_deals=tuple(_deal_json(d) for d in deals),
            server_seed=server_seed.hex(),
            seats=tuple(
                SeatRecord(
                    name=names[i],
                    bot=None if p.open else p.bot,
                    token_digest=digest(t) if t else None,
                    invite_digest=digest(code) if (code := invites[i]) else None,
                    reserved_digest=reserved.get(i) or None,
                    reserved_account=reserved_accounts.get(i),
                    **_account_of(accounts[i]),
                )
                for i, (p, t) in enumerate(zip(game.players, tokens, strict=True))
            ),
            organiser_digest=organiser_digest or digest(organiser or ""),
            public=game.public,
            created=created,
            rated=game.rated,
        )
        automatic, state = self.judge.automatic(state, record, deals)
        events += automatic
        game_id = game_id or "g_" + secrets.token_urlsafe(12)
        index = game_index(record, state, events[0])
        if index is not None:
            index = replace(index, news=lobby_news(events, state, created=True))
        facts = indexed(events[0], events)
        append = Append(game_id, 0, events, create=record.as_json(), index=index, **facts.as_store())
        version = await self.store.commit(append)
        table = Table(game_id, record, events, state, indexed=index)
        if index is not None and index.public:
            self.tables.lobby_ping()
        self.tables.keep(table)
        log.info("game created", game_id=game_id, ruleset=record.ruleset, seats=len(names), seq=version)
        seats: list[dict[str, Any]] = []
        for i, (p, t) in enumerate(zip(game.players, tokens, strict=True)):
            if p.open and i in reserved:
                seats.append({"seat": i, "open": True, "reserved": True})
            elif p.open:
                seats.append({"seat": i, "open": True, "invite": invites[i]})
            else:
                seats.append({"seat": i, "name": names[i], "bot": p.bot, "token": t, **_account_fields(accounts[i])})
        return {
            "game_id": game_id,
            "version": version,
            "ruleset": record.ruleset,
            "scenario": game.scenario is not None,
            "public": game.public,
            "organiser_token": organiser,
            "seats": seats,
        }

    async def join(self, game_id: str, joining: Joining, *, claim: str | None = None) -> dict[str, Any]:
        """Seat a player at an open seat (by invite, or any open seat of a public game; with `claim`, the seat a
        rematch reserved for that token): that seat's own token."""
        table = await self.tables.table(game_id)
        account = await joining_account(self.accounts, joining.account_key, table.record)
        name = account[0] if account else joining.name.strip()
        sat = account[1] if account else None

        async def attempt() -> dict[str, Any] | None:
            state = table.state
            if claim is not None:
                seat = self._reserved_seat(table, claim)
            else:
                seat = self._open_seat(table, joining, sat.account if sat else None)
            token = new_token()
            try:
                if sat is not None and table.record.rated and table.record.seated(sat.account):
                    raise twice()  # the same account joined meanwhile
                events = list(decide(state, JoinSeat(seat, name, self.judge.now(), sat)))
                if joining.seed is not None:
                    events += decide(fold(events, state), ContributeSeed(seat, joining.seed))
            except RuleViolation as v:
                raise ruled_out(v) from None
            record = table.record.seat(seat, name=name, token_digest=digest(token), **_account_of(account))
            players = record.players
            record = replace(record, players=(*players[:seat], name, *players[seat + 1 :]))
            version = await self.judge.commit(table, state, events, record=record)
            if version is None:
                return None
            joined = {"game_id": game_id, "seat": seat, "name": name, "token": token, "version": version}
            return joined | _account_fields(account)

        return await self.judge.settled(table, attempt)

    def _open_seat(self, table: Table, joining: Joining, account_id: str | None) -> int:
        state, seats = table.state, table.record.seats
        for seat, info in enumerate(seats):  # a seat an accepted challenge keeps for this account
            if account_id is not None and info.reserved_account == account_id and seat in state.open_seats:
                return seat
        if joining.invite is not None:
            for seat, info in enumerate(seats):
                stored = info.invite_digest
                if stored and matches(joining.invite, stored):
                    if seat not in state.open_seats:
                        raise Refusal(
                            "invite_used",
                            Text("this invite's seat is already taken", "le siège de cette invitation est déjà pris"),
                        )
                    return seat
            raise Refusal(
                "invite_rejected",
                Text("this invite is not one of this game's", "cette invitation n'est pas de cette partie"),
            )
        if not table.record.public:
            raise Refusal(
                "invite_required",
                Text(
                    "this game is joined by invite only: send the invite you were given",
                    "on ne rejoint cette partie que sur invitation : envoyez celle que vous avez reçue",
                ),
            )
        # rematch and challenge seats wait for their player
        free = [i for i in state.open_seats if not (seats[i].reserved_digest or seats[i].reserved_account)]
        if free and not state.over:
            return free[0]
        raise Refusal(
            "game_full",
            Text(
                "every seat of this game is taken: it has started",
                "tous les sièges de cette partie sont pris : elle a commencé",
            ),
        )

    def _reserved_seat(self, table: Table, token: str) -> int:
        for seat, info in enumerate(table.record.seats):
            stored = info.reserved_digest
            if stored and matches(token, stored):
                if seat not in table.state.open_seats:
                    raise Refusal(
                        "invite_used",
                        Text("this seat of the rematch is already taken", "ce siège de la revanche est déjà pris"),
                    )
                return seat
        raise not_a_seat_token()

    async def rematch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The rematch of a finished game: the same table, seats rotated by one, each person's seat kept for them.
        The first caller creates it (once, linked from the game); a seat token also takes its own new seat."""
        old = await self.tables.table(game_id)
        if token is None:
            raise token_required("seat or organiser token", "jeton de siège ou d'organisateur")
        seat = self.credentials.seat_for(old, token, required=True)
        if not old.state.over:
            raise Refusal(
                "game_not_over", Text("a rematch follows a finished game", "une revanche suit une partie terminée")
            )
        new_id = await self._rematch_of(old)
        said: dict[str, Any] = {"game_id": new_id, "rematch_of": game_id}
        if seat is not None and old.record.seats[seat].bot is None:
            name = old.state.players[seat]
            joined = await self.join(new_id, Joining(name=name), claim=token)
            said |= {"seat": joined["seat"], "name": name, "token": joined["token"], "version": joined["version"]}
        return said

    async def _rematch_of(self, old: Table) -> str:
        """The rematch's id, derived from the finished game's: every worker asked at once names the same game, the
        store creates it once (the others' creations are refused), and the finished game's record links to it."""
        new_id = rematch_id(old.game_id)
        if await asyncio.to_thread(self.store.meta, new_id) is None:
            await self._create_rematch(old, new_id)
        if old.record.rematch != new_id:
            async with old.lock:
                record = replace(old.record, rematch=new_id)
                with contextlib.suppress(ConflictError):  # the game moved meanwhile: the link waits for a next call
                    await self.store.commit(Append(old.game_id, old.version, [], meta=record.as_json()))
                    old.record = record
        return new_id

    async def _create_rematch(self, old: Table, new_id: str) -> None:
        state, seats = old.state, old.record.seats
        n = len(seats)
        players: list[NewSeat] = [NewSeat()] * n
        reserved: dict[int, str] = {}
        for i, info in enumerate(seats):
            to = (i + 1) % n  # seats rotate: whoever sat at i sits at i + 1
            if info.bot:
                players[to] = NewSeat(name=state.players[i], bot=info.bot)
            else:
                players[to] = NewSeat(open=True)
                reserved[to] = info.token_digest or ""
        game = NewGame(
            tuple(players),
            ruleset=old.record.ruleset,
            options=state.options.as_dict(),
            public=old.record.public,
            turn_seconds=state.turn_seconds,
            on_timeout=state.on_timeout,  # type: ignore[arg-type]
        )
        organiser = old.record.organiser_digest
        with contextlib.suppress(ConflictError):  # another worker created it first
            await self.create(game, game_id=new_id, reserved=reserved, organiser_digest=organiser)

    async def resign(self, game_id: str, token: str | None) -> Moved:
        """The seat of `token` leaves the game (RULINGS §12): answered as a move is."""
        table = await self.tables.table(game_id)
        seat = self.credentials.seat_of_player(table, token)
        return await self.judge.decided(table, lambda state: Resign(seat, self.judge.now()), seat)

    async def abort(self, game_id: str, token: str | None) -> Moved:
        """The organiser (or an admin) stops the game: nobody wins."""
        table = await self.tables.table(game_id)
        if token is None:
            raise token_required("organiser token", "jeton d'organisateur")
        if not self.credentials.is_organiser(table, token) and not self.credentials.is_admin(token):
            raise Refusal(
                "not_organiser",
                Text("only the game's organiser may abort it", "seul l'organisateur de la partie peut l'annuler"),
            )
        return await self.judge.decided(table, lambda state: Abort(self.judge.now()), None)


def _bots(game: NewGame) -> tuple[SeatBot | None, ...]:
    """Each seat's built-in bot as the log names it (with the expert's search), or () when no seat has one."""
    n = len(game.players)
    bots = tuple(seat_bot(p.bot, n) if p.bot and not p.open else None for p in game.players)
    return bots if any(bots) else ()


def _account_fields(account: tuple[str, SeatAccount] | None) -> dict[str, str]:
    """What a seat's record (and its creator's answer) says of the account that took it: nothing without one."""
    if account is None:
        return {}
    return {"account": account[1].account, "account_kind": account[1].kind}


def _account_of(account: tuple[str, SeatAccount] | None) -> dict[str, str]:
    """The seat record's fields of the account that took it: none without one."""
    return {} if account is None else {"account": account[1].account, "account_kind": account[1].kind}


def _scenario_deal(state: GameState, d: NewDeal) -> DealRound:
    first = seat_of(state, d.first_player, "scenario.deals[].first_player")
    if first is None:
        first = 0 if state.named_first_player is None else state.named_first_player
    return DealRound(d.set_aside, tuple(d.face_up), tuple(d.hands), tuple(d.deck), first)


def _deal_json(d: DealRound) -> dict[str, Any]:
    return {
        "set_aside": d.set_aside.value,
        "face_up": [c.value for c in d.face_up],
        "hands": [c.value if c else None for c in d.hands],
        "deck": [c.value for c in d.deck],
        "first_player": d.first_player,
    }
