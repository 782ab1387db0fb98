"""Request bodies of the HTTP API (pydantic), with the examples the OpenAPI document shows; each turns into the
referee's own plain input (`referee.inputs`) by `plain()`.

Every number is a strict integer (`StrictInt`): pydantic's lax mode would take `true` as 1, `1.0` as 1 and `"1"` as
1, and a seat or an action code written that way is a client's mistake to be named, not guessed. A seat reference
is a strict integer or a strict string, never a boolean.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictInt, StrictStr, model_validator

from loveletter.core.cards import Card
from loveletter.core.lang import BilingualError, Text
from loveletter.core.rulesets import MAX_SPECTATOR_DELAY
from loveletter.referee import inputs
from loveletter.replays.transcript import card_named

SeatRef = Annotated[Union[StrictInt, StrictStr], Field(description="a seat number (0-based) or a player's name")]


def _by_name(value: Any) -> Any:
    """A card's English or French name (themed ones too, as transcripts and rulings read them) as its id; anything
    else is left for the enum to refuse."""
    return card_named(value) or value


CardIn = Annotated[
    Card,
    BeforeValidator(_by_name),
    Field(description="a card id, or its English or French name (`Servante`, `Prêtre`, `Ogre`)"),
]
"""A card in a move body: a player may write the name printed on the card."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


SEED = Field(pattern="^[0-9a-f]{64}$", description="256 bits as 64 lowercase hex digits")


class SeatIn(_Strict):
    """A seat: a named player (a person, or a bot the server plays), or `{"open": true}`, a seat left for someone
    to join (`POST /games/{id}/join`) by invite or from the lobby."""

    name: Annotated[str, Field(min_length=1, max_length=40)] | None = None
    bot: Literal["random", "heuristic", "expert"] | None = Field(
        None, description="this seat is played by the server (the expert thinks in worker processes: docs/engine.md)"
    )
    seed: Annotated[str, SEED] | None = Field(None, description="the seat's own seed, mixed into every deck")
    open: Literal[True] | None = Field(None, description="a seat left open, without a name")
    account_key: Annotated[str, Field(min_length=1, max_length=200)] | None = Field(
        None, description="an account's key: the seat is that account's, under its name (docs/accounts.md)"
    )

    @model_validator(mode="after")
    def _named_or_open(self) -> SeatIn:
        if self.open and (self.name, self.bot, self.seed, self.account_key) != (None, None, None, None):
            raise BilingualError(
                Text(
                    "an open seat has no name, bot, seed or account: whoever joins it brings them",
                    "un siège ouvert n'a ni nom, ni robot, ni graine, ni compte : c'est à qui le prend de les apporter",
                )
            )
        if self.bot is not None and self.account_key is not None:
            raise BilingualError(
                Text(
                    "a seat the server plays has no account: a bot account plays its own seat with its key",
                    "un siège que joue le serveur n'a pas de compte : un compte de robot joue son siège avec sa clé",
                )
            )
        if not self.open and self.name is None and self.account_key is None:
            raise BilingualError(
                Text(
                    'a seat needs a name (or an account_key), or is {"open": true}',
                    "un siège demande un nom (ou une clé de compte « account_key »), ou bien « open » : true",
                )
            )
        return self

    def plain(self) -> inputs.NewSeat:
        return inputs.NewSeat(self.name, self.bot, self.seed, bool(self.open), self.account_key)


class DealIn(_Strict):
    """An explicit deal (scenario games only): the zones of one round, deck top first."""

    set_aside: Card
    face_up: list[Card] = Field(default_factory=list)
    hands: list[Card] = Field(description="the card dealt to each seat, in seat order")
    deck: list[Card]
    first_player: SeatRef | None = None

    def plain(self) -> inputs.NewDeal:
        return inputs.NewDeal(
            self.set_aside, tuple(self.face_up), tuple(self.hands), tuple(self.deck), self.first_player
        )


class ScenarioIn(_Strict):
    deals: list[DealIn] = Field(min_length=1, description="the first rounds' deals; later rounds are shuffled")


class CreateGameIn(_Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "ruleset": "2019",
                    "players": [{"name": "Alice"}, {"name": "Bob"}, {"name": "Bot", "bot": "heuristic"}],
                }
            ]
        },
    )

    ruleset: str = Field("2019", description="2019, 2019-classic, 2012 or princess-princess")
    options: dict[str, str] = Field(default_factory=dict, description="rule options of [Rulings §11](/rulings#s11)")
    players: list[SeatIn] = Field(min_length=2, max_length=6)
    first_player: SeatRef | None = Field(None, description="who starts round 1; drawn at random if absent")
    scenario: ScenarioIn | None = Field(None, description="explicit deals: the game is recorded as a scenario")
    public: bool = Field(False, description="listed in the lobby (GET /games); otherwise joined by invite only")
    turn_seconds: StrictInt | None = Field(None, ge=1, le=7 * 24 * 3600, description="a clock for each decision")
    on_timeout: Literal["bot", "resign"] | None = Field(
        None, description="when a clock runs out: the server's expert bot decides, or the seat resigns"
    )
    spectator_delay: StrictInt | None = Field(
        None,
        ge=0,
        le=MAX_SPECTATOR_DELAY,
        description="spectators see the running game this many moves behind (a move: a card played, or the cards "
        "a Chancellor keeps); the seats see it at once, and everyone sees everything once it is over. Recorded in "
        "the log's options (as a string); default 0",
    )
    server_seed: Annotated[str, SEED] | None = Field(
        None,
        description="admin only: the server seed every deck derives from, instead of a secret random one (duplicate "
        "deals for tournaments); still committed at the start and revealed at the end, so any audit sees it",
    )
    rated: bool = Field(
        False, description="a rated game: every seat an account's (account_key), each account once (docs/accounts.md)"
    )

    @model_validator(mode="after")
    def _delay_once(self) -> CreateGameIn:
        if self.spectator_delay is not None and "spectator_delay" in self.options:
            raise BilingualError(
                Text(
                    "spectator_delay is given twice: as a field and among the options",
                    "« spectator_delay » est donné deux fois : comme champ et parmi les options",
                )
            )
        return self

    def plain(self) -> inputs.NewGame:
        options = dict(self.options)
        if self.spectator_delay:  # recorded among the options, where the log keeps it (0: the default, unwritten)
            options["spectator_delay"] = str(self.spectator_delay)
        return inputs.NewGame(
            tuple(p.plain() for p in self.players),
            self.ruleset,
            options,
            self.first_player,
            tuple(d.plain() for d in self.scenario.deals) if self.scenario is not None else None,
            self.public,
            self.turn_seconds,
            self.on_timeout,
            self.server_seed,
            self.rated,
        )


class JoinIn(_Strict):
    """Take an open seat: with its invite, or any open seat of a public game without one."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "Cleo", "invite": "…"}]})
    name: Annotated[str, Field(min_length=1, max_length=40)]
    invite: Annotated[str, Field(min_length=1, max_length=100)] | None = None
    seed: Annotated[str, SEED] | None = Field(None, description="the joining seat's own seed (docs/shuffle.md)")
    account_key: Annotated[str, Field(min_length=1, max_length=200)] | None = Field(
        None, description="an account's key: the seat is that account's, under its name (docs/accounts.md)"
    )

    def plain(self) -> inputs.Joining:
        return inputs.Joining(self.name, self.invite, self.seed, self.account_key)


class PlayIn(_Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"type": "play", "card": "guard", "target": "Bob", "guess": "priest"}]},
    )
    type: Literal["play"]
    card: CardIn
    target: SeatRef | None = None
    guess: CardIn | None = None

    def plain(self) -> inputs.Play:
        return inputs.Play(self.card, self.target, self.guess)


class ReturnIn(_Strict):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"type": "return", "keep": "princess", "bottom": ["guard", "spy"]}]},
    )
    type: Literal["return"]
    keep: CardIn
    bottom: list[CardIn] = Field(max_length=2, description="the returned cards, top to bottom")

    def plain(self) -> inputs.Return:
        return inputs.Return(self.keep, tuple(self.bottom))


class CodeIn(_Strict):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"type": "code", "action_code": 95}]})
    type: Literal["code"]
    action_code: StrictInt = Field(ge=0, le=10_000, description="a stable action code (docs/bots.md)")

    def plain(self) -> inputs.Code:
        return inputs.Code(self.action_code)


MoveIn = Annotated[Union[PlayIn, ReturnIn, CodeIn], Field(discriminator="type")]


class SeedIn(_Strict):
    """A seat's own seed: mixed into the shuffle of every round dealt after it (docs/shuffle.md)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"seed": "ab" * 32}]})
    seed: Annotated[str, SEED]

    def plain(self) -> inputs.Seed:
        return inputs.Seed(self.seed)
