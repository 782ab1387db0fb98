"""A game's record, typed: what the referee keeps beside a game's events that the events do not say — who may act
(the digests of the seats', invites' and organiser's tokens), the bots, the server seed until the end, the rematch,
whether the lobby lists it. The store keeps it as JSON (`as_json`) and hands it back (`of_json`), so nothing reads
it by string keys but this module.

What a game *is* for the store's indexes — which accounts sit at it, and, when it ends, whether the ladder counts
it — is read from its events alone (`indexed`): the record never has to be trusted for it, and the store guesses
nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from loveletter.core.catalogue import Event, GameEnded, GameStarted, SeatAccount, SeatJoined


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat: its player's name and bot, and the digests of the tokens that may take or act for it."""

    name: str = ""
    bot: str | None = None
    token_digest: str | None = None
    """The seat's token (None: an open seat, or a bot's)."""
    invite_digest: str | None = None
    reserved_digest: str | None = None
    """A rematch keeps the seat for the token of the player who sat at it before."""
    reserved_account: str | None = None
    """An accepted challenge (or a paired seek) keeps the seat for this account."""
    account: str | None = None
    account_kind: str | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "bot": self.bot,
            "token_digest": self.token_digest,
            "invite_digest": self.invite_digest,
            "reserved_digest": self.reserved_digest,
        }
        if self.reserved_account is not None:
            out["reserved_account"] = self.reserved_account
        if self.account is not None:
            out |= {"account": self.account, "account_kind": self.account_kind}
        return out

    @classmethod
    def of_json(cls, data: dict[str, Any]) -> SeatRecord:
        return cls(
            name=data.get("name") or "",
            bot=data.get("bot"),
            token_digest=data.get("token_digest"),
            invite_digest=data.get("invite_digest"),
            reserved_digest=data.get("reserved_digest"),
            reserved_account=data.get("reserved_account"),
            account=data.get("account"),
            account_kind=data.get("account_kind"),
        )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """The record of one game (docs/architecture.md); the fields absent from older records take their defaults."""

    ruleset: str
    players: tuple[str, ...]
    seats: tuple[SeatRecord, ...]
    server_seed: str = ""
    """Hex; secret until the game is over (the log then reveals it)."""
    organiser_digest: str | None = None
    public: bool = False
    created: int = 0
    rated: bool = False
    rematch: str | None = None
    scenario_deals: tuple[dict[str, Any], ...] = ()
    """A scenario's deals, round by round, as `referee.commands.deal_of` reads them."""

    def seat(self, index: int, **changes: Any) -> GameRecord:
        """This record with seat `index` changed."""
        seats = list(self.seats)
        seats[index] = replace(seats[index], **changes)
        return replace(self, seats=tuple(seats))

    def seated(self, account_id: str) -> bool:
        return any(s.account == account_id for s in self.seats)

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ruleset": self.ruleset,
            "players": list(self.players),
            "scenario_deals": list(self.scenario_deals),
            "server_seed": self.server_seed,
            "seats": [s.as_json() for s in self.seats],
            "organiser_digest": self.organiser_digest,
            "public": self.public,
            "created": self.created,
        }
        if self.rated:
            out["rated"] = True
        if self.rematch is not None:
            out["rematch"] = self.rematch
        return out

    @classmethod
    def of_json(cls, data: dict[str, Any]) -> GameRecord:
        seats = tuple(SeatRecord.of_json(s) for s in data.get("seats", ()))
        return cls(
            ruleset=data.get("ruleset", "2019"),
            players=tuple(data.get("players") or (s.name for s in seats)),
            seats=seats,
            server_seed=data.get("server_seed", ""),
            organiser_digest=data.get("organiser_digest"),
            public=bool(data.get("public")),
            created=int(data.get("created") or 0),
            rated=bool(data.get("rated")),
            rematch=data.get("rematch"),
            scenario_deals=tuple(data.get("scenario_deals", ())),
        )


@dataclass(frozen=True, slots=True)
class Indexed:
    """What the store indexes of one append: the (account, seat) pairs its events seat, and the ladder's row
    (ruleset, table size, when it began) if its events end a rated game."""

    accounts: tuple[tuple[str, int], ...] = ()
    rated: tuple[str, int, int] | None = None

    def as_store(self) -> dict[str, Any]:
        """As `events.store.Append` takes them."""
        return {"accounts": self.accounts, "rated": self.rated}


def indexed(first: Event, events: Sequence[Event]) -> Indexed:
    """What the store indexes of `events`, appended to the game whose first event is `first`: read from the events
    alone (the accounts a creation or a join seats; a rated game's end)."""
    if not isinstance(first, GameStarted):  # pragma: no cover - a game's first event starts it
        return Indexed()
    taken: list[tuple[str, int]] = []
    for event in events:
        if isinstance(event, GameStarted):
            taken += [(a.account, seat) for seat, a in enumerate(event.accounts) if isinstance(a, SeatAccount)]
        elif isinstance(event, SeatJoined) and event.account is not None:
            taken.append((event.account.account, event.player))
    ended = first.rated and any(isinstance(e, GameEnded) for e in events)
    rated = (first.ruleset, len(first.players), int(first.at or 0)) if ended else None
    return Indexed(tuple(taken), rated)
