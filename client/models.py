"""The answers of the referee as typed values: what `GET /games/{id}`, a move, `POST /games`, `join`, `rematch`,
`GET /games` and the streams send today (docs/api.md). Each keeps its whole JSON in `raw`, so a field the server
adds later is never lost to a client that was built before it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


def _dict(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, dict) else {}


@dataclass(frozen=True)
class LegalMove:
    """One legal move as the referee lists it; `action_code` may be sent instead of spelling it out."""

    type: str
    action_code: int
    card: str | None = None
    target: int | None = None
    target_name: str | None = None
    guess: str | None = None
    keep: str | None = None
    bottom: tuple[str, ...] = ()

    @classmethod
    def of(cls, data: dict[str, Any]) -> LegalMove:
        return cls(
            type=data["type"],
            action_code=int(data["action_code"]),
            card=data.get("card"),
            target=data.get("target"),
            target_name=data.get("target_name"),
            guess=data.get("guess"),
            keep=data.get("keep"),
            bottom=tuple(data.get("bottom", ())),
        )

    def body(self) -> dict[str, Any]:
        """The move spelled out, as `POST /games/{id}/moves` takes it."""
        if self.type == "return":
            return {"type": "return", "keep": self.keep, "bottom": list(self.bottom)}
        out: dict[str, Any] = {"type": "play", "card": self.card}
        if self.target is not None:
            out["target"] = self.target
        if self.guess is not None:
            out["guess"] = self.guess
        return out


@dataclass(frozen=True)
class SeatView:
    """What everyone may know of one seat."""

    seat: int
    name: str
    favors: int
    in_round: bool
    protected: bool
    hand_size: int
    front: tuple[str, ...]
    known_hand: str | None
    in_game: bool
    open: bool

    @classmethod
    def of(cls, d: dict[str, Any]) -> SeatView:
        return cls(
            d["seat"],
            d["name"],
            d["favors"],
            d["in_round"],
            d["protected"],
            d["hand_size"],
            tuple(d["front"]),
            d.get("known_hand"),
            d.get("in_game", True),
            d.get("open", False),
        )


@dataclass(frozen=True)
class View:
    """A game as one seat (or a spectator, `seat` None) may see it."""

    seat: int | None
    ruleset: str
    round: int
    phase: str
    active: int | None
    deck_size: int
    face_up: tuple[str, ...]
    seats: tuple[SeatView, ...]
    hand: tuple[str, ...]
    unseen: dict[str, int]
    round_winners: tuple[int, ...]
    winners: tuple[int, ...]
    version: int
    clock: dict[str, Any] | None
    aborted: bool
    raw: dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def of(cls, d: dict[str, Any]) -> View:
        return cls(
            d["seat"],
            d["ruleset"],
            d["round"],
            d["phase"],
            d["active"],
            d["deck_size"],
            tuple(d["face_up"]),
            tuple(SeatView.of(s) for s in d["seats"]),
            tuple(d["hand"]),
            dict(d["unseen"]),
            tuple(d["round_winners"]),
            tuple(d["winners"]),
            d["version"],
            d.get("clock"),
            d.get("aborted", False),
            d,
        )


@dataclass(frozen=True)
class Event:
    """One event as the caller may see it: `seq`, `type` and the event's own fields in `data`."""

    seq: int
    type: str
    data: dict[str, Any]

    @classmethod
    def of(cls, d: dict[str, Any]) -> Event:
        return cls(int(d["seq"]), str(d["type"]), d)


@dataclass(frozen=True)
class Game:
    """`GET /games/{id}`: the caller's view, its legal moves and whether it is its turn."""

    game_id: str
    version: int
    players: tuple[str, ...]
    bots: tuple[str | None, ...]
    scenario: bool
    over: bool
    your_turn: bool
    rematch: str | None
    view: View
    legal_moves: tuple[LegalMove, ...]
    raw: dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def of(cls, d: dict[str, Any]) -> Game:
        return cls(
            d["game_id"],
            d["version"],
            tuple(d["players"]),
            tuple(d["bots"]),
            d["scenario"],
            d["over"],
            d["your_turn"],
            d.get("rematch"),
            View.of(d["view"]),
            tuple(LegalMove.of(m) for m in d["legal_moves"]),
            d,
        )


@dataclass(frozen=True)
class MoveResult:
    """The answer to a move, a resignation or an abort: the events it caused as the seat sees them, the new view
    and the seat's legal moves. `replayed` is true when the referee answered a retry from its first answer."""

    version: int
    events: tuple[Event, ...]
    view: View
    legal_moves: tuple[LegalMove, ...]
    replayed: bool = False
    raw: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def of(cls, d: dict[str, Any], replayed: bool = False) -> MoveResult:
        return cls(
            d["version"],
            tuple(Event.of(e) for e in d["events"]),
            View.of(d["view"]),
            tuple(LegalMove.of(m) for m in d["legal_moves"]),
            replayed,
            d,
        )


@dataclass(frozen=True)
class Events:
    """`GET /games/{id}/events`: the game's version and the events after the asked seq."""

    version: int
    events: tuple[Event, ...]

    @classmethod
    def of(cls, d: dict[str, Any]) -> Events:
        return cls(d["version"], tuple(Event.of(e) for e in d["events"]))


@dataclass(frozen=True)
class CreatedSeat:
    """A seat of a new game: a named seat's token (None for a bot), or an open seat's invite."""

    seat: int
    name: str | None = None
    bot: str | None = None
    token: str | None = None
    open: bool = False
    invite: str | None = None
    reserved: bool = False

    @classmethod
    def of(cls, d: dict[str, Any]) -> CreatedSeat:
        return cls(
            d["seat"], d.get("name"), d.get("bot"), d.get("token"), d.get("open", False), d.get("invite"),
            d.get("reserved", False),
        )  # fmt: skip


@dataclass(frozen=True)
class Created:
    """`POST /games`: the game id, the organiser's token and each seat."""

    game_id: str
    version: int
    ruleset: str
    public: bool
    organiser_token: str | None
    seats: tuple[CreatedSeat, ...]

    @classmethod
    def of(cls, d: dict[str, Any]) -> Created:
        seats = tuple(CreatedSeat.of(s) for s in d["seats"])
        return cls(d["game_id"], d["version"], d["ruleset"], d["public"], d.get("organiser_token"), seats)

    def token(self, name: str) -> str:
        """The token of the named seat (a KeyError if it has none)."""
        for s in self.seats:
            if s.name == name and s.token:
                return s.token
        raise KeyError(name)

    @property
    def invites(self) -> tuple[str, ...]:
        """The open seats' invites, in seat order."""
        return tuple(s.invite for s in self.seats if s.invite)


@dataclass(frozen=True)
class Joined:
    """`POST /games/{id}/join` (and a rematch's seat): the seat taken and its own token."""

    game_id: str
    seat: int
    name: str
    token: str
    version: int

    @classmethod
    def of(cls, d: dict[str, Any]) -> Joined:
        return cls(d["game_id"], d["seat"], d["name"], d["token"], d["version"])


@dataclass(frozen=True)
class Rematch:
    """`POST /games/{id}/rematch`: the rematch's id, and with a seat token that player's new seat."""

    game_id: str
    rematch_of: str
    seat: Joined | None

    @classmethod
    def of(cls, d: dict[str, Any]) -> Rematch:
        seat = Joined.of(d) if "token" in d else None
        return cls(d["game_id"], d["rematch_of"], seat)


@dataclass(frozen=True)
class LobbySeat:
    seat: int
    name: str | None
    open: bool
    bot: str | None
    in_game: bool

    @classmethod
    def of(cls, d: dict[str, Any]) -> LobbySeat:
        return cls(d["seat"], d.get("name"), d["open"], d.get("bot"), d["in_game"])


@dataclass(frozen=True)
class LobbyGame:
    """A public game's public facts, as `GET /games` and the lobby's news give them."""

    game_id: str
    ruleset: str
    options: dict[str, str]
    seats: tuple[LobbySeat, ...]
    open_seats: int
    clock: dict[str, Any] | None
    created: int | None
    status: str
    aborted: bool
    winners: tuple[str, ...]

    @classmethod
    def of(cls, d: dict[str, Any]) -> LobbyGame:
        return cls(
            d["game_id"],
            d["ruleset"],
            _dict(d.get("options")),
            tuple(LobbySeat.of(s) for s in d["seats"]),
            d["open_seats"],
            d.get("clock"),
            d.get("created"),
            d["status"],
            d.get("aborted", False),
            tuple(d.get("winners", ())),
        )


@dataclass(frozen=True)
class LobbyNews:
    """One item of `GET /lobby/stream`: its id, its kind (`game_opened`, `seat_filled`, `game_started`,
    `game_finished`) and the game's public facts."""

    id: int
    kind: str
    game: LobbyGame
