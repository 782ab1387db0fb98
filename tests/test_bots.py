"""The bot policies: legal moves only, the heuristic's knowledge rules, and that it beats random play."""

from __future__ import annotations

import random

import pytest

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, ReturnCards
from loveletter.core.legal import action_code, from_action_code, legal_action_codes
from loveletter.core.views import SeatPublic, View, view
from loveletter.play.bots import BOTS, get_bot
from loveletter.play.policies import choose_heuristic, choose_random, choose_random_code
from loveletter.play.simulate import Config, decisions, simulate


def _games(ruleset: str, players: int, bot: str, games: int, seed: int = 3):
    """Every (state, seat, moves, chosen) of `games` games where every seat plays `bot`."""
    return decisions(ruleset, players, games, get_bot(bot).choose, seed)


@pytest.mark.parametrize("bot", sorted(set(BOTS) - {"expert"}))  # the search bot: tests/test_engine.py, small budget
@pytest.mark.parametrize(("ruleset", "players"), [("2019", 2), ("2019", 5), ("2012", 4), ("princess-princess", 6)])
def test_bots_only_choose_legal_moves(bot: str, ruleset: str, players: int) -> None:
    decisions = 0
    for _state, _seat, moves, chosen in _games(ruleset, players, bot, 8):
        assert chosen in moves
        decisions += 1
    assert decisions > 50


def test_heuristic_never_plays_or_discards_the_princess_when_avoidable() -> None:
    checked = 0
    for state, seat, moves, chosen in _games("2019", 4, "heuristic", 40):
        if not isinstance(chosen, PlayCard) or Card.PRINCESS not in state.hands[seat]:
            continue
        checked += 1
        safe = [
            m
            for m in moves
            if isinstance(m, PlayCard)
            and m.card is not Card.PRINCESS
            and not (m.card is Card.PRINCE and m.target == seat)
        ]
        if safe:
            assert chosen.card is not Card.PRINCESS
            assert not (chosen.card is Card.PRINCE and chosen.target == seat)
    assert checked > 20


def test_heuristic_guard_names_a_known_card() -> None:
    checked = 0
    for state, seat, _moves, chosen in _games("2019", 4, "heuristic", 60):
        if isinstance(chosen, PlayCard) and chosen.card is Card.GUARD and chosen.target is not None:
            known = state.knows[seat][chosen.target]
            if known is not None and known is not Card.GUARD:
                assert chosen.guess is known
                checked += 1
    assert checked > 0


def _view(hand: tuple[Card, ...], known: dict[int, Card] | None = None, unseen: dict[Card, int] | None = None) -> View:
    known = known or {}
    seats = tuple(
        SeatPublic(seat=i, name=f"p{i}", favors=0, in_round=True, protected=False, hand_size=1 if i else len(hand),
                   front=(), known_hand=known.get(i))
        for i in range(3)
    )  # fmt: skip
    return View(
        seat=0, ruleset="2019", options={}, round=1, phase="play", active=0, deck_size=8, set_aside_face_down=True,
        face_up=(), seats=seats, hand=hand, deck_known=(), unseen=unseen or {Card.GUARD: 4, Card.PRIEST: 2},
        round_winners=(), winners=(), version=1,
    )  # fmt: skip


def _guard_moves(targets: tuple[int, ...]) -> list[PlayCard]:
    return [PlayCard(0, Card.GUARD, t, g) for t in targets for g in Card if g is not Card.GUARD]


def test_heuristic_guesses_by_the_unseen_counts() -> None:
    v = _view((Card.GUARD, Card.PRINCESS), unseen={Card.GUARD: 3, Card.BARON: 1, Card.PRIEST: 4, Card.KING: 1})
    chosen = choose_heuristic(v, _guard_moves((1, 2)), random.Random(1))
    assert isinstance(chosen, PlayCard) and chosen.guess is Card.PRIEST


def test_heuristic_guards_a_card_it_knows() -> None:
    v = _view((Card.GUARD, Card.PRINCESS), known={2: Card.BARON})
    chosen = choose_heuristic(v, _guard_moves((1, 2)), random.Random(1))
    assert chosen == PlayCard(0, Card.GUARD, 2, Card.BARON)


def test_heuristic_avoids_a_losing_baron_and_takes_a_winning_one() -> None:
    moves: list[PlayCard] = [PlayCard(0, Card.BARON, 1), PlayCard(0, Card.BARON, 2), PlayCard(0, Card.HANDMAID)]
    losing = _view((Card.BARON, Card.HANDMAID), known={1: Card.KING, 2: Card.PRINCESS})
    assert choose_heuristic(losing, moves, random.Random(1)) == PlayCard(0, Card.HANDMAID)
    moves = [PlayCard(0, Card.BARON, 1), PlayCard(0, Card.BARON, 2), PlayCard(0, Card.KING, 1)]
    winning = _view((Card.BARON, Card.KING), known={2: Card.PRIEST})
    assert choose_heuristic(winning, moves, random.Random(1)) == PlayCard(0, Card.BARON, 2)


def test_heuristic_does_not_prince_itself_holding_the_princess() -> None:
    moves = [PlayCard(0, Card.PRINCE, 0), PlayCard(0, Card.PRINCE, 1), PlayCard(0, Card.PRINCESS)]
    chosen = choose_heuristic(_view((Card.PRINCE, Card.PRINCESS)), moves, random.Random(1))
    assert chosen == PlayCard(0, Card.PRINCE, 1)


def test_heuristic_chancellor_keeps_the_best_card() -> None:
    hand = (Card.GUARD, Card.CHANCELLOR, Card.KING)
    moves = legal_returns = [ReturnCards(0, keep, tuple(c for c in hand if c is not keep)) for keep in hand]
    chosen = choose_heuristic(_view(hand), legal_returns, random.Random(1))
    assert isinstance(chosen, ReturnCards) and chosen.keep is Card.KING
    assert chosen in moves


def test_random_code_policy_matches_the_random_policy() -> None:
    checked = 0
    for state, seat, moves, _chosen in _games("2019", 4, "random", 5):
        codes = legal_action_codes(state, seat)
        assert codes == [action_code(m) for m in moves]
        a, b = random.Random(checked), random.Random(checked)
        assert from_action_code(choose_random_code(codes, a), seat) == choose_random(view(state, seat), moves, b)
        checked += 1
    assert checked > 100


def test_heuristic_beats_random_by_a_clear_margin() -> None:
    four = simulate(Config("2019", 4, 300, 11, ("heuristic", "random", "random", "random")))
    assert four.wins_by_seat[0] / four.games > 0.45  # a fair share is 25%
    two = simulate(Config("2019", 2, 200, 12, ("random", "heuristic")))
    assert two.wins_by_seat[1] / two.games > 0.7
