"""A seat's view as clients receive it (`View.as_dict`, the body of GET /games/{id} and of every move's answer):
the whole JSON of one hand-built moment, written out by hand from the rules, field by field."""

from __future__ import annotations

from loveletter.core.legal import legal_moves_as_dicts
from loveletter.core.views import view
from tests.helpers import PR, G, H, start


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
