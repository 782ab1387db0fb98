"""Open seats, clocks, resigning and aborting (RULINGS §12 and the lobby), on hand-dealt games.

Every expected event below was worked out by hand from RULINGS §12 and the deal written in each test; the
replay tests then forge logs that break one of these rules and check the rule id replay names.
"""

from __future__ import annotations

from typing import Any

import pytest

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    ClockRanOut,
    ClockSet,
    Event,
    FavorGained,
    GameAborted,
    GameEnded,
    PlayerResigned,
    RoundEnded,
    SeatJoined,
    TurnStarted,
)
from loveletter.core.chance import committed_deal
from loveletter.core.commands import (
    Abort,
    Command,
    DealRound,
    ExpireSeats,
    JoinSeat,
    PlayCard,
    Resign,
    ReturnCards,
    SetClock,
    StartGame,
    TimeOut,
)
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, GameState
from loveletter.core.views import view
from loveletter.replays.replay import check

G, P, B, H, X, C, K, N, S, Q = (
    Card.GUARD,
    Card.PRIEST,
    Card.BARON,
    Card.HANDMAID,
    Card.PRINCE,
    Card.CHANCELLOR,
    Card.KING,
    Card.COUNTESS,
    Card.SPY,
    Card.PRINCESS,
)
T0 = 1_790_000_000_000


def deal3(hands: tuple[Card, Card, Card], top: tuple[Card, ...]) -> DealRound:
    """A 3-player 2019 deal: the Princess set aside, `hands` for seats 0-2, `top` first in the deck."""
    rest = [S, S, *[G] * 6, P, P, B, B, H, H, X, X, C, C, K, N]
    for card in (*hands, *top):
        rest.remove(card)
    return DealRound(Q, (), hands, (*top, *rest), 0)


class Game:
    """A game driven by commands, keeping every event (the log) and the state they fold to."""

    def __init__(self, players: tuple[str, ...], **start: Any) -> None:
        self.events: list[Event] = []
        self.state: GameState = INITIAL
        self.do(StartGame("2019", players, first_player=0, **start))

    def do(self, command: Command) -> tuple[Event, ...]:
        new = decide(self.state, command)
        self.events.extend(new)
        self.state = fold(new, self.state)
        return new

    def refused(self, command: Command) -> RuleViolation:
        before = self.state
        with pytest.raises(RuleViolation) as caught:
            decide(self.state, command)
        assert self.state is before
        return caught.value


# -- lobby ------------------------------------------------------------------------------------------------------


def test_lobby_join_fills_an_open_seat_once_under_a_new_name_before_the_deal() -> None:
    game = Game(("Ann", "", ""), open_seats=(1, 2))
    assert game.state.open_seats == (1, 2)
    assert game.do(JoinSeat(1, " Bob ", T0)) == (SeatJoined(1, "Bob", T0),)
    assert game.refused(JoinSeat(1, "Cid", T0)).code == "seat_taken"
    assert game.refused(JoinSeat(2, "Ann", T0)).code == "name_taken"
    assert game.refused(JoinSeat(2, "  ", T0)).code == "name_taken"
    assert game.refused(JoinSeat(0, "Zed", T0)).code == "seat_taken"
    assert game.refused(JoinSeat(7, "Zed", T0)).rule_id == "lobby.join"
    game.do(JoinSeat(2, "Cid", T0 + 5))
    assert game.state.players == ("Ann", "Bob", "Cid") and game.state.open_seats == ()
    game.do(deal3((G, P, B), (H,)))
    late = game.refused(JoinSeat(1, "Dee", T0 + 6))
    assert (late.code, late.rule_id) == ("game_dealt", "lobby.join")


def test_lobby_join_refuses_open_seats_that_are_named_or_not_seats() -> None:
    for players, opened in ((("Ann", "Bob", ""), (1,)), (("Ann", "Bob", ""), (2, 2)), (("Ann", "Bob", ""), (3,))):
        with pytest.raises(RuleViolation) as caught:
            decide(INITIAL, StartGame("2019", players, open_seats=opened))
        assert caught.value.rule_id in ("lobby.join", "setup.players")


def test_lobby_deal_waits_for_every_seat() -> None:
    game = Game(("Ann", "", "Cid"), open_seats=(1,))
    refusal = game.refused(deal3((G, P, B), (H,)))
    assert (refusal.code, refusal.rule_id) == ("seats_open", "lobby.deal")
    assert view(game.state, None).seats[1].open


def test_lobby_join_deadline_ends_an_unfilled_game_unplayed_and_closes_its_seats() -> None:
    game = Game(("Ann", "", ""), open_seats=(1, 2), join_by=T0 + 60_000)
    assert game.state.join_by == T0 + 60_000 and game.state.next_deadline == T0 + 60_000
    game.do(JoinSeat(1, "Bob", T0 + 59_999))  # just in time
    assert game.refused(ExpireSeats(T0 + 59_999)).code == "join_deadline_not_passed"
    late = game.refused(JoinSeat(2, "Cid", T0 + 60_000))
    assert (late.code, late.rule_id) == ("seats_expired", "lobby.join-deadline")
    assert game.do(ExpireSeats(T0 + 60_001)) == (GameAborted(T0 + 60_001, "seats_unfilled"),)
    assert game.state.over and game.state.aborted and game.state.winners == ()
    assert game.state.join_by is None and game.state.next_deadline is None
    assert check(game.events).ok  # replay judges the expiry as the referee did


def test_lobby_join_deadline_is_met_once_every_seat_is_taken() -> None:
    game = Game(("Ann", ""), open_seats=(1,), join_by=T0 + 60_000)
    game.do(JoinSeat(1, "Bob", T0))
    assert game.state.join_by is None  # the seats' deadline no longer applies: the game is played
    refusal = game.refused(ExpireSeats(T0 + 60_000))
    assert (refusal.code, refusal.rule_id) == ("no_join_deadline", "lobby.join-deadline")


def test_lobby_join_deadline_forged_early_is_caught_by_replay() -> None:
    game = Game(("Ann", ""), open_seats=(1,), join_by=T0 + 60_000)
    game.do(ExpireSeats(T0 + 60_000))
    forged = [game.events[0], GameAborted(T0 + 1_000, "seats_unfilled")]
    assert _first_problem(forged) == ("lobby.join-deadline", 2)


# -- resigning ----------------------------------------------------------------------------------------------------


def test_leave_resign_on_your_turn_discards_the_hand_and_passes_the_turn() -> None:
    game = Game(("Ann", "Bob", "Cid"))
    game.do(deal3((G, P, B), (H, S)))  # Ann draws the Handmaid
    assert game.do(Resign(0, T0)) == (PlayerResigned(0, (G, H), "resigned", T0), TurnStarted(1, S))
    s = game.state
    assert s.out == (True, False, False) and s.resigned == (True, False, False)
    assert s.front[0] == (G, H) and s.hands[0] == () and s.hands[1] == (P, S) and s.active == 1
    assert not view(s, 1).seats[0].in_game


def test_leave_resign_ends_a_pending_chancellor_decision_with_all_three_cards() -> None:
    game = Game(("Ann", "Bob", "Cid"))
    game.do(deal3((G, P, B), (C, K, N, S)))  # Ann draws the Chancellor, which draws the King and the Countess
    game.do(PlayCard(0, C))
    assert game.state.phase == "chancellor" and game.state.hands[0] == (G, K, N)
    assert game.do(Resign(0, T0)) == (PlayerResigned(0, (G, K, N), "resigned", T0), TurnStarted(1, S))
    assert game.refused(ReturnCards(0, G, (K, N))).rule_id == "leave.gone"


def test_leave_resign_of_one_of_two_players_wins_the_other_the_round_and_the_game() -> None:
    game = Game(("Ann", "Bob"))
    deck = [S, S, *[G] * 6, P, P, B, B, H, H, X, X, C, C, K, N]
    for card in (P, B, G, G, G):
        deck.remove(card)
    game.do(DealRound(Q, (G, G, G), (P, B), tuple(deck), 0))
    assert game.do(Resign(1, T0)) == (
        PlayerResigned(1, (B,), "resigned", T0),
        RoundEnded(1, "last-standing", (0,), Q, ()),
        FavorGained(0, "round"),
        GameEnded((0,)),
    )
    assert game.state.over and game.state.winners == (0,)


def test_leave_gone_seats_get_no_card_no_turn_and_no_win() -> None:
    game = Game(("Ann", "Bob", "Cid"))
    game.do(deal3((G, P, B), (H, G, S)))
    assert game.do(Resign(1, T0)) == (PlayerResigned(1, (P,), "resigned", T0),)  # not Bob's turn: Ann goes on
    assert game.state.active == 0 and game.state.phase == "play"
    refusal = game.refused(PlayCard(1, P, 0))
    assert (refusal.code, refusal.rule_id) == ("player_resigned", "leave.gone")
    assert game.refused(Resign(1, T0)).code == "already_resigned"
    game.do(PlayCard(0, H))  # Cid's turn, then Ann's: Bob is skipped
    assert game.state.active == 2
    game.do(PlayCard(2, G))  # no target: Ann is protected, Bob has left
    assert game.state.active == 0
    # the next round is the 2-player setup of the two left, and Bob is dealt nothing
    game.do(PlayCard(0, G, 2, B))  # Cid holds the Baron: out, Ann wins the round
    assert game.state.phase == "deal" and game.state.round_winners == (0,)
    nxt = committed_deal(game.state, bytes(32))
    assert nxt.hands[1] is None and nxt.hands[0] is not None and nxt.hands[2] is not None and len(nxt.face_up) == 3
    assert len(nxt.deck) == 21 - 1 - 3 - 2
    given = DealRound(nxt.set_aside, nxt.face_up, (nxt.hands[0], nxt.deck[0], nxt.hands[2]), nxt.deck[1:], 0)
    assert game.refused(given).rule_id == "setup.deal"
    game.do(nxt)
    assert game.state.out == (False, True, False)


def test_leave_gone_favors_stay_and_the_threshold_is_the_starting_counts() -> None:
    game = Game(("Ann", "Bob", "Cid"))
    game.do(deal3((G, P, B), (H, G, S)))
    game.do(Resign(1, T0))
    game.do(PlayCard(0, H))
    game.do(PlayCard(2, G))
    game.do(PlayCard(0, G, 2, B))
    assert game.state.favors == (1, 0, 0)
    # 3 players started: 5 favors win, even though two are left (whose 2-player threshold would be 6)
    from loveletter.core.rulesets import get_ruleset

    assert get_ruleset("2019").favors_to_win[3] == 5


def test_leave_resign_is_refused_before_the_deal() -> None:
    game = Game(("Ann", "Bob", "Cid"))
    refusal = game.refused(Resign(1, T0))
    assert (refusal.code, refusal.rule_id) == ("game_not_dealt", "leave.resign")


def test_leave_abort_ends_the_game_with_no_winner_and_refuses_what_follows() -> None:
    game = Game(("Ann", "Bob", "Cid"))
    game.do(deal3((G, P, B), (H,)))
    assert game.do(Abort(T0)) == (GameAborted(T0),)
    assert game.state.over and game.state.winners == () and game.state.aborted
    assert game.refused(PlayCard(0, H)).code == "game_over"
    assert game.refused(Abort(T0 + 1)).code == "game_over"


# -- clocks -----------------------------------------------------------------------------------------------------


def test_clock_deadline_is_turn_seconds_after_the_clock_starts() -> None:
    game = Game(("Ann", "Bob", "Cid"), turn_seconds=30, on_timeout="bot")
    game.do(deal3((G, P, B), (H,)))
    assert game.refused(SetClock(1, T0)).code == "no_pending_decision"
    assert game.do(SetClock(0, T0)) == (ClockSet(0, T0, T0 + 30_000),)
    assert view(game.state, 2).as_dict()["clock"] == {
        "turn_seconds": 30,
        "on_timeout": "bot",
        "deadline": {"seat": 0, "at": T0 + 30_000},
    }
    assert game.refused(SetClock(0, T0)).code == "clock_running"
    game.do(PlayCard(0, H))
    assert game.state.deadline is None  # the decision was made: its clock stops


def test_clock_deadline_needs_both_settings_and_a_clocked_game() -> None:
    for start in ({"turn_seconds": 30}, {"on_timeout": "bot"}, {"turn_seconds": 0, "on_timeout": "bot"}):
        with pytest.raises(RuleViolation) as caught:
            decide(INITIAL, StartGame("2019", ("Ann", "Bob"), **start))
        assert (caught.value.code, caught.value.rule_id) == ("invalid_clock", "clock.deadline")
    game = Game(("Ann", "Bob", "Cid"))
    game.do(deal3((G, P, B), (H,)))
    assert game.refused(SetClock(0, T0)).code == "no_clock"


def test_clock_timeout_only_after_the_deadline_then_the_bot_decides() -> None:
    game = Game(("Ann", "Bob", "Cid"), turn_seconds=30, on_timeout="bot")
    game.do(deal3((G, P, B), (H,)))
    game.do(SetClock(0, T0))
    early = game.refused(TimeOut(0, T0 + 29_999))
    assert (early.code, early.rule_id) == ("deadline_not_passed", "clock.timeout")
    assert game.refused(TimeOut(1, T0 + 30_000)).code == "no_deadline"
    assert game.do(TimeOut(0, T0 + 30_000)) == (ClockRanOut(0, T0 + 30_000),)
    assert game.state.active == 0 and game.state.phase == "play"  # Ann's decision is still pending: the bot's


def test_clock_timeout_under_resign_is_a_resignation() -> None:
    game = Game(("Ann", "Bob", "Cid"), turn_seconds=30, on_timeout="resign")
    game.do(deal3((G, P, B), (H, S)))
    game.do(SetClock(0, T0))
    assert game.do(TimeOut(0, T0 + 31_000)) == (
        ClockRanOut(0, T0 + 31_000),
        PlayerResigned(0, (G, H), "timeout", T0 + 31_000),
        TurnStarted(1, S),
    )


def test_clock_order_times_never_go_backwards() -> None:
    game = Game(("Ann", "Bob", "Cid"), turn_seconds=30, on_timeout="bot")
    game.do(deal3((G, P, B), (H,)))
    game.do(SetClock(0, T0))
    for command in (Resign(1, T0 - 1), Abort(T0 - 1)):
        refusal = game.refused(command)
        assert (refusal.code, refusal.rule_id) == ("clock_backwards", "clock.order")


# -- replay judges the same rules ---------------------------------------------------------------------------------


def _first_problem(events: list[Event]) -> tuple[str, int | None]:
    result = check(events)
    assert result.problems, "replay accepted a forged log"
    return result.problems[0].rule_id, result.problems[0].seq


def test_clock_timeout_recorded_before_its_deadline_is_caught_by_replay() -> None:
    game = Game(("Ann", "Bob", "Cid"), turn_seconds=30, on_timeout="bot")
    game.do(deal3((G, P, B), (H,)))
    game.do(SetClock(0, T0))
    game.do(TimeOut(0, T0 + 30_000))
    assert check(game.events).ok
    forged = [*game.events[:-1], ClockRanOut(0, T0 + 10_000)]
    assert _first_problem(forged) == ("clock.timeout", len(forged))


def test_lobby_join_after_the_deal_is_caught_by_replay() -> None:
    game = Game(("Ann", "", "Cid"), open_seats=(1,))
    game.do(JoinSeat(1, "Bob", T0))
    game.do(deal3((G, P, B), (H,)))
    assert check(game.events).ok
    # the join moved after the deal: the deal then breaks lobby.deal first
    forged = [game.events[0], *game.events[2:], game.events[1]]
    assert _first_problem(forged)[0] == "lobby.deal"


def test_leave_gone_move_by_a_resigned_seat_is_caught_by_replay() -> None:
    game = Game(("Ann", "Bob", "Cid"))
    game.do(deal3((G, P, B), (H, G, S)))
    game.do(Resign(1, T0))
    game.do(PlayCard(0, H))
    assert check(game.events).ok
    from loveletter.core.catalogue import CardPlayed

    forged = [*game.events, CardPlayed(1, P, 0)]
    assert _first_problem(forged) == ("leave.gone", len(forged))


def test_leave_resign_right_after_a_bot_timeout_is_a_decision_of_its_own_for_replay() -> None:
    """Found by the state machine: replay read a resignation that follows a `clock_ran_out` as that timeout's
    consequence, which only a resignation *for time* is."""
    game = Game(("Ann", "Bob", "Cid"), turn_seconds=30, on_timeout="bot")
    game.do(deal3((G, P, B), (H, S)))
    game.do(SetClock(0, T0))
    game.do(TimeOut(0, T0 + 30_000))
    game.do(Resign(0, T0 + 30_001))
    assert [type(e).TYPE for e in game.events[-3:]] == ["clock_ran_out", "player_resigned", "turn_started"]
    result = check(game.events)
    assert result.problems == [] and result.state == game.state
