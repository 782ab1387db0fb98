"""Stateful property tests: random games of every ruleset and player count, legal and illegal commands mixed.

Each machine drives `core` through commands only, keeps the event log, and after every step checks the rulebook's
invariants against an independent model (`property_tests.model`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import event as note_event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    CardPlayed,
    ChancellorDrew,
    Event,
    FavorGained,
    GameEnded,
    RoundEnded,
    RoundStarted,
    TurnStarted,
)
from loveletter.core.chance import deal
from loveletter.core.commands import Command, DealRound, PlayCard, ReturnCards, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import evolve, fold
from loveletter.core.legal import action_code, from_action_code, legal_moves
from loveletter.core.rules import RULES, RuleViolation
from loveletter.core.state import INITIAL, GameState
from loveletter.core.views import redact, view
from loveletter.events.codec import decode, dumps, encode, loads
from property_tests.model import BOOK, HIDDEN, Model, entitled, oracle_moves

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
CARDS = st.sampled_from(list(Card))
SEEDS = st.binary(min_size=32, max_size=32)


class RefereeMachine(RuleBasedStateMachine):
    ruleset = "2019"

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState = INITIAL
        self.log: list[Event] = []
        self.model = Model()
        self.n = 0
        self.stats: Counter[str] = Counter()

    # -- driving core ------------------------------------------------------------------------------------------

    def accept(self, command: Command) -> tuple[Event, ...]:
        """`command` is legal: apply it, check the step against the model, and fold it into the model."""
        before = self.state
        events = decide(before, command)
        assert events, command
        state = before
        for event in events:
            state = evolve(state, event)
            assert decode(loads(dumps(encode(event)))) == event
            self._check_redaction(event)
        self._check_step(before, command, events, state)
        for event in events:
            self.model.apply(event)
        self.state = state
        self.log.extend(events)
        return events

    def refuse(self, command: Command) -> None:
        """`command` is illegal: it raises RuleViolation citing a known rule and changes nothing."""
        before, before_dict, log_len = self.state, self.state.as_dict(), len(self.log)
        try:
            events = decide(self.state, command)
        except RuleViolation as exc:
            assert exc.rule_id in RULES and exc.code and exc.en and exc.fr
            self.stats[exc.rule_id] += 1
        else:
            raise AssertionError(f"illegal command accepted: {command!r} -> {events!r}")
        assert self.state is before and self.state.as_dict() == before_dict and len(self.log) == log_len

    # -- rules -------------------------------------------------------------------------------------------------

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        lo, hi = BOOK[self.ruleset]["players"]
        self.n = data.draw(st.integers(lo, hi), label="players")
        options = data.draw(
            st.fixed_dictionaries(
                {"tie_2012": st.sampled_from(["nobody", "all"]), "guard_unknown": st.sampled_from(["refuse", "miss"])}
            ),
            label="options",
        )
        first = data.draw(st.none() | st.integers(0, self.n - 1), label="first_player")
        self.refuse(StartGame(self.ruleset, NAMES[: hi + 1] if hi < 6 else (*NAMES, "Gus")))
        self.accept(StartGame(self.ruleset, NAMES[: self.n], options, first))
        self.refuse(StartGame(self.ruleset, NAMES[: self.n]))

    @precondition(lambda self: self.state.phase == "deal")
    @rule(seed=SEEDS)
    def deal_round(self, seed: bytes) -> None:
        cmd = deal(self.state, seed)
        assert cmd.first_player in self.model.first_player_candidates()
        self.accept(cmd)

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        moves = legal_moves(self.state, self.state.active)
        assert moves
        if isinstance(moves[0], PlayCard):  # pick a card first: Guard guesses would crowd out every other card
            card = data.draw(st.sampled_from(sorted({m.card for m in moves})), label="card")
            moves = [m for m in moves if m.card is card]
        self.accept(data.draw(st.sampled_from(moves), label="move"))

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(data=st.data())
    def legal_move_again(self, data: st.DataObject) -> None:  # doubles the weight of legal play
        self.legal_move(data)

    @rule(
        player=st.integers(-1, 6),
        card=CARDS,
        chosen=st.none() | st.integers(-1, 6),
        guess=st.none() | CARDS,
    )
    def random_play(self, player: int, card: Card, chosen: int | None, guess: Card | None) -> None:
        cmd = PlayCard(player, card, chosen, guess)
        if cmd in oracle_moves(self.model, self.state):
            self.accept(cmd)
        else:
            self.refuse(cmd)

    @rule(player=st.integers(-1, 6), keep=CARDS, bottom=st.lists(CARDS, max_size=3).map(tuple))
    def random_return(self, player: int, keep: Card, bottom: tuple[Card, ...]) -> None:
        cmd = ReturnCards(player, keep, bottom)
        if cmd in oracle_moves(self.model, self.state):
            self.accept(cmd)
        else:
            self.refuse(cmd)

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(data=st.data())
    def near_miss_return(self, data: st.DataObject) -> None:
        """A return made of the hand's own cards, in any split: legal exactly when it keeps one and returns the rest."""
        hand = list(self.state.hands[self.state.active])
        perm = data.draw(st.permutations(hand), label="order")
        k = data.draw(st.integers(0, len(hand)), label="split")
        cmd = ReturnCards(self.state.active, perm[0] if hand else Card.GUARD, tuple(perm[1 : 1 + k]))
        legal = self.state.phase == "chancellor" and len(cmd.bottom) == len(hand) - 1
        self.accept(cmd) if legal else self.refuse(cmd)

    @rule(seed=SEEDS, data=st.data())
    def broken_deal(self, seed: bytes, data: st.DataObject) -> None:
        """A chance deal with one thing changed; legal only when the change leaves a valid deal for this phase."""
        if self.state.phase != "deal":
            self.refuse(deal(fold(self.log[:1]), seed) if self.log else DealRound(Card.GUARD, (), (), (), 0))
            return
        good = deal(self.state, seed)
        how = data.draw(st.sampled_from(["drop", "swap", "face_up", "hands", "first", "deck"]), label="break")
        zones: dict[str, Any] = {
            "set_aside": good.set_aside,
            "face_up": good.face_up,
            "hands": good.hands,
            "deck": good.deck,
            "first_player": good.first_player,
        }
        if how == "drop":
            zones["deck"] = good.deck[1:]
        elif how == "swap":
            zones["deck"] = (data.draw(CARDS, label="card"), *good.deck[1:])
        elif how == "face_up":
            zones["face_up"], zones["deck"] = (
                (good.deck[0], *good.face_up) if not good.face_up else good.face_up[1:],
                good.deck[1:] if not good.face_up else (good.face_up[0], *good.deck),
            )
        elif how == "hands":
            zones["hands"], zones["deck"] = (*good.hands, good.deck[0]), good.deck[1:]
        elif how == "first":
            zones["first_player"] = data.draw(st.integers(-1, 6), label="first")
        elif how == "deck":
            zones["deck"] = tuple(data.draw(st.permutations(good.deck), label="order"))
        cmd = DealRound(**zones)
        if self._deal_is_legal(cmd):
            self.accept(cmd)
        else:
            self.refuse(cmd)

    def _deal_is_legal(self, cmd: DealRound) -> bool:
        m = self.model
        return (
            self.state.phase == "deal"
            and len(cmd.hands) == m.n
            and len(cmd.face_up) == (3 if m.n == 2 else 0)
            and Counter((cmd.set_aside, *cmd.face_up, *cmd.hands, *cmd.deck)) == m.deck_counter()
            and cmd.first_player in m.first_player_candidates()
        )

    def teardown(self) -> None:
        note_event(f"rounds dealt: {min(self.state.round, 8)}{'+' if self.state.round >= 8 else ''}")
        note_event(f"game over: {self.state.over}")

    # -- checks of one step ------------------------------------------------------------------------------------

    def _check_redaction(self, event: Event) -> None:
        full = encode(event)
        hidden = HIDDEN.get(type(event), ())
        for seat in (*range(self.n), None):
            shown = redact(event, dict(full), seat)
            for key, value in shown.items():
                if key in full:
                    assert value == full[key], (event, seat, key)
            if entitled(event, seat):
                continue
            assert not set(hidden) & set(shown), (event, seat, shown)
            if isinstance(event, RoundStarted):
                own = full["hands"][seat] if seat is not None else None
                assert shown.get("hand") == own, (seat, shown)

    def _check_step(self, before: GameState, cmd: Command, events: tuple[Event, ...], after: GameState) -> None:
        m = self.model
        assert fold(events, before) == after
        if isinstance(cmd, PlayCard):
            (played,) = (e for e in events if isinstance(e, CardPlayed))
            t = played.target
            if t is not None and t != played.player:
                assert not before.out[t], "an eliminated player was chosen"
                assert not before.protected[t], "a protected player was chosen by another"
        if not isinstance(cmd, (PlayCard, ReturnCards)):
            return
        ended = [e for e in events if isinstance(e, RoundEnded)]
        # Replay the events on a copy of the model up to the round's end to judge it independently.
        shadow = Model(**{k: _copy(v) for k, v in vars(m).items()})
        for e in events:
            if isinstance(e, RoundEnded):
                break
            shadow.apply(e)
        if not ended:
            assert isinstance(events[-1], (TurnStarted, ChancellorDrew)), events
            assert len(shadow.alive()) >= 2
            return
        (end,) = ended
        assert not any(isinstance(e, ChancellorDrew) for e in events), "the round ended mid-Chancellor"
        reason, winners = shadow.expected_round(after.hands, deck_empty=not after.deck)
        assert (end.reason, end.winners) == (reason, winners), (end, reason, winners)
        if reason == "deck-out":
            assert end.hands == tuple(None if shadow.out[i] else after.hands[i][0] for i in range(m.n))
        assert end.set_aside == before.set_aside or end.set_aside is None or before.set_aside is None
        gains = Counter((e.player, e.reason) for e in events if isinstance(e, FavorGained))
        assert gains == shadow.expected_favors(winners), (gains, winners, shadow.front)
        favors = [m.favors[i] + sum(k for (p, _), k in gains.items() if p == i) for i in range(m.n)]
        threshold = BOOK[self.ruleset]["favors"][m.n]
        game_end = [e for e in events if isinstance(e, GameEnded)]
        expected = tuple(i for i in range(m.n) if favors[i] >= threshold)
        if expected:
            assert game_end == [GameEnded(expected)] and events[-1] == game_end[0] and after.phase == "over"
        else:
            assert not game_end and after.phase == "deal"

    # -- invariants --------------------------------------------------------------------------------------------

    @invariant()
    def log_folds_to_the_live_state(self) -> None:
        assert fold(self.log) == self.state

    @invariant()
    def zones_hold_the_whole_deck(self) -> None:
        s = self.state
        if s.round == 0:
            return
        zones = Counter(s.deck)
        zones.update(s.face_up)
        if s.set_aside is not None:
            zones[s.set_aside] += 1
        for hand in s.hands:
            zones.update(hand)
        for front in s.front:
            zones.update(front)
        assert zones == self.model.deck_counter()

    @invariant()
    def hand_sizes(self) -> None:
        s = self.state
        if s.round == 0:
            return
        assert list(s.out) == self.model.out
        for i in range(self.n):
            size = len(s.hands[i])
            if s.out[i]:
                assert size == 0
            elif i == s.active and s.phase == "play":
                assert size == 2
            elif i == s.active and s.phase == "chancellor":
                assert 2 <= size <= 3
            else:
                assert size == 1
        if s.phase == "chancellor":
            assert len(s.hands[s.active]) - 1 <= 2

    @invariant()
    def favors_match_the_model_and_never_decrease(self) -> None:
        if not self.model.favors:
            return
        assert list(self.state.favors) == self.model.favors
        threshold = BOOK[self.ruleset]["favors"][self.n]
        assert self.state.over == (max(self.model.favors) >= threshold)

    @invariant()
    def legal_moves_are_accepted_and_codes_round_trip(self) -> None:
        s = self.state
        for seat in range(self.n):
            moves = legal_moves(s, seat)
            if seat != s.active or s.phase not in ("play", "chancellor"):
                assert moves == []
                continue
            assert moves and len(set(moves)) == len(moves)
            assert set(moves) == oracle_moves(self.model, s), "legal_moves differs from the rulebook"
            codes = [action_code(mv) for mv in moves]
            assert len(set(codes)) == len(codes)
            for mv, code in zip(moves, codes, strict=True):
                assert from_action_code(code, seat) == mv
                decide(s, mv)  # raises if refused

    @invariant()
    def views_leak_nothing(self) -> None:
        s, m = self.state, self.model
        if s.ruleset is None:
            return
        for seat in range(self.n):
            v = view(s, seat)
            assert v.hand == s.hands[seat]
            for sp in v.seats:
                if sp.seat == seat:
                    assert sp.known_hand is None
                    continue
                assert sp.hand_size == len(s.hands[sp.seat]) and sp.front == s.front[sp.seat]
                if sp.known_hand is not None:
                    assert sp.known_hand in s.hands[sp.seat], "known_hand is false"
                    assert sp.known_hand == m.knows[seat][sp.seat], "known_hand shows more than the seat learnt"
            for pos, card in v.deck_known:
                assert s.deck[pos] == card, "deck_known is false"
                assert (pos + m.drawn, card) in m.deck_known[seat], "deck_known shows more than the seat put there"
            assert "deck" not in v.as_dict() and "set_aside" not in v.as_dict()
        spectator = view(s, None)
        assert spectator.hand == () and spectator.deck_known == ()
        assert all(sp.known_hand is None for sp in spectator.seats)


class UnseenCountsMachine(RefereeMachine):
    """2019 games checking the views' `unseen` counts too (kept apart so a failure here hides no other check)."""

    ruleset = "2019"

    @invariant()
    def unseen_counts_are_possible(self) -> None:
        s = self.state
        if s.ruleset is None:
            return
        for seat in range(self.n):
            v = view(s, seat)
            for card, k in v.unseen.items():
                assert 0 <= k <= s.ruleset.copies[card], f"seat {seat} is told {k} {card.value} unseen"


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, set):
        return set(value)
    if isinstance(value, dict):
        return dict(value)
    return value


class Machine2019(RefereeMachine):
    ruleset = "2019"


class MachineClassic(RefereeMachine):
    ruleset = "2019-classic"


class Machine2012(RefereeMachine):
    ruleset = "2012"


class MachinePrincessPrincess(RefereeMachine):
    ruleset = "princess-princess"


TestMachine2019 = Machine2019.TestCase
TestMachineClassic = MachineClassic.TestCase
TestMachine2012 = Machine2012.TestCase
TestMachinePrincessPrincess = MachinePrincessPrincess.TestCase
TestUnseenCounts = UnseenCountsMachine.TestCase
