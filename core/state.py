"""Immutable game state, and the private transient copy the fold works on.

A `GameState` never changes once built: every attribute holds an immutable value (ints, tuples).
`evolve` copies a state into a `Transient`, rebinds the attributes an event changes, and freezes
the result again. Folding a whole log does that copy once, not once per event, which is what keeps
replay fast without giving up immutability (the same idea as Clojure's transients).
"""

from __future__ import annotations

from typing import Any, Callable

from loveletter.core.cards import Card
from loveletter.core.rulesets import Options, Ruleset

PHASE_NEW = "new"  # no game yet
PHASE_DEAL = "deal"  # waiting for chance to deal the next round
PHASE_PLAY = "play"  # the active player holds two cards and must play one
PHASE_CHANCELLOR = "chancellor"  # the active player must keep one card and return the others
PHASE_RESOLVING = "resolving"  # inside a command's events: only a log prefix cut mid-move stops here
PHASE_OVER = "over"  # the game has ended


class GameState:
    """The whole truth of a game at one point of its log, hidden cards included.

    `hands[seat]` is the seat's hand; `front[seat]` the cards in front of it this round (played and
    discarded, in order); `knows[viewer][subject]` a card `viewer` knows `subject` holds;
    `deck_known[viewer]` the (position, card) pairs of the deck `viewer` put there with a Chancellor,
    positions counted from the first card of the round's draw pile (`drawn` cards have left its top).
    """

    __slots__ = (  # noqa: RUF023 - the order of as_dict and of the docs
        "ruleset",
        "options",
        "players",
        "named_first_player",
        "scenario",
        "favors",
        "round",
        "phase",
        "active",
        "deck",
        "drawn",
        "set_aside",
        "face_up",
        "hands",
        "front",
        "out",
        "protected",
        "knows",
        "deck_known",
        "round_winners",
        "winners",
        "seq",
        "seed_commitment",
        "seat_seeds",
        "server_seed",
        "resigned",
        "turn_seconds",
        "on_timeout",
        "deadline",
        "clock",
        "aborted",
        "join_by",
    )

    ruleset: Ruleset | None
    options: Options
    players: tuple[str, ...]
    named_first_player: int | None
    scenario: bool
    favors: tuple[int, ...]
    round: int
    phase: str
    active: int
    deck: tuple[Card, ...]
    drawn: int
    set_aside: Card | None
    face_up: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    front: tuple[tuple[Card, ...], ...]
    out: tuple[bool, ...]
    protected: tuple[bool, ...]
    knows: tuple[tuple[Card | None, ...], ...]
    deck_known: tuple[tuple[tuple[int, Card], ...], ...]
    round_winners: tuple[int, ...]
    winners: tuple[int, ...]
    seq: int
    seed_commitment: str | None
    seat_seeds: tuple[str | None, ...]
    server_seed: str | None
    resigned: tuple[bool, ...]
    turn_seconds: int | None
    on_timeout: str | None
    deadline: tuple[int, int] | None
    """(seat, Unix milliseconds) of the pending decision's clock, while one is running."""
    clock: int
    """The latest time the log recorded (Unix milliseconds): a later event may not be earlier."""
    aborted: bool
    join_by: int | None
    """When the open seats expire (Unix milliseconds), while a seat is open and the game has such a deadline."""

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"GameState is immutable (tried to set {name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("GameState is immutable")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in GameState.__slots__)

    def __hash__(self) -> int:
        return hash(_fingerprint(self))

    def fingerprint(self) -> tuple[object, ...]:
        """Every field but the ruleset and the options, as one tuple: two states of one game are equal exactly when
        their fingerprints are (the search keys the rollouts of one world by it, `play.engine.search`)."""
        return _fingerprint(self)

    def __repr__(self) -> str:
        return f"GameState(seq={self.seq}, round={self.round}, phase={self.phase!r}, active={self.active})"

    # -- derived facts -------------------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.ruleset is not None

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def next_deadline(self) -> int | None:
        """The next time the referee must act on this game by itself (Unix milliseconds): the open seats' deadline
        while a seat is open, else the running turn clock's."""
        if self.join_by is not None:
            return self.join_by
        return self.deadline[1] if self.deadline is not None else None

    def winner_names(self) -> tuple[str, ...]:
        """The game's winners by name (a seat a forged log names beyond the table is left out)."""
        return tuple(self.players[w] for w in self.winners if 0 <= w < len(self.players))

    @property
    def open_seats(self) -> tuple[int, ...]:
        """Seats nobody has taken yet (their name is empty until `seat_joined`)."""
        return tuple(i for i, name in enumerate(self.players) if not name)

    def in_game(self) -> tuple[int, ...]:
        """Seats that have not left the game (RULINGS §12), in seat order."""
        return tuple(i for i, gone in enumerate(self.resigned) if not gone)

    def in_round(self) -> tuple[int, ...]:
        """Seats still in the current round, in seat order."""
        return tuple(i for i, is_out in enumerate(self.out) if not is_out)

    def thaw(self) -> Transient:
        """A private mutable copy; the fold's working state."""
        return _copy(self)

    def as_dict(self) -> dict[str, Any]:
        """Every field, JSON-friendly: used by tests and by the full-state admin view."""
        rs = self.ruleset
        return {
            "ruleset": rs.id if rs else None,
            "options": self.options.as_dict(),
            "players": list(self.players),
            "named_first_player": self.named_first_player,
            "scenario": self.scenario,
            "favors": list(self.favors),
            "round": self.round,
            "phase": self.phase,
            "active": self.active,
            "deck": [c.value for c in self.deck],
            "drawn": self.drawn,
            "set_aside": self.set_aside.value if self.set_aside else None,
            "face_up": [c.value for c in self.face_up],
            "hands": [[c.value for c in h] for h in self.hands],
            "front": [[c.value for c in f] for f in self.front],
            "out": list(self.out),
            "protected": list(self.protected),
            "knows": [[c.value if c else None for c in row] for row in self.knows],
            "deck_known": [[[p, c.value] for p, c in row] for row in self.deck_known],
            "round_winners": list(self.round_winners),
            "winners": list(self.winners),
            "seq": self.seq,
            "seed_commitment": self.seed_commitment,
            "seat_seeds": list(self.seat_seeds),
            "server_seed": self.server_seed,
            "resigned": list(self.resigned),
            "turn_seconds": self.turn_seconds,
            "on_timeout": self.on_timeout,
            "deadline": list(self.deadline) if self.deadline else None,
            "clock": self.clock,
            "aborted": self.aborted,
            "join_by": self.join_by,
        }


class Transient(GameState):
    """A `GameState` under construction: only the fold's apply functions ever hold one."""

    __slots__ = ()
    # Both from `object`, so CPython gives this class its plain C attribute setter: overriding only
    # `__setattr__` would leave every assignment going through a Python-level slot (about 8x slower).
    __setattr__ = object.__setattr__  # type: ignore[assignment]
    __delattr__ = object.__delattr__

    def freeze(self) -> GameState:
        object.__setattr__(self, "__class__", GameState)
        return self


def _make_copier() -> Callable[[GameState], Transient]:
    """`_copy(state)`: a new `Transient` with every slot of `state`, as one straight-line function
    (several times faster than a loop of getattr/setattr over the slot names)."""
    lines = ["def _copy(s):", "    new = _new(Transient)"]
    lines += [f"    new.{name} = s.{name}" for name in GameState.__slots__]
    lines.append("    return new")
    namespace: dict[str, Any] = {"_new": object.__new__, "Transient": Transient}
    exec("\n".join(lines), namespace)
    copier: Callable[[GameState], Transient] = namespace["_copy"]
    return copier


_copy = _make_copier()


def _make_fingerprinter() -> Callable[[GameState], tuple[object, ...]]:
    """`_fingerprint(state)`: the tuple of every slot but `ruleset` and `options`, built in one straight line."""
    names = [name for name in GameState.__slots__ if name not in ("ruleset", "options")]
    namespace: dict[str, Any] = {}
    exec(f"def _fingerprint(s):\n    return ({', '.join(f's.{name}' for name in names)},)", namespace)
    fingerprinter: Callable[[GameState], tuple[object, ...]] = namespace["_fingerprint"]
    return fingerprinter


_fingerprint = _make_fingerprinter()


def initial_state() -> GameState:
    """The state before any event: no game."""
    s = object.__new__(Transient)
    s.ruleset = None
    s.options = Options()
    s.players = ()
    s.named_first_player = None
    s.scenario = False
    s.favors = ()
    s.round = 0
    s.phase = PHASE_NEW
    s.active = -1
    s.deck = ()
    s.drawn = 0
    s.set_aside = None
    s.face_up = ()
    s.hands = ()
    s.front = ()
    s.out = ()
    s.protected = ()
    s.knows = ()
    s.deck_known = ()
    s.round_winners = ()
    s.winners = ()
    s.seq = 0
    s.seed_commitment = None
    s.seat_seeds = ()
    s.server_seed = None
    s.resigned = ()
    s.turn_seconds = None
    s.on_timeout = None
    s.deadline = None
    s.clock = 0
    s.aborted = False
    s.join_by = None
    return s.freeze()


INITIAL = initial_state()
