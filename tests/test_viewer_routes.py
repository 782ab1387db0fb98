"""The replay viewer's and the statistics page's JSON routes on a real server: `POST /replays/views` against the
referee's own `GET /games/{id}/state?at=` for every position and seat; a transcript; a tampered log; simulations run
and polled, against the same simulation run here; a simulation's log tallied; one simulation at a time."""

from __future__ import annotations

import io
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from loveletter.core.catalogue import RoundStarted
from loveletter.events.log import read_games
from loveletter.events.sqlite_store import SqliteStore
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, simulate
from loveletter.replays.transcript import expand
from loveletter.server.settings import Settings
from tests.french import not_french
from tests.servers import COUNTESS_DEAL, admin_log, create_game, play_game, serve

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = SqliteStore(str(tmp_path_factory.mktemp("viewer") / "referee.db"))
    settings = Settings(database_url="sqlite:///unused.db", log_level="warning", create_rate=0, move_rate=0)
    try:
        with serve(settings, store) as url:
            yield url
    finally:
        store.close()


@pytest.fixture(scope="module")
def game(base: str) -> dict[str, Any]:
    """A two-player game played to its end by both seats, over HTTP."""
    created = create_game(
        base, [{"name": "Alice"}, {"name": "Bo"}], first_player="Alice", scenario={"deals": [COUNTESS_DEAL]}
    )
    play_game(base, created, random.Random(11))
    return created


def positions(base: str, log: Any, pov: Any, lang: str = "en") -> dict[str, Any]:
    answer = httpx.post(f"{base}/replays/views", json={"log": log, "pov": pov, "lang": lang}, timeout=60)
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def stories(answer: dict[str, Any]) -> list[list[str]]:
    told: list[list[str]] = []
    lines: list[str] = []
    for p in answer["positions"]:
        lines = lines[: p["story"]["keep"]] + p["story"]["add"]
        told.append(lines)
    return told


def test_every_position_of_every_seat_is_the_referees_own_view(base: str, game: dict[str, Any]) -> None:
    gid = game["game_id"]
    log = httpx.get(f"{base}/games/{gid}/log").text
    total = len(log.strip().splitlines()) - 2  # the header and the signature are not events
    with httpx.Client(base_url=base) as http:
        for pov, token in ((0, game["seats"][0]["token"]), (1, game["seats"][1]["token"]), ("spectator", None)):
            answer = positions(base, log, pov)
            assert answer["over"] and answer["stopped"] is None and answer["replay"]["verdict"] == "valid"
            assert [p["at"] for p in answer["positions"]] == list(range(1, total + 1))
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            for p in answer["positions"]:
                served = http.get(f"/games/{gid}/state", params={"at": p["at"]}, headers=headers).json()
                assert p["view"] == served["view"], (pov, p["at"])
            story = httpx.get(f"{base}/web/games/{gid}/story", headers=headers).json()["lines"]
            assert stories(answer)[-1] == [line.strip() for line in story]  # the story told at the end, rebuilt
        everything = positions(base, log, "all")
        for p in everything["positions"][::7]:
            full = http.get(f"/games/{gid}/state", params={"at": p["at"], "full": "true"}).json()["state"]
            assert p["all"]["hands"] == full["hands"] and p["all"]["deck"] == full["deck"]


def test_the_legal_moves_of_a_position_are_listed_only_to_the_player_who_has_them(
    base: str, game: dict[str, Any]
) -> None:
    """The moves a player may make name the cards in their hand: another seat or a spectator must not read them
    in the position's words (the viewer once showed them to every point of view)."""
    log = httpx.get(f"{base}/games/{game['game_id']}/log").text
    for pov in (0, 1, "spectator"):
        listed = [p for p in positions(base, log, pov)["positions"] if "legal moves:" in p["where"]]
        assert all(p["view"]["active"] == pov and p["view"]["phase"] != "over" for p in listed), pov
        assert (len(listed) > 5) == (pov != "spectator"), (pov, len(listed))  # each seat still reads its own


def test_a_seat_by_its_name_and_in_french(base: str, game: dict[str, Any]) -> None:
    log = httpx.get(f"{base}/games/{game['game_id']}/log").text
    by_name, by_number = positions(base, log, "Bo", "fr"), positions(base, log, 1, "fr")
    assert by_name["positions"] == by_number["positions"] and by_name["pov"] == 1
    assert not not_french(" ".join(stories(by_name)[-1]), allowed=("Alice", "Bo"))


def test_a_transcript(base: str) -> None:
    doc = orjson.loads((ROOT / "examples" / "reader-question.json").read_bytes())
    answer = positions(base, doc, "spectator")
    assert len(answer["positions"]) == len(expand(doc).events)
    assert not answer["over"]
    refused = httpx.post(f"{base}/replays/views", json={"log": doc, "pov": "all"})
    assert refused.status_code == 403 and refused.json()["code"] == "game_not_over"


def test_a_tampered_log_stops_where_its_events_cannot_be_applied(base: str, game: dict[str, Any]) -> None:
    lines = admin_log(base, game["game_id"]).split(b"\n")
    i = next(k for k, line in enumerate(lines) if b'"type":"card_played"' in line)
    card = lines[i].split(b'"card":"')[1].split(b'"')[0]
    other = b"princess" if card != b"princess" else b"guard"  # a card the player does not hold
    lines[i] = lines[i].replace(b'"card":"' + card, b'"card":"' + other, 1)
    seq = int(lines[i].split(b'"seq":')[1].split(b",")[0])
    answer = positions(base, b"\n".join(lines).decode(), "spectator")
    assert answer["replay"]["verdict"] == "invalid"
    assert answer["replay"]["first_problem"]["seq"] == seq
    assert answer["stopped"] in (None, seq)
    if answer["stopped"] == seq:
        assert len(answer["positions"]) == seq - 1


def wait_done(base: str, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while True:
        state: dict[str, Any] = httpx.get(base + url).json()
        assert 0 <= state["done"] <= state["games"]
        if state["status"] != "running" or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def test_a_simulation_run_and_polled(base: str) -> None:
    body = {"ruleset": "2019", "players": 3, "bots": ["heuristic", "random", "random"], "games": 60, "seed": 3}
    started = httpx.post(f"{base}/simulations", json=body)
    assert started.status_code == 202, started.text
    done = wait_done(base, started.json()["url"])
    assert done["status"] == "done" and done["done"] == 60
    log = io.BytesIO()
    here = statistics(simulate(Config("2019", 3, 60, 3, ("heuristic", "random", "random")), log))
    served = done["statistics"]
    for key in ("win_rate", "favors", "eliminations", "per_game", "games", "bots", "seed"):
        assert served[key] == here[key], key
    rounds: dict[int, int] = {}
    for g in read_games(log.getvalue().splitlines()):
        n = sum(isinstance(e, RoundStarted) for e in g.events)
        rounds[n] = rounds.get(n, 0) + 1
    assert {r["rounds"]: r["games"] for r in done["rounds_per_game"]} == rounds
    tallied = httpx.post(
        f"{base}/simulations/tally", content=log.getvalue(), headers={"Content-Type": "application/x-ndjson"}
    ).json()
    for key in ("win_rate", "favors", "eliminations", "per_game", "games", "bots", "seed"):
        assert tallied["statistics"][key] == here[key], key
    assert tallied["rounds_per_game"] == done["rounds_per_game"]


def test_one_simulation_at_a_time(base: str) -> None:
    first = httpx.post(f"{base}/simulations", json={"players": 4, "games": 400})
    assert first.status_code == 202
    second = httpx.post(f"{base}/simulations", json={"games": 1}, headers={"Accept-Language": "fr"})
    assert second.status_code == 409 and second.headers["retry-after"] == "5"
    problem = second.json()
    assert problem["code"] == "simulation_running" and not not_french(problem["detail"])
    assert wait_done(base, first.json()["url"])["status"] == "done"
    assert httpx.post(f"{base}/simulations", json={"games": 1}).status_code == 202  # free again


def test_a_simulation_cancelled_stops_and_frees_the_server(base: str) -> None:
    """`DELETE /simulations/{id}` stops a long simulation after the game it is playing: it ends `cancelled` with
    fewer games than asked, and the next simulation starts at once (the one-at-a-time slot is free)."""
    deadline = time.monotonic() + 30
    while (
        started := httpx.post(f"{base}/simulations", json={"players": 4, "games": 5000, "seed": 9})
    ).status_code == 409:
        assert time.monotonic() < deadline, "an earlier test's simulation never ended"
        time.sleep(0.05)  # the one-game simulation an earlier test left may still be playing
    assert started.status_code == 202, started.text
    url = started.json()["url"]
    while httpx.get(f"{base}{url}").json()["done"] < 5:  # a few games in: it is running
        time.sleep(0.02)
    asked = httpx.delete(f"{base}{url}")
    assert asked.status_code == 200 and asked.json()["id"] == started.json()["id"]
    ended = wait_done(base, url)
    assert ended["status"] == "cancelled" and 5 <= ended["done"] < 5000 and ended["statistics"] is None
    assert httpx.delete(f"{base}{url}").json()["status"] == "cancelled"  # a finished job is left as it is
    assert httpx.post(f"{base}/simulations", json={"games": 1}).status_code == 202
    assert httpx.delete(f"{base}/simulations/nope").status_code == 404


def test_a_log_of_two_kinds_of_game_is_no_simulation(base: str) -> None:
    one, two = io.BytesIO(), io.BytesIO()
    simulate(Config("2019", 2, 2, 1, ("random", "random")), one)
    simulate(Config("2019", 3, 2, 1, ("random", "random", "random")), two)
    answer = httpx.post(
        f"{base}/simulations/tally",
        content=one.getvalue() + two.getvalue(),
        headers={"Content-Type": "application/x-ndjson", "Accept-Language": "fr"},
    )
    assert answer.status_code == 422 and answer.json()["code"] == "unreadable_log"
    assert "chaque partie d'une simulation" in answer.json()["detail"]


def test_an_unknown_games_replay_is_a_page_for_a_browser_and_a_problem_for_a_program(base: str) -> None:
    page = httpx.get(f"{base}/replay/g_nothing_here", headers={"Accept": "text/html", "Accept-Language": "fr"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Relecture et litiges" in page.text
    problem = httpx.get(f"{base}/replay/g_nothing_here")
    assert problem.status_code == 404 and problem.headers["content-type"] == "application/problem+json"
    assert problem.json()["code"] == "game_not_found"
