"""Examples aimed at what `make mutation` found unguarded in `core/`: paths the other tests never take.

Each test says which path it covers and why no other test does; expected values come from the rules or from a
second, independent computation, never from the code under test.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import random
from collections.abc import Callable, Iterator
from itertools import permutations
from typing import Any

import pytest

from loveletter.core.card_effects import _plainly_legal, _same_hand
from loveletter.core.cards import TARGETS_OTHER, Card
from loveletter.core.catalogue import (
    CardPlayed,
    ClockRanOut,
    FavorGained,
    GameAborted,
    GameEnded,
    PlayerResigned,
    RoundEnded,
    SeedRevealed,
    Shuffle,
    TurnStarted,
)
from loveletter.core.chance import SeedStream, deal, round_message, round_seed
from loveletter.core.commands import (
    Abort,
    Command,
    ContributeSeed,
    DealRound,
    PlayCard,
    Resign,
    ReturnCards,
    RevealSeed,
    SetClock,
    StartGame,
    TimeOut,
)
from loveletter.core.decide import decide, first_player_candidates
from loveletter.core.evolve import apply, apply_all, evolve, fold
from loveletter.core.lang import (
    BilingualError,
    Text,
    de,
    elides,
    lang_of,
    le,
    number,
    os_error,
    percent,
    plural,
    plural_en,
    plural_fr,
    que,
)
from loveletter.core.legal import (
    action_code,
    from_action_code,
    legal_codes,
    legal_move_tuple,
    legal_moves,
    legal_moves_as_dicts,
)
from loveletter.core.memo import forget_all, table
from loveletter.core.move_checks import check_play, check_return, valid_targets
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, GameState
from loveletter.core.views import view
from tests.helpers import PR, PS, B, C, G, Game, H, K, P, S, explicit_deal, finished, position, start


def _a_short_game_log() -> list:
    game = start("2019", 2)
    game.deal((G, PR), (H,))
    game.play(0, G, 1, PR)  # Ann's Guard names Bob's Priest: Bob is out, Ann wins the round
    return game.log


def test_apply_one_event_at_a_time_reaches_the_state_fold_reaches() -> None:
    """`evolve.apply` (the audit's and the simulator's one-event path) counts each event as `fold` does."""
    log = _a_short_game_log()
    s = INITIAL.thaw()
    for i, event in enumerate(log, start=1):
        apply(s, event)
        assert s.seq == i
    assert s.freeze() == fold(log)
    assert fold(log).seq == len(log)


def test_apply_all_counts_the_events_of_any_iterable() -> None:
    """A generator takes `apply_all`'s general path, a list or tuple its quick one: both count every event."""
    log = _a_short_game_log()
    for events in (iter(log), (e for e in log), tuple(log), list(log)):
        s = INITIAL.thaw()
        apply_all(s, events)
        assert s.seq == len(log)
        assert s.freeze() == fold(log)


def test_evolve_counts_one_and_leaves_its_input_alone() -> None:
    log = _a_short_game_log()
    state = INITIAL
    for i, event in enumerate(log, start=1):
        before = state.as_dict()
        after = evolve(state, event)
        assert state.as_dict() == before
        assert after.seq == i
        state = after
    assert state == fold(log)


# -- the full checks and the quick paths agree with the legal-move list ------------------------------------------


def _decisions(ruleset: str, players: int, options: dict[str, str], seed: int) -> Iterator[GameState]:
    """Every state of one random game (seeded) where a player has a decision to make."""
    rng = random.Random(seed)
    names = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")[:players]
    state = fold(decide(INITIAL, StartGame(ruleset, names, options)))
    while not state.over:
        if state.phase == "deal":
            deck = list(state.ruleset.deck)  # type: ignore[union-attr]
            rng.shuffle(deck)
            up = 3 if players == 2 else 0
            command: Command = DealRound(
                deck[0],
                tuple(deck[1 : 1 + up]),
                tuple(deck[1 + up : 1 + up + players]),
                tuple(deck[1 + up + players :]),
                rng.choice(first_player_candidates(state)[0]),
            )
        else:
            yield state
            command = rng.choice(legal_moves(state, state.active))
        state = fold(decide(state, command), state)


GAMES = [("2019", 2, {}, 1), ("2019", 5, {}, 2), ("2012", 3, {"guard_unknown": "miss"}, 3), ("2019-classic", 4, {}, 4)]


def _refused(check: Callable[[GameState, Any], None], state: GameState, move: object) -> bool:
    try:
        check(state, move)
    except RuleViolation:
        return True
    return False


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}")
def test_the_full_checks_refuse_exactly_what_the_legal_moves_leave_out(game: tuple) -> None:
    """`move_checks.check_play` / `check_return` judge every play a quick path accepts first (`card_effects`), so
    a check they alone get wrong is invisible through `decide`: here they are asked directly, for the listed moves
    and for a spread of others, and must refuse exactly the unlisted ones."""
    states = 0
    for state in _decisions(*game):
        states += 1
        p = state.active
        legal = set(legal_moves(state, p))
        if state.phase == "chancellor":
            hand = state.hands[p]
            tried = {
                ReturnCards(p, keep, tuple(rest)) for keep in set(hand) for rest in permutations(hand, len(hand) - 1)
            }
            tried |= {ReturnCards(p, hand[0], ()), ReturnCards(p, hand[0], tuple(hand))}
            assert {m for m in tried if not _refused(check_return, state, m)} == legal & tried
            assert legal <= tried
            continue
        cards = {*state.hands[p], Card.GUARD, Card.KING}
        targets = (None, *range(len(state.players)), 9)
        guesses = (None, Card.GUARD, Card.PRIEST, Card.CHANCELLOR, Card.PRINCESS)
        tried = {PlayCard(p, c, t, g) for c in cards for t in targets for g in guesses}
        accepted = {m for m in tried if not _refused(check_play, state, m)}
        assert accepted == {m for m in legal if m.guess in guesses}  # type: ignore[union-attr]
    assert states > 20


@pytest.mark.parametrize("game", GAMES, ids=lambda g: f"{g[0]}-{g[1]}")
def test_the_quick_paths_take_every_legal_move_and_no_illegal_one(game: tuple) -> None:
    """`card_effects._plainly_legal` and `_same_hand` never pass an illegal move, and send no legal one to the full
    check: a targeting card is played with no target only when every other player is protected or out."""
    for state in _decisions(*game):
        p = state.active
        for move in legal_moves(state, p):
            if isinstance(move, ReturnCards):
                assert _same_hand(move.keep, move.bottom, state.hands[p])
                continue
            assert _plainly_legal(state, p, move.card, move.target, move.guess)
        for card in set(state.hands[p]) & TARGETS_OTHER:
            if valid_targets(state, p, card):
                assert not _plainly_legal(state, p, card, None, None)
        for other in range(len(state.players)):
            if other != p:
                assert not any(_plainly_legal(state, other, c, t, None) for c in Card for t in (None, p))


def test_valid_targets_of_every_card_kind() -> None:
    """`valid_targets` answers for any card (`replays.rulings` asks it of the Prince too, which `check_play` never
    does): Bob is out, Cid protected, so only Dee may be chosen — and, by the Prince only, the player themself."""
    state = position(
        ((G,), (), (PR,), (P, B)),
        (K,),
        set_aside=C,
        players=("Ann", "Bob", "Cid", "Dee"),
        active=3,
        front=((), (G,), (H,), ()),
        out=(False, True, False, False),
        protected=(False, False, True, False),
    )
    assert valid_targets(state, 3, Card.PRINCE) == (0, 3)  # in seat order, the player among them
    assert valid_targets(state, 0, Card.PRINCE) == (0, 3)
    for card in (Card.GUARD, Card.PRIEST, Card.BARON, Card.KING):
        assert valid_targets(state, 3, card) == (0,)
        assert valid_targets(state, 0, card) == (3,)
    for card in (Card.SPY, Card.HANDMAID, Card.CHANCELLOR, Card.COUNTESS, Card.PRINCESS):
        assert valid_targets(state, 3, card) == ()


# -- a log cut in the middle of a move ---------------------------------------------------------------------------


def test_a_log_cut_inside_a_move_stops_in_the_resolving_phase() -> None:
    """`state.PHASE_RESOLVING`: the events of one command, folded only in part (a log prefix cut mid-move), leave
    the game between decisions — after a deal before the first draw, after a card or a Chancellor's return before
    the next turn, after the player to move resigned."""
    game = start("2019", 3)
    dealt = game.deal((G, PR, B), (C, H, K, G))
    assert fold(dealt[:1], fold(game.log[: -len(dealt)])).phase == "resolving"
    before = game.state
    played = game.play(0, C)
    assert game.state.phase == "chancellor"
    assert fold(played[:1], before).phase == "resolving"
    before = game.state
    returned = game.give_back(0, G, H, K)
    assert [type(e).__name__ for e in returned] == ["ChancellorReturned", "TurnStarted"]
    assert fold(returned[:1], before).phase == "resolving"
    assert game.state.phase == "play" and game.state.active == 1
    before = game.state
    left = game.do(Resign(1, 1))
    assert fold(left[:1], before).phase == "resolving"
    assert game.state.phase == "play" and game.state.active == 2


def test_a_protected_player_who_resigns_is_no_longer_protected() -> None:
    """RULINGS §12: a seat that leaves is out of the round; the Handmaid's protection goes with it (it would
    otherwise still show in every view, and a protected seat counts in the targets' checks)."""
    game = start("2019", 3)
    game.deal((G, H, B), (PR, G, K))
    game.play(0, G, 2, PR)  # a miss: Cid holds the Baron
    game.play(1, H)
    assert game.state.protected == (False, True, False)
    game.do(Resign(1, 1))
    assert game.state.out == (False, True, False)
    assert game.state.protected == (False, False, False)
    assert [s.protected for s in view(game.state, 0).seats] == [False, False, False]


def test_a_memo_table_starts_empty_and_is_emptied_by_forget_all() -> None:
    """`core.memo`: every table is made at import, before mutmut forks a planted bug, so only a table made here
    runs `table`'s own code under test."""
    memo = table()
    assert memo == {}
    memo["key"] = "value"
    forget_all()
    assert memo == {}


# -- the accepted side of each edge ------------------------------------------------------------------------------


def test_the_edges_a_rule_accepts() -> None:
    """The refusal rows (`test_refusal_codes.py`) stand one step past each edge; here is the step before it."""
    t0 = 1_790_000_000_000
    for seconds, on_timeout in ((1, "resign"), (604_800, "bot")):
        decide(INITIAL, StartGame("2019", ("Ann", "Bob"), first_player=1, turn_seconds=seconds, on_timeout=on_timeout))
    decide(INITIAL, StartGame("2019", ("Ann", "Bob", ""), open_seats=(2,)))
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), first_player=0, turn_seconds=30, on_timeout="bot")))
    assert decide(state, ContributeSeed(1, "0123456789abcdef" * 4))
    state = fold(decide(state, explicit_deal(state, (G, PR), (H,))), state)
    state = fold(decide(state, SetClock(0, t0)), state)
    (ran_out,) = decide(state, TimeOut(0, t0 + 30_000))  # at the deadline exactly: not early
    assert ran_out == ClockRanOut(0, t0 + 30_000)
    assert decide(state, Abort(t0)) == (GameAborted(t0),)  # the same millisecond as the last one: not backwards


def test_the_server_seed_is_revealed_once_the_game_is_over() -> None:
    state, server = finished(with_commitment=True, seed=3)
    assert decide(state, RevealSeed(server.hex())) == (SeedRevealed(server.hex()),)
    state = fold(decide(state, RevealSeed(server.hex())), state)
    assert state.server_seed == server.hex()


# -- action codes and the shared answers of `core.legal` ----------------------------------------------------------


def test_the_action_code_of_a_return_of_one_card_and_of_two() -> None:
    """docs/bots.md: 1000 + keep_slot × 121 + (b0 + 1) × 11 + (b1 + 1), -1 for an absent card; slots in the
    ruleset-independent order spy 0, guard 1, priest 2, baron 3, handmaid 4, …"""
    one = ReturnCards(0, G, (H,))
    two = ReturnCards(0, G, (H, B))
    assert action_code(one) == 1000 + 1 * 121 + 5 * 11 + 0 == 1176
    assert action_code(two) == 1000 + 1 * 121 + 5 * 11 + 4 == 1180
    assert from_action_code(1176, 0) == one and from_action_code(1180, 0) == two


def test_a_seat_given_as_a_bool_is_never_served_the_int_seats_command() -> None:
    """The command table is keyed by (code, seat), where True == 1: a bool seat or code must not be remembered, or
    seat 1 would later be answered with `player=True`."""
    forget_all()
    code = action_code(PlayCard(1, Card.PRIEST, 0))
    assert type(from_action_code(code, True).player) is bool  # type: ignore[arg-type]
    assert type(from_action_code(code, 1).player) is int
    forget_all()
    assert type(from_action_code(True, 1).player) is int  # type: ignore[arg-type]
    assert from_action_code(1, 1) == from_action_code(True, 1)  # type: ignore[arg-type]


def test_legal_answers_are_shared_values() -> None:
    """`legal_move_tuple` and `from_action_code` promise shared, immutable answers (the simulator's and the bots'
    hot paths build nothing): asked twice, they give the same objects."""
    game = start("2019", 2)
    game.deal((G, PR), (H,))
    state = game.state
    assert legal_move_tuple(state, 0) is legal_move_tuple(state, 0)
    assert legal_codes(state, 0) is legal_codes(state, 0)
    assert legal_move_tuple(state, 0)[0] is from_action_code(legal_codes(state, 0)[0], 0)
    game.play(0, G, 1, PR)
    game.deal((C, PR), (G, H, B))
    game.play(0, C)
    chancellor = game.state
    assert legal_move_tuple(chancellor, 0) is legal_move_tuple(chancellor, 0)
    assert len(legal_move_tuple(chancellor, 0)) == 6  # keep one of three, the other two in either order


# -- core.lang: the tools every bilingual sentence uses ------------------------------------------------------------


def test_french_elision_articles_and_plurals() -> None:
    assert (de("Alice"), de("Bob"), de("Hélène"), de("Yves"), de("Éric")) == (
        "d'Alice",
        "de Bob",
        "d'Hélène",
        "d'Yves",
        "d'Éric",
    )
    assert (que("Alice"), que("Bob")) == ("qu'Alice", "que Bob")
    assert (le("Baron"), le("Comtesse", feminine=True), le("Espionne", feminine=True), le("Ogre")) == (
        "le Baron",
        "la Comtesse",
        "l'Espionne",
        "l'Ogre",
    )
    assert not elides("") and de("") == "de "
    assert [plural_fr(n, "carte", "cartes") for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]
    assert [plural_en(n, "card", "cards") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]


def test_a_language_tag_is_french_or_english() -> None:
    assert [lang_of(tag) for tag in ("fr", "fr-CA", "FR", " fr-be ", "en", "en-GB", "de", "", None)] == [
        "fr",
        "fr",
        "fr",
        "fr",
        "en",
        "en",
        "en",
        "en",
        "en",
    ]
    assert Text("hello", "bonjour")("fr") == "bonjour" and Text("hello", "bonjour")("en") == "hello"


def test_numbers_and_plurals_as_each_language_writes_them() -> None:
    nnbsp, nbsp = "\u202f", "\u00a0"  # French groups digits with the narrow one, and sets % off with the other
    assert number(12345.6, "fr", 1) == f"12{nnbsp}345,6" and number(12345.6, "en", 1) == "12,345.6"
    assert number(1234567) == "1,234,567" and number(0.5, "fr", 2) == "0,50"
    assert percent(0.823, "fr") == f"82,3{nbsp}%" and percent(0.823) == "82.3%" and percent(0.5, "en", 0) == "50%"
    # French counts 0 and 1 (and 1.5) as one; English only 1
    assert [plural_fr(n, "carte", "cartes") for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]
    assert [plural_en(n, "card", "cards") for n in (0, 1, 2)] == ["0 cards", "1 card", "2 cards"]
    assert plural(12345, "carte", "cartes", "fr") == f"12{nnbsp}345 cartes"
    assert plural(12345, "card", "cards", "en") == "12,345 cards"


def test_a_bilingual_error_and_an_os_error_in_both_languages() -> None:
    both = BilingualError(Text("no such game", "partie introuvable"))
    assert str(both) == both.message() == "no such game" and both.message("fr") == "partie introuvable"
    plain = BilingualError("only English yet")
    assert plain.text == Text("only English yet", "only English yet") and str(plain) == "only English yet"
    assert os_error(FileNotFoundError(errno.ENOENT, "No such file or directory")) == Text(
        "No such file or directory", "fichier ou dossier introuvable"
    )
    assert os_error(OSError(errno.EACCES, "Permission denied")) == Text("Permission denied", "permission refusée")
    unlisted = os_error(OSError(errno.EPIPE, "Broken pipe"))
    assert unlisted == Text("Broken pipe", f"erreur du système (code {errno.EPIPE})")
    assert os_error(OSError("disk on fire")) == Text("disk on fire", "erreur du système")


# -- core.chance against the algorithm as docs/shuffle.md and the module's docstring write it ----------------------


def _words(seed: bytes) -> Iterator[int]:
    """HMAC-SHA256(key=seed, msg=counter as 8-byte big-endian), counter from 0, read as 32-bit big-endian words."""
    counter = 0
    while True:
        block = hmac.new(seed, counter.to_bytes(8, "big"), hashlib.sha256).digest()
        counter += 1
        for k in range(0, 32, 4):
            yield int.from_bytes(block[k : k + 4], "big")


def _below(words: Iterator[int], bound: int) -> int:
    limit = 2**32 - 2**32 % bound
    while (word := next(words)) >= limit:
        pass
    return word % bound


def _shuffled(words: Iterator[int], items: list) -> list:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _below(words, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


SEEDS = [hashlib.sha256(f"seed {i}".encode()).digest() for i in range(8)]


@pytest.mark.parametrize("seed", SEEDS, ids=range(8))
def test_the_seed_stream_is_the_documented_algorithm(seed: bytes) -> None:
    """The deal's inlined loop (fewer than 64 items, up to that edge), the general loop (64 or more) and `below` for
    small, large and rejection-heavy bounds (2**31 + 1 rejects almost one word in two) all read the same stream."""
    for items in (list(range(21)), list(range(63)), list(range(64)), list(range(100))):
        assert SeedStream(seed).shuffled(items) == _shuffled(_words(seed), items)
    ours, theirs = SeedStream(seed), _words(seed)
    for bound in (1, 2, 5, 21, 63, 64, 1000, 2**31 + 1, 2**31 + 1, 7):
        assert ours.below(bound) == _below(theirs, bound)
    mixed, reference = SeedStream(seed), _words(seed)  # a shuffle after draws continues the same stream
    assert [mixed.below(3), mixed.shuffled(list(range(21)))] == [
        _below(reference, 3),
        _shuffled(reference, list(range(21))),
    ]


def test_a_seed_is_32_bytes_and_a_deal_needs_a_game() -> None:
    with pytest.raises(ValueError, match=r"^a seed is 32 bytes, not 5$"):
        SeedStream(b"short")
    with pytest.raises(ValueError, match=r"^no game to deal for$"):
        deal(INITIAL, SEEDS[0])


def _reference_deal(state: GameState, seed: bytes, first_candidates: tuple[int, ...]) -> DealRound:
    """RULINGS §2 and docs/shuffle.md: shuffle, draw the first player among the candidates (no draw for one), set
    one card aside, three face up when two play, then one card per seat still in the game from the first player on."""
    words = _words(seed)
    order = _shuffled(words, list(state.ruleset.deck))  # type: ignore[union-attr]
    first = first_candidates[_below(words, len(first_candidates))] if len(first_candidates) > 1 else first_candidates[0]
    seats = [i for i in range(len(state.players)) if not state.resigned[i]]
    start = 4 if len(seats) == 2 else 1
    hands: list[Card | None] = [None] * len(state.players)
    turn = seats[seats.index(first) :] + seats[: seats.index(first)]
    for k, seat in enumerate(turn):
        hands[seat] = order[start + k]
    return DealRound(
        order[0],
        tuple(order[1:4]) if len(seats) == 2 else (),
        tuple(hands),
        tuple(order[start + len(seats) :]),
        first,
        Shuffle("hmac-sha256-fy/1", seed.hex()),
    )


def test_a_deal_from_a_seed_is_the_documented_one() -> None:
    two = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"))))
    four = fold(decide(INITIAL, StartGame("2012", ("Ann", "Bob", "Cid", "Dee"), first_player=2)))
    game = start("2019", 3)
    game.deal((G, PR, B), (H, K))
    game.do(Resign(1, 1))
    game.play(0, G, 2, B)  # Cid is out: Ann wins round 1, Bob has left — round 2 is dealt to Ann and Cid only
    for seed in SEEDS:
        assert deal(two, seed) == _reference_deal(two, seed, (0, 1))
        assert deal(four, seed) == _reference_deal(four, seed, (2,))
        assert deal(game.state, seed) == _reference_deal(game.state, seed, (0,))
        assert deal(game.state, seed).hands[1] is None and len(deal(game.state, seed).face_up) == 3


def test_every_action_code_decodes_to_the_command_it_encodes_or_is_refused() -> None:
    """docs/bots.md's codes are a bijection on the commands they name: each code below 1000 + 10 × 121 either
    names a command whose code is itself, or is refused with the code in its message; a return names no second
    returned card without a first, and a return of no card at all keeps its own code (1000 + keep × 121)."""
    named = 0
    for code in range(-1, 1000 + 10 * 121 + 1):
        try:
            command = from_action_code(code, 3)
        except ValueError as refused:
            assert str(refused) == f"no action has code {code}"
            continue
        named += 1
        assert action_code(command) == code and command.player == 3
    # plays: 10 cards × 8 targets × 11 guesses; returns: 10 kept × (1 + 10 + 10 × 10) bottoms
    assert named == 10 * 8 * 11 + 10 * (1 + 10 + 100)
    assert from_action_code(1000, 0) == ReturnCards(0, Card.SPY, ())
    assert action_code(ReturnCards(0, G, ())) == 1000 + 121


def test_the_legal_moves_of_a_chancellor_decision_are_exactly_these() -> None:
    """Ann keeps one of the Guard, the Handmaid and the Baron and returns the other two in either order (top first):
    code 1000 + keep × 121 + (first + 1) × 11 + (second + 1), slots guard 1, baron 3, handmaid 4."""
    game = start("2019", 2)
    game.deal((G, PR), (C, H, B))
    game.play(0, C)
    expected = [
        ("guard", ["handmaid", "baron"], 1000 + 121 + 5 * 11 + 4),
        ("guard", ["baron", "handmaid"], 1000 + 121 + 4 * 11 + 5),
        ("handmaid", ["guard", "baron"], 1000 + 4 * 121 + 2 * 11 + 4),
        ("handmaid", ["baron", "guard"], 1000 + 4 * 121 + 4 * 11 + 2),
        ("baron", ["guard", "handmaid"], 1000 + 3 * 121 + 2 * 11 + 5),
        ("baron", ["handmaid", "guard"], 1000 + 3 * 121 + 5 * 11 + 2),
    ]
    assert legal_moves_as_dicts(game.state, 0) == [
        {"type": "return", "keep": keep, "bottom": bottom, "action_code": code} for keep, bottom, code in expected
    ]
    assert legal_moves_as_dicts(game.state, 1) == []


# -- RULINGS §12, leaving the table: the exact events of each case --------------------------------------------------

T = 1_790_000_000_000


def _three() -> Game:
    """Ann holds the Guard and the Handmaid (her turn), Bob the Priest, Cid the Baron; the King is next."""
    game = start("2019", 3)
    game.deal((G, PR, B), (H, K), set_aside=PS)
    return game


def test_the_player_to_move_resigns_and_the_turn_passes() -> None:
    game = _three()
    assert game.do(Resign(0, T)) == (PlayerResigned(0, (G, H), "resigned", T), TurnStarted(1, K))


def test_another_player_resigns_and_the_turn_stays() -> None:
    game = _three()
    assert game.do(Resign(2, T)) == (PlayerResigned(2, (B,), "resigned", T),)
    assert game.state.active == 0 and game.state.out == (False, False, True)


def test_the_last_opponent_resigns_and_the_last_one_left_wins_round_and_game() -> None:
    game = start("2019", 2)
    game.deal((G, PR), (H,), set_aside=PS)
    assert game.do(Resign(1, T)) == (
        PlayerResigned(1, (PR,), "resigned", T),
        RoundEnded(1, "last-standing", (0,), PS, ()),
        FavorGained(0, "round"),
        GameEnded((0,)),
    )


def test_resigning_between_rounds_ends_the_game_only_when_one_is_left() -> None:
    game = start("2019", 3)
    game.deal((G, PR, B), (H, K, G), set_aside=PS)
    game.play(0, G, 2, B)  # Cid is out
    assert game.do(Resign(2, T)) == (PlayerResigned(2, (), "resigned", T),)  # nothing left to discard
    game.play(1, K, 0)  # Bob trades his Priest for Ann's Handmaid
    game.play(0, G, 1, H)  # and Ann's Guard names it: Bob is out, Ann wins the round
    assert game.state.phase == "deal" and not game.state.over
    assert game.do(Resign(1, T + 1)) == (PlayerResigned(1, (), "resigned", T + 1), GameEnded((0,)))


def test_a_resignation_during_a_chancellor_decision_discards_all_three_cards() -> None:
    game = start("2019", 3)
    game.deal((C, PR, B), (G, H, K, PS), set_aside=S)
    game.play(0, C)  # Ann draws the Handmaid and the King
    assert game.do(Resign(0, T)) == (PlayerResigned(0, (G, H, K), "resigned", T), TurnStarted(1, PS))


def test_a_clock_that_runs_out_under_resign_is_a_resignation() -> None:
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob", "Cid"), turn_seconds=10, on_timeout="resign")))
    state = fold(decide(state, explicit_deal(state, (G, PR, B), (H, K), set_aside=PS, first_player=0)), state)
    state = fold(decide(state, SetClock(0, T)), state)
    assert decide(state, TimeOut(0, T + 10_000)) == (
        ClockRanOut(0, T + 10_000),
        PlayerResigned(0, (G, H), "timeout", T + 10_000),
        TurnStarted(1, K),
    )


def test_the_events_of_plainly_legal_plays_are_shared() -> None:
    """`card_effects._shared`: a plainly legal play's events are immutable values, built once and shared — the
    same play in two games gives the very same event objects."""
    first, second = start("2019", 2), start("2019", 2)
    for game in (first, second):
        game.deal((PR, G), (H,))
    a, b = first.play(0, PR, 1), second.play(0, PR, 1)
    assert a == b and all(x is y for x, y in zip(a, b, strict=True))


# -- favors that reach the threshold together (RULINGS: the round's favor and the Spy's, or Amira & Sadie's) --------


def _two(ruleset: str, favors: tuple[int, int], hands: tuple, front: tuple, deck: tuple) -> GameState:
    return position(hands, deck, set_aside=PS, ruleset=ruleset, round_no=3, favors=favors, front=front)


def test_the_round_and_the_spy_favor_together_reach_the_threshold() -> None:
    """2019, two players, 6 favors to win: Ann has 4 and the only Spy played; her Guard knocks Bob out, so she wins
    the round (+1) and is the one player in it with a Spy (+1): 6, she wins the game."""
    state = _two("2019", (4, 0), ((G, PR), (K,)), ((S,), ()), (H, B))
    events = decide(state, PlayCard(0, G, 1, K))
    assert events[-4:] == (
        RoundEnded(3, "last-standing", (0,), PS, ()),
        FavorGained(0, "round"),
        FavorGained(0, "spy"),
        GameEnded((0,)),
    )


def test_the_spy_favor_alone_is_one_favor() -> None:
    """Ann has 4 favors and the only Spy; the deck runs out with her Guard against Bob's King: Bob wins the round,
    Ann gains the Spy's single favor (5 of 6) and the game goes on."""
    state = _two("2019", (4, 0), ((H, G), (K,)), ((S,), ()), ())
    assert decide(state, PlayCard(0, H)) == (
        CardPlayed(0, H),
        RoundEnded(3, "deck-out", (1,), PS, (G, K)),
        FavorGained(1, "round"),
        FavorGained(0, "spy"),
    )


def test_amira_and_sadie_give_each_of_their_players_one_favor() -> None:
    """Princess Princess: both players have played one of Princesses Amira & Sadie, each +1; Ann also wins the round
    by deck-out (her King against Bob's Guard): 4 + 2 = 6 wins, Bob's 4 + 1 = 5 does not."""
    state = _two("princess-princess", (4, 4), ((H, K), (G,)), ((C,), (C,)), ())
    assert decide(state, PlayCard(0, H))[-5:] == (
        RoundEnded(3, "deck-out", (0,), PS, (K, G)),
        FavorGained(0, "round"),
        FavorGained(0, "amira-sadie"),
        FavorGained(1, "amira-sadie"),
        GameEnded((0,)),
    )


def test_the_message_a_rounds_seed_is_derived_from() -> None:
    """docs/shuffle.md: `loveletter/round/v1|ROUND|SEAT SEEDS`, the seeds in seat order joined by `|`, `-` for a seat
    that gave none; the round's seed is HMAC-SHA256 of it keyed by the server seed."""
    message = b"loveletter/round/v1|2|ab|-|cd"
    assert round_message(2, ("ab", None, "cd")) == message
    server = bytes(range(32))
    assert round_seed(server, 2, ("ab", None, "cd")) == hmac.new(server, message, hashlib.sha256).digest()


def test_the_deals_loop_rejects_a_word_as_the_algorithm_says() -> None:
    """A rejection in the deal's inlined loop happens about once in ten million shuffles: a stream whose first block
    is eight words of 2**32 - 1 (rejected for every bound that is not a power of two) makes it happen at once."""

    class Rigged(SeedStream):
        def __init__(self, blocks: list[bytes]) -> None:
            super().__init__(bytes(32))
            self.blocks = iter(blocks)

        def _block(self) -> bytes:
            return next(self.blocks)

    blocks = [b"\xff" * 32] + [hashlib.sha256(bytes([i])).digest() for i in range(40)]
    words = (int.from_bytes(block[k : k + 4], "big") for block in blocks for k in range(0, 32, 4))
    assert Rigged(blocks).shuffled(list(range(21))) == _shuffled(words, list(range(21)))


def _rigged(*blocks: tuple[int, ...]) -> SeedStream:
    """A seed stream whose blocks are the given eight-word tuples (then hashes of their index), to make a rejection
    happen exactly where a test wants it: with a real seed one word in hundreds of millions lands there."""

    class Rigged(SeedStream):
        def __init__(self) -> None:
            super().__init__(bytes(32))
            self.blocks = iter([b"".join(w.to_bytes(4, "big") for w in block) for block in blocks])
            self.spare = 0

        def _block(self) -> bytes:
            for block in self.blocks:
                return block
            self.spare += 1
            return hashlib.sha256(bytes([self.spare])).digest()

    return Rigged()


def _stream_words(*blocks: tuple[int, ...]) -> Iterator[int]:
    """The same words as `_rigged`, written independently."""
    yield from (w for block in blocks for w in block)
    for spare in range(1, 200):
        digest = hashlib.sha256(bytes([spare])).digest()
        yield from (int.from_bytes(digest[k : k + 4], "big") for k in range(0, 32, 4))


def test_a_word_equal_to_the_rejection_limit_is_rejected() -> None:
    """The limit is the first multiple of the bound past the last whole cycle: 2**32 - 2**32 % bound; a word equal to
    it would give `limit % bound` == 0 one time too many, so it is drawn again (docs/shuffle.md)."""
    limit21, limit100 = 2**32 - 2**32 % 21, 2**32 - 2**32 % 100
    assert (limit21, limit100) == (2**32 - 4, 2**32 - 96)  # 2**32 = 21 × 204,522,252 + 4 = 100 × 42,949,672 + 96
    block = (limit21, 5, 6, 7, 8, 9, 10, 11)
    assert _rigged(block).below(21) == 5 % 21 == _below(_stream_words(block), 21)
    big = (limit100, limit100 + 3, 1234, 7, 8, 9, 10, 11)  # bounds of 64 or more compute their limit
    assert _rigged(big).below(100) == 1234 % 100 == 34
    # The deal's inlined loop: its first bound is 21.
    assert _rigged(block).shuffled(list(range(21))) == _shuffled(_stream_words(block), list(range(21)))


def test_a_rejection_in_the_deals_loop_reads_the_next_word_of_the_same_block() -> None:
    """Only a rejected word is skipped: the word after it comes from the same block, not from a new one."""
    block = (2**32 - 1, 3, 4, 5, 6, 7, 8, 9)
    expected = _shuffled(_stream_words(block), list(range(21)))
    assert _rigged(block).shuffled(list(range(21))) == expected
    assert expected[20] == 3  # the first swap takes the second word: 3 % 21 = 3
