"""The review of a game: every legal move of every decision judged from the deciding seat's view, with the engine's
worlds and rollouts (`loveletter analyse`, docs/engine.md).

Unlike the `expert`'s search, no move is left out and none is dropped early: each legal move is played in the same
worlds (drawn by `Sampler` from the seat's `View`, so a card the seat could not see never counts, the others' hidden
hands leaning by what they played as in the expert: `belief`), each world with one rollout seed shared by every move
(common random numbers), and every seat — this one included — is then played by the `heuristic` policy from its own
view to the end of the round. A move is worth the mean of the game-value model (`value.end_value`) over its
rollouts, and its share of rounds won.

The played move is marked twice: by the chance of winning the game it gave up against the best move (`INACCURACY`,
`MISTAKE`, `BLUNDER`), and by the share of the round it gave up against the best move for the round among those no
worse for the game (`ROUND_MARKS`, twice as wide: a round is worth from a quarter to all of a two-player game); its
verdict is the worse of the two, or a floor the caller sets (the review's: a Guard's guess that cannot hit where one
at the same target can) (`judge`). `settle` starts with every move in the budget's worlds; while the verdict differs
at the two ends of the drops' intervals (`Z` standard errors of the world-by-world differences), the moves that may
change it are tried in twice the worlds, up to `WIDEN` times the budget, and what is still in doubt then is said to
be (`Judgement.uncertain`). World `j` is the same whichever move asks for it first, so the review stays a pure
function of the view, the moves, the seed and the budget.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from loveletter.core.catalogue import Event
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.evolve import apply
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_PLAY, GameState
from loveletter.core.views import View
from loveletter.events.log import Entry
from loveletter.play.engine.belief import leanings
from loveletter.play.engine.determinize import Sampler
from loveletter.play.engine.search import play_out, thinking
from loveletter.play.engine.value import end_value
from loveletter.replays.decisions import command_of

INACCURACY = 0.05
MISTAKE = 0.10
BLUNDER = 0.20
"""A played move that gives up at least this much of the chance of winning the game against the best move."""

ROUND_MARKS = {"mistake": 0.20, "blunder": 0.40}
"""A played move that gives up at least this much of the share of the round won against the best move for the round
among those no worse for the game: twice the game's thresholds, and no inaccuracy — a small loss of the round is
marked when the game feels it."""

MARKS = ("inaccuracy", "mistake", "blunder")
"""The marks from the mildest."""

DEFAULT_ROLLOUTS = 200
"""Rollouts for each legal move of a decision (the expert's whole budget is 200 a decision)."""

WIDEN = 32
"""Where a verdict is in doubt, the moves that may change it are tried in up to this many times the budget's worlds
(doubling each time). 32 left 2.6% of heuristic players' decisions with different verdicts under three seeds, for
2.5 times the rollouts of the budget alone; 8 left 4.8%, for 1.7 times (bench/review_stability.py, docs/engine.md)."""

Z = 2.0
"""A verdict is in doubt while it differs at the two ends of the drops' intervals, each drop `Z` standard errors of
its world-by-world differences up or down (`judge`)."""

OPPONENTS = "heuristic"
"""The model of the other players (and of the seat itself after the move): the built-in bot, from its own view."""


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move's estimate: its rollouts, its mean chance of winning the game, its share of rounds won."""

    move: PlayerCommand
    rollouts: int
    game: float
    round: float


class Trial:
    """Moves of a decision tried in the same worlds, world by world: world `j` is the `j`-th drawn from `rng` (and its
    rollout seed), whichever move asks for it first, so any two moves compare on the worlds both were tried in. Each
    move's game value and round share in each of its worlds."""

    def __init__(self, view: View, moves: Sequence[PlayerCommand], rng: random.Random) -> None:
        uniform = Sampler(view)
        self.sampler = uniform.leaning(leanings(view, uniform.sample(random.Random(0))))  # any world: the same odds
        self.moves = list(moves)
        self.rng = rng
        self.drawn: list[tuple[GameState, int]] = []
        self.game: list[list[float]] = [[] for _ in moves]
        self.won: list[list[float]] = [[] for _ in moves]

    @property
    def worlds(self) -> int:
        """The most worlds a move was tried in."""
        return max(map(len, self.game), default=0)

    def more(self, worlds: int) -> Trial:
        """Every move tried in `worlds` more worlds than the most any was tried in."""
        upto = self.worlds + worlds
        with thinking():
            for i in range(len(self.moves)):
                self.play(i, upto)
        return self

    def play(self, i: int, upto: int) -> None:
        """Move `i` tried in the first `upto` worlds."""
        seat, game, won = self.sampler.seat, self.game[i], self.won[i]
        for j in range(len(game), upto):
            while len(self.drawn) <= j:
                world = self.sampler.sample(self.rng)
                self.drawn.append((world, self.rng.getrandbits(64)))
            world, seed = self.drawn[j]
            end = play_out(world, self.moves[i], random.Random(seed))
            game.append(end_value(end, seat))
            winners = end.round_winners
            won.append(1.0 / len(winners) if seat in winners else 0.0)

    def values(self) -> list[MoveValue]:
        return [
            MoveValue(m, len(g), sum(g) / max(len(g), 1), sum(w) / max(len(w), 1))
            for m, g, w in zip(self.moves, self.game, self.won, strict=True)
        ]


def review(view: View, moves: Sequence[PlayerCommand], rng: random.Random, rollouts: int) -> list[MoveValue]:
    """Every move of `moves` (in their order) tried in the same `rollouts` worlds sampled from `view`, the others'
    hands dealt by what their plays say (`belief`, as the expert deals them)."""
    return Trial(view, moves, rng).more(rollouts).values()


def verdict(drop: float, thresholds: dict[str, float] | None = None) -> str | None:
    """ "blunder", "mistake", "inaccuracy" for a drop at or over its threshold (of the game's chance by default:
    `INACCURACY`, `MISTAKE`, `BLUNDER`), else None."""
    marks = thresholds or {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER}
    for name in reversed(MARKS):
        if name in marks and drop >= marks[name] - 1e-12:
            return name
    return None


def round_verdict(drop: float) -> str | None:
    """The mark of a drop of the share of the round won (`ROUND_MARKS`)."""
    return verdict(drop, ROUND_MARKS)


def worse(a: str | None, b: str | None) -> str | None:
    """The more severe of two marks (None is no mark)."""
    return max(a, b, key=lambda m: -1 if m is None else MARKS.index(m))


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the played move gave up: `drop`, the game's chance, against the best move for the game (`best`);
    `round_drop`, the round's share, against the move that won the round most often among those no worse for the
    game than the played move (`round_best`: the played move itself when it was the best for the game). Their marks,
    the worse of the two (`verdict`; `by` the measure that gave it, the round's when both do, or "floor" when only
    `floor` did), whether the played move won no round in any world where `round_best` won some (`loses_round`), the
    worlds the played move was tried in, whether the verdict is still in doubt at `Z` standard errors, and the moves
    that may change it (`contenders`: the played move, and those whose interval reaches the best's)."""

    values: list[MoveValue]
    best: MoveValue
    round_best: MoveValue
    played: MoveValue
    drop: float
    round_drop: float
    game_verdict: str | None
    round_verdict: str | None
    verdict: str | None
    by: str | None
    loses_round: bool
    worlds: int
    uncertain: bool
    contenders: tuple[int, ...]


def judge(trial: Trial, played: int, floor: str | None = None) -> Judgement:
    """The played move (`trial.moves[played]`) against the best moves, from the worlds tried so far; its verdict at
    least `floor` (a mark the move deserves whatever the rollouts say).

    The verdict is in doubt when it differs at the two ends of the drops' intervals. A drop is a best move minus the
    played one, and which move is best is itself estimated, so each end is taken over every move: the highest drop
    to any move, `Z` standard errors of the world-by-world differences added (or taken off); for the round, over
    the moves that are (for the upper end, may be) no worse for the game."""
    values = trial.values()
    mine = values[played]
    moves = range(len(values))
    b = max(moves, key=lambda i: values[i].game)  # the first of equals: the rules core's order
    no_worse = [i for i in moves if values[i].game >= mine.game]
    r = max(no_worse, key=lambda i: values[i].round)
    drop = values[b].game - mine.game
    round_drop = values[r].round - mine.round
    game = [(values[i].game - mine.game, Z * _paired_se(trial.game[i], trial.game[played])) for i in moves]
    won = [(values[i].round - mine.round, Z * _paired_se(trial.won[i], trial.won[played])) for i in moves]
    maybe = [i for i in moves if game[i][0] + game[i][1] >= 0.0]
    game_low = max(d - e for d, e in game)
    round_low = max(won[i][0] - won[i][1] for i in no_worse)
    low = worse(verdict(game_low), round_verdict(round_low))
    high = worse(verdict(max(d + e for d, e in game)), round_verdict(max(won[i][0] + won[i][1] for i in maybe)))
    game_mark, round_mark = verdict(drop), round_verdict(round_drop)
    mark = worse(floor, worse(round_mark, game_mark))
    by = None if mark is None else "round" if mark == round_mark else "game" if mark == game_mark else "floor"
    contenders = {played, b, r}
    contenders.update(i for i in moves if game[i][0] + game[i][1] >= game_low)
    contenders.update(i for i in maybe if won[i][0] + won[i][1] >= round_low)
    return Judgement(
        values,
        values[b],
        values[r],
        mine,
        drop,
        round_drop,
        game_mark,
        round_mark,
        mark,
        by,
        mine.round == 0.0 and values[r].round > 0.0,
        mine.rollouts,
        worse(floor, low) != worse(floor, high),
        tuple(sorted(contenders)),
    )


def settle(trial: Trial, played: int, budget: int, floor: str | None = None, widen: int = WIDEN) -> Judgement:
    """`judge` after every move's `budget` worlds; then, while the verdict is in doubt, the contenders (`judge`) tried
    in twice the played move's worlds, up to `widen` × `budget`."""
    trial.more(max(0, budget - trial.worlds))
    judged = judge(trial, played, floor)
    while judged.uncertain and judged.worlds < widen * budget:
        upto = min(2 * judged.worlds, widen * budget)
        for i in judged.contenders:
            trial.play(i, upto)
        judged = judge(trial, played, floor)
    return judged


def _paired_se(a: Sequence[float], b: Sequence[float]) -> float:
    """The standard error of the mean of `a` − `b` world by world, over the worlds both were tried in (infinite
    below two worlds, unless the same)."""
    n = min(len(a), len(b))
    if a is b:
        return 0.0
    if n < 2:
        return math.inf
    d = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
    mean = sum(d) / n
    return math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1) / n)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision of a logged game: the state before it (after `at` events), who decides, the move they made."""

    at: int
    state: GameState
    seat: int
    played: PlayerCommand


def decisions(events: Sequence[Event] | Sequence[Entry]) -> Iterator[Decision]:
    """Every player's decision of a game, in order: a card played, or the cards a Chancellor kept and returned."""
    s = INITIAL.thaw()
    for at, item in enumerate(events):
        event = item.event if isinstance(item, Entry) else item
        command = command_of(event)
        deciding = s.phase in (PHASE_PLAY, PHASE_CHANCELLOR)
        if isinstance(command, (PlayCard, ReturnCards)) and deciding and command.player == s.active:
            yield Decision(at, s.thaw().freeze(), command.player, command)  # a copy: `s` folds on
        apply(s, event)
