"""The ladder as a pure fold of logs: the finished rated games' logs, and nothing else, give every account's rating for
each ruleset and table size. `loveletter ratings LOGS…` and the referee's `GET /ladder` both call `standings`, so
the audit of a ladder is the audit of its games: anyone with the logs gets the same figures, to the last bit.

A game counts when its log says it is rated (`game_started.rated`), it ended (`game_ended`: an aborted game says
nothing), and every seat was an account's, each account once. The games are taken in the order their logs say they
began (`game_started.at`, then the game id), whatever order the logs are read in. Each game moves its accounts'
ratings as a tournament's games move its bots' (`play.ratings.rate`: OpenSkill's Plackett–Luce model, each seat a
team of one, ranked winners first, then by favors, a seat that left the game last).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from loveletter.core.catalogue import Event, GameEnded, GameStarted, SeatAccount, SeatJoined
from loveletter.core.evolve import fold
from loveletter.play.outcome import Outcome
from loveletter.play.ratings import rate

Group = tuple[str, int]
"""A ladder: (ruleset, table size)."""


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What the ladder needs of one finished rated game."""

    game_id: str
    ruleset: str
    at: int
    seats: tuple[SeatAccount, ...]
    names: tuple[str, ...]
    outcome: Outcome

    @property
    def group(self) -> Group:
        return (self.ruleset, len(self.seats))


@dataclass(frozen=True, slots=True)
class Standing:
    """One account's place on a ladder."""

    account: str
    kind: str
    name: str
    mu: float
    sigma: float
    games: int

    def as_dict(self) -> dict[str, object]:
        return {
            "account_id": self.account,
            "name": self.name,
            "kind": self.kind,
            "mu": self.mu,
            "sigma": self.sigma,
            "games": self.games,
        }


class NotCounted(ValueError):
    """A log the ladder does not count, and why (it is not rated, not over, or its seats break the rated rules)."""


def rated_game(game_id: str, events: Sequence[Event]) -> RatedGame:
    """The finished rated game a (verified) log records; `NotCounted` says why a log is not one."""
    started = events[0] if events else None
    if not isinstance(started, GameStarted) or not started.rated:
        raise NotCounted(f"{game_id}: not a rated game")
    if not any(type(e) is GameEnded for e in events):
        raise NotCounted(f"{game_id}: not finished (or aborted)")
    seats: list[SeatAccount | None] = list(started.accounts) or [None] * len(started.players)
    for e in events:
        if isinstance(e, SeatJoined) and e.account is not None:
            seats[e.player] = e.account
    taken = [s for s in seats if s is not None]
    if len(taken) != len(seats) or len({s.account for s in taken}) != len(taken):
        raise NotCounted(f"{game_id}: a rated game's seats are each a different account's")
    state = fold(events)
    outcome = Outcome(0, 0, tuple(range(len(taken))), tuple(state.winners), tuple(state.favors), tuple(state.resigned))
    return RatedGame(game_id, started.ruleset, started.at or 0, tuple(taken), tuple(state.players), outcome)


@dataclass(frozen=True, slots=True)
class Ladder:
    """One ladder folded once: its games in order, each account's place in the ratings, the ratings after each game
    (what an account's history reads), and the standings (what the ladder shows)."""

    games: tuple[RatedGame, ...]
    index: dict[str, int]
    history: list[tuple[tuple[float, float], ...]]
    standings: list[Standing]


def fold_ladders(games: Iterable[RatedGame]) -> dict[Group, Ladder]:
    """Every ladder the games make, each folded once (by `at`, then game id, within its ruleset and table size)."""
    by_group: dict[Group, list[RatedGame]] = {}
    for game in sorted(games, key=lambda g: (g.at, g.game_id)):
        by_group.setdefault(game.group, []).append(game)
    return {group: _ladder(played) for group, played in sorted(by_group.items())}


def standings(games: Iterable[RatedGame]) -> dict[Group, list[Standing]]:
    """Every ladder the games make: its accounts, best first (by mu, then account id), each with its rating."""
    return {group: ladder.standings for group, ladder in fold_ladders(games).items()}


def _ladder(games: list[RatedGame]) -> Ladder:
    index: dict[str, int] = {}
    who: dict[str, tuple[str, str]] = {}
    counts: dict[str, int] = {}
    outcomes = []
    for game in games:
        for seat, name in zip(game.seats, game.names, strict=True):
            index.setdefault(seat.account, len(index))
            who[seat.account] = (seat.kind, name)
            counts[seat.account] = counts.get(seat.account, 0) + 1
        seat_bots = tuple(index[s.account] for s in game.seats)
        o = game.outcome
        outcomes.append(Outcome(o.game, o.deal, seat_bots, o.winners, o.favors, o.resigned))
    rated = rate(outcomes, len(index), keep_history=True)
    ratings = rated.final
    out = [
        Standing(account, who[account][0], who[account][1], ratings[i].mu, ratings[i].sigma, counts[account])
        for account, i in index.items()
    ]
    return Ladder(tuple(games), index, rated.history, sorted(out, key=lambda s: (-s.mu, s.account)))


def account_history(ladders: dict[Group, Ladder], account: str) -> dict[str, object]:
    """An account's rating after each of its rated games on every ladder it is on (read from the ladder's own fold:
    its last point is its ladder rating), its win rate, and its head-to-head against every account it met."""
    out_ladders: list[dict[str, object]] = []
    played = won = 0
    met: dict[str, dict[str, object]] = {}
    for (ruleset, players), ladder in ladders.items():
        if account not in ladder.index:
            continue
        points = []
        for n, game in enumerate(ladder.games):
            mine = [i for i, s in enumerate(game.seats) if s.account == account]
            if not mine:
                continue
            mu, sigma = ladder.history[n][ladder.index[account]]
            points.append({"game_id": game.game_id, "at": game.at, "mu": mu, "sigma": sigma})
            me_won = mine[0] in game.outcome.winners
            played, won = played + 1, won + me_won
            _meet(met, game, mine[0], me_won)
        out_ladders.append({"ruleset": ruleset, "players": players, "points": points})
    opponents = sorted(met.values(), key=lambda o: (-int(str(o["games"])), str(o["name"]).casefold()))
    return {
        "account_id": account,
        "games": played,
        "wins": won,
        "win_rate": won / played if played else None,
        "ladders": out_ladders,
        "opponents": opponents,
    }


def _meet(met: dict[str, dict[str, object]], game: RatedGame, me: int, me_won: bool) -> None:
    """Count one game against each other seat of it."""
    for seat, (who, name) in enumerate(zip(game.seats, game.names, strict=True)):
        if seat == me:
            continue
        row = met.setdefault(
            who.account, {"account_id": who.account, "games": 0, "wins": 0, "losses": 0, "name": name, "kind": who.kind}
        )
        they_won = seat in game.outcome.winners
        row.update(name=name, kind=who.kind)  # the latest game's name
        row["games"] = int(str(row["games"])) + 1
        row["wins"] = int(str(row["wins"])) + (me_won and not they_won)
        row["losses"] = int(str(row["losses"])) + (they_won and not me_won)
