"""The review (`loveletter analyse`, play/engine/review.py) on planted blunders and on the heuristic's own games
(issue 36): real games of the rules core in which one decision is replaced by a move a player should not make — the
Princess thrown away, a Guard's guess that cannot hit, a Baron played with the lower card against a hand the seat
knew — each of them marked and named; the heuristic's own games seldom marked; the same verdicts under three seeds.

The budget is half the command line's (100 worlds a move, up to 3,200 where the verdict is in doubt): docs/engine.md
gives the figures measured at the default budget on more games (bench/review_stability.py)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from loveletter.cli.analyse import _render
from loveletter.core.cards import Card
from loveletter.core.catalogue import Event
from loveletter.core.chance import chance_move, commitment
from loveletter.core.commands import PlayCard, PlayerCommand, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL, PHASE_OVER, PHASE_PLAY, GameState
from loveletter.core.views import view
from loveletter.play.bots import BOTS
from loveletter.play.engine.analysis import entry_at
from loveletter.play.engine.review import WIDEN, decisions
from loveletter.play.policies import choose_heuristic
from loveletter.play.simulate import play_game, root_key
from tests.helpers import PR, B, G, P, start

BUDGET = 100
SEEDS = (0, 1, 2)
Plant = Callable[[GameState, int, list[PlayerCommand]], PlayerCommand | None]


def planted(plant: Plant, deal: int) -> tuple[list[Event], int]:
    """A two-player game of heuristic bots, its rounds dealt from the server seed `deal`, played up to the first
    decision where `plant` gives a move instead, and that move: the events, and where the planted decision stands
    (after how many events)."""
    rng = random.Random(deal)
    server = bytes([deal]) * 32
    state, events = INITIAL, []
    command: Any = StartGame("2019", ("Ann", "Bob"), seed_commitment=commitment(server))
    while True:
        new = decide(state, command)
        events.extend(new)
        state = fold(new, state)
        chance = chance_move(state, server)
        if chance is not None:
            command = chance
            continue
        assert state.phase != PHASE_OVER, "nowhere to plant the move"
        seat = state.active
        moves = legal_moves(state, seat)
        move = plant(state, seat, moves) if state.phase == PHASE_PLAY else None
        if move is not None:
            at = len(events)
            events.extend(decide(state, move))
            return events, at
        command = choose_heuristic(view(state, seat), moves, rng)


def princess_thrown_away(state: GameState, seat: int, moves: list[PlayerCommand]) -> PlayerCommand | None:
    """At a seat's first turn of a round (eight cards or more left to draw), holding the Princess: play her."""
    if Card.PRINCESS not in state.hands[seat] or len(state.deck) < 8:
        return None
    if not any(isinstance(m, PlayCard) and m.card is not Card.PRINCESS for m in moves):
        return None
    return PlayCard(seat, Card.PRINCESS)


def blind_guess(state: GameState, seat: int, moves: list[PlayerCommand]) -> PlayerCommand | None:
    """Holding a Guard: name at the other seat a card of which the seat has seen every copy."""
    seen = view(state, seat)
    for card, unseen in seen.unseen.items():
        move = PlayCard(seat, Card.GUARD, 1 - seat, card)
        if unseen == 0 and move in moves:
            return move
    return None


def baron_game() -> tuple[list[Event], int]:
    """Ann's Priest shows her Bob's Prince; Bob plays the Guard he drew; Ann, holding a Guard and the Baron she drew,
    plays the Baron on Bob (where the Guard naming the Prince wins the round): she is out."""
    game = start()
    game.deal((G, P), (PR, G, B))
    game.play(0, PR, 1)
    game.play(1, G, 0, B)
    at = len(game.log)
    game.play(0, B, 1)
    assert game.out(0)
    return list(game.log), at


@pytest.mark.parametrize("deal", [0, 1, 2, 3])
def test_the_princess_thrown_away_loses_the_round_and_is_a_blunder(deal: int) -> None:
    events, at = planted(princess_thrown_away, deal)
    e = entry_at(events, at, BUDGET, 0, "en")
    assert e["played"]["card"] == "princess" and not e["forced"]
    mine = next(m for m in e["moves"] if m["action_code"] == e["played"]["action_code"])
    assert mine["round"] == 0.0 and e["loses_round"]  # out of the round at once, in every world
    assert e["verdict"] == e["round_verdict"] == "blunder" and e["by"] == "round"
    assert e["round_drop"] >= 0.40 and e["round_drop"] == pytest.approx(max(m["round"] for m in e["moves"]))
    assert e["drop"] < e["round_drop"]  # the game alone said less: from an inaccuracy up, by the favors held
    assert "blunder: loses the round (−" in _render(e, "en", BUDGET)
    assert "gaffe : perd la manche (−" in _render(entry_at(events, at, BUDGET, 0, "fr"), "fr", BUDGET)


@pytest.mark.parametrize("deal", [0, 1, 2, 3])
def test_a_guess_that_cannot_hit_is_named_and_marked(deal: int) -> None:
    events, at = planted(blind_guess, deal)
    e = entry_at(events, at, BUDGET, 0, "en")
    name = e["played"]["guess"]
    assert e["played"]["cannot_succeed"] == f"no {name.capitalize()} is left unseen: this guess cannot hit"
    assert e["verdict"] is not None
    if e["by"] == "floor":  # the rollouts alone would not mark it: at least an inaccuracy all the same
        assert e["verdict"] == "inaccuracy" and e["game_verdict"] is None and e["round_verdict"] is None
    assert e["best"]["action_code"] != e["played"]["action_code"]


def test_a_baron_with_the_lower_card_against_a_known_hand_is_named_and_a_blunder() -> None:
    events, at = baron_game()
    e = entry_at(events, at, BUDGET, 0, "en")
    assert e["played"]["cannot_succeed"] == (
        "Bob holds the Prince, as this seat knew, which beats the Guard kept: this Baron loses the comparison"
    )
    assert e["best"]["text"] == e["round_best"]["text"] == "Guard on Bob naming Prince"
    assert e["moves"][0]["round"] == 1.0 and e["loses_round"] and e["round_drop"] == 1.0
    assert e["verdict"] == "blunder" and e["by"] == "round" and not e["uncertain"]
    said = _render(entry_at(events, at, BUDGET, 0, "fr"), "fr", BUDGET)
    assert said.startswith("manche 1, deuxième tour d'Ann (après l'événement")
    assert "Baron sur Bob — gaffe : perd la manche (−100,0 points de la manche" in said
    assert "Bob a le Prince, qui bat le Garde restant en main, et ce siège le savait" in said


@pytest.fixture(scope="module")
def heuristic_games() -> list[tuple[list[Event], list[dict[str, Any]]]]:
    """Two seeded games of the heuristic in both seats, every decision reviewed under seed 0."""
    games = []
    for game in range(2):
        record: list[Event] = []
        play_game("2019", [BOTS["heuristic"]] * 2, root_key(5), game, record=record)
        games.append((record, [entry_at(record, d.at, BUDGET, 0, "en") for d in decisions(record)]))
    return games


def test_the_heuristics_own_games_are_seldom_marked(heuristic_games: list[tuple[list[Event], list[Any]]]) -> None:
    searched = [e for _, entries in heuristic_games for e in entries if not e["forced"]]
    marked = [e for e in searched if e["verdict"] is not None]
    assert len(searched) >= 50
    # Measured at this budget: 8.6% of 464 decisions of twelve games (7.3% and 11.4% on two sets at the command
    # line's 200), 4 of these 61; the bound leaves room for a smaller sample (docs/engine.md).
    assert len(marked) <= 0.15 * len(searched), [(e["when"], e["played"]["text"], e["verdict"]) for e in marked]
    for e in searched:
        assert BUDGET <= e["rollouts"] <= WIDEN * BUDGET
        assert all(BUDGET <= m["rollouts"] <= e["rollouts"] for m in e["moves"])
        assert (
            next(m for m in e["moves"] if m["action_code"] == e["played"]["action_code"])["rollouts"] == e["rollouts"]
        )
        if e["rollouts"] > BUDGET:  # widened only while in doubt, by doubling
            assert e["rollouts"] in [BUDGET * 2**k for k in range(1, WIDEN.bit_length())]
        if e["uncertain"]:
            assert e["rollouts"] == WIDEN * BUDGET


def test_the_verdicts_are_the_same_under_three_seeds(heuristic_games: list[tuple[list[Event], list[Any]]]) -> None:
    cases = [planted(princess_thrown_away, deal) for deal in (0, 1, 2)]
    cases += [planted(blind_guess, deal) for deal in (0, 1, 2)]
    cases.append(baron_game())
    for events, at in cases:
        verdicts = {entry_at(events, at, BUDGET, seed, "en")["verdict"] for seed in SEEDS}
        assert len(verdicts) == 1, (at, verdicts)
    # and decisions of the heuristic's own game whose verdict the review did not call uncertain (seed 0's: the fixture)
    record, entries = heuristic_games[0]
    sure = [e for e in entries if not e["forced"] and not e["uncertain"]]
    for e in sure[:4] + [e for e in sure if e["verdict"]][:2]:
        verdicts = {e["verdict"]} | {entry_at(record, e["at"], BUDGET, seed, "en")["verdict"] for seed in SEEDS[1:]}
        assert len(verdicts) == 1, (e["at"], verdicts)
