"""Rulings: settle a dispute from a log prefix. Was this move legal here, under which rule, and what follows?

The prefix is replayed (and so verified) first; the move is then judged by the same `decide` that
referees live play. The answer cites the rule in English or French with its sources (their ids, and their names
with links to the rulings page the referee serves, `core.sources`), lists the events the move would cause as the
mover would see them, and the legal moves there were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from loveletter.core.cards import TARGETS_OTHER, Card
from loveletter.core.catalogue import Event
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.decide import decide
from loveletter.core.lang import BilingualError, Text
from loveletter.core.legal import from_action_code, legal_moves_as_dicts
from loveletter.core.move_checks import valid_targets
from loveletter.core.rules import RULES, RuleViolation
from loveletter.core.rulesets import RULESETS
from loveletter.core.sources import cite, cite_on_referee
from loveletter.core.state import GameState
from loveletter.core.views import redact, view
from loveletter.events.codec import encode, quoted_fr
from loveletter.events.log import Entry
from loveletter.replays.moves import describe_move
from loveletter.replays.narrative import Narrator
from loveletter.replays.position import position
from loveletter.replays.replay import Problem, check
from loveletter.replays.transcript_reader import TranscriptFormatError, parse_card


class MoveFormatError(BilingualError):
    """The disputed move cannot be read (not a rules question)."""


@dataclass(slots=True)
class Ruling:
    at: int
    legal: bool
    rule_id: str
    rule: str
    sources: tuple[str, ...]
    message: str
    mover: str
    events: list[dict[str, Any]] = field(default_factory=list)
    legal_moves: list[dict[str, Any]] = field(default_factory=list)
    prefix_problem: Problem | None = None
    lang: str = "en"
    ruleset: str = "2019"
    story: list[str] = field(default_factory=list)  # what follows, told as the table sees it
    position: str = ""  # the moment as people count it: "round 1, Claire's first turn"

    def as_dict(self) -> dict[str, Any]:
        return {
            "at": self.at,
            "mover": self.mover,
            "legal": self.legal,
            "rule_id": self.rule_id,
            "rule": self.rule,
            "sources": list(self.sources),
            "rule_sources": cite_on_referee(self.sources, "fr" if self.lang == "fr" else "en"),
            "message": self.message,
            "events": self.events,
            "legal_moves": self.legal_moves,
            "prefix_problem": None if self.prefix_problem is None else self.prefix_problem.as_dict(self.lang),
        }


def parse_move(state: GameState, move: dict[str, Any]) -> PlayerCommand:
    """A move in the API's JSON form, with `player` (name or seat; default: the active seat)."""
    if not isinstance(move, dict):
        raise MoveFormatError(Text("a move is a JSON object", "un coup est un objet JSON"))

    def seat(value: Any, what: str) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(state.players):
            return value
        if isinstance(value, str) and value in state.players:
            return state.players.index(value)
        names = ", ".join(state.players)
        raise MoveFormatError(
            Text(
                f"{what}: {value!r} is not a player ({names})",
                f"« {what} » : {quoted_fr(value)} n'est pas un joueur de cette partie ({names})",
            )
        )

    player = seat(move["player"], "player") if "player" in move else state.active
    if player < 0:
        raise MoveFormatError(
            Text("nobody is to move here: name the player", "personne n'a la main ici : nommez le joueur")
        )
    try:
        kind = move.get("type", "return" if "keep" in move else "play")
        if kind == "code":
            code = move.get("action_code")
            if not isinstance(code, int) or isinstance(code, bool):
                raise MoveFormatError(Text("action_code: an integer", "« action_code » : un nombre entier est attendu"))
            try:
                decoded = from_action_code(code, player)
            except ValueError as exc:
                said = exc.message("fr") if isinstance(exc, BilingualError) else f"le code {code} ne désigne aucun coup"
                raise MoveFormatError(Text(f"action_code: {exc}", f"« action_code » : {said}")) from None
            if isinstance(decoded, PlayCard) and decoded.target is not None and decoded.target >= len(state.players):
                raise MoveFormatError(
                    Text(
                        f"action_code: {code} targets seat {decoded.target}, not a seat of this game",
                        f"« action_code » : le code {code} vise le siège {decoded.target}, qui n'existe pas dans "
                        "cette partie",
                    )
                )
            return decoded
        if kind == "play":
            target = move.get("target")
            guess = move.get("guess")
            return PlayCard(
                player,
                parse_card(move.get("card"), "card"),
                None if target is None else seat(target, "target"),
                None if guess is None else parse_card(guess, "guess"),
            )
        if kind == "return":
            bottom = move.get("bottom", [])
            if not isinstance(bottom, list):
                raise MoveFormatError(Text("bottom: a list of cards", "« bottom » : une liste de cartes est attendue"))
            return ReturnCards(
                player, parse_card(move.get("keep"), "keep"), tuple(parse_card(c, "bottom") for c in bottom)
            )
    except TranscriptFormatError as exc:
        raise MoveFormatError(Text(str(exc), f"« {exc.where} » : {exc.reason_text.fr}")) from None
    raise MoveFormatError(
        Text(
            f"type: {kind!r} is not 'play', 'return' or 'code'",
            f"« type » : {quoted_fr(kind)} n'est ni « play », ni « return », ni « code »",
        )
    )


def rule_for_legal(state: GameState, command: PlayerCommand) -> str:
    """The rule that governs a legal move: its card's effect, or the special case it falls under."""
    if isinstance(command, ReturnCards):
        return "chancellor.return"
    card = command.card
    if card in TARGETS_OTHER and command.target is None:
        return "target.none"
    if (
        card is Card.PRINCE
        and command.target == command.player
        and len(valid_targets(state, command.player, card)) == 1
    ):
        return "target.none"
    special = {Card.PRINCESS: "princess.eliminated", Card.COUNTESS: "countess.forced"}
    return special.get(card, f"{card.value}.effect")


def explain(events: Sequence[Event] | Sequence[Entry], at: int, move: dict[str, Any], lang: str = "en") -> Ruling:
    """Judge `move` after the first `at` events of a log (seq 1..at)."""
    result = check(events[:at])
    prefix_problem = result.problems[0] if result.problems else None
    state = result.state
    command = parse_move(state, move)
    mover = state.players[command.player]
    ruleset = state.ruleset.id if state.ruleset else "2019"
    moves = legal_moves_as_dicts(state, command.player)
    when = position(state, events[:at]).when(lang)
    try:
        caused = decide(state, command)
    except RuleViolation as v:
        rule = RULES[v.rule_id]
        text = rule.text("fr" if lang == "fr" else "en")
        message = v.message("fr" if lang == "fr" else "en")
        return Ruling(
            at,
            False,
            v.rule_id,
            text,
            rule.sources,
            message,
            mover,
            [],
            moves,
            prefix_problem,
            lang,
            ruleset=ruleset,
            position=when,
        )
    rule_id = rule_for_legal(state, command)
    rule = RULES[rule_id]
    seen = []
    for seq, event in enumerate(caused, start=state.seq + 1):
        fields = encode(event)
        fields["seq"] = seq
        seen.append(redact(event, fields, command.player))
    message = "ce coup est légal" if lang == "fr" else "this move is legal"
    text = rule.text("fr" if lang == "fr" else "en")
    ruling = Ruling(
        at,
        True,
        rule_id,
        text,
        rule.sources,
        message,
        mover,
        seen,
        moves,
        prefix_problem,
        lang,
        ruleset=ruleset,
        position=when,
    )
    narrator = Narrator(lang)
    for logged in events[:at]:
        narrator.line(logged.event if isinstance(logged, Entry) else logged)
    ruling.story = [line for event in caused if (line := narrator.line(event))]
    return ruling


def render_ruling(ruling: Ruling, lang: str = "en") -> str:
    """A ruling as the command line prints it: verdict, rule, source, what follows, the legal moves."""
    fr = lang == "fr"
    rs = RULESETS.get(ruling.ruleset, RULESETS["2019"])
    verdict = ("LÉGAL" if fr else "LEGAL") if ruling.legal else ("ILLÉGAL" if fr else "ILLEGAL")
    after = f"après l'événement {ruling.at}" if fr else f"after event {ruling.at}"
    if ruling.position:
        after += f" ({ruling.position})"
    lines = [f"{verdict} — {ruling.mover}, {after}{' :' if fr else ':'} {ruling.message}"]
    lines.append(f"  [{ruling.rule_id}] {ruling.rule}")
    named = [cite(source, "fr" if fr else "en").text for source in ruling.sources]
    lines.append(f"  {'sources :' if fr else 'sources:'} {(' ; ' if fr else '; ').join(named)}")
    if ruling.story:
        lines.append("  " + ("ce qui suit :" if fr else "what follows:"))
        lines += [f"    {line}" for line in ruling.story]
    moves = (" ; " if fr else "; ").join(describe_move(m, rs, lang) for m in ruling.legal_moves)
    lines.append(f"  {'coups légaux :' if fr else 'legal moves:'} {moves}")
    if ruling.prefix_problem is not None:
        p = ruling.prefix_problem
        where = "le journal a un problème avant ce point" if fr else "the log has a problem before this point"
        event = "événement" if fr else "event"
        lines.append(f"  ⚠ {where}{' :' if fr else ':'} {event} {p.seq} [{p.rule_id}] {p.message(lang)}")
    return "\n".join(lines)


def seat_view_at(events: Sequence[Event] | Sequence[Entry], at: int, seat: int | None) -> dict[str, Any]:
    """What `seat` (None: a spectator) could see after the first `at` events."""
    state = check(events[:at], lenient=True).state
    return view(state, seat).as_dict()
