"""A seat's view as clients receive it (`View.as_dict`, the body of GET /games/{id} and of every move's answer):
the whole JSON of one hand-built moment, written out by hand from the rules, field by field; and (RULINGS §10) the
exact JSON a seat receives of each event it may not fully see, so a renamed, lost or extra field fails."""

from __future__ import annotations

from typing import Any

import pytest

from loveletter.core.catalogue import (
    CardDrawn,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RoundStarted,
    TurnStarted,
)
from loveletter.core.commands import Abort, JoinSeat, PlayCard, Resign, ReturnCards, SetClock, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves_as_dicts
from loveletter.core.state import INITIAL
from loveletter.core.views import redact, view, visible_to
from loveletter.events.codec import encode
from tests.helpers import PR, PS, B, C, G, H, K, P, explicit_deal, position, start


def test_the_view_of_a_seat_that_has_seen_a_hand_is_exactly_this() -> None:
    # Ann (seat 0) plays the Priest on Bob and sees his Guard; Bob draws the Handmaid and it is his turn.
    game = start("2019", 2)
    game.deal((PR, G), (H, G), set_aside=G, face_up=(G, G, G))
    game.play(0, PR, 1)
    state = game.state
    ann = view(state, 0).as_dict()
    assert ann == {
        "seat": 0,
        "ruleset": "2019",
        "options": {"tie_2012": "nobody", "guard_unknown": "refuse"},
        "round": 1,
        "phase": "play",
        "active": 1,
        "deck_size": len(state.deck),
        "set_aside_face_down": True,
        "face_up": ["guard", "guard", "guard"],
        "seats": [
            {
                "seat": 0,
                "name": "Ann",
                "favors": 0,
                "in_round": True,
                "protected": False,
                "hand_size": 1,
                "front": ["priest"],
                "known_hand": None,
                "in_game": True,
                "open": False,
            },
            {
                "seat": 1,
                "name": "Bob",
                "favors": 0,
                "in_round": True,
                "protected": False,
                "hand_size": 2,
                "front": [],
                "known_hand": "guard",
                "in_game": True,
                "open": False,
            },
        ],
        "hand": ["handmaid"],
        "deck_known": [],
        # 21 cards less what Ann has seen: 3 face-up Guards, her Priest played, her Handmaid, Bob's known Guard
        "unseen": {
            "spy": 2,
            "guard": 2,
            "priest": 1,
            "baron": 2,
            "handmaid": 1,
            "prince": 2,
            "chancellor": 2,
            "king": 1,
            "countess": 1,
            "princess": 1,
        },
        "round_winners": [],
        "winners": [],
        "version": state.seq,
        "clock": None,
        "aborted": False,
    }
    assert len(state.deck) == 21 - 1 - 3 - 2 - 2  # set aside, face up, two hands, two draws
    spectator = view(state, None).as_dict()
    assert spectator["seat"] is None and spectator["hand"] == [] and spectator["deck_known"] == []
    assert [s["known_hand"] for s in spectator["seats"]] == [None, None]


def test_the_legal_moves_a_seat_receives_are_exactly_these() -> None:
    """Bob holds two Guards after Ann's Priest: a Guard on Ann naming any card but the Guard, each once, with the
    action code of docs/bots.md: (card slot 1 × 8 + target seat 0 + 1) × 11 + (guess slot + 1)."""
    game = start("2019", 2)
    game.deal((PR, G), (H, G), set_aside=G, face_up=(G, G, G))
    game.play(0, PR, 1)
    slots = ["spy", "guard", "priest", "baron", "handmaid", "prince", "chancellor", "king", "countess", "princess"]
    expected = [
        {
            "type": "play",
            "card": "guard",
            "target": 0,
            "target_name": "Ann",
            "guess": name,
            "action_code": (1 * 8 + 1) * 11 + slot + 1,
        }
        for slot, name in enumerate(slots)
        if name != "guard"
    ]
    assert legal_moves_as_dicts(game.state, 1) == expected
    assert legal_moves_as_dicts(game.state, 0) == []


# -- redacted events ------------------------------------------------------------------------------------------

SEQ = 7


def shown(event: Event, seat: int | None) -> dict[str, Any]:
    return redact(event, {**encode(event), "seq": SEQ}, seat)


# Round 2 of a 3-player game: Bob (seat 1) won round 1 and starts; Cid (seat 2) has left the game (no hand).
DEALT = RoundStarted(2, 1, "previous-winner", PS, (), (PR, K, None), (G, H, B, G))


@pytest.mark.parametrize(
    ("seat", "expected_hand"),
    [(0, {"hand": "priest"}), (1, {"hand": "king"}), (2, {"hand": None}), (None, {})],
)
def test_a_deal_shows_the_zones_sizes_and_only_the_viewers_own_hand(seat: int | None, expected_hand: dict) -> None:
    assert not visible_to(DEALT, seat)
    assert shown(DEALT, seat) == {
        "type": "round_started",
        "v": 1,
        "seq": SEQ,
        "round": 2,
        "first_player": 1,
        "first_player_rule": "previous-winner",
        "face_up": [],
        "deck_size": 4,
        **expected_hand,
    }


def test_a_redacted_event_keeps_only_the_fields_it_has() -> None:
    """An event given without its `seq` (as the audit reads one) is not given one."""
    assert redact(DEALT, encode(DEALT), None) == {
        "type": "round_started",
        "v": 1,
        "round": 2,
        "first_player": 1,
        "first_player_rule": "previous-winner",
        "face_up": [],
        "deck_size": 4,
    }


# Each private event of seat 0 (and seat 1 where two players share it), as the others see it.
PRIVATE: list[tuple[Event, set[int], dict[str, Any]]] = [
    (TurnStarted(0, G), {0}, {"type": "turn_started", "player": 0}),
    (CardDrawn(0, H, "deck"), {0}, {"type": "card_drawn", "player": 0, "source": "deck"}),
    (CardDrawn(0, PS, "set-aside"), {0}, {"type": "card_drawn", "player": 0, "source": "set-aside"}),
    (ChancellorDrew(0, (H, B)), {0}, {"type": "chancellor_drew", "player": 0, "count": 2}),
    (ChancellorDrew(0, (H,)), {0}, {"type": "chancellor_drew", "player": 0, "count": 1}),
    (ChancellorReturned(0, G, (B, H)), {0}, {"type": "chancellor_returned", "player": 0, "count": 2}),
    (ChancellorReturned(0, G, (B,)), {0}, {"type": "chancellor_returned", "player": 0, "count": 1}),
    # The Priest's target does not learn what was seen of their own hand: it is hidden from them too.
    (HandSeen(0, 1, K), {0}, {"type": "hand_seen", "player": 0, "target": 1}),
    (HandsCompared(0, 1, G, K), {0, 1}, {"type": "hands_compared", "player": 0, "target": 1}),
    (HandsTraded(0, 1, G, K), {0, 1}, {"type": "hands_traded", "player": 0, "target": 1}),
]


@pytest.mark.parametrize(("event", "sees", "hidden"), PRIVATE, ids=lambda x: type(x).__name__)
def test_a_private_event_is_whole_for_its_players_and_bare_for_the_others(
    event: Event, sees: set[int], hidden: dict[str, Any]
) -> None:
    full = {**encode(event), "seq": SEQ}
    for seat in (0, 1, 2, None):
        if seat in sees:
            assert visible_to(event, seat)
            assert shown(event, seat) == full
        else:
            assert not visible_to(event, seat)
            assert shown(event, seat) == {"v": 1, "seq": SEQ, **hidden}


def test_a_public_event_is_whole_for_everybody() -> None:
    out = PlayerEliminated(1, (K,), G)
    for seat in (0, 1, None):
        assert visible_to(out, seat)
        assert shown(out, seat) == {**encode(out), "seq": SEQ}


# -- the other parts of a view -------------------------------------------------------------------------------------


def test_a_view_is_refused_before_the_game_and_for_a_seat_that_is_not_there() -> None:
    with pytest.raises(ValueError, match=r"^no game yet$"):
        view(INITIAL, None)
    state = start("2019", 2).state
    for seat in (2, -1):
        with pytest.raises(ValueError, match=rf"^no seat {seat}$"):
            view(state, seat)
    assert view(state, 1).seat == 1


def test_the_cards_a_chancellor_put_back_are_known_to_their_player_until_drawn() -> None:
    """Ann's Chancellor draws the deck's last two cards and puts the Handmaid then the Baron back under it; Bob
    (who discarded the other Baron earlier) draws the Handmaid: Ann knows the Baron is now the top card, and counts
    it as seen; Bob knows nothing of it."""
    state = position(((C, G), (PR,)), (H, B), set_aside=K, front=((), (B,)))
    state = fold(decide(state, PlayCard(0, C)), state)
    state = fold(decide(state, ReturnCards(0, G, (H, B))), state)
    assert state.active == 1 and state.deck == (B,)
    ann, bob = view(state, 0), view(state, 1)
    assert ann.as_dict()["deck_known"] == [{"from_top": 0, "card": "baron"}]
    assert bob.as_dict()["deck_known"] == []
    # Ann has seen her Chancellor, her Guard, Bob's discarded Baron and the Baron on the deck: no Baron is unseen
    # to her; Bob has seen only the discarded one of the two
    assert (ann.unseen[B], ann.unseen[C], ann.unseen[G]) == (0, 1, 5)
    assert (bob.unseen[B], bob.unseen[C], bob.unseen[PR]) == (1, 1, 1)


def test_a_clocked_game_with_an_open_seat_a_resignation_and_an_abort() -> None:
    t0 = 1_790_000_000_000
    state = fold(
        decide(INITIAL, StartGame("2019", ("Ann", "", "Cid"), open_seats=(1,), turn_seconds=30, on_timeout="bot"))
    )
    waiting = view(state, None).as_dict()
    assert (waiting["active"], waiting["set_aside_face_down"], waiting["round"]) == (None, False, 0)
    assert [(s["name"], s["open"], s["in_game"]) for s in waiting["seats"]] == [
        ("Ann", False, True),
        ("", True, True),
        ("Cid", False, True),
    ]
    assert waiting["clock"] == {"turn_seconds": 30, "on_timeout": "bot", "deadline": None}
    state = fold(decide(state, JoinSeat(1, "Bob", t0)), state)
    state = fold(decide(state, explicit_deal(state, (G, PR, B), (H,), first_player=0)), state)
    state = fold(decide(state, SetClock(0, t0 + 1)), state)
    ann = view(state, 0).as_dict()
    assert ann["clock"] == {"turn_seconds": 30, "on_timeout": "bot", "deadline": {"seat": 0, "at": t0 + 30_001}}
    assert (ann["active"], ann["set_aside_face_down"]) == (0, True)
    state = fold(decide(state, Resign(2, t0 + 2)), state)
    state = fold(decide(state, Abort(t0 + 3)), state)
    over = view(state, 1).as_dict()
    assert [s["in_game"] for s in over["seats"]] == [True, True, False]
    assert (over["aborted"], over["phase"], over["winners"]) == (True, "over", [])


def test_the_set_aside_card_stops_lying_face_down_once_a_prince_makes_someone_draw_it() -> None:
    state = position(((P, G), (PR,)), (), set_aside=K)
    assert view(state, 0).set_aside_face_down
    state = fold(decide(state, PlayCard(0, P, 1)), state)  # the deck is empty: Bob draws the set-aside King
    assert state.set_aside is None
    assert not view(state, 0).set_aside_face_down and not view(state, None).set_aside_face_down


def test_a_trade_after_a_priest_shows_each_trader_what_they_know_but_never_their_own_hand_as_known() -> None:
    """Ann's Priest sees Bob's Guard, Bob's Priest sees Ann's King; Ann's King trades her Handmaid for that Guard.
    Ann knows Bob now holds the Handmaid; Bob knows Ann holds the Guard; neither is shown their own hand as a known
    card (Ann's knowledge of the Guard is now of her own hand)."""
    game = start("2019", 2)
    game.deal((PR, G), (K, PR, H))
    game.play(0, PR, 1)
    game.play(1, PR, 0)
    game.play(0, K, 1)
    ann, bob = view(game.state, 0), view(game.state, 1)
    assert [s.known_hand for s in ann.seats] == [None, H]
    assert [s.known_hand for s in bob.seats] == [G, None]
    # seen by Ann: the three face-up Guards, both Priests and her King played, her Guard, Bob's Handmaid (known)
    assert ann.as_dict()["unseen"] == {
        "spy": 2,
        "guard": 2,
        "priest": 0,
        "baron": 2,
        "handmaid": 1,
        "prince": 2,
        "chancellor": 2,
        "king": 0,
        "countess": 1,
        "princess": 1,
    }
