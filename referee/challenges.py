"""Challenges: one account invites another (by id or by name) to a two-seat game, rated or not; the challenged account
accepts, which creates the game with its own seat taken and the other kept for the challenger, or declines.

The challenger learns the outcome from the challenge (`public`: its status and, once accepted, its game) and takes
the seat kept for it by joining the game with its account key; no invite travels, and no seat token is kept for
anyone. Accepting closes the challenge first (compare and swap on its status), then creates the game under the id
it recorded, so two acceptances at once make one game. If the accepting worker stops between the two steps, the
challenge reads open (it names no game that does not exist) and accepting it again finishes the acceptance.

Each step is told on the accounts' event streams (`account_events`): the challenged account hears of the challenge,
the challenger of its decline or acceptance, and both of the game started.

A challenge unanswered `challenge_seconds` after it was made has expired (`expires`): it can no longer be accepted
or declined and leaves the lists of open challenges. The time is the store's (`created`) and the setting's, so
every worker and every restart agree; the first worker to refuse an answer to it records the status `expired`
and tells the challenger (`challenge_expired`).
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from loveletter.core.lang import Text
from loveletter.events.accounts import AccountRow, ChallengeRow
from loveletter.events.store import ConflictError
from loveletter.referee.account_events import AccountFeed
from loveletter.referee.accounts import Accounts, normalize_name
from loveletter.referee.clocks import Timing
from loveletter.referee.inputs import NewGame, NewSeat
from loveletter.referee.refusals import Refusal, account_not_found, challenge_not_found, key_rejected
from loveletter.referee.seating import Seating

FINISH_WAIT_SECONDS = 2.0
"""How long accepting a challenge already accepted waits for the game of that acceptance before it finishes the
acceptance itself (creating a game takes milliseconds)."""


class Challenges:
    def __init__(
        self, accounts: Accounts, seating: Seating, feed: AccountFeed | None = None, timing: Timing | None = None
    ) -> None:
        self.accounts = accounts
        self.store = accounts.store
        self.seating = seating
        self.feed = feed
        self.timing = timing or Timing()

    def expires(self, row: ChallengeRow) -> int | None:
        """When the challenge expires (Unix milliseconds), or None if challenges never do (the setting is 0)."""
        seconds = self.timing.challenge_seconds
        return row.created + seconds * 1000 if seconds > 0 else None

    def expired(self, row: ChallengeRow) -> bool:
        """An open challenge whose time has passed (its recorded status may still say open)."""
        expires = self.expires(row)
        return row.status == "open" and expires is not None and self.accounts.now() >= expires

    async def _tell(self, account_id: str, kind: str, data: dict[str, Any]) -> None:
        if self.feed is not None:
            await self.feed.post(account_id, kind, data)

    async def _account(self, ref: str) -> AccountRow:
        """An account by its public id, or by its name (compared as names are)."""
        row = await asyncio.to_thread(self.store.account, ref) if ref.startswith("a_") else None
        if row is None:
            try:
                key = normalize_name(ref)[1]
            except Refusal:
                raise account_not_found(ref) from None
            row = await asyncio.to_thread(self.store.account_by_name, key)
        if row is None:
            raise account_not_found(ref)
        return row

    async def make(self, key: str, to: str, ruleset: str, rated: bool) -> dict[str, Any]:
        """The account of `key` challenges the account `to` (an id or a name): the open challenge."""
        challenger = await self.accounts.holder(key)
        challenged = await self._account(to)
        if challenged.account_id == challenger.account_id:
            raise Refusal(
                "challenge_refused",
                Text("an account cannot challenge itself", "un compte ne peut pas se défier lui-même"),
            )
        if challenged.key_digest is None:
            raise Refusal(
                "challenge_refused",
                Text(
                    "this account's key is revoked: it plays no more",
                    "la clé de ce compte est révoquée : il ne joue plus",
                ),
            )
        row = ChallengeRow(
            "c_" + secrets.token_urlsafe(12), challenger.account_id, challenged.account_id, ruleset, rated, "open",
            None, self.accounts.now(),
        )  # fmt: skip
        await asyncio.to_thread(self.store.create_challenge, row)
        shown = await self._shown(row)
        await self._tell(row.challenged, "challenge_received", {"challenge": shown})
        return shown

    async def _open(self, challenge_id: str, key: str, finish: bool = False) -> ChallengeRow:
        """The open challenge `challenge_id`, if `key` is the challenged account's. With `finish`, also one accepted
        whose game still does not exist after `FINISH_WAIT_SECONDS` (`_unfinished`)."""
        row = await asyncio.to_thread(self.store.challenge, challenge_id)
        if row is None:
            raise challenge_not_found(challenge_id)
        if (await self.accounts.holder(key)).account_id != row.challenged:
            raise key_rejected()
        if self.expired(row):
            if await asyncio.to_thread(self.store.expire_challenge, challenge_id):
                await self._tell(row.challenger, "challenge_expired", {"challenge": await self.public(challenge_id)})
            raise closed("expired")
        if row.status != "open" and not (finish and await self._unfinished(row)):
            raise closed(row.status)
        return row

    async def _unfinished(self, row: ChallengeRow) -> bool:
        """An acceptance stopped half way: the challenge settled with its game's id, the game never created (the
        accepting worker stopped between the two steps). Creating a game takes milliseconds, so one still missing
        `FINISH_WAIT_SECONDS` later is not coming."""
        if row.status != "accepted" or row.game_id is None:
            return False
        deadline = asyncio.get_running_loop().time() + FINISH_WAIT_SECONDS
        while await asyncio.to_thread(self.store.meta, row.game_id) is None:
            if asyncio.get_running_loop().time() > deadline:
                return True
            await asyncio.sleep(0.05)
        return False

    async def accept(self, challenge_id: str, key: str) -> dict[str, Any]:
        """Accept: the game, with the challenged account's seat (its token) and the other kept for the challenger.
        Accepting a challenge whose acceptance stopped half way (it reads open: `_shown`) finishes that acceptance:
        the game is created under the id it recorded."""
        row = await self._open(challenge_id, key, finish=True)
        if row.status == "open":
            game_id = "g_" + secrets.token_urlsafe(12)
            if not await asyncio.to_thread(self.store.settle_challenge, challenge_id, "accepted", game_id):
                raise closed("accepted")  # another acceptance (or a decline) came first
        else:
            assert row.game_id is not None  # `_unfinished`
            game_id = row.game_id
        game = NewGame((NewSeat(open=True), NewSeat(account_key=key)), ruleset=row.ruleset, rated=row.rated)
        try:
            made = await self.seating.create(game, game_id=game_id, reserved_accounts={0: row.challenger})
        except ConflictError:
            raise closed("accepted") from None  # the acceptance being finished made its game after all
        mine = made["seats"][1]
        settled = await self.public(challenge_id)
        await self._tell(row.challenger, "challenge_accepted", {"challenge": settled})
        facts = {"game_id": game_id, "ruleset": row.ruleset, "players": 2, "rated": row.rated,
                 "challenge_id": challenge_id}  # fmt: skip
        await self._tell(row.challenger, "game_started", {**facts, "seat": 0, "joined": False})
        await self._tell(row.challenged, "game_started", {**facts, "seat": 1, "joined": True})
        return {"challenge_id": challenge_id, "game_id": game_id, "seat": 1, "name": mine["name"],
                "token": mine["token"], "version": made["version"]}  # fmt: skip

    async def decline(self, challenge_id: str, key: str) -> dict[str, Any]:
        await self._open(challenge_id, key)
        if not await asyncio.to_thread(self.store.settle_challenge, challenge_id, "declined", None):
            raise closed("accepted")
        settled = await self.public(challenge_id)
        await self._tell(settled["challenger"]["account_id"], "challenge_declined", {"challenge": settled})
        return settled

    async def public(self, challenge_id: str) -> dict[str, Any]:
        """What anyone may read of a challenge: who, what, its status and (accepted) its game."""
        row = await asyncio.to_thread(self.store.challenge, challenge_id)
        if row is None:
            raise challenge_not_found(challenge_id)
        return await self._shown(row)

    async def of_account(self, account_id: str) -> list[dict[str, Any]]:
        """The account's open challenges, made or received, oldest first."""
        if await asyncio.to_thread(self.store.account, account_id) is None:
            raise account_not_found(account_id)
        rows = await asyncio.to_thread(self.store.open_challenges, account_id)
        return [await self._shown(r) for r in rows if not self.expired(r)]

    async def _shown(self, row: ChallengeRow) -> dict[str, Any]:
        async def who(account_id: str) -> dict[str, str]:
            found = await asyncio.to_thread(self.store.account, account_id)
            assert found is not None  # accounts are never deleted
            return {"account_id": found.account_id, "name": found.name, "kind": found.kind}

        status, game_id = row.status, row.game_id
        if status == "accepted" and game_id and await asyncio.to_thread(self.store.meta, game_id) is None:
            # accepted, its game not created yet (a moment later it is): nobody is sent to a game that is not there
            status, game_id = "open", None
        return {
            "challenge_id": row.challenge_id,
            "challenger": await who(row.challenger),
            "challenged": await who(row.challenged),
            "ruleset": row.ruleset,
            "players": 2,
            "rated": row.rated,
            "status": "expired" if self.expired(row) else status,
            "game_id": game_id,
            "created": row.created,
            "expires": self.expires(row),
        }


def closed(status: str) -> Refusal:
    en, fr = {
        "accepted": ("accepted", "accepté"),
        "declined": ("declined", "refusé"),
        "expired": ("left unanswered until it expired", "laissé sans réponse jusqu'à son expiration"),
    }[status]
    said = Text(f"this challenge is closed: it was {en}", f"ce défi est clos : il a été {fr}")
    return Refusal("challenge_closed", said)
