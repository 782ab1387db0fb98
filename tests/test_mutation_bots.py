"""The bot policies' exact numbers, written against the surviving mutants of `play/policies.py` (once `core/bots.py`).

The heuristic's scores decide tournament results, so each score of each branch is pinned here: every expected
value is worked out by hand in a comment from the policy as `play/policies.py` documents it (values of the 2019
ruleset unless a test says otherwise: Spy 0, Guard 1, Priest 2, Baron 3, Handmaid 4, Prince 5, Chancellor 6,
King 7, Countess 8, Princess 9). Changing a weight must change a line here, on purpose.

`_score_play(view, move, values, unseen_total)` always starts from 0.3 × the value of the card kept (the hand's
other card); a targeted card adds `leader` = 0.2 × the target's favors.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

import pytest

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.legal import legal_moves
from loveletter.core.rulesets import RULESETS
from loveletter.core.views import Glance, SeatPublic, View, view
from loveletter.play.bots import get_bot
from loveletter.play.policies import (
    _odds,
    _score_play,
    _score_return,
    choose_heuristic,
    choose_random,
    choose_random_blind,
)
from tests.helpers import PR, PS, B, C, G, H, K, P, S, start

CO = Card.COUNTESS
V2019 = dict(RULESETS["2019"].values)
V2012 = dict(RULESETS["2012"].values)


def _view(
    hand: tuple[Card, ...],
    others: Sequence[tuple[int, Card | None]] = ((0, None), (0, None)),
    unseen: dict[Card, int] | None = None,
    deck_size: int = 8,
    ruleset: str = "2019",
) -> View:
    """Seat 0's view: its `hand`, then one (favors, known hand) per other seat."""
    seats = (
        SeatPublic(seat=0, name="p0", favors=0, in_round=True, protected=False, hand_size=len(hand), front=()),
        *(
            SeatPublic(seat=i, name=f"p{i}", favors=f, in_round=True, protected=False, hand_size=1, front=(),
                       known_hand=known)
            for i, (f, known) in enumerate(others, start=1)
        ),
    )  # fmt: skip
    return View(
        seat=0, ruleset=ruleset, options={}, round=1, phase="play", active=0, deck_size=deck_size,
        set_aside_face_down=True, face_up=(), seats=seats, hand=hand, deck_known=(),
        unseen=unseen if unseen is not None else {G: 4, PR: 2}, round_winners=(), winners=(), version=1,
    )  # fmt: skip


def _play(v: View, card: Card, target: int | None = None, guess: Card | None = None) -> float:
    return _score_play(Glance.of(v), PlayCard(0, card, target, guess), V2019, sum(v.unseen.values()))


def approx(x: float) -> object:
    return pytest.approx(x, abs=1e-9)


# -- which card is kept ---------------------------------------------------------------------------


def test_the_kept_card_is_the_other_one_whichever_side_the_played_card_is_on() -> None:
    # A Guard with nobody to target scores just the showdown term, 0.3 × the kept King (7) = 2.1,
    # whether the Guard is the first or the second card of the hand (never 0.3 × the Guard itself = 0.3).
    assert _play(_view((G, K)), G) == approx(2.1)
    assert _play(_view((K, G)), G) == approx(2.1)
    # Two copies of the played card: the kept one is the same kind, 0.3 × 1.
    assert _play(_view((G, G)), G) == approx(0.3)


def test_a_hand_of_the_played_card_alone_keeps_that_card() -> None:
    # Never reached from legal moves (the player to move holds two cards), but the guard keeps the function
    # total: with one card in hand, the "kept" card is that card, and there is no IndexError.
    assert _play(_view((G,)), G) == approx(0.3)  # a Guard with nobody to choose: 0.3 × Guard 1
    assert _play(_view((H,)), H) == approx(1.2 + 6)  # the Handmaid: 0.3 × Handmaid 4 + 6 = 7.2


# -- cards without a target -----------------------------------------------------------------------


def test_the_untargeted_cards_scores() -> None:
    # Kept card Priest (2): 0.3 × 2 = 0.6, then the card's own bonus.
    assert _play(_view((H, PR)), H) == approx(0.6 + 6)  # Handmaid: 6.6
    assert _play(_view((S, PR)), S) == approx(0.6 + 4)  # Spy: 4.6
    assert _play(_view((C, PR), deck_size=8), C) == approx(0.6 + 3)  # Chancellor with a deck to draw from: 3.6
    assert _play(_view((C, PR), deck_size=1), C) == approx(0.6 + 3)  # one card left still counts: 3.6
    assert _play(_view((C, PR), deck_size=0), C) == approx(0.6)  # Chancellor, empty deck: draws nothing, 0.6
    assert _play(_view((CO, PR)), CO) == approx(0.6 + 1)  # Countess: 1.6
    assert _play(_view((G, PR)), G) == approx(0.6)  # a Guard with nobody to choose: no effect, 0.6
    assert _play(_view((PR, H)), PR) == approx(1.2)  # a Priest with nobody to choose: 0.3 × Handmaid 4 = 1.2
    assert _play(_view((PS, PR)), PS) == -1000.0  # the Princess: the player's own elimination, always _DOOM


# -- the Guard ------------------------------------------------------------------------------------


def test_a_guard_on_a_known_hand() -> None:
    # Hand Guard + Priest: 0.6. Seat 2 holds a known Baron and 2 favors: leader 0.4.
    v = _view((G, PR), others=((0, None), (2, B)))
    assert _play(v, G, 2, B) == approx(0.6 + 0.4 + 40)  # the right guess: 41.0
    assert _play(v, G, 2, K) == approx(0.6 + 0.4 - 5)  # a wrong guess on a known hand: −4.0


def test_a_guard_on_an_unknown_hand_scores_the_chance_of_the_guess() -> None:
    # 9 unseen cards: Guard 3, Priest 4, Baron 1, King 1. Seat 1 has 1 favor: leader 0.2. Base 0.6.
    v = _view((G, PR), others=((1, None), (0, None)), unseen={G: 3, PR: 4, B: 1, K: 1})
    assert _play(v, G, 1, PR) == approx(0.6 + 0.2 + 20 * 4 / 9)  # 9.6888…
    assert _play(v, G, 1, K) == approx(0.6 + 0.2 + 20 * 1 / 9)  # 3.0222…
    assert _play(v, G, 1, CO) == approx(0.6 + 0.2)  # no Countess unseen: 0.8
    # One unseen card: the guess is sure to hit, 20 × 1/1.
    one = _view((G, PR), others=((1, None), (0, None)), unseen={G: 0, K: 1})
    assert _play(one, G, 1, K) == approx(0.6 + 0.2 + 20)  # 20.8


def test_a_guard_naming_a_card_the_ruleset_lacks() -> None:
    # 2012 with the "miss" option: the Guard may name the Spy, which the 2012 view's unseen counts do not list.
    # Kept King (2012 value 6): 1.8; no favors.
    v = _view((G, K), unseen={G: 2, PR: 1, B: 2, H: 2, P: 2, K: 0, CO: 1, PS: 1}, ruleset="2012")
    spy = _score_play(Glance.of(v), PlayCard(0, G, 1, S), V2012, 11)
    assert spy == approx(1.8)


# -- the Priest -----------------------------------------------------------------------------------


def test_the_priest_prefers_an_unknown_hand() -> None:
    # Hand Priest + Handmaid: 0.3 × 4 = 1.2. Seat 1: 1 favor, unknown hand; seat 2: 3 favors, known King.
    v = _view((PR, H), others=((1, None), (3, K)))
    assert _play(v, PR, 1) == approx(1.2 + 0.2 + 4)  # 5.4
    assert _play(v, PR, 2) == approx(1.2 + 0.6 + 0.5)  # looking again at a known hand: 2.3


# -- the Baron ------------------------------------------------------------------------------------


def test_a_baron_against_a_known_hand() -> None:
    # Hand Baron + Prince: the Baron compares the Prince (5); base 0.3 × 5 = 1.5.
    v = _view((B, P), others=((1, PR), (2, K)))
    assert _play(v, B, 1) == approx(1.5 + 0.2 + 35)  # Priest 2 < 5, a sure win: 36.7
    assert _play(v, B, 2) == -500.0  # King 7 > 5, a sure loss: _DOOM / 2
    tie = _view((B, P), others=((1, P), (0, None)))
    assert _play(tie, B, 1) == approx(1.5 - 1)  # Prince against Prince, nothing happens: 0.5 (no leader term)


def test_a_baron_against_an_unknown_hand_scores_the_odds() -> None:
    # Hand Baron + Prince (5), base 1.5; seat 1 has 1 favor: leader 0.2.
    # 6 unseen: Guard 3 + Priest 1 lower, Prince 1 equal, King 1 higher: 25 × (4/6 − 1/6) = 12.5; 1/6 ≤ 0.5.
    fair = _view((B, P), others=((1, None), (0, None)), unseen={G: 3, PR: 1, P: 1, K: 1})
    assert _play(fair, B, 1) == approx(1.5 + 0.2 + 12.5)  # 14.2
    # 4 unseen: Guard 1 lower, King 2 + Countess 1 higher: 25 × (1/4 − 3/4) = −12.5, and 3/4 > 0.5: −10.
    bad = _view((B, P), others=((1, None), (0, None)), unseen={G: 1, K: 2, CO: 1})
    assert _play(bad, B, 1) == approx(1.5 + 0.2 - 12.5 - 10)  # −20.8
    # Exactly even (Guard 2, King 2): 25 × 0 and higher = 0.5 is not above 0.5: no −10.
    even = _view((B, P), others=((1, None), (0, None)), unseen={G: 2, K: 2})
    assert _play(even, B, 1) == approx(1.5 + 0.2)  # 1.7


def test_the_odds_of_an_unknown_hand() -> None:
    unseen = {G: 3, PR: 1, P: 1, K: 1}
    # Against a Prince (5): lower Guard 3 + Priest 1 = 4 of 6, higher King 1 of 6 (the equal Prince in neither).
    assert _odds(Glance.of(_view((B, P), unseen=unseen)), V2019, 5) == (approx(4 / 6), approx(1 / 6))
    # A single unseen card is certain: against a Baron (3), the one King is higher.
    assert _odds(Glance.of(_view((B, B), unseen={G: 0, K: 1})), V2019, 3) == (0.0, 1.0)
    # Nothing unseen at all: no odds either way (and no division by zero).
    assert _odds(Glance.of(_view((B, B), unseen={G: 0, K: 0})), V2019, 3) == (0.0, 0.0)
    assert _odds(Glance.of(_view((B, B), unseen={})), V2019, 3) == (0.0, 0.0)


# -- the Prince -----------------------------------------------------------------------------------


def test_a_prince_on_oneself() -> None:
    # Discarding one's own Princess: eliminated.
    assert _play(_view((P, PS)), P, 0) == -1000.0
    # A high card kept (King 7 > 2): base 2.1, −2, −0.5 × 7: −3.4.
    assert _play(_view((P, K)), P, 0) == approx(2.1 - 2 - 3.5)
    # Baron 3 > 2 still counts as high: 0.9 − 2 − 1.5 = −2.6.
    assert _play(_view((P, B)), P, 0) == approx(0.9 - 2 - 1.5)
    # A low card (Priest 2, not above 2): swapping it is welcome, base 0.6 + 1 = 1.6.
    assert _play(_view((P, PR)), P, 0) == approx(0.6 + 1)


def test_a_prince_on_another_seat() -> None:
    # Hand Prince + Guard: base 0.3. Seat 1: 1 favor, known Princess; seat 2: 2 favors, known King.
    v = _view((P, G), others=((1, PS), (2, K)))
    assert _play(v, P, 1) == approx(0.3 + 0.2 + 60)  # knocking out a known Princess: 60.5
    assert _play(v, P, 2) == approx(0.3 + 0.4 + 0.6 * 7)  # discarding a known King: 4.9
    unknown = _view((P, G), others=((1, None), (0, None)))
    assert _play(unknown, P, 1) == approx(0.3 + 0.2 + 2)  # an unknown hand: 2.5


# -- the King -------------------------------------------------------------------------------------


def test_the_king_scores_the_card_it_would_hold() -> None:
    # Hand King + Priest. Trading gives the Priest away: the showdown term is 0.3 × the card received.
    # Seat 2: 2 favors (leader 0.4), known Baron: 0.3 × 3 + 0.4 + (3 − 2) − 1 = 1.3.
    v = _view((K, PR), others=((1, None), (2, B)))
    assert _play(v, K, 2) == approx(0.9 + 0.4 + 1 - 1)
    # Seat 1: 1 favor, unknown: an average card (4) assumed, no gain: 0.3 × 4 + 0.2 + 0 − 1 = 0.4.
    assert _play(v, K, 1) == approx(1.2 + 0.2 - 1)
    # A worse known card: seat 2 known Guard, no favors: 0.3 × 1 + 0 + (1 − 2) − 1 = −1.7.
    worse = _view((K, PR), others=((0, None), (0, G)))
    assert _play(worse, K, 2) == approx(0.3 - 1 - 1)


# -- the Chancellor's return ----------------------------------------------------------------------


def test_the_chancellor_return_scores() -> None:
    # keep × 10, + 1 when the very bottom card (the last one: `ReturnCards` lists top to bottom) is the lower one.
    assert _score_return(ReturnCards(0, K, (PR, G)), V2019) == 70 + 1  # Guard 1 below Priest 2: 71
    assert _score_return(ReturnCards(0, K, (G, PR)), V2019) == 70  # Priest on the very bottom: 70
    assert _score_return(ReturnCards(0, K, (G, G)), V2019) == 70  # two equal cards: no bonus
    assert _score_return(ReturnCards(0, G, (K, PR)), V2019) == 10 + 1  # keeping the Guard: 11
    # The Chancellor drew one card (the deck's last): one card goes back, no order to choose: keep × 10.
    assert _score_return(ReturnCards(0, K, (G,)), V2019) == 70
    assert _score_return(ReturnCards(0, G, (K,)), V2019) == 10


# -- choosing a move ------------------------------------------------------------------------------


def _picks(v: View, moves: Sequence[PlayerCommand], seeds: range = range(40)) -> set[PlayerCommand]:
    return {choose_heuristic(v, moves, random.Random(s)) for s in seeds}


def test_a_unique_best_move_draws_nothing_from_the_rng() -> None:
    # Hand Handmaid + Countess: Handmaid 0.3 × 8 + 6 = 8.4, Countess 0.3 × 4 + 1 = 2.2.
    v = _view((H, CO))
    moves = [PlayCard(0, CO), PlayCard(0, H)]
    rng = random.Random(7)
    before = rng.getstate()
    assert choose_heuristic(v, moves, rng) == PlayCard(0, H)
    assert rng.getstate() == before  # the seeded simulation's stream is only used to break ties


def test_a_slightly_better_move_always_wins() -> None:
    # Hand Priest + Guard (0.3); Priest on seat 1 (no favors, unknown) 0.3 + 4 = 4.3, on seat 2 (3 favors,
    # unknown) 0.3 + 0.6 + 4 = 4.9: 0.6 apart, in either order of the moves.
    v = _view((PR, G), others=((0, None), (3, None)))
    low, high = PlayCard(0, PR, 1), PlayCard(0, PR, 2)
    assert _picks(v, [low, high]) == {high}
    assert _picks(v, [high, low]) == {high}


def test_a_tie_is_broken_by_the_rng_choice() -> None:
    # Priest on seat 1 or seat 2, both unknown and without favors: 4.3 each; the Countess (0.3 × 2 + 1 = 1.6)
    # is worse.
    v = _view((PR, G))
    one, two = PlayCard(0, PR, 1), PlayCard(0, PR, 2)
    for moves in ([one, two], [two, one], [one, PlayCard(0, CO), two]):
        tied = [m for m in moves if m != PlayCard(0, CO)]
        for s in range(20):
            assert choose_heuristic(v, moves, random.Random(s)) == random.Random(s).choice(tied)
        assert _picks(v, moves) == {one, two}


def test_the_heuristic_in_a_dealt_2012_game() -> None:
    # 2012, two players, the "miss" option (a Guard may name any card). Ann holds a Guard and draws the King;
    # face up Guard, Guard, Priest. Ann has seen Guard ×3, Priest, King: unseen Guard 2, Priest 1, Baron 2,
    # Handmaid 2, Prince 2, King 0, Countess 1, Princess 1 = 11 cards.
    game = start("2012", 2, {"guard_unknown": "miss"})
    game.deal((G, B), (K,), face_up=(G, G, PR), set_aside=P)
    v = view(game.state, 0)
    assert v.hand == (G, K) and sum(v.unseen.values()) == 11
    moves = legal_moves(game.state, 0)
    scores = {m: _score_play(Glance.of(v), m, V2012, 11) for m in moves if isinstance(m, PlayCard)}
    # The Guard keeps the King (2012 value 6): 1.8 + 20 × unseen copies / 11.
    guard = {S: 0, PR: 1, B: 2, H: 2, P: 2, C: 0, K: 0, CO: 1, PS: 1}
    expected: dict[PlayerCommand, object] = {
        PlayCard(0, G, 1, guess): approx(1.8 + 20 * n / 11) for guess, n in guard.items()
    }
    # The King keeps the Guard away, takes an unknown card: 0.3 × 4 + 0 + 0 − 1 = 0.2.
    expected[PlayCard(0, K, 1)] = approx(0.2)
    assert scores == expected
    # Best: Baron, Handmaid or Prince (1.8 + 40/11 each), chosen by the rng among the three.
    best = [PlayCard(0, G, 1, B), PlayCard(0, G, 1, H), PlayCard(0, G, 1, P)]
    for s in range(10):
        assert choose_heuristic(v, moves, random.Random(s)) == random.Random(s).choice(best)


# -- the random policies and the registry ---------------------------------------------------------


class _Fixed(random.Random):
    """A `random.Random` whose `random()` is always `x`."""

    def __init__(self, x: float) -> None:
        super().__init__(0)
        self.x = x

    def random(self) -> float:
        return self.x


def test_the_blind_random_policy_maps_the_draw_onto_the_moves() -> None:
    moves: list[PlayerCommand] = [PlayCard(0, G, 1, PR), PlayCard(0, H), PlayCard(0, CO)]
    assert choose_random_blind(moves, _Fixed(0.0)) == moves[0]
    assert choose_random_blind(moves, _Fixed(0.5)) == moves[1]  # 0.5 × 3 = 1.5 → index 1
    assert choose_random_blind(moves, _Fixed(0.75)) == moves[2]  # 0.75 × 3 = 2.25 → index 2
    for s in range(20):
        assert choose_random_blind(moves, random.Random(s)) == choose_random(_view((G, H)), moves, random.Random(s))


def test_an_unknown_bot_names_the_known_ones() -> None:
    with pytest.raises(KeyError) as refused:
        get_bot("nobody")
    assert refused.value.args == ("unknown bot 'nobody' (known: random, heuristic, expert)",)


@pytest.mark.parametrize(
    ("ruleset", "players"), [("2019", 2), ("2019", 4), ("2012", 3), ("2019-classic", 4), ("2019", 6)]
)
def test_the_guard_shortcut_scores_every_guess_as_score_play_does(ruleset: str, players: int) -> None:
    """`heuristic_best` works out what a Guard's guesses at one unknown hand share once per target: at every decision
    of whole heuristic games it must choose exactly the moves that scoring each one by `_score_play` chooses."""
    from loveletter.core.chance import deal
    from loveletter.core.commands import StartGame
    from loveletter.core.decide import decide
    from loveletter.core.evolve import apply_all
    from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_DEAL, PHASE_PLAY
    from loveletter.core.views import glance
    from loveletter.play.policies import heuristic_best

    values = dict(RULESETS[ruleset].values)
    checked = guards = 0
    for game in range(6):
        s = INITIAL.thaw()
        apply_all(s, decide(s, StartGame(ruleset, tuple(f"P{i}" for i in range(players)), {}, first_player=0)))
        rng = random.Random(game)
        while s.phase in (PHASE_DEAL, PHASE_PLAY, PHASE_CHANCELLOR):
            if s.phase == PHASE_DEAL:
                apply_all(s, decide(s, deal(s, hashlib.sha256(b"%d/%d" % (game, s.round)).digest())))
                continue
            seat = s.active
            seen, moves = glance(s, seat), legal_moves(s, seat)
            scores = [_score_play(seen, m, values, sum(seen.unseen.values())) if isinstance(m, PlayCard)
                      else _score_return(m, values) for m in moves]  # fmt: skip
            top = max(scores)
            assert heuristic_best(seen, moves) == [m for m, x in zip(moves, scores, strict=True) if x > top - 1e-9]
            checked += 1
            guards += any(isinstance(m, PlayCard) and m.card is G and m.guess is not None for m in moves)
            apply_all(s, decide(s, rng.choice(heuristic_best(seen, moves))))
    assert checked > 100 and guards > 20  # whole games, many Guard decisions among them
