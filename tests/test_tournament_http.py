"""`loveletter tournament` over HTTP against a real referee on 127.0.0.1 (SQLite): each bot in its own process, every
game on a short turn clock. A bot that crashes and one that hangs are timed out by the clock, the tournament
finishes, and the report counts, per bot, what went wrong."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from loveletter.events.log import read_path
from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.cli import loveletter
from tests.servers import ADMIN, serve

CRASH, HANG = "examples.bots.faulty:Crash", "examples.bots.faulty:Hang"


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("tournament") / "referee.db"))
    try:
        with serve(Settings(admin_token=ADMIN, log_level="warning", create_rate=0, move_rate=0), store) as url:
            yield url
    finally:
        store.close()


def test_a_crashing_and_a_hanging_bot_are_timed_out_and_reported_and_the_tournament_finishes(
    base: str, tmp_path: Path
) -> None:
    log = tmp_path / "http.jsonl"
    ran = loveletter(
        "tournament", "--bots", f"heuristic,random,{CRASH},{HANG}", "--players", "4", "--games", "2",
        "--server", base, "--turn-seconds", "2", "--json", "--log", str(log),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    figures = json.loads(ran.stdout)
    assert figures["mode"] == "http" and figures["games"] == 2 and figures["aborted_games"] == 0
    bots = {r["bot"]: r for r in figures["ratings"]}
    # Both games seat all four bots. The crashing bot's process dies in each (on its third move) and its clock then
    # runs out; the hanging one never answers: its clock runs out, it resigns, and its process is ended at the end.
    assert bots[CRASH]["crashes"] == 2 and bots[CRASH]["timeouts"] == 2 and bots[CRASH]["hangs"] == 0
    assert bots[HANG]["timeouts"] == 2 and bots[HANG]["hangs"] == 2 and bots[HANG]["crashes"] == 0
    for healthy in ("heuristic", "random"):
        assert bots[healthy]["crashes"] == 0 and bots[healthy]["hangs"] == 0 and bots[healthy]["refused_moves"] == 0
    # A seat that resigned finishes below every seat still in the game: both faulty bots rank below both others.
    places = {r["bot"]: r["place"] for r in figures["ratings"]}
    assert max(places["heuristic"], places["random"]) < min(places[CRASH], places[HANG])
    # The log is the referee's own: both games, each with the two timeouts and resignations, and it audits clean.
    games = read_path(str(log))
    assert len(games) == 2
    for game in games:
        kinds = [type(e).TYPE for e in game.events]
        assert kinds.count("clock_ran_out") == 2 and kinds.count("player_resigned") == 2, kinds
        assert kinds[-2:] == ["game_ended", "seed_revealed"]
    audit = loveletter("audit", str(log))
    assert audit.returncode == 0, audit.stdout
    assert "2 games, 2 valid, 0 invalid" in audit.stdout


def test_an_illegal_move_is_refused_reported_and_left_to_the_clock(base: str) -> None:
    illegal = "examples.bots.faulty:illegal"
    ran = loveletter(
        "tournament", "--bots", f"heuristic,{illegal}", "--players", "2", "--games", "1",
        "--server", base, "--turn-seconds", "1", "--json",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    bots = {r["bot"]: r for r in json.loads(ran.stdout)["ratings"]}
    assert bots[illegal]["refused_moves"] == 1 and bots[illegal]["timeouts"] == 1 and bots[illegal]["crashes"] == 0
    assert bots["heuristic"]["wins"] == 1


def test_over_http_a_bot_is_told_its_seats_events_so_far(base: str) -> None:
    """The bot of tests/test_tournament_truth.py that checks `game.events` at every decision (and raises if they are
    not its seat's view of the log so far) plays a game through without a crash or a timeout."""
    listener = "tests.test_tournament_truth:Listener"
    ran = loveletter(
        "tournament", "--bots", f"heuristic,{listener}", "--players", "2", "--games", "1", "--server", base,
        "--turn-seconds", "5", "--json",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    bots = {r["bot"]: r for r in json.loads(ran.stdout)["ratings"]}
    assert bots[listener]["crashes"] == bots[listener]["timeouts"] == bots[listener]["refused_moves"] == 0, ran.stderr


def test_serve_starts_a_referee_of_its_own(tmp_path: Path) -> None:
    ran = loveletter(
        "tournament", "--bots", "heuristic,examples.bots.careful:Bot", "--players", "2", "--games", "2", "--serve",
        "--turn-seconds", "5", "--csv",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    rows = [line.split(",") for line in ran.stdout.splitlines()]
    assert rows[0][0] == "section" and sum(1 for r in rows if r[0] == "rating") == 2
    assert sum(int(r[4]) for r in rows if r[0] == "rating") == 4  # two games of two seats


def test_duplicate_deals_over_http_share_each_deal_sets_shuffles(base: str, tmp_path: Path) -> None:
    log = tmp_path / "dup.jsonl"
    ran = loveletter(
        "tournament", "--bots", "heuristic,random", "--players", "2", "--games", "4", "--seed", "7",
        "--server", base, "--admin-token", ADMIN, "--turn-seconds", "5", "--json", "--log", str(log),
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    games = read_path(str(log))
    assert len(games) == 4

    def shuffles(game: object) -> list[object]:
        return [(e.shuffle, e.deck) for e in game.events if type(e).TYPE == "round_started"]  # type: ignore[attr-defined]

    def seats(game: object) -> tuple[str, ...]:
        """The bot in each seat (a seat's name is the bot's, then "-" and the seat)."""
        joined = {e.player: e.name for e in game.events if type(e).TYPE == "seat_joined"}  # type: ignore[attr-defined]
        return tuple(joined[s].rsplit("-", 1)[0] for s in sorted(joined))

    # Games 0-1 are deal set 0, games 2-3 deal set 1: within a set, round k is shuffled alike (as far as both go)
    # and the seats are swapped; across sets the decks differ.
    for a, b in ((games[0], games[1]), (games[2], games[3])):
        first, second = shuffles(a), shuffles(b)
        common = min(len(first), len(second))
        assert common >= 1 and first[:common] == second[:common]
        assert len(set(seats(a))) == 2 and seats(a) == tuple(reversed(seats(b)))
    assert shuffles(games[0])[0] != shuffles(games[2])[0]
    audit = loveletter("audit", str(log))
    assert audit.returncode == 0, audit.stdout
    assert "4 games, 4 valid, 0 invalid" in audit.stdout
