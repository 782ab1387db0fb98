"""The answers of the referee's other routes — service, rulesets, keys, audits, rulings, a seat's view at a past
point — and of every refusal (`Problem`, RFC 9457 `application/problem+json`). Like `loveletter.client.models`,
these are the shapes the server declares in its OpenAPI document, defined once here."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from loveletter.client.models import Answer, Event, LegalMove, View


class Health(Answer):
    """`GET /healthz`: the referee answers, and which event store it keeps games in."""

    status: Literal["ok"]
    store: str


class StoreReadiness(Answer):
    kind: str = Field(description="the event store's class: SqliteStore or PostgresStore")
    ready: bool
    ms: float | None = Field(default=None, description="how long the store took to answer a read")
    error: str | None = Field(default=None, description="why the store did not answer, when it did not")


class EngineReadiness(Answer):
    workers: int = Field(description="the engine's worker processes (the expert's decisions, reviews, simulations)")
    state: Literal["idle", "starting", "ready", "closed"] = Field(
        description="idle: none started yet (they start at the first decision that needs them)"
    )
    urgent_waiting: int
    background_waiting: int


class Readiness(Answer):
    """`GET /readyz`: whether the referee can serve (its store answers), and its engine's state."""

    ready: bool
    store: StoreReadiness
    engine: EngineReadiness


class PublicKey(Answer):
    """The Ed25519 public key exported logs are signed with, in the forms people check signatures with."""

    key_id: str
    algorithm: Literal["ed25519"]
    public_key: str = Field(description="64 hex digits: what `loveletter audit --key` takes")
    public_key_base64: str
    public_key_pem: str
    signs: str = Field(description="the message each signature covers")


class Keys(Answer):
    """`GET /keys`."""

    keys: tuple[PublicKey, ...]


class PlayerRange(Answer):
    min: int
    max: int


class Names(Answer):
    """A name in both languages."""

    en: str
    fr: str


class RulesetCard(Answer):
    id: str
    value: int
    copies: int
    name: Names


class Ruleset(Answer):
    """`GET /rulesets/{id}`: a ruleset's players, deck, tie rule, favors to win and options."""

    id: str
    title: str
    players: PlayerRange
    favors_to_win: dict[str, int] = Field(description="favors a player needs, by number of players")
    deck_size: int
    tie_rule: str
    spy_favor: bool
    amira_sadie_favor: bool
    options: dict[str, tuple[str, ...]] = Field(description="each rule option and the values it may take")
    cards: tuple[RulesetCard, ...]


class AuditProblem(Answer):
    """One thing wrong with an audited game: where, under which rule, why, and what was expected and found."""

    line: int | None = None
    seq: int | None = None
    where: str | None = None
    event: str | None = None
    rule_id: str
    code: str
    message: str
    expected: str | None = None
    found: str | None = None


class AuditNote(Answer):
    """Something worth saying that is not a problem (an unsigned game, deals given by a scenario…)."""

    check: str
    code: str
    message: str


class AuditCounts(Answer):
    games: int
    valid: int
    invalid: int
    events: int
    problems: int
    signed: int


class GameAudit(Answer):
    """The audit of one game of the uploaded log."""

    game: int = Field(description="the game's place in the file, from 1")
    game_id: str | None
    line: int = Field(description="the line of the game's header")
    ruleset: str
    players: tuple[str, ...]
    verdict: Literal["valid", "invalid"]
    events: int
    rounds: int
    finished: bool
    winners: tuple[str, ...]
    signed: bool
    key_id: str | None
    checks: dict[str, Literal["ok", "problem", "note", "skipped"]] = Field(
        description="sequence, chain, signature, commitment, derivation and rules: each ok, problem, note or skipped"
    )
    problems: tuple[AuditProblem, ...]
    notes: tuple[AuditNote, ...]


class AuditReport(Answer):
    """`POST /audits`: the verdict on an uploaded log, its counts and every game's report."""

    file: str
    verdict: Literal["valid", "invalid", "unreadable"]
    error: str | None = Field(None, description="why the file cannot be read, if it cannot")
    error_line: int | None = None
    counts: AuditCounts
    games: tuple[GameAudit, ...]


class SourceLink(Answer):
    """One source of a rule as a person reads it, in the answer's language: "Rulings §5" or "Love Letter (2019),
    English rules", and where to read it on the referee (`/rulings#s5`, `/rulings#sources`; None: nowhere)."""

    text: str
    href: str | None = Field(None, description="a path on the referee's rulings page, `GET /rulings`")


class Ruling(Answer):
    """`POST /rulings`: was the disputed move legal after seq `at`, under which rule, and what it would have
    caused (its events, then the next decision's legal moves)."""

    at: int = Field(description="the seq the move was judged after: the one asked, or the nearest decision")
    asked_at: int | None = Field(
        None, description="the seq asked, where nobody decides, when the body's `nearest` moved the ruling to `at`"
    )
    mover: str
    legal: bool
    rule_id: str
    rule: str = Field(description="the rule's text, in the ruling's language")
    sources: tuple[str, ...] = Field(
        description="the rule's sources by their ids, for programs; `rule_sources` names them for a person"
    )
    rule_sources: tuple[SourceLink, ...] = Field(
        (), description="the same sources named for a person, in the ruling's language, each with its link"
    )
    message: str
    events: tuple[Event, ...]
    legal_moves: tuple[LegalMove, ...]
    prefix_problem: AuditProblem | None = Field(None, description="what is wrong with the log before `at`, if anything")
    lang: Literal["en", "fr"]


class SeatAt(Answer):
    """`GET /games/{id}/state?at=SEQ`: what the caller's seat could see after seq `at` (with `full=true` once the
    game is over, or for the admin, `state`: the whole state instead of `seat` and `view`)."""

    game_id: str
    at: int
    version: int
    seat: int | None = None
    view: View | None = None
    state: dict[str, Any] | None = Field(None, description="the whole state (every hand, the deck)")


class FieldError(Answer):
    """One malformed field of a request: its dotted name, pydantic's error type, and what is wrong."""

    field: str
    type: str
    message: str


class Decision(Answer):
    """A point of a game where a player decides: after seq `at`, whose decision (`player`), in which round and turn,
    said in words (`text`, in the answer's language)."""

    at: int
    round: int
    phase: str = Field(description="play or chancellor")
    player: str | None
    turn: int | None = Field(description="which of the player's turns in the round, counted from 1")
    text: str


class NearestDecisions(Answer):
    """The nearest points before and after a seq where a player decides (null: none on that side)."""

    before: Decision | None
    after: Decision | None


class Problem(Answer):
    """Every refusal (RFC 9457): a stable `code`, a `detail` in the language asked (`Accept-Language`, or a route's
    `lang`: English or French), and the members that say more: the rule broken (`rule_id`, its text `rule`, its
    sources `rule_sources`) and the seat's legal moves for a move the rules refuse, each malformed field
    (`errors`), the game's `version` for a stale If-Match, the unreadable `line` of a log, the `nearest` decisions of
    a ruling asked where nobody decides."""

    type: str = Field(description="https://loveletter-referee.example/problems/<code>")
    title: str
    status: int
    detail: str
    code: str
    instance: str | None = Field(None, description="the path of the refused request")
    rule_id: str | None = Field(None, description="the rule a refused move or game breaks (docs/rules.md)")
    rule: str | None = Field(None, description="that rule's text")
    rule_sources: tuple[SourceLink, ...] | None = Field(
        None, description="where that rule comes from, named for a person, each with its link on the referee"
    )
    legal_moves: tuple[LegalMove, ...] | None = Field(None, description="the seat's legal moves, for a refused move")
    errors: tuple[FieldError, ...] | None = None
    version: int | None = Field(None, description="the game's current version, for a stale If-Match")
    line: int | None = Field(None, description="the line of a log that cannot be read")
    name_rule: str | None = Field(None, description="the naming rule an account's name breaks (docs/accounts.md)")
    rated_rule: str | None = Field(None, description="the rule of rated games a game or a join breaks")
    nearest: NearestDecisions | None = Field(
        None, description="for a ruling asked where nobody decides: the nearest decisions, to send as `nearest`"
    )


class RoundsCount(Answer):
    rounds: int
    games: int


class Simulation(Answer):
    """`POST /simulations` (with `url`, where to poll) and `GET /simulations/{id}`: progress, then statistics."""

    id: str
    status: Literal["running", "done", "failed", "cancelled"]
    done: int
    games: int
    statistics: dict[str, Any] | None = Field(
        default=None,
        description="once done: win rates by seat and by bot, favors, eliminations, each with its 95% interval",
    )
    rounds_per_game: tuple[RoundsCount, ...]
    error: str | None = None
    url: str | None = None


class Tally(Answer):
    """`POST /simulations/tally`: the statistics of a simulation's log."""

    statistics: dict[str, Any]
    rounds_per_game: tuple[RoundsCount, ...]


class ReplayCheck(Answer):
    verdict: Literal["valid", "invalid"]
    first_problem: dict[str, Any] | None = None


class ReplayViews(Answer):
    """`POST /replays/views`: every position of a log as one point of view saw it."""

    ruleset: str
    players: tuple[str, ...]
    events: int
    over: bool
    pov: str | int
    lang: Literal["en", "fr"]
    stopped: int | None = Field(default=None, description="the seq of the event the log could not go past, if any")
    replay: ReplayCheck
    positions: tuple[dict[str, Any], ...] = Field(description="the view, story and standing after each event")
