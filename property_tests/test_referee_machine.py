"""Stateful property tests: random games of every ruleset and player count, legal and illegal commands mixed,
seats resigning at any moment and the organiser aborting now and then (RULINGS §12).

Each machine drives `core` through commands and plays the same commands on an independent referee written from
RULINGS.md alone (`property_tests.table`). After every step the two must agree: on whether the command was legal,
on every elimination, round end, favor and game end, and on every card of the table. The game's log must then
go the real way — written through the codec, read back, replayed and audited by `replays`, and written as a
transcript that expands to the same events — and every view must show a seat what it may know, exactly.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any, ClassVar

from hypothesis import event as note_event
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    ClockRanOut,
    Event,
    FavorGained,
    GameAborted,
    GameEnded,
    GameStarted,
    PlayerEliminated,
    PlayerResigned,
    RoundEnded,
    RoundStarted,
)
from loveletter.core.chance import deal
from loveletter.core.commands import (
    Abort,
    Command,
    DealRound,
    PlayCard,
    Resign,
    ReturnCards,
    SetClock,
    StartGame,
    TimeOut,
)
from loveletter.core.decide import decide
from loveletter.core.evolve import evolve, fold
from loveletter.core.legal import action_code, from_action_code, legal_moves
from loveletter.core.rules import RULES, RuleViolation
from loveletter.core.state import INITIAL, GameState
from loveletter.core.views import Glance, glance, redact, view
from loveletter.events.codec import decode, dumps, encode, loads
from loveletter.events.log import Header, read_games, write_game
from loveletter.replays.audit import Options, audit_bytes
from loveletter.replays.replay import check
from loveletter.replays.transcript import expand
from property_tests.model import REDACTED, Model, entitled
from property_tests.table import BOOKS, Table

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
CARDS = st.sampled_from(list(Card))
SEEDS = st.binary(min_size=32, max_size=32)


def ordered(moves: set[Any]) -> list[Any]:
    return sorted(moves, key=repr)


class RefereeMachine(RuleBasedStateMachine):
    ruleset = "2019"
    # Across every run of a machine: how many games reached a round's end and the game's end (see test_reach.py).
    reached: ClassVar[Counter[str]] = Counter()

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState = INITIAL
        self.log: list[Event] = []
        self.knowledge = Model()
        self.table: Table | None = None
        self.n = 0
        self.start_command: StartGame | None = None
        self.decisions: list[tuple[Command, int]] = []  # each accepted deal or move, with the log length before it
        self.hand_made_deals: list[int] = []  # seqs of round_started events dealt by hand, not by chance's shuffle
        self.clock = 1_790_000_000_000  # Unix milliseconds of the resignations and aborts, moving forward
        self.beyond_transcripts = False  # a clock, a resignation or an abort: no transcript can say so

    @property
    def t(self) -> Table:
        assert self.table is not None
        return self.table

    # -- driving core and the table ------------------------------------------------------------------------

    def legal_for_table(self, command: Command) -> bool:
        if isinstance(command, DealRound):
            return self.t.deal_is_legal(command)
        if isinstance(command, Resign):
            return self.t.resign_is_legal(command.player)
        if isinstance(command, Abort):
            return self.t.phase != "over"
        if isinstance(command, SetClock):
            return self.t.set_clock_is_legal(command.player)
        if isinstance(command, TimeOut):
            return self.t.time_out_is_legal(command.player, command.at)
        assert isinstance(command, (PlayCard, ReturnCards))
        return command in self.t.legal_moves(command.player)

    def judge(self, command: Command) -> None:
        """The table says whether `command` is legal; core must agree."""
        if self.legal_for_table(command):
            self.accept(command)
        else:
            self.refuse(command)

    def accept(self, command: Command) -> tuple[Event, ...]:
        before = self.state
        try:
            events = decide(before, command)
        except RuleViolation as exc:
            raise AssertionError(f"core refused a legal command {command!r}: {exc.rule_id} {exc.en}") from None
        assert events, command
        state = before
        for event in events:
            state = evolve(state, event)
            assert decode(loads(dumps(encode(event)))) == event
            self._check_redaction(event)
        assert fold(events, before) == state
        if isinstance(command, StartGame):
            self.table = Table(command.ruleset, len(command.players), dict(command.options), command.first_player)
            self.table.turn_seconds, self.table.on_timeout = command.turn_seconds, command.on_timeout
            self.start_command = command
        else:
            self.decisions.append((command, len(self.log)))
            if isinstance(command, DealRound):
                self.t.deal(command)
            elif isinstance(command, Resign):
                self.t.resign(command.player)
            elif isinstance(command, Abort):
                self.t.abort()
            elif isinstance(command, SetClock):
                self.t.set_clock(command.player, command.at)
            elif isinstance(command, TimeOut):
                self.t.time_out(command.player)
            else:
                assert isinstance(command, (PlayCard, ReturnCards))
                self.t.play(command)
            self._check_outcome(events)
        for event in events:
            self.knowledge.apply(event)
        self.state = state
        self.log.extend(events)
        self._check_same_table()
        return events

    def refuse(self, command: Command) -> None:
        """`command` is illegal: core raises RuleViolation citing a known rule and changes nothing."""
        before, before_dict, log_len = self.state, self.state.as_dict(), len(self.log)
        try:
            events = decide(self.state, command)
        except RuleViolation as exc:
            assert exc.rule_id in RULES and exc.code and exc.en and exc.fr
        else:
            raise AssertionError(f"illegal command accepted: {command!r} -> {events!r}")
        assert self.state is before and self.state.as_dict() == before_dict and len(self.log) == log_len

    # -- rules -------------------------------------------------------------------------------------------------

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        lo, hi = BOOKS[self.ruleset].players
        self.n = data.draw(st.integers(lo, hi), label="players")
        options = data.draw(
            st.fixed_dictionaries(
                {"tie_2012": st.sampled_from(["nobody", "all"]), "guard_unknown": st.sampled_from(["refuse", "miss"])}
            ),
            label="options",
        )
        first = data.draw(st.none() | st.integers(0, self.n - 1), label="first_player")
        on_timeout = data.draw(st.sampled_from([None, "bot", "resign"]), label="on_timeout")
        seconds = 30 if on_timeout else None
        self.beyond_transcripts = on_timeout is not None
        self.refuse(StartGame(self.ruleset, NAMES[: hi + 1] if hi < 6 else (*NAMES, "Gus")))
        self.accept(
            StartGame(self.ruleset, NAMES[: self.n], options, first, turn_seconds=seconds, on_timeout=on_timeout)
        )
        self.refuse(StartGame(self.ruleset, NAMES[: self.n]))

    @precondition(lambda self: self.state.phase == "deal")
    @rule(seed=SEEDS)
    def deal_round(self, seed: bytes) -> None:
        cmd = deal(self.state, seed)
        assert self.t.deal_is_legal(cmd), "chance dealt a deal the rulebook refuses"
        self.accept(cmd)

    @rule(player=st.integers(-1, 6), chance=st.integers(0, 5))
    def resign(self, player: int, chance: int) -> None:
        """Any seat may try to leave at any time (RULINGS §12): before the deal, twice, or no seat, it is refused.
        Tried one time in six, so that most games still reach a round's end and the game's."""
        if chance:
            return
        self.clock += 1000
        self.beyond_transcripts = self.beyond_transcripts or self.t.resign_is_legal(player)
        self.judge(Resign(player, self.clock))

    @precondition(lambda self: self.table is not None and self.t.round > 1)
    @rule(chance=st.integers(0, 29))
    def abort(self, chance: int) -> None:
        """Now and then, once a round has been played out, the organiser stops the game: nobody wins, nothing more
        is accepted."""
        if chance == 0:
            self.clock += 1000
            self.beyond_transcripts = self.beyond_transcripts or self.t.phase != "over"
            self.judge(Abort(self.clock))

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(player=st.integers(-1, 6), chance=st.integers(0, 2))
    def set_clock(self, player: int, chance: int) -> None:
        """The referee starts the clock of the pending decision (refused for any other seat, a second time, or in a
        game without a clock); usually for the active seat."""
        self.clock += 500
        self.judge(SetClock(self.state.active if chance else player, self.clock))

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(late=st.integers(-100, 1000), chance=st.integers(0, 1))
    def time_out(self, late: int, chance: int) -> None:
        """A timeout a little before or after the running deadline (or with none running): only one at or after
        it is recorded; then the seat resigns, or its decision waits for the bot (the machine's next moves)."""
        if chance:
            return
        if self.state.turn_seconds is not None and self.state.deadline is None:  # start the clock that will run out
            self.clock += 500
            self.judge(SetClock(self.state.active, self.clock))
        deadline = self.state.deadline
        at = max(self.clock, (deadline[1] if deadline else self.clock) + late)
        self.clock = at
        self.beyond_transcripts = self.beyond_transcripts or self.t.time_out_is_legal(self.state.active, at)
        self.judge(TimeOut(self.state.active, at))

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        """One of the table's own legal moves (never core's list): core must accept it."""
        moves = ordered(self.t.legal_moves(self.t.active))
        assert moves
        if isinstance(moves[0], PlayCard):  # pick a card first: Guard guesses would crowd out every other card
            card = data.draw(st.sampled_from(sorted({m.card for m in moves})), label="card")
            moves = [m for m in moves if m.card is card]
        self.accept(data.draw(st.sampled_from(moves), label="move"))

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(data=st.data())
    def legal_move_again(self, data: st.DataObject) -> None:  # doubles the weight of legal play
        self.legal_move(data)

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(data=st.data(), moves=st.integers(1, 12))
    def play_on(self, data: st.DataObject, moves: int) -> None:
        """Several legal moves in a row, so that runs reach the ends of rounds and games (see test_reach.py)."""
        for _ in range(moves):
            if self.state.phase not in ("play", "chancellor"):
                return
            self.legal_move(data)

    @precondition(lambda self: self.state.phase == "play")
    @rule(data=st.data())
    def tempting_move(self, data: st.DataObject) -> None:
        """A card of the active hand with any target and guess: the mistakes people make at a table (the King
        kept beside the Countess, a Guard naming the Guard, a protected or eliminated target, oneself, no target
        when one exists, a card not in the ruleset), and the right moves too."""
        p = self.t.active
        card = data.draw(st.sampled_from(sorted(set(self.t.hands[p]))), label="card")
        target = data.draw(st.none() | st.integers(0, self.n - 1), label="target")
        guess = data.draw(st.none() | CARDS, label="guess") if card is Card.GUARD else None
        self.judge(PlayCard(p, card, target, guess))

    @rule(player=st.integers(-1, 6), card=CARDS, chosen=st.none() | st.integers(-1, 6), guess=st.none() | CARDS)
    def random_play(self, player: int, card: Card, chosen: int | None, guess: Card | None) -> None:
        if self.table is not None:
            self.judge(PlayCard(player, card, chosen, guess))

    @rule(player=st.integers(-1, 6), keep=CARDS, bottom=st.lists(CARDS, max_size=3).map(tuple))
    def random_return(self, player: int, keep: Card, bottom: tuple[Card, ...]) -> None:
        if self.table is not None:
            self.judge(ReturnCards(player, keep, bottom))

    @precondition(lambda self: self.state.phase in ("play", "chancellor"))
    @rule(data=st.data())
    def near_miss_return(self, data: st.DataObject) -> None:
        """A return made of the hand's own cards, in any split and order."""
        hand = list(self.t.hands[self.t.active])
        perm = data.draw(st.permutations(hand), label="order")
        k = data.draw(st.integers(0, len(hand)), label="split")
        self.judge(ReturnCards(self.t.active, perm[0] if hand else Card.GUARD, tuple(perm[1 : 1 + k])))

    @rule(seed=SEEDS, data=st.data())
    def broken_deal(self, seed: bytes, data: st.DataObject) -> None:
        """A chance deal with one thing changed; the table says whether it is still a valid deal here."""
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
        if self.legal_for_table(cmd):
            self.hand_made_deals.append(len(self.log) + 1)
        self.judge(cmd)

    # -- the end of a run: the log goes the real way -------------------------------------------------------

    def teardown(self) -> None:
        rounds_ended = sum(isinstance(e, RoundEnded) for e in self.log)
        note_event(f"rounds ended: {min(rounds_ended, 5)}{'+' if rounds_ended >= 5 else ''}")
        note_event(f"game over: {self.state.over}")
        type(self).reached["runs"] += 1
        type(self).reached["round ended"] += rounds_ended > 0
        type(self).reached["game over"] += self.state.over
        resigned = [e for e in self.log if isinstance(e, PlayerResigned)]
        type(self).reached["resigned in a round"] += any(e.cards for e in resigned)
        type(self).reached["resigned between rounds"] += any(not e.cards for e in resigned)
        type(self).reached["aborted"] += any(isinstance(e, GameAborted) for e in self.log)
        type(self).reached["timed out"] += any(isinstance(e, ClockRanOut) for e in self.log)
        if self.start_command is None:
            return
        self._check_the_real_path()
        if not self.beyond_transcripts:
            self._check_the_transcript()

    def _check_the_real_path(self) -> None:
        """Written by the log writer, read back, replayed by `replays.replay.check` and audited: the same game."""
        buf = io.BytesIO()
        assert isinstance(self.log[0], GameStarted)
        write_game(buf, self.log, Header.of(self.log[0], "machine"))
        (game,) = list(read_games(buf.getvalue().splitlines()))
        assert [e.event for e in game.entries] == self.log
        result = check(game.entries)
        assert result.problems == [] and result.state == self.state, result.problems
        report = audit_bytes(buf.getvalue(), "machine.jsonl", Options(lenient=True), jobs=1)
        (audited,) = report.games
        # A deal made by hand is legal play but no shuffle of the recorded seed: the audit must say so, and only that.
        found = [(p.rule_id, p.seq) for p in audited.problems]
        assert found == [("shuffle.derivation", seq) for seq in self.hand_made_deals], audited.problems

    def _check_the_transcript(self) -> None:
        """The same game written as a table would write it (RULINGS' words, not events) expands to the same log."""
        assert self.start_command is not None
        names = self.start_command.players
        doc: dict[str, Any] = {"format": "loveletter-transcript", "version": 1, "ruleset": self.ruleset}
        doc |= {"options": self.start_command.options, "players": list(names), "rounds": []}
        if self.start_command.first_player is not None:
            doc["first_player"] = names[self.start_command.first_player]
        end = len(self.log)
        for command, _ in self.decisions:
            if isinstance(command, DealRound):
                deal_doc = {
                    "set_aside": str(command.set_aside),
                    "face_up": [str(c) for c in command.face_up],
                    "hands": {names[i]: str(c) for i, c in enumerate(command.hands)},
                    "deck": [str(c) for c in command.deck],
                }
                doc["rounds"].append({"deal": deal_doc, "first_player": names[command.first_player], "turns": []})
            elif isinstance(command, PlayCard):
                turn: dict[str, Any] = {"player": names[command.player], "play": str(command.card)}
                if command.target is not None:
                    turn["target"] = names[command.target]
                if command.guess is not None:
                    turn["guess"] = str(command.guess)
                doc["rounds"][-1]["turns"].append(turn)
            else:
                doc["rounds"][-1]["turns"][-1] |= {
                    "keep": str(command.keep),
                    "bottom": [str(c) for c in command.bottom],
                }
        if self.state.phase == "chancellor":  # a transcript cannot stop before the Chancellor's second decision
            doc["rounds"][-1]["turns"].pop()
            end = self.decisions[-1][1]
        expanded = expand(doc)
        assert expanded.problem is None, expanded.problem
        assert [_without_shuffle(e) for e in expanded.events] == [_without_shuffle(e) for e in self.log[:end]]

    # -- checks of one step ------------------------------------------------------------------------------------

    def _check_redaction(self, event: Event) -> None:
        full = encode(event)
        for seat in (*range(self.n), None):
            shown = redact(event, dict(full), seat)
            for key, value in shown.items():
                if key in full:
                    assert value == full[key], (event, seat, key)
            if entitled(event, seat) or type(event) not in REDACTED:
                continue
            assert set(shown) <= REDACTED[type(event)], (event, seat, shown)
            if isinstance(event, RoundStarted):
                own = full["hands"][seat] if seat is not None else None
                assert shown.get("hand") == own, (seat, shown)

    def _check_outcome(self, events: tuple[Event, ...]) -> None:
        """What core's events say happened is what the table worked out."""
        t = self.t
        assert [e.player for e in events if isinstance(e, PlayerEliminated)] == t.eliminated, (events, t.eliminated)
        ended = [(e.reason, e.winners) for e in events if isinstance(e, RoundEnded)]
        assert ended == ([t.round_end] if t.round_end else []), (ended, t.round_end)
        gains = Counter((e.player, e.reason) for e in events if isinstance(e, FavorGained))
        assert gains == t.gains, (gains, t.gains)
        over = [
            () if isinstance(e, GameAborted) else e.winners for e in events if isinstance(e, GameEnded | GameAborted)
        ]
        assert over == ([t.winners] if t.phase == "over" else []), (over, t.winners)

    def _check_same_table(self) -> None:
        s, t = self.state, self.t
        assert s.phase == t.phase, (s.phase, t.phase)
        assert s.round == t.round and list(s.favors) == t.favors
        if t.phase == "over":
            assert s.winners == t.winners
        if t.round == 0:
            return
        assert s.deadline == t.deadline, (s.deadline, t.deadline)
        if t.phase in ("play", "chancellor"):
            assert s.active == t.active
        assert list(s.deck) == t.deck, "the draw pile differs (order included)"
        assert s.set_aside == t.set_aside and list(s.face_up) == t.face_up
        assert [sorted(h) for h in s.hands] == [sorted(h) for h in t.hands], (s.hands, t.hands)
        assert [list(f) for f in s.front] == t.front, (s.front, t.front)
        assert list(s.out) == t.out and list(s.protected) == t.protected

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
        assert zones == self.t.book.deck()

    @invariant()
    def legal_moves_are_the_tables_and_codes_round_trip(self) -> None:
        if self.table is None:
            return
        s = self.state
        for seat in range(self.n):
            moves = legal_moves(s, seat)
            assert len(set(moves)) == len(moves)
            assert set(moves) == self.t.legal_moves(seat), f"legal_moves of seat {seat} differs from the rulebook"
            codes = [action_code(mv) for mv in moves]
            assert len(set(codes)) == len(codes)
            for mv, code in zip(moves, codes, strict=True):
                assert from_action_code(code, seat) == mv

    @invariant()
    def views_leak_nothing_and_count_exactly(self) -> None:
        s, k = self.state, self.knowledge
        if s.ruleset is None:
            return
        t = self.t
        for seat in range(self.n):
            v = view(s, seat)
            assert glance(s, seat) == Glance.of(v)  # the rollouts' glance is this view's, checked below
            assert sorted(v.hand) == sorted(t.hands[seat]) if t.round else v.hand == ()
            seen: Counter[Card] = Counter(t.face_up)
            for f in t.front:
                seen.update(f)
            seen.update(t.hands[seat])
            for sp in v.seats:
                if sp.seat == seat:
                    assert sp.known_hand is None
                    continue
                assert sp.hand_size == len(t.hands[sp.seat]) and list(sp.front) == t.front[sp.seat]
                assert sp.known_hand == k.knows[seat][sp.seat], "known_hand is not what the seat learnt"
                if sp.known_hand is not None:
                    assert sp.known_hand in t.hands[sp.seat], "known_hand is false"
                    seen[sp.known_hand] += 1
            for pos, card in v.deck_known:
                assert t.deck[pos] == card, "deck_known is false"
                assert (pos + k.drawn, card) in k.deck_known[seat], "deck_known shows more than the seat put there"
                seen[card] += 1
            # Unseen: every copy the seat has not seen — the set-aside card and unknown hands are not seen.
            expected = {card: t.book.copies[card] - seen[card] for card in Card if t.book.copies[card]}
            assert v.unseen == expected, (seat, v.unseen, expected)
            assert set(v.as_dict()) == VIEW_KEYS
        spectator = view(s, None)
        assert spectator.hand == () and spectator.deck_known == ()
        assert all(sp.known_hand is None for sp in spectator.seats)


VIEW_KEYS = {
    "seat", "ruleset", "options", "round", "phase", "active", "deck_size", "set_aside_face_down", "face_up",
    "seats", "hand", "deck_known", "unseen", "round_winners", "winners", "version", "clock", "aborted",
}  # fmt: skip


def _without_shuffle(event: Event) -> Any:
    """An event less what a transcript cannot say: how a deal was shuffled, and that the deals were chance's."""
    fields = encode(event)
    fields.pop("shuffle", None)
    fields.pop("scenario", None)
    return fields


class Machine2019(RefereeMachine):
    ruleset = "2019"
    reached: ClassVar[Counter[str]] = Counter()


class MachineClassic(RefereeMachine):
    ruleset = "2019-classic"
    reached: ClassVar[Counter[str]] = Counter()


class Machine2012(RefereeMachine):
    ruleset = "2012"
    reached: ClassVar[Counter[str]] = Counter()


class MachinePrincessPrincess(RefereeMachine):
    ruleset = "princess-princess"
    reached: ClassVar[Counter[str]] = Counter()


MACHINES = (Machine2019, MachineClassic, Machine2012, MachinePrincessPrincess)
# Each machine is run by property_tests/test_reach.py, which also judges what its runs reached.
