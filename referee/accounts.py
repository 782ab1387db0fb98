"""Accounts without passwords: a person or a bot with a name that lasts from game to game, known by a public id, acting
by an account key shown once (at creation or rotation) and kept only as a digest.

Names: the name is stored in Unicode NFKC form; two names are the same name when their NFKC forms, case-folded (and
put in NFKC again, which case folding may undo), are equal, so "Zoé", "ZOÉ" and "Ｚｏé" are one name. A name may not
hold what a reader cannot see or that changes how text around it reads: control, format (zero-width and
direction marks), private-use, unassigned or surrogate code points, line or paragraph separators, nor the letters
that draw nothing (Hangul fillers, the braille blank). Each refusal names its rule (`name_rule`).

Keys: 256 random bits ("ak_" and 43 url-safe characters). They are stored as SHA-256 digests: a key is not a password
a person chose, so a slow password hash would add no protection against guessing 2**256 keys, and it would cost every
call that shows a key; a digest also lets the store find the account by its key with an index (docs/accounts.md).
"""

from __future__ import annotations

import asyncio
import secrets
import unicodedata
from typing import Any, Literal

from loveletter.core.catalogue import SeatAccount
from loveletter.core.lang import Text
from loveletter.events.accounts import AccountRow, NameTaken
from loveletter.events.store import EventStore
from loveletter.referee.account_games import AccountGames, as_seen
from loveletter.referee.inputs import NewGame
from loveletter.referee.ladder import Ladders
from loveletter.referee.record import GameRecord
from loveletter.referee.refusals import Refusal, account_not_found, key_rejected
from loveletter.referee.tokens import digest, matches

Kind = Literal["person", "bot"]
KINDS: tuple[Kind, ...] = ("person", "bot")
NAME_LENGTH = 40
"""The longest name, in characters once normalized."""
KEY_PREFIX = "ak_"

INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters and symbols that draw nothing: the Hangul fillers and the braille pattern blank."""
REFUSED_CATEGORIES: dict[str, tuple[str, Text]] = {
    "Cc": ("control", Text("a control character", "un caractère de commande")),
    "Cf": ("format", Text("an invisible format character", "un caractère de mise en forme invisible")),
    "Co": ("private_use", Text("a private-use character", "un caractère à usage privé")),
    "Cn": ("unassigned", Text("an unassigned code point", "un point de code non attribué")),
    "Cs": ("surrogate", Text("a lone surrogate", "une demi-paire de substitution isolée")),
    "Zl": ("separator", Text("a line separator", "un séparateur de ligne")),
    "Zp": ("separator", Text("a paragraph separator", "un séparateur de paragraphe")),
}
"""Unicode's general categories a name may not hold: the rule each one breaks, and what it is."""
INVISIBLE = ("invisible", Text("a letter that draws nothing", "une lettre qui ne s'affiche pas"))


def name_refused(rule: str, en: str, fr: str) -> Refusal:
    return Refusal("account_name_refused", Text(en, fr), name_rule=rule)


def normalize_name(name: str) -> tuple[str, str]:
    """(the name as stored, the key it is unique by); refused with the rule it breaks."""
    shown = unicodedata.normalize("NFKC", name)
    for char in name + shown:  # as sent (the code point the sender wrote), and as normalized
        category = unicodedata.category(char)
        if category in REFUSED_CATEGORIES or char in INVISIBLE_LETTERS:
            rule, what = REFUSED_CATEGORIES.get(category, INVISIBLE)
            code = f"U+{ord(char):04X}"
            raise name_refused(
                rule,
                f"an account's name may not hold {what.en} ({code})",
                f"le nom d'un compte ne peut contenir {what.fr} ({code})",
            )
    shown = " ".join(shown.split())  # spaces: none at either end, one between words
    if not shown:
        raise name_refused("empty", "an account needs a name", "un compte doit avoir un nom")
    if len(shown) > NAME_LENGTH:
        raise name_refused(
            "too_long",
            f"an account's name has at most {NAME_LENGTH} characters",
            f"le nom d'un compte compte au plus {NAME_LENGTH} caractères",
        )
    return shown, unicodedata.normalize("NFKC", shown.casefold())


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


class Accounts:
    """Creating accounts, rotating and revoking their keys, and reading them; `now` is the referee's clock."""

    def __init__(self, store: EventStore, now: Any, ladders: Ladders) -> None:
        self.store = store
        self.now = now
        self.ladders = ladders
        self.games = AccountGames(store)

    async def create(self, name: str, kind: Kind) -> dict[str, Any]:
        """A new account: its public id and its key (shown here and never again)."""
        shown, name_key = normalize_name(name)
        key = new_key()
        row = AccountRow("a_" + secrets.token_urlsafe(12), shown, kind, self.now(), digest(key))
        try:
            await asyncio.to_thread(self.store.create_account, row, name_key)
        except NameTaken:
            raise Refusal(
                "account_name_taken",
                Text(
                    f"the name {shown!r} is taken (names are compared ignoring case and Unicode forms)",
                    f"le nom « {shown} » est déjà pris (les noms sont comparés sans tenir compte de la casse ni des "
                    "formes Unicode)",
                ),
            ) from None
        return {"account_id": row.account_id, "name": shown, "kind": kind, "key": key}

    async def holder(self, key: str | None) -> AccountRow:
        """The account whose current key is `key`."""
        if not key:
            raise key_rejected()
        row = await asyncio.to_thread(self.store.account_by_key, digest(key))
        if row is None or row.key_digest is None or not matches(key, row.key_digest):
            raise key_rejected()
        return row

    async def _own(self, account_id: str, key: str | None) -> AccountRow:
        """The account `account_id`, if `key` is its current key (a key acts only for its own account)."""
        row = await self.holder(key)
        if row.account_id != account_id:
            raise key_rejected()
        return row

    async def rotate(self, account_id: str, key: str | None) -> dict[str, Any]:
        """A new key for the account; the one sent stops working at once."""
        row = await self._own(account_id, key)
        fresh = new_key()
        if not await asyncio.to_thread(self.store.replace_account_key, account_id, row.key_digest or "", digest(fresh)):
            raise key_rejected()  # rotated or revoked meanwhile, with the same key
        return {"account_id": account_id, "key": fresh}

    async def revoke(self, account_id: str, key: str | None) -> None:
        """The account's key stops working, and no other replaces it: the account keeps its name and games."""
        row = await self._own(account_id, key)
        if not await asyncio.to_thread(self.store.replace_account_key, account_id, row.key_digest or "", None):
            raise key_rejected()

    async def public(self, account_id: str) -> dict[str, Any]:
        """What anyone may read of an account: its name, kind, games and ratings."""
        row = await asyncio.to_thread(self.store.account, account_id)
        if row is None:
            raise account_not_found(account_id)
        games = await asyncio.to_thread(self.store.account_games, account_id)
        return {
            "account_id": row.account_id,
            "name": row.name,
            "kind": row.kind,
            "created": row.created,
            "active": row.key_digest is not None,
            "games": games,
            "ratings": await self.ladders.of_account(account_id),
        }

    async def played(self, account_id: str, limit: int) -> dict[str, Any]:
        """The account's newest `limit` games, newest first, each from its point of view (`referee.account_games`);
        the rating change of each finished rated game is the ladder's own (`Ladders.changes`)."""
        if await asyncio.to_thread(self.store.account, account_id) is None:
            raise account_not_found(account_id)
        found, total = await asyncio.to_thread(self.games.read, account_id, limit)
        changes = await self.ladders.changes(account_id) if any(g.rated and g.over for g in found) else {}
        games = [as_seen(g, account_id, changes.get(g.game_id)) for g in found]
        return {"account_id": account_id, "total": total, "games": games}


# -- who sits where: seats taken with an account key, and the rules of rated games ----------------------------


def rated_refused(rule: str, en: str, fr: str) -> Refusal:
    return Refusal("rated_refused", Text(en, fr), rated_rule=rule)


async def seat_accounts(accounts: Accounts, game: NewGame) -> list[tuple[str, SeatAccount] | None]:
    """For each seat of a new game, (the account's name, its `SeatAccount`) when an account key took it; a rated
    game refused unless every seat is an account's (or left open for one), each account once, its deals shuffled."""
    found: list[tuple[str, SeatAccount] | None] = []
    for seat in game.players:
        if seat.account_key is None:
            found.append(None)
            continue
        row = await accounts.holder(seat.account_key)
        found.append((row.name, SeatAccount(row.account_id, row.kind)))  # type: ignore[arg-type]
    if game.rated:
        if any(s is None and not p.open for s, p in zip(found, game.players, strict=True)):
            raise rated_refused(
                "every_seat_an_account",
                "in a rated game every seat is an account's: send each seat's account_key, or leave it open",
                "dans une partie classée chaque siège est celui d'un compte : envoyez la clé « account_key » de "
                "chaque siège, ou laissez-le ouvert",
            )
        ids = [s[1].account for s in found if s is not None]
        if len(set(ids)) != len(ids):
            raise twice()
        if game.scenario is not None:
            raise rated_refused(
                "shuffled_deals",
                "a rated game is dealt by the shuffle, not by a scenario",
                "une partie classée est distribuée par le mélange, pas par un scénario",
            )
    return found


def twice() -> Refusal:
    return rated_refused(
        "one_seat_per_account",
        "an account takes one seat of a rated game, not two",
        "un compte occupe un seul siège d'une partie classée, pas deux",
    )


async def joining_account(accounts: Accounts, key: str | None, record: GameRecord) -> tuple[str, SeatAccount] | None:
    """(name, account) of the account that takes an open seat of the game whose record is `record`, if any; a rated
    game is joined only by an account not seated there yet."""
    if key is None:
        if record.rated:
            raise rated_refused(
                "every_seat_an_account",
                "a rated game's seat is taken with an account: send its account_key",
                "le siège d'une partie classée se prend avec un compte : envoyez sa clé « account_key »",
            )
        return None
    row = await accounts.holder(key)
    if record.rated and record.seated(row.account_id):
        raise twice()
    return row.name, SeatAccount(row.account_id, row.kind)  # type: ignore[arg-type]
