"""The fold between the events of one command, and the state's bookkeeping fields (`drawn`, `deadline`, `clock`,
`active` between rounds, `scenario`), which no rule reads but the state's JSON, the viewer's positions and the
clocks show.

Written against the survivors of `make mutation`: the rule examples look at states after a whole command, where a
field set wrongly by one event and put right by the next is invisible; the viewer shows every event's position.
Expected values follow the docstrings of `core.state.GameState` and the hand-built deals below.
"""

from __future__ import annotations

from loveletter.core.catalogue import ClockSet, GameAborted, PlayerResigned, RoundStarted, TurnStarted
from loveletter.core.commands import Abort, Resign, SetClock, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import apply_all, evolve, fold
from loveletter.core.state import INITIAL
from loveletter.core.views import view
from tests.helpers import PR, PS, B, C, G, H, K, P, explicit_deal, start

T = 1_790_000_000_000  # a Unix time in milliseconds


def test_before_the_first_deal_nobody_is_out_or_protected() -> None:
    state = start("2019", 3).state
    assert (state.out, state.protected, state.phase) == ((False,) * 3, (False,) * 3, "deal")
    seen = view(state, 0).as_dict()
    assert [(s["in_round"], s["protected"]) for s in seen["seats"]] == [(True, False)] * 3


def test_a_game_is_a_scenario_only_when_its_start_says_so() -> None:
    plain = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"))))
    given = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), scenario=True)))
    assert plain.scenario is False and plain.as_dict()["scenario"] is False
    assert given.scenario is True and given.as_dict()["scenario"] is True


def test_between_the_deal_and_the_first_turn_nobody_is_to_move_and_nothing_is_drawn() -> None:
    game = start("2019", 3, first_player=1)
    events = decide(game.state, explicit_deal(game.state, (G, PR, B), (H, K), set_aside=PS, first_player=1))
    assert [type(e) for e in events] == [RoundStarted, TurnStarted]
    dealt = evolve(game.state, events[0])
    assert (dealt.active, dealt.drawn, dealt.phase) == (-1, 0, "resolving")
    assert dealt.hands == ((G,), (PR,), (B,)) and dealt.deck[:2] == (H, K)
    first = evolve(dealt, events[1])
    assert (first.active, first.drawn, first.phase) == (1, 1, "play")
    assert first.hands[1] == (PR, H) and first.deck[0] == K


def test_drawn_counts_every_card_that_left_the_top_of_the_draw_pile_this_round() -> None:
    game = start("2019", 3)
    game.deal((P, G, B), (C, K, H, PR, G), set_aside=PS, first_player=0)
    assert game.state.drawn == 1  # Ann's turn card (the Chancellor)
    game.play(0, P, 2)  # Cid discards his Baron and draws the King
    assert game.state.drawn == 3 and game.hand(2) == (K,)  # and Bob's turn card, the Handmaid
    game.play(1, G, 0, C)  # Bob's Guard names Ann's Chancellor: Ann is out
    assert game.state.drawn == 4  # Cid draws the Priest
    assert game.state.out == (True, False, False)


def test_a_round_that_ends_leaves_nobody_to_move() -> None:
    game = start("2019", 2)
    game.deal((G, PR), (H,), set_aside=PS)
    game.play(0, G, 1, PR)  # Bob is out: the round is over
    assert (game.state.phase, game.state.active) == ("deal", -1)
    assert view(game.state, 0).as_dict()["active"] is None


def _clocked() -> tuple:
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob", "Cid"), turn_seconds=10, on_timeout="resign")))
    state = fold(decide(state, explicit_deal(state, (G, PR, B), (H, K), set_aside=PS, first_player=0)), state)
    events = decide(state, SetClock(0, T))
    assert events == (ClockSet(0, T, T + 10_000),)
    return fold(events, state)


def test_a_resignation_stops_the_clock_only_of_the_player_it_was_running_for() -> None:
    state = _clocked()
    assert state.deadline == (0, T + 10_000)
    other = evolve(state, decide(state, Resign(2, T + 1))[0])
    assert other.deadline == (0, T + 10_000) and other.clock == T + 1
    mine = evolve(state, decide(state, Resign(0, T + 2))[0])
    assert isinstance(decide(state, Resign(0, T + 2))[0], PlayerResigned)
    assert mine.deadline is None and mine.as_dict()["deadline"] is None and mine.clock == T + 2


def test_an_abort_records_when_it_happened() -> None:
    state = _clocked()
    events = decide(state, Abort(T + 5))
    assert events == (GameAborted(T + 5),)
    aborted = fold(events, state)
    assert (aborted.clock, aborted.deadline, aborted.winners, aborted.phase) == (T + 5, None, (), "over")


def test_apply_all_adds_to_the_count_it_starts_from() -> None:
    game = start("2019", 2)
    started = game.state
    game.deal((G, PR), (H,), set_aside=PS)
    dealt = game.log[len(game.log) - 2 :]
    for events in (iter(dealt), tuple(dealt), list(dealt)):
        s = started.thaw()
        apply_all(s, events)
        assert s.seq == started.seq + 2 == len(game.log)
