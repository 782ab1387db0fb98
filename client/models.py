"""The answers of the referee as typed values, and the one definition of their shapes: the server declares its
answers in its OpenAPI document with these very models (api/openapi.py), so a client built from the document and
this library read the same fields.

Each model is frozen pydantic; fields the server adds later are ignored when reading, and the whole JSON stays in
`raw`, so a client built before them loses nothing. The models of the other routes (rulesets, keys, audits,
rulings, problems) are in `loveletter.client.answers`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidatorFunctionWrapHandler, model_validator

from loveletter.core.cards import Card


class Answer(BaseModel):
    """A JSON object the referee answers: read leniently (unknown fields kept in `raw` only), never changed."""

    # defer_build: a model's validator is built at its first use, not at import; the server declares its OpenAPI
    # document with these models and never validates one, and a client uses a few of them.
    model_config = ConfigDict(frozen=True, extra="ignore", defer_build=True)
    _raw: dict[str, Any] = PrivateAttr(default_factory=dict)

    @model_validator(mode="wrap")
    @classmethod
    def _keep_raw(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        made = handler(data)
        if isinstance(data, dict) and isinstance(made, Answer):
            made._raw = data
        return made

    @classmethod
    def of(cls, data: dict[str, Any]) -> Self:
        """The answer read from its JSON (a `pydantic.ValidationError` if it does not have this shape)."""
        return cls.model_validate(data)

    @property
    def raw(self) -> dict[str, Any]:
        """The whole JSON object as the server sent it."""
        return self._raw


class LegalMove(Answer):
    """One legal move as the referee lists it; `action_code` may be sent instead of spelling it out."""

    type: Literal["play", "return"]
    action_code: int = Field(description="the move's stable action code (docs/bots.md)")
    card: Card | None = Field(None, description="the card played")
    target: int | None = Field(None, description="the target's seat")
    target_name: str | None = Field(None, description="the target's name")
    guess: Card | None = Field(None, description="the Guard's guess")
    keep: Card | None = Field(None, description="the card a Chancellor's return keeps")
    bottom: tuple[Card, ...] = Field((), description="the cards a Chancellor's return puts under the deck, in order")

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


class SeatView(Answer):
    """What everyone may know of one seat."""

    seat: int
    name: str
    favors: int
    in_round: bool = Field(description="still in the current round")
    protected: bool = Field(description="protected by a Handmaid")
    hand_size: int
    front: tuple[Card, ...] = Field(description="the cards played or discarded in front of the seat, oldest first")
    known_hand: Card | None = Field(None, description="the card in this seat's hand, if the viewer has seen it")
    in_game: bool = Field(
        True, description="false once the seat has resigned or timed out ([Rulings §12](/rulings#s12))"
    )
    open: bool = Field(False, description="an open seat nobody has taken yet")


class Deadline(Answer):
    seat: int = Field(description="the seat whose decision is awaited")
    at: int = Field(description="when its clock runs out, in Unix milliseconds")


class Clock(Answer):
    """A game's turn clock: seconds per decision, what happens when one runs out, and the running deadline."""

    turn_seconds: int
    on_timeout: Literal["bot", "resign"]
    deadline: Deadline | None = Field(None, description="absent in lobby listings; null when nobody is on the clock")


class KnownCard(Answer):
    """A card of the draw pile the viewer knows, counted from the top (0 is the next card drawn)."""

    from_top: int
    card: Card


class View(Answer):
    """A game as one seat (or a spectator, `seat` null) may see it."""

    seat: int | None
    ruleset: str
    options: dict[str, str] = Field(default_factory=dict, description="the rule options of [Rulings §11](/rulings#s11)")
    round: int
    phase: str = Field(description="play, resolving, chancellor, between or over")
    active: int | None = Field(description="the seat whose decision is awaited")
    deck_size: int
    set_aside_face_down: bool = True
    face_up: tuple[Card, ...] = Field(description="the cards set aside face up (two-player games)")
    seats: tuple[SeatView, ...]
    hand: tuple[Card, ...] = Field(description="the viewer's own hand (empty for a spectator)")
    deck_known: tuple[KnownCard, ...] = ()
    unseen: dict[str, int] = Field(description="for each card id, the copies the viewer has not seen")
    round_winners: tuple[int, ...]
    winners: tuple[int, ...]
    version: int = Field(description="the seq of the last event this view includes")
    clock: Clock | None = None
    aborted: bool = False


class Event(Answer):
    """One event as the caller may see it: `seq`, `type`, `v` and the event's own fields. The OpenAPI document
    gives each kind's fields (docs/events.md); a hidden field is left out for a seat that may not see it."""

    model_config = ConfigDict(frozen=True, extra="allow")
    seq: int
    type: str
    v: int = 1

    @property
    def data(self) -> dict[str, Any]:
        """The whole event, as sent."""
        return self.raw


class Game(Answer):
    """`GET /games/{id}`: the caller's view, its legal moves and whether it is its turn."""

    game_id: str
    version: int
    players: tuple[str, ...]
    bots: tuple[str | None, ...] = Field(description="the bot the server plays each seat with, or null")
    scenario: bool
    over: bool
    your_turn: bool
    rematch: str | None = Field(None, description="the id of this game's rematch, once there is one")
    view: View
    legal_moves: tuple[LegalMove, ...]
    _events: Any = PrivateAttr(default=())

    @property
    def events(self) -> tuple[Event, ...]:
        """The events this seat was told so far, oldest first, up to `version` — its view of the log, as
        `GET /games/{id}/events` answers the seat. The bot harness (`loveletter.play.harness`) fills it in, in
        process as over HTTP; a `Game` read by hand has none."""
        told = self._events
        return told if isinstance(told, tuple) else tuple(told())

    def tell(self, events: Any) -> Self:
        """This game, told its seat's events: a tuple of them, or a callable giving them when first read (what the
        harness gives, so that a bot that never reads them costs nothing)."""
        self._events = events
        return self


class MoveResult(Answer):
    """The answer to a move, a seed, a resignation or an abort: the events it caused as the seat sees them, the new
    view and the seat's legal moves. `replayed` is true when the referee answered a retry from its first answer."""

    version: int
    events: tuple[Event, ...]
    view: View
    legal_moves: tuple[LegalMove, ...]
    _replayed: bool = PrivateAttr(default=False)

    @classmethod
    def of(cls, data: dict[str, Any], replayed: bool = False) -> Self:
        made = super().of(data)
        made._replayed = replayed
        return made

    @property
    def replayed(self) -> bool:
        return self._replayed


class Events(Answer):
    """`GET /games/{id}/events`: the game's version and the events after the asked seq."""

    version: int
    events: tuple[Event, ...]


class CreatedSeat(Answer):
    """A seat of a new game: a named seat's token (null for a bot), or an open seat's invite."""

    seat: int
    name: str | None = None
    bot: str | None = None
    token: str | None = None
    open: bool = False
    invite: str | None = Field(None, description="the one-time invite of an open seat")
    join: str | None = Field(None, description="the path that takes this open seat with its invite")
    reserved: bool = Field(False, description="a rematch seat kept for a player of the game before")
    account: Annotated[str | None, Field(description="the public id of the account that took the seat")] = None
    account_kind: Annotated[str | None, Field(description="that account's kind: person or bot")] = None


class Created(Answer):
    """`POST /games`: the game id, the organiser's token and each seat."""

    game_id: str
    version: int
    ruleset: str
    scenario: bool = False
    public: bool = False
    organiser_token: str | None = Field(None, description="reads as a spectator, may abort the game")
    seats: tuple[CreatedSeat, ...]

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


class Joined(Answer):
    """`POST /games/{id}/join` (and a rematch's seat): the seat taken and its own token."""

    game_id: str
    seat: int
    name: str
    token: str
    version: int
    account: Annotated[str | None, Field(description="the public id of the account that took the seat")] = None
    account_kind: Annotated[str | None, Field(description="that account's kind: person or bot")] = None


class Rematch(Answer):
    """`POST /games/{id}/rematch`: the rematch's id, and with a seat token that player's new seat (`seat`)."""

    game_id: str
    rematch_of: str
    seat_number: int | None = Field(None, alias="seat", description="with a seat token: that player's new seat")
    name: str | None = None
    token: str | None = Field(None, description="with a seat token: that player's token in the rematch")
    version: int | None = None

    @property
    def seat(self) -> Joined | None:
        """The caller's seat in the rematch, when it called with a seat token."""
        if self.seat_number is None or self.token is None or self.name is None or self.version is None:
            return None
        return Joined(
            game_id=self.game_id, seat=self.seat_number, name=self.name, token=self.token, version=self.version
        )


class LobbySeat(Answer):
    seat: int
    name: str | None
    open: bool
    bot: str | None
    in_game: bool


class LobbyGame(Answer):
    """A public game's public facts, as `GET /games` and the lobby's news give them."""

    game_id: str
    ruleset: str
    options: dict[str, str] = Field(default_factory=dict)
    seats: tuple[LobbySeat, ...]
    open_seats: int
    clock: Clock | None = None
    created: int | None = Field(None, description="when the game was created, in Unix milliseconds")
    status: Literal["open", "running", "finished"]
    aborted: bool = False
    winners: tuple[str, ...] = ()
    rated: bool = Field(False, description="a rated game between accounts (docs/accounts.md): the ladder counts it")
    join_by: int | None = Field(
        None,
        description="while a seat is open: when the open seats expire (Unix milliseconds), the game then ends unplayed",
    )


class LobbyPage(Answer):
    """`GET /games`: a page of public games, newest first, and the cursor of the next page (null on the last)."""

    games: tuple[LobbyGame, ...]
    next: str | None


@dataclass(frozen=True)
class LobbyNews:
    """One item of `GET /lobby/stream`: its id, its kind (`game_opened`, `seat_filled`, `game_started`,
    `game_finished`) and the game's public facts."""

    id: int
    kind: str
    game: LobbyGame
