"""Transcripts: games played elsewhere, written as the table saw them, expanded into our event log.

A transcript names the players, ruleset and options, and for each round its deal (set-aside card,
face-up cards, each hand, the draw pile top first), its first player and each turn's decisions. The
cards drawn are not written: they follow from the deal. Cards may be written by id, English or
French name; players by name or seat. See docs/transcripts.md for the format and a worked example.

A name that is no card, or a player who is nobody at the table, is a player's mistake, the very thing a
dispute is about: it is judged as a violation at its place, with a rule id and the nearest valid name.
Only a file that is not a transcript at all (wrong shape, missing fields) is unreadable.

This module judges (`expand`); reading the document is `replays.transcript_reader`, and reading card names
`replays.names`. Their public names are importable from here too, the one door to transcripts for other rooms.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loveletter.core.catalogue import Event, RoundEnded
from loveletter.core.commands import Command, ReturnCards
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.lang import Text, plural_en, plural_fr
from loveletter.core.rules import RuleViolation
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_DEAL, PHASE_OVER, GameState
from loveletter.replays.names import card_named
from loveletter.replays.replay import Problem
from loveletter.replays.transcript_reader import (
    Reader,
    TranscriptFormatError,
    TranscriptMistake,
    is_transcript,
    parse_card,
    transcript_in,
)

__all__ = [
    "Expansion",
    "Reader",
    "TranscriptFormatError",
    "TranscriptMistake",
    "card_named",
    "expand",
    "is_transcript",
    "parse_card",
    "transcript_in",
]


@dataclass(slots=True)
class Expansion:
    """The events a transcript expands to, up to its end or its first illegal decision (`events`, `state`), and
    every problem found: the first only, or (lenient) each one with what was skipped because of it."""

    events: list[Event] = field(default_factory=list)
    state: GameState = INITIAL
    problems: list[Problem] = field(default_factory=list)
    skipped: list[Text] = field(default_factory=list)
    """Parallel to `problems` when lenient: what judging left out because of each one ("this turn", "the rest of
    round 2 (3 turns)"); an empty Text where judging stopped there."""

    @property
    def problem(self) -> Problem | None:
        return self.problems[0] if self.problems else None

    @property
    def ok(self) -> bool:
        return not self.problems


def _skipped_rest(r: int, count: int) -> Text:
    if count == 0:
        return Text("this decision is skipped", "cette décision est ignorée")
    return Text(
        f"this decision is skipped, and the rest of round {r + 1} ({plural_en(count, 'turn', 'turns')}) is not "
        "judged: it follows a position the table never had",
        f"cette décision est ignorée, et la suite de la manche {r + 1} ({plural_fr(count, 'tour', 'tours')}) n'est "
        "pas jugée : elle part d'une position que la table n'a jamais eue",
    )


STOPPED = Text("", "")
"""What a lenient expansion notes where it had to stop (nothing after that problem could be judged)."""


def expand(doc: Any, *, lenient: bool = False) -> Expansion:
    """Judge a transcript decision by decision; `TranscriptFormatError` if it cannot be read at all.

    Strict (the default) stops at the first problem. Lenient skips each refused decision and says so: the rest of
    its round is not judged (it would start from a position the table never had) but its names are still read, and
    judging resumes at the next round's deal, whose first player is then taken as written (the skipped round has
    no known winner).
    """
    reader = Reader(doc)
    out = Expansion()
    state = INITIAL  # the working state; `out.state` stays the state of `out.events`, the legal prefix

    def problem(found: Problem, skipped: Text) -> None:
        out.problems.append(found)
        out.skipped.append(skipped)

    def judge(command: Command, where: str) -> Problem | None:
        nonlocal state
        try:
            events = decide(state, command)
        except RuleViolation as v:
            return Problem(v.rule_id, v.code, v.en, v.fr, where=where, seq=state.seq + 1)
        state = fold(events, state)
        if not out.problems:
            out.events.extend(events)
            out.state = state
        return None

    def judge_turn(turn: Any, here: str) -> Problem | None:
        """One written turn: its play, then its Chancellor decision when one is due and written."""
        try:
            play, raw = reader.play(turn, here)
            found = judge(play, here)
            if found is not None:
                return found
            if "keep" not in raw and "bottom" not in raw:
                return None  # no Chancellor decision written: none due, or the transcript stops at it
            if state.phase != PHASE_CHANCELLOR:
                return Problem(
                    "chancellor.effect",
                    "no_chancellor_pending",
                    "keep/bottom are only written for a Chancellor that drew cards",
                    "« keep » et « bottom » ne s'écrivent que pour un Chancelier qui a pioché des cartes",
                    where=here,
                    seq=state.seq,
                )
            if "keep" not in raw:
                raise TranscriptMistake(
                    f"{here}.keep",
                    "chancellor.return",
                    "invalid_return",
                    Text(
                        "the Chancellor's return names the returned cards but not the card kept",
                        "le retour du Chancelier indique les cartes replacées, mais pas la carte gardée",
                    ),
                )
            ret = ReturnCards(
                play.player,
                reader.card(raw["keep"], f"{here}.keep", "chancellor.return"),
                reader.cards(raw.get("bottom", []), f"{here}.bottom", "chancellor.return"),
            )
        except TranscriptMistake as mistake:
            return mistake.problem(state.seq + 1)
        return judge(ret, here)

    def names_only(turns: list[Any], first: int, where: str) -> None:
        """Lenient, in turns that are not judged: a name that is no card or nobody is still a mistake."""
        for t in range(first, len(turns)):
            here = f"{where}.turns[{t}]"
            try:
                _, raw = reader.play(turns[t], here)
                if "keep" in raw:
                    reader.card(raw["keep"], f"{here}.keep", "chancellor.return")
                if "bottom" in raw:
                    reader.cards(raw["bottom"], f"{here}.bottom", "chancellor.return")
            except TranscriptMistake as mistake:
                problem(mistake.problem(state.seq + 1), Text("this turn is not judged", "ce tour n'est pas jugé"))

    def unfinished_round_ends() -> None:
        """Lenient: a round a skipped decision left unfinished ends there, with no known winner."""
        nonlocal state
        state = fold([RoundEnded(state.round, "deck-out", (), state.set_aside)], state)

    try:
        found = judge(reader.start(), "$")
    except TranscriptMistake as mistake:
        found = mistake.problem(1)
    if found is not None:
        problem(found, STOPPED)
        return out
    for r, rnd in enumerate(reader.rounds()):
        where = f"$.rounds[{r}]"
        turns = rnd.get("turns", []) if isinstance(rnd, dict) else []
        if not isinstance(turns, list):
            raise TranscriptFormatError(
                f"{where}.turns", Text("must be a list of turns", "doit être une liste de tours")
            )
        if state.phase not in (PHASE_DEAL, PHASE_OVER):
            if not out.problems:
                problem(_round_not_over(where, state), STOPPED)
                return out
            unfinished_round_ends()
        try:
            found = judge(reader.deal(rnd, where), where)
        except TranscriptMistake as mistake:
            found = mistake.problem(state.seq + 1)
        if found is not None:
            problem(found, _skipped_rest(r, len(turns)) if lenient else STOPPED)
            if not lenient:
                return out
            if state.phase == PHASE_DEAL:
                unfinished_round_ends()  # the skipped round's winner is unknown: any first player may follow
            names_only(turns, 0, where)
            continue
        for t, turn in enumerate(turns):
            here = f"{where}.turns[{t}]"
            found = judge_turn(turn, here)
            if found is not None:
                problem(found, _skipped_rest(r, len(turns) - t - 1) if lenient else STOPPED)
                if not lenient:
                    return out
                names_only(turns, t + 1, where)
                break
    return out


def _round_not_over(where: str, state: GameState) -> Problem:
    return Problem(
        "setup.deal",
        "round_in_progress",
        f"a new round is dealt while round {state.round} is still being played: its turns are missing",
        f"une nouvelle manche est distribuée alors que la manche {state.round} n'est pas terminée : "
        "il manque des tours",
        where=where,
        seq=state.seq + 1,
    )
