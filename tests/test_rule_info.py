"""RULINGS §10: what each seat may know."""

from __future__ import annotations

from loveletter.core.catalogue import CardDrawn, ChancellorDrew, ChancellorReturned, HandSeen, RoundStarted, TurnStarted
from loveletter.core.views import redact, view, visible_to
from loveletter.events.codec import encode
from tests.helpers import CO, PR, PS, B, C, G, H, K, P, S, start


def test_info_views__a_seat_sees_its_own_hand_and_public_facts_only() -> None:
    game = start("2019", 2)
    game.deal([G, PR], [H], set_aside=PS, face_up=[K, C, C])
    ann, bob, spectator = view(game.state, 0), view(game.state, 1), view(game.state, None)
    assert ann.hand == (G, H) and bob.hand == (PR,) and spectator.hand == ()
    for v in (ann, bob, spectator):
        assert v.face_up == (K, C, C) and v.deck_size == len(game.state.deck)
        assert all(s.known_hand is None for s in v.seats)
        assert "princess" not in str(v.as_dict()["hand"]) or v.seat is None
    assert ann.seats[1].hand_size == 1 and bob.seats[0].hand_size == 2
    assert "deck" not in ann.as_dict() and "set_aside" not in ann.as_dict()


def test_info_views__the_deck_order_and_the_face_down_card_are_redacted_from_the_deal() -> None:
    game = start("2019", 3)
    events = game.deal([G, PR, B], [H, S, CO], set_aside=PS)
    started = events[0]
    assert isinstance(started, RoundStarted) and not visible_to(started, 0) and not visible_to(started, None)
    for seat in (0, 1, 2, None):
        shown = redact(started, encode(started), seat)
        assert "deck" not in shown and "set_aside" not in shown and "hands" not in shown
        assert shown["deck_size"] == len(started.deck)
        assert shown.get("hand") == (started.hands[seat].value if seat is not None else None)


def test_info_views__a_drawn_card_is_seen_by_its_player_only() -> None:
    game = start("2019", 3)
    events = game.deal([P, G, B], [H, K])
    turn = events[-1]
    assert isinstance(turn, TurnStarted) and visible_to(turn, 0)
    for seat in (1, 2, None):
        assert "card" not in redact(turn, encode(turn), seat)
    events = game.play(0, P, 1)
    (drawn,) = (e for e in events if isinstance(e, CardDrawn))
    assert redact(drawn, encode(drawn), 1) == encode(drawn)
    assert "card" not in redact(drawn, encode(drawn), 0)


def test_info_views__priest_and_chancellor_knowledge_is_private() -> None:
    game = start("2019", 3)
    game.deal([C, K, G], [PR, G, H, G, S])
    game.play(0, PR, 1)
    seen = game.last[1]
    assert isinstance(seen, HandSeen)
    assert "card" not in redact(seen, encode(seen), 1) and "card" not in redact(seen, encode(seen), None)
    game.play(1, G, 2, PR)
    game.play(2, G, 0, PR)
    events = game.play(0, C)
    drew = events[-1]
    assert isinstance(drew, ChancellorDrew) and "cards" not in redact(drew, encode(drew), 1)
    hand = game.hand(0)
    events = game.give_back(0, hand[0], *hand[:0:-1])
    returned = events[0]
    assert isinstance(returned, ChancellorReturned)
    assert "bottom" not in redact(returned, encode(returned), 2) and "kept" not in redact(returned, encode(returned), 2)
    ann = view(game.state, 0)
    assert ann.seats[1].known_hand is None or ann.seats[1].known_hand in game.hand(1)
    assert len(ann.deck_known) == 2
    for pos, card in ann.deck_known:
        assert game.state.deck[pos] == card
    assert view(game.state, 1).deck_known == () and view(game.state, None).deck_known == ()


def test_info_views__unseen_never_counts_a_card_twice_after_a_king_trade() -> None:
    """Ann's Priest saw Bob's Princess, then Ann's King took it: she holds the only Princess, none is unseen."""
    game = start("2019", 3)
    game.deal([PR, PS, G], [K, G, G, G])
    game.play(0, PR, 1)  # Ann sees the Princess
    game.play(1, G, 2, PR)
    game.play(2, G, 0, PR)
    assert game.hand(0) == (K, G)
    game.play(0, K, 1)  # Ann gives her Guard and takes the Princess
    assert game.hand(0) == (PS,)
    ann = view(game.state, 0)
    assert ann.seats[1].known_hand == G
    assert ann.unseen[PS] == 0, f"Ann is told {ann.unseen[PS]} Princess(es) unseen"
    assert all(k >= 0 for k in ann.unseen.values())
