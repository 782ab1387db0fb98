"""Examples aimed at what `make mutation` found unguarded in `core/state.py`: the state's JSON, the state before any
event, immutability, equality and hashing, and the copier the fold works on.

`INITIAL` and the module's `_copy` are built once, when `core.state` is imported, so no other test ever calls
`initial_state()` or `_make_copier()` again: the tests below call them. Every expected value is written by hand.
"""

from __future__ import annotations

import pytest

from loveletter.core.cards import Card
from loveletter.core.rulesets import GuardUnknown, Options, Tie2012, get_ruleset
from loveletter.core.state import INITIAL, GameState, Transient, _make_copier, initial_state
from tests.helpers import PR, PS, B, G, H, K, P, S, start

CO = Card.COUNTESS

# Every field of the state before any event, as the JSON of `as_dict` (written from the docstrings: no game yet).
NO_GAME: dict[str, object] = {
    "ruleset": None,
    "options": {"tie_2012": "nobody", "guard_unknown": "refuse"},
    "players": [],
    "named_first_player": None,
    "scenario": False,
    "favors": [],
    "round": 0,
    "phase": "new",
    "active": -1,
    "deck": [],
    "drawn": 0,
    "set_aside": None,
    "face_up": [],
    "hands": [],
    "front": [],
    "out": [],
    "protected": [],
    "knows": [],
    "deck_known": [],
    "round_winners": [],
    "winners": [],
    "seq": 0,
    "seed_commitment": None,
    "seat_seeds": [],
    "server_seed": None,
    "resigned": [],
    "turn_seconds": None,
    "on_timeout": None,
    "deadline": None,
    "clock": 0,
    "aborted": False,
    "join_by": None,
}


def test_the_state_before_any_event_is_no_game_field_by_field() -> None:
    """`initial_state()` afresh (not the `INITIAL` built at import): every field, with its type (None is not "",
    False is not None, () is not None), frozen."""
    s = initial_state()
    assert type(s) is GameState
    assert s.ruleset is None and s.named_first_player is None and s.set_aside is None
    assert s.seed_commitment is None and s.server_seed is None
    assert s.turn_seconds is None and s.on_timeout is None and s.deadline is None
    assert s.scenario is False and s.aborted is False and s.join_by is None
    assert s.options == Options(Tie2012.NOBODY, GuardUnknown.REFUSE)
    for name in (
        "players", "favors", "deck", "face_up", "hands", "front", "out", "protected", "knows", "deck_known",
        "round_winners", "winners", "seat_seeds", "resigned",
    ):  # fmt: skip
        assert getattr(s, name) == () and type(getattr(s, name)) is tuple, name
    assert (s.round, s.drawn, s.seq, s.clock) == (0, 0, 0, 0)
    assert s.active == -1 and s.phase == "new"
    assert not s.started and not s.over and s.n_players == 0
    assert s.as_dict() == NO_GAME
    assert s == INITIAL and hash(s) == hash(INITIAL)


def _every_field_set() -> GameState:
    """A state with every field away from its default, built by hand (not a position a game reaches: a JSON
    example, where each field's value is told apart from every other's)."""
    s = initial_state().thaw()
    s.ruleset = get_ruleset("2012")
    s.options = Options(Tie2012.ALL, GuardUnknown.MISS)
    s.players = ("Ann", "Bob", "Cid")
    s.named_first_player = 2
    s.scenario = True
    s.favors = (1, 0, 2)
    s.round = 3
    s.phase = "chancellor"
    s.active = 1
    s.deck = (G, P, K)
    s.drawn = 4
    s.set_aside = PS
    s.face_up = (B, S)
    s.hands = ((G, K), (PR,), ())
    s.front = ((H,), (), (B, CO))
    s.out = (False, False, True)
    s.protected = (True, False, False)
    s.knows = ((None, PR, None), (None, None, None), (B, None, None))
    s.deck_known = ((), ((2, K), (0, G)), ())
    s.round_winners = (2,)
    s.winners = (0, 2)
    s.seq = 17
    s.seed_commitment = "c0ffee"
    s.seat_seeds = ("s0", None, "s2")
    s.server_seed = "5eed"
    s.resigned = (False, False, True)
    s.turn_seconds = 30
    s.on_timeout = "bot"
    s.deadline = (1, 1_700_000_030_000)
    s.clock = 1_700_000_000_000
    s.aborted = True
    s.join_by = 1_700_000_060_000
    return s.freeze()


def test_the_json_of_a_state_names_every_field_with_its_value() -> None:
    assert _every_field_set().as_dict() == {
        "ruleset": "2012",
        "options": {"tie_2012": "all", "guard_unknown": "miss"},
        "players": ["Ann", "Bob", "Cid"],
        "named_first_player": 2,
        "scenario": True,
        "favors": [1, 0, 2],
        "round": 3,
        "phase": "chancellor",
        "active": 1,
        "deck": ["guard", "prince", "king"],
        "drawn": 4,
        "set_aside": "princess",
        "face_up": ["baron", "spy"],
        "hands": [["guard", "king"], ["priest"], []],
        "front": [["handmaid"], [], ["baron", "countess"]],
        "out": [False, False, True],
        "protected": [True, False, False],
        "knows": [[None, "priest", None], [None, None, None], ["baron", None, None]],
        "deck_known": [[], [[2, "king"], [0, "guard"]], []],
        "round_winners": [2],
        "winners": [0, 2],
        "seq": 17,
        "seed_commitment": "c0ffee",
        "seat_seeds": ["s0", None, "s2"],
        "server_seed": "5eed",
        "resigned": [False, False, True],
        "turn_seconds": 30,
        "on_timeout": "bot",
        "deadline": [1, 1_700_000_030_000],
        "clock": 1_700_000_000_000,
        "aborted": True,
        "join_by": 1_700_000_060_000,
    }


def test_the_json_of_a_dealt_two_player_round() -> None:
    """2019, Ann and Bob, Ann first. The deal (RULINGS §2): Ann Guard, Bob Priest, a Handmaid on top of the draw
    pile; the helper fills the rest of the 21 cards in its order (5 Guards, Priest, Handmaid, Countess, 2 Barons,
    2 Spies, King, 2 Princes, 2 Chancellors, Princess), the first three face up, the last set aside. Ann's turn
    starts: she draws the Handmaid, and 14 cards are left (21 - 2 hands - 3 face up - 1 aside - 1 drawn)."""
    game = start("2019", 2)
    game.deal((G, PR), (H,))
    assert game.state.as_dict() == {
        "ruleset": "2019",
        "options": {"tie_2012": "nobody", "guard_unknown": "refuse"},
        "players": ["Ann", "Bob"],
        "named_first_player": 0,
        "scenario": False,
        "favors": [0, 0],
        "round": 1,
        "phase": "play",
        "active": 0,
        "deck": [
            "guard",
            "guard",
            "priest",
            "handmaid",
            "countess",
            "baron",
            "baron",
            "spy",
            "spy",
            "king",
            "prince",
            "prince",
            "chancellor",
            "chancellor",
        ],
        "drawn": 1,
        "set_aside": "princess",
        "face_up": ["guard", "guard", "guard"],
        "hands": [["guard", "handmaid"], ["priest"]],
        "front": [[], []],
        "out": [False, False],
        "protected": [False, False],
        "knows": [[None, None], [None, None]],
        "deck_known": [[], []],
        "round_winners": [],
        "winners": [],
        "seq": 3,  # game started, round started, turn started
        "seed_commitment": None,
        "seat_seeds": [None, None],
        "server_seed": None,
        "resigned": [False, False],
        "turn_seconds": None,
        "on_timeout": None,
        "deadline": None,
        "clock": 0,
        "aborted": False,
        "join_by": None,
    }


# RULINGS §1: players allowed and favors to win, by ruleset.
FAVORS_TO_WIN = {
    "2019": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
    "2019-classic": {2: 6, 3: 5, 4: 4},
    "2012": {2: 7, 3: 5, 4: 4},
    "princess-princess": {2: 6, 3: 5, 4: 4, 5: 3, 6: 3},
}
OPTIONS = [{}, {"tie_2012": "all"}, {"guard_unknown": "miss"}, {"tie_2012": "all", "guard_unknown": "miss"}]


@pytest.mark.parametrize("ruleset_id", list(FAVORS_TO_WIN))
def test_the_state_a_game_starts_in_for_every_ruleset_player_count_and_option(ruleset_id: str) -> None:
    """Right after `game_started` (RULINGS §1, §2, §11): the players seated, nobody holding a card or a favor,
    nobody out, protected or knowing anything, the options recorded (defaults `nobody` and `refuse`), and the
    game waiting for chance to deal its first round (round 0, no active player)."""
    rs = get_ruleset(ruleset_id)
    counts = sorted(FAVORS_TO_WIN[ruleset_id])
    assert (rs.min_players, rs.max_players) == (counts[0], counts[-1])
    assert dict(rs.favors_to_win) == FAVORS_TO_WIN[ruleset_id]
    for n in counts:
        for i, options in enumerate(OPTIONS):
            first = None if i % 2 else n - 1
            game = start(ruleset_id, n, options, first_player=first)
            names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:n]
            assert game.state.as_dict() == {
                **NO_GAME,
                "ruleset": ruleset_id,
                "options": {"tie_2012": "nobody", "guard_unknown": "refuse", **options},
                "players": names,
                "named_first_player": first,
                "favors": [0] * n,
                "phase": "deal",
                "hands": [[] for _ in names],
                "front": [[] for _ in names],
                "out": [False] * n,
                "protected": [False] * n,
                "knows": [[None] * n for _ in names],
                "deck_known": [[] for _ in names],
                "seq": 1,
                "seat_seeds": [None] * n,
                "resigned": [False] * n,
            }, (n, options)
            assert game.state.ruleset is rs and game.state.n_players == n


def test_winner_names_keep_every_seat_at_the_table_and_only_those() -> None:
    """Seats 0 and 2 of three are named, in the order of `winners`; 3 and -1 (a forged log's) are left out."""
    s = initial_state().thaw()
    s.players = ("Ann", "Bob", "Cid")
    s.winners = (2, 3, 0, -1)
    assert s.freeze().winner_names() == ("Cid", "Ann")


# -- immutability, equality, hashing ------------------------------------------------------------------------------


@pytest.mark.parametrize("state", [initial_state(), INITIAL, _every_field_set()], ids=["fresh", "INITIAL", "full"])
def test_a_state_can_be_neither_changed_nor_emptied(state: GameState) -> None:
    before = state.as_dict()
    with pytest.raises(AttributeError, match=r"^GameState is immutable \(tried to set seq\)$"):
        state.seq = 5
    with pytest.raises(AttributeError) as deleting:
        del state.seq
    assert str(deleting.value) == "GameState is immutable"
    with pytest.raises(AttributeError) as deleting:
        del state.players
    assert str(deleting.value) == "GameState is immutable"
    assert state.as_dict() == before


def _changed(state: GameState, **fields: object) -> GameState:
    s = state.thaw()
    for name, value in fields.items():
        setattr(s, name, value)
    return s.freeze()


def test_equal_states_hash_alike_and_each_changed_field_tells_them_apart() -> None:
    """Two states folded separately from the same events are equal and hash alike (a started state too: its
    ruleset holds mappings that cannot be hashed, so the hash leaves it out). A copy with one field changed is
    unequal, differs in that field's JSON only, and hashes differently from the original and from each other."""
    one, two = start("2019", 3), start("2019", 3)
    for game in (one, two):
        game.deal((G, PR, B), (H,))
    assert one.state is not two.state
    assert one.state == two.state and hash(one.state) == hash(two.state)
    assert (one.state != two.state) is False
    assert one.state != "a state" and (one.state == 3) is False

    base = one.state
    changes = {
        "seq": base.seq + 1,
        "round": 2,
        "active": 1,
        "drawn": 2,
        "clock": 5,
        "favors": (0, 1, 0),
        "protected": (False, True, False),
        "aborted": True,
    }
    hashes = {hash(base)}
    for name, value in changes.items():
        other = _changed(base, **{name: value})
        assert other != base, name
        differs = {k for k, v in other.as_dict().items() if base.as_dict()[k] != v}
        assert differs == {name}
        hashes.add(hash(other))
    assert len(hashes) == 1 + len(changes)


def test_the_ruleset_alone_tells_two_states_apart_and_both_still_hash() -> None:
    """Equality reads the ruleset; the hash leaves it out (its mappings cannot be hashed) but still works."""
    a = _every_field_set()
    b = _changed(a, ruleset=get_ruleset("2019"))
    assert a != b and a == _changed(a, ruleset=get_ruleset("2012"))
    assert isinstance(hash(a), int) and isinstance(hash(b), int)


# -- the copier ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("state", [initial_state(), _every_field_set()], ids=["no-game", "full"])
def test_a_fresh_copier_copies_every_field_into_a_new_transient(state: GameState) -> None:
    """`_make_copier()` builds the copier `thaw` uses; a copier built anew must copy all 32 slots, share each
    (immutable) value, and hand back a new `Transient` whose changes do not reach the original."""
    copy = _make_copier()
    new = copy(state)
    assert type(new) is Transient and new is not state
    assert len(GameState.__slots__) == 32
    for name in GameState.__slots__:
        assert getattr(new, name) is getattr(state, name), name
    before = state.as_dict()
    new.seq = 99
    new.players = ("Zoé",)
    assert state.as_dict() == before
    frozen = new.freeze()
    assert type(frozen) is GameState
    assert frozen.as_dict() == {**before, "seq": 99, "players": ["Zoé"]}
