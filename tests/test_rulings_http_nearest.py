"""`POST /rulings` at a point where nobody decides (inside a move, before a deal, after the end) answers as
`loveletter explain` does: a 422 naming the nearest points before and after where a player decides (who, after
which seq), and a ruling at one of them when the body asks (`nearest`), `asked_at` keeping the point asked.

The nearest points are checked against a model read from the log's own events: a player decides just before each
`card_played` and `chancellor_returned`, and the next event names who."""

from __future__ import annotations

from typing import Any

import pytest

from loveletter.core.catalogue import Event
from loveletter.events.log import game_lines
from tests.joined_game import joined_game_events
from tests.servers import Server, client, server_fixture  # noqa: F401  (fixture)
from tests.stores import pg_url  # noqa: F401  (fixture)

EVENTS = joined_game_events("Alice", "Bob", first_player=0, pick=-1)  # the README tour's game: Alice, Bob joins
LOG = b"".join(line + b"\n" for line in game_lines(EVENTS)).decode()
PRINCE = {"player": "Bob", "card": "prince", "target": "Bob"}


def decisions(events: list[Event]) -> dict[int, str]:
    """The model: after which seq a player decides, and who (the player of the event that follows)."""
    names = ("Alice", "Bob")
    return {
        seq: names[event.player]  # type: ignore[attr-defined]
        for seq, event in enumerate(events)  # events[seq] is seq + 1: the event just after point `seq`
        if event.TYPE in ("card_played", "chancellor_returned")
    }


MODEL = decisions(EVENTS)
LAST = len(EVENTS)


def ask(server: Server, at: int, nearest: str | None = None, **headers: str) -> Any:
    body: dict[str, Any] = {"log": LOG, "at": at, "move": PRINCE}
    if nearest is not None:
        body["nearest"] = nearest
    with client(server.url, **headers) as c:
        return c.post("/rulings", json=body)


def test_the_fixture_has_seq_41_inside_a_move_between_two_decisions_of_bob() -> None:
    assert [e.TYPE for e in EVENTS[39:43]] == ["turn_started", "card_played", "chancellor_drew", "chancellor_returned"]
    assert 41 not in MODEL and MODEL[40] == MODEL[42] == "Bob" and LAST not in MODEL


def test_inside_a_move_the_answer_names_the_nearest_decisions(server: Server) -> None:
    r = ask(server, 41)
    assert r.status_code == 422 and r.headers["content-type"] == "application/problem+json", r.text
    problem = r.json()
    assert problem["code"] == "invalid_request" and problem["errors"][0]["field"] == "at"
    assert problem["detail"] == (
        "at: nobody is to move after seq 41 (round 2, Bob's second turn: in the middle of a move); the nearest "
        "decisions: before: after seq 40 (round 2, Bob's second turn: Bob is to play a card); after: after seq 42 "
        "(round 2, Bob's second turn: Bob is to keep one card and put the other 2 cards on the bottom of the deck "
        '(the Chancellor)); judge at one with "nearest": "before" or "after"'
    )
    assert problem["nearest"] == {
        "before": {
            "at": 40,
            "round": 2,
            "phase": "play",
            "player": "Bob",
            "turn": 2,
            "text": "round 2, Bob's second turn: Bob is to play a card",
        },
        "after": {
            "at": 42,
            "round": 2,
            "phase": "chancellor",
            "player": "Bob",
            "turn": 2,
            "text": "round 2, Bob's second turn: Bob is to keep one card and put the other 2 cards on the bottom of "
            "the deck (the Chancellor)",
        },
    }
    fr = ask(server, 41, Accept_Language="fr").json()  # a problem's language, as every 422 of the route
    assert fr["detail"].startswith("« at » : personne n'a la main après l'événement 41 (manche 2, deuxième tour ")
    assert fr["nearest"]["before"]["text"] == "manche 2, deuxième tour de Bob : Bob doit jouer une carte"


def test_every_point_where_nobody_decides_names_the_models_nearest_decisions(server: Server) -> None:
    for at in (1, 2, 3, 41, LAST - 1, LAST):  # before the first deal, inside moves, between rounds, the end
        assert at not in MODEL, at
        r = ask(server, at)
        assert r.status_code == 422, (at, r.text)
        nearest = r.json()["nearest"]
        want_before = max((seq for seq in MODEL if seq < at), default=None)
        want_after = min((seq for seq in MODEL if seq > at), default=None)
        for side, want in (("before", want_before), ("after", want_after)):
            found = nearest[side]
            assert (None if found is None else (found["at"], found["player"])) == (
                None if want is None else (want, MODEL[want])
            ), (at, side)


@pytest.mark.parametrize(("side", "at"), [("before", 40), ("after", 42)])
def test_nearest_judges_the_move_at_the_nearest_decision(server: Server, side: str, at: int) -> None:
    r = ask(server, 41, side)
    assert r.status_code == 200, r.text
    ruling = r.json()
    assert (ruling["at"], ruling["asked_at"], ruling["mover"], ruling["legal"]) == (at, 41, "Bob", False)
    # Bob holds the Guard and the Chancellor at 40 (no Prince), and at 42 must first finish the Chancellor.
    assert ruling["rule_id"] == ("turn.play-from-hand" if side == "before" else "chancellor.pending")
    there = ask(server, at)  # the same ruling asked there directly, without asked_at
    assert there.status_code == 200 and {**there.json(), "asked_at": 41} == ruling


def test_where_a_player_decides_nearest_changes_nothing(server: Server) -> None:
    plain = ask(server, 40)
    assert plain.status_code == 200 and "asked_at" not in plain.json()
    assert ask(server, 40, "after").json() == plain.json() == ask(server, 40, "before").json()


def test_no_decision_on_the_side_asked_is_a_422_naming_nearest(server: Server) -> None:
    r = ask(server, LAST, "after")
    assert r.status_code == 422, r.text
    problem = r.json()
    assert problem["errors"][0]["field"] == "nearest" and "nearest" not in {k for k in problem if k != "errors"}
    assert problem["detail"] == f"nearest: nobody decides after seq {LAST} (the game is over)"
    before = ask(server, LAST, "before").json()
    assert (before["at"], before["asked_at"], before["mover"]) == (max(MODEL), LAST, MODEL[max(MODEL)])
    assert ask(server, 1, "before").json()["errors"][0]["field"] == "nearest"


def test_nearest_takes_only_before_or_after(server: Server) -> None:
    r = ask(server, 41, "sideways")
    assert r.status_code == 422 and r.json()["errors"][0]["field"] == "nearest", r.text
