"""Disputes that start in the middle of a round: "we were in this situation…", judged with the cards nobody knew.

A situation file describes one moment of a round as the table saw it — what lies in front of each player, who is
protected or out, the favors, the hands that are known, how many cards the deck holds — and the turns that followed.
The referee checks the moment is possible (`core.situation.check_position`), then plays the turns on every way the
unknown cards can lie, exactly: an unknown hand or deck card is chosen only when the play reaches it, each choice
weighted by how many of the unseen copies it could be. Ways that tell the same public story are grouped, so the
answer is a list of cases with their chances ("Bob is out: 2 chances in 9").

    {"format": "loveletter-situation", "version": 1, "ruleset": "2019", "players": ["Ann", "Bob", "Cid"],
     "position": {"to_play": "Ann", "hands": {"Ann": ["guard", "prince"]}, "front": {"Bob": ["handmaid"]},
                  "protected": [], "out": [], "favors": {}, "deck_size": 9},
     "turns": [{"player": "Ann", "play": "guard", "target": "Bob", "guess": "priest"}]}
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.catalogue import Event, RoundEnded
from loveletter.core.commands import Command, ReturnCards
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.lang import BilingualError, Text
from loveletter.core.rules import RULES, RuleViolation
from loveletter.core.rulesets import RULESETS, Options
from loveletter.core.situation import check_position, position_state
from loveletter.core.state import GameState
from loveletter.replays.narrative import Narrator, narrate
from loveletter.replays.transcript_reader import Reader, TranscriptFormatError, TranscriptMistake

FORMAT = "loveletter-situation"
MAX_WAYS = 200_000
"""Ways of laying the unknown cards played out at most; past it the answer says it stopped."""


class SituationError(BilingualError):
    """A situation file that cannot be read, or a position that cannot happen (with the rule it breaks)."""

    def __init__(self, text: Text, rule_id: str | None = None, where: str | None = None) -> None:
        super().__init__(text)
        self.rule_id = rule_id
        self.where = where


@dataclass(slots=True)
class Case:
    """One public story the turns can tell, how likely it is, and the rule that refused a turn (if one did)."""

    chance: Fraction
    story: tuple[Text, ...]
    refused: tuple[str, Text] | None = None

    def as_dict(self, lang: str) -> dict[str, Any]:
        return {
            "chance": float(self.chance),
            "chance_fraction": f"{self.chance.numerator}/{self.chance.denominator}",
            "story": [line.fr if lang == "fr" else line.en for line in self.story],
            "refused": None
            if self.refused is None
            else {"rule_id": self.refused[0], "message": self.refused[1].fr if lang == "fr" else self.refused[1].en},
        }


@dataclass(slots=True)
class Judgement:
    players: tuple[str, ...]
    ruleset: str
    unseen: Counter[Card]
    places: int
    cases: list[Case] = field(default_factory=list)
    ways: int = 0
    complete: bool = True


# -- reading the file ----------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Position:
    state_args: dict[str, Any]
    unknown_hands: list[int]
    deck_size: int
    set_aside: Card | None
    unseen: Counter[Card]
    places: int


def _position(doc: Any) -> tuple[Reader, _Position, list[Command]]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise SituationError(
            Text(f"a situation file has format {FORMAT!r}", f"un fichier de situation a le format « {FORMAT} »")
        )
    reader = Reader({**doc, "format": "loveletter-transcript", "rounds": []})
    rs = RULESETS.get(str(doc.get("ruleset", "2019")))
    if rs is None:
        raise SituationError(Text("unknown ruleset", "jeu de règles inconnu"), where="$.ruleset")
    pos = doc.get("position")
    if not isinstance(pos, dict):
        raise SituationError(
            Text("$.position must be an object", "« $.position » doit être un objet"), where="$.position"
        )
    players = tuple(reader.players)
    n = len(players)
    active = reader.seat(pos.get("to_play"), "$.position.to_play", "turn.order")
    out = [False] * n
    for name in pos.get("out", []):
        out[reader.seat(name, "$.position.out", "turn.order")] = True
    protected = [False] * n
    for name in pos.get("protected", []):
        protected[reader.seat(name, "$.position.protected", "turn.order")] = True
    front: list[tuple[Card, ...]] = [()] * n
    for name, cards in dict(pos.get("front", {})).items():
        front[reader.seat(name, f"$.position.front.{name}", "turn.order")] = reader.cards(
            cards, f"$.position.front.{name}", "position.possible"
        )
    favors = [0] * n
    for name, count in dict(pos.get("favors", {})).items():
        favors[reader.seat(name, f"$.position.favors.{name}", "turn.order")] = int(count)
    hands: list[tuple[Card, ...] | None] = [None] * n
    for name, cards in dict(pos.get("hands", {})).items():
        seat = reader.seat(name, f"$.position.hands.{name}", "turn.order")
        written = cards if isinstance(cards, list) else [cards]
        hands[seat] = reader.cards(written, f"$.position.hands.{name}", "position.possible")
    if hands[active] is None:
        raise SituationError(
            Text("the hand of the player to play must be written", "la main du joueur qui doit jouer doit être écrite"),
            where="$.position.hands",
        )
    unknown_hands = [i for i in range(n) if hands[i] is None and not out[i]]
    face_up = reader.cards(pos.get("face_up", []), "$.position.face_up", "position.possible")
    set_aside_doc = pos.get("set_aside", "?")
    set_aside = (
        None if set_aside_doc == "?" else reader.card(set_aside_doc, "$.position.set_aside", "position.possible")
    )
    deck_size = pos.get("deck_size")
    if not isinstance(deck_size, int) or deck_size < 0:
        raise SituationError(
            Text("$.position.deck_size must be a whole number", "« $.position.deck_size » doit être un nombre entier"),
            where="$.position.deck_size",
        )
    known = [*face_up, *(c for f in front for c in f), *(c for h in hands if h for c in h)]
    if set_aside is not None:
        known.append(set_aside)
    places = len(unknown_hands) + deck_size + (set_aside is None)
    sizes = [len(h) if h is not None else (0 if out[i] else 1) for i, h in enumerate(hands)]
    try:
        unseen = check_position(rs, known, places, sizes, out, active)
    except RuleViolation as v:
        raise SituationError(Text(v.en, v.fr), v.rule_id, "$.position") from None
    round_no = pos.get("round", 1)
    args = {
        "rs": rs,
        "options": Options.from_dict({str(k): str(v) for k, v in dict(doc.get("options", {})).items()}),
        "players": players,
        "round_no": round_no if isinstance(round_no, int) and round_no > 0 else 1,
        "favors": tuple(favors),
        "active": active,
        "hands": hands,
        "front": tuple(front),
        "out": tuple(out),
        "protected": tuple(protected),
        "face_up": face_up,
    }
    commands = _turns(reader, doc.get("turns", []))
    return reader, _Position(args, unknown_hands, deck_size, set_aside, unseen, places), commands


def _turns(reader: Reader, turns: Any) -> list[Command]:
    if not isinstance(turns, list):
        raise SituationError(Text("$.turns must be a list", "« $.turns » doit être une liste"), where="$.turns")
    commands: list[Command] = []
    for i, turn in enumerate(turns):
        here = f"$.turns[{i}]"
        play, raw = reader.play(turn, here)
        commands.append(play)
        if "keep" in raw:
            keep = reader.card(raw["keep"], f"{here}.keep", "chancellor.return")
            bottom = reader.cards(raw.get("bottom", []), f"{here}.bottom", "chancellor.return")
            commands.append(ReturnCards(play.player, keep, bottom))
    return commands


# -- judging every way the unknown cards can lie --------------------------------------------------------------------


def judge(doc: Any) -> Judgement:
    """Every public story the turns tell from the described position, with its chance; `SituationError` when the
    file cannot be read or the position cannot happen."""
    try:
        reader, pos, commands = _position(doc)
    except (TranscriptFormatError, TranscriptMistake) as exc:
        raise SituationError(exc.text, getattr(exc, "rule_id", None), getattr(exc, "where", None)) from None
    result = Judgement(tuple(reader.players), pos.state_args["rs"].id, pos.unseen, pos.places)
    stories: dict[tuple[tuple[Text, ...], tuple[str, Text] | None], Fraction] = {}

    def play(chosen: list[Card], weight: Fraction) -> None:
        """Lay the cards chosen so far (unknown hands, then the deck from its top), fill the rest in any order, play
        the turns; if they reached a card that was not chosen, choose it too, every way it can be."""
        if result.ways >= MAX_WAYS:
            result.complete = False
            return
        left = pos.unseen.copy()
        left.subtract(chosen)
        filler = sorted(left.elements())
        cards = chosen + filler
        state, reached = _lay(pos, cards)
        events, refused, used = _play(state, commands)
        if used + reached > len(chosen) and len(chosen) < pos.places:
            total = sum(left.values())
            for card in sorted(left):
                if left[card]:
                    play([*chosen, card], weight * Fraction(left[card], total))
            return
        result.ways += 1
        key = (_story(state, events), refused)
        stories[key] = stories.get(key, Fraction(0)) + weight

    play([], Fraction(1))
    result.cases = [Case(chance, story, refused) for (story, refused), chance in stories.items()]
    result.cases.sort(key=lambda c: (-c.chance, [line.en for line in c.story]))
    return result


def _lay(pos: _Position, cards: list[Card]) -> tuple[GameState, int]:
    """The state with `cards` in the unknown places: the unknown hands in seat order, then the deck from its top,
    then the set-aside card; and how many places a state needs chosen before any play (the unknown hands)."""
    hands = list(pos.state_args["hands"])
    k = 0
    for seat in pos.unknown_hands:
        hands[seat] = (cards[k],)
        k += 1
    hands = [h if h is not None else () for h in hands]
    deck = tuple(cards[k : k + pos.deck_size])
    k += pos.deck_size
    set_aside = pos.set_aside if pos.set_aside is not None else (cards[k] if k < len(cards) else None)
    args = {**pos.state_args, "hands": tuple(hands), "deck": deck, "set_aside": set_aside}
    return position_state(**args), len(pos.unknown_hands)


def _play(state: GameState, commands: list[Command]) -> tuple[list[Event], tuple[str, Text] | None, int]:
    """Play the turns: the events, the refusal that stopped them (rule id, message), and how many deck cards (and
    the set-aside card, counted last) the play reached."""
    events: list[Event] = []
    refused = None
    deck_before = len(state.deck)
    for command in commands:
        try:
            new = decide(state, command)
        except RuleViolation as v:
            refused = (v.rule_id, Text(v.en, v.fr))
            break
        events.extend(new)
        state = fold(new, state)
        if state.phase == "deal" or state.over:
            break
    reached = state.drawn + (1 if state.set_aside is None and deck_before == state.drawn else 0)
    return events, refused, reached


def _story(start: GameState, events: list[Event]) -> tuple[Text, ...]:
    """What the whole table saw, in both languages (the set-aside card shown at a round's end left out: it would
    split one story into as many as there are cards it could be)."""
    public = [replace(e, set_aside=None) if isinstance(e, RoundEnded) else e for e in events]
    told = []
    for lang in ("en", "fr"):
        narrator = Narrator(lang)
        assert start.ruleset is not None
        narrator.rs, narrator.players, narrator.round, narrator.turn = start.ruleset, start.players, start.round, 1
        told.append([line.strip() for line in narrate(public, lang, narrator=narrator)])
    return tuple(Text(en, fr) for en, fr in zip(*told, strict=True))


def describe(result: Judgement, lang: str = "en") -> list[str]:
    """The answer as lines of text."""
    fr = lang == "fr"
    unknown = sum(result.unseen.values())
    out = [
        f"Position possible : {unknown} cartes non vues pour {result.places} places inconnues ; "
        f"{result.ways} façons de les disposer jouées."
        if fr
        else f"The position is possible: {unknown} unseen cards for {result.places} unknown places; "
        f"{result.ways} ways of laying them played out."
    ]
    if not result.complete:
        out.append("(arrêté avant d'avoir tout joué)" if fr else "(stopped before playing every way out)")
    for case in result.cases:
        share = f"{case.chance.numerator}/{case.chance.denominator}"
        pct = f"{float(case.chance) * 100:.1f} %".replace(".", ",") if fr else f"{float(case.chance) * 100:.1f}%"
        out.append(f"• {share} ({pct}) :" if fr else f"• {share} ({pct}):")
        out += [f"    {line.fr if fr else line.en}" for line in case.story]
        if case.refused is not None:
            rule_id, message = case.refused
            text = RULES[rule_id].text("fr" if fr else "en")
            out.append(f"    refusé — {rule_id} : {message.fr}" if fr else f"    refused — {rule_id}: {message.en}")
            out.append(f"    ({text})")
    return out
