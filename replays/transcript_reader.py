"""Reading a transcript (docs/transcripts.md): its shape checked, and its players, cards and decisions read into the
core's commands. A name that is no card or nobody at the table is a `TranscriptMistake`, judged where it stands; a
document that is not a transcript at all is a `TranscriptFormatError`. `transcript.expand` judges what is read."""

from __future__ import annotations

from collections import Counter
from typing import Any

import orjson

from loveletter.core.cards import Card
from loveletter.core.commands import DealRound, PlayCard, StartGame
from loveletter.core.lang import BilingualError, Text
from loveletter.core.rulesets import RULESETS
from loveletter.events.codec import quoted_fr
from loveletter.replays.names import card_named, nearest, not_a_card
from loveletter.replays.replay import Problem

FORMAT = "loveletter-transcript"


class TranscriptFormatError(BilingualError):
    """A transcript that cannot be read; `where` is the JSON path of the bad part."""

    def __init__(self, where: str, message: Text | str) -> None:
        reason = message if isinstance(message, Text) else Text(message, message)
        super().__init__(Text(f"{where}: {reason.en}", f"{where} : {reason.fr}"))
        self.where = where
        self.reason = reason.en
        self.reason_text = reason


class TranscriptMistake(BilingualError):
    """A decision written with a name that is no card, or nobody at the table: a violation of `rule_id` at
    `where`, not an unreadable file (a table disputes exactly such moves)."""

    def __init__(self, where: str, rule_id: str, code: str, message: Text) -> None:
        super().__init__(message)
        self.where = where
        self.rule_id = rule_id
        self.code = code

    def problem(self, seq: int) -> Problem:
        return Problem(self.rule_id, self.code, self.text.en, self.text.fr, where=self.where, seq=seq)


def parse_card(value: Any, where: str) -> Card:
    if (card := card_named(value)) is not None:
        return card
    raise TranscriptFormatError(where, not_a_card(value))


def _missing(where: str) -> TranscriptFormatError:
    return TranscriptFormatError(where, Text("missing", "absent"))


_TURN_FIELDS = ("player", "play", "target", "guess", "keep", "bottom", "note")


class Reader:
    def __init__(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            raise TranscriptFormatError(
                "$", Text("a transcript is a JSON object", "une transcription est un objet JSON")
            )
        if doc.get("format") != FORMAT:
            raise TranscriptFormatError("$.format", Text(f"must be {FORMAT!r}", f"doit valoir « {FORMAT} »"))
        if doc.get("version", 1) != 1:
            raise TranscriptFormatError(
                "$.version", Text("only version 1 is supported", "seule la version 1 est prise en charge")
            )
        players = doc.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise TranscriptFormatError(
                "$.players", Text("must be a list of player names", "doit être une liste de noms de joueurs")
            )
        self.doc = doc
        self.players: list[str] = players

    def seat(self, value: Any, where: str, rule_id: str = "turn.order") -> int:
        """A player by name or seat number; anybody else is a mistake judged under `rule_id`."""
        if value is None:
            raise _missing(where)
        if isinstance(value, bool):
            pass
        elif isinstance(value, int) and 0 <= value < len(self.players):
            return value
        elif isinstance(value, str) and value in self.players:
            return self.players.index(value)
        names = ", ".join(self.players)
        near = nearest(value, self.players)
        if near is not None:
            message = Text(
                f"{value!r} is nobody at this table ({names}): did you mean {near}?",
                f"{quoted_fr(value)} n'est pas un joueur de cette partie ({names}) : vouliez-vous dire {near} ?",
            )
        else:
            message = Text(
                f"{value!r} is nobody at this table ({names})",
                f"{quoted_fr(value)} n'est pas un joueur de cette partie ({names})",
            )
        raise TranscriptMistake(where, rule_id, "unknown_player", message)

    def card(self, value: Any, where: str, rule_id: str) -> Card:
        """A card by id or name; a name that is no card is a mistake judged under `rule_id`."""
        if value is None:
            raise _missing(where)
        try:
            return parse_card(value, where)
        except TranscriptFormatError as exc:
            raise TranscriptMistake(where, rule_id, "unknown_card", exc.reason_text) from None

    def cards(self, value: Any, where: str, rule_id: str) -> tuple[Card, ...]:
        if not isinstance(value, list):
            raise TranscriptFormatError(where, Text("must be a list of cards", "doit être une liste de cartes"))
        return tuple(self.card(v, f"{where}[{i}]", rule_id) for i, v in enumerate(value))

    def start(self) -> StartGame:
        ruleset = self.doc.get("ruleset", "2019")
        options = self.doc.get("options", {})
        if not isinstance(ruleset, str):
            raise TranscriptFormatError(
                "$.ruleset",
                Text(
                    "must be a ruleset id such as '2019'",
                    "doit être l'identifiant d'un jeu de règles, par exemple « 2019 »",
                ),
            )
        if not isinstance(options, dict):
            raise TranscriptFormatError(
                "$.options",
                Text("must be an object of rule options", "doit être un objet JSON qui donne les options de règles"),
            )
        first = self.doc.get("first_player")
        return StartGame(
            ruleset=ruleset,
            players=tuple(self.players),
            options={str(k): str(v) for k, v in options.items()},
            first_player=None if first is None else self.seat(first, "$.first_player", "setup.first-player"),
            scenario=True,
        )

    def deal(self, rnd: Any, where: str) -> DealRound:
        if not isinstance(rnd, dict):
            raise TranscriptFormatError(
                where,
                Text(
                    "a round is an object with deal, first_player and turns",
                    "une manche est un objet avec « deal », « first_player » et « turns »",
                ),
            )
        deal = rnd.get("deal")
        if not isinstance(deal, dict):
            raise TranscriptFormatError(
                f"{where}.deal",
                Text(
                    "must be an object: set_aside, face_up, hands, deck",
                    "doit être un objet : « set_aside », « face_up », « hands », « deck »",
                ),
            )
        hands_doc = deal.get("hands")
        if not isinstance(hands_doc, dict):
            raise TranscriptFormatError(
                f"{where}.deal.hands",
                Text(
                    "must map each player to the card dealt to them",
                    "doit associer à chaque joueur la carte qui lui a été distribuée",
                ),
            )
        hands: list[Card | None] = [None] * len(self.players)
        for who, card in hands_doc.items():
            seat = self.seat(who, f"{where}.deal.hands.{who}", "setup.deal")
            hands[seat] = self.card(card, f"{where}.deal.hands.{who}", "setup.deal")
        missing = [self.players[i] for i, h in enumerate(hands) if h is None]
        if missing:
            names = ", ".join(missing)
            raise TranscriptFormatError(
                f"{where}.deal.hands", Text(f"no card dealt to {names}", f"aucune carte distribuée à {names}")
            )
        if "first_player" not in rnd:
            raise TranscriptFormatError(
                f"{where}.first_player",
                Text("each round names its first player", "chaque manche doit nommer son premier joueur"),
            )
        set_aside = self.maybe_card(deal.get("set_aside"), f"{where}.deal.set_aside")
        face_up = deal.get("face_up", [])
        if not isinstance(face_up, list):
            raise TranscriptFormatError(
                f"{where}.deal.face_up", Text("must be a list of cards", "doit être une liste de cartes")
            )
        removed = [self.maybe_card(v, f"{where}.deal.face_up[{i}]") for i, v in enumerate(face_up)]
        dealt = tuple(h for h in hands if h is not None)
        deck = self.cards(deal.get("deck"), f"{where}.deal.deck", "setup.deal")
        if set_aside is None or None in removed:
            set_aside, removed = self.inferred(set_aside, removed, (*dealt, *deck), f"{where}.deal")
        return DealRound(
            set_aside=set_aside,
            face_up=tuple(c for c in removed if c is not None),
            hands=dealt,
            deck=deck,
            first_player=self.seat(rnd["first_player"], f"{where}.first_player", "setup.first-player"),
        )

    def maybe_card(self, value: Any, where: str) -> Card | None:
        """A card, or None for one the table did not see: `"?"` (a card set aside face down, or the 2-player
        setup's removed cards when a table plays them hidden)."""
        if value == "?":
            return None
        return self.card(value, where, "setup.deal")

    def inferred(
        self, set_aside: Card | None, removed: list[Card | None], known: tuple[Card, ...], where: str
    ) -> tuple[Card, list[Card | None]]:
        """The cards written `"?"`: with every other card of the round written down, the ruleset's deck leaves
        exactly one way to fill them (their order among themselves does not matter to the rules); otherwise the
        deal is not a deal of this ruleset."""
        rs = RULESETS.get(str(self.doc.get("ruleset", "2019")))
        if rs is None:
            raise TranscriptFormatError("$.ruleset", Text("unknown ruleset", "jeu de règles inconnu"))
        left = Counter(rs.deck)
        left.subtract([*known, *(c for c in removed if c is not None), *([set_aside] if set_aside else [])])
        pool = sorted(left.elements())
        wanted = (set_aside is None) + removed.count(None)
        if any(n < 0 for n in left.values()) or len(pool) != wanted:
            raise TranscriptMistake(
                where,
                "setup.deal",
                "invalid_deal",
                Text(
                    f"the cards written '?' cannot be told: the cards written down leave {len(pool)} for "
                    f"{wanted} unknown places, or hold more copies of a card than the {rs.id} deck has",
                    f"les cartes notées « ? » ne peuvent pas être déduites : les cartes écrites en laissent "
                    f"{len(pool)} pour {wanted} places inconnues, ou comptent plus d'exemplaires d'une carte que le "
                    f"paquet « {rs.id} » n'en a",
                ),
            )
        if set_aside is None and removed.count(None) and len(set(pool)) > 1:
            raise TranscriptMistake(
                f"{where}.set_aside",
                "setup.deal",
                "invalid_deal",
                Text(
                    "the set-aside card and the removed cards are both unknown, and the deck leaves different cards "
                    "for them: write the set-aside card (it is shown at the end of the round)",
                    "la carte mise de côté face cachée et les cartes retirées sont toutes inconnues, et le paquet "
                    "laisse des cartes différentes pour elles : notez la carte mise de côté (elle est montrée à la fin "
                    "de la manche)",
                ),
            )
        if set_aside is None:
            set_aside = pool.pop(0)
        filled = [c if c is not None else pool.pop(0) for c in removed]
        return set_aside, list(filled)

    def play(self, turn: Any, where: str) -> tuple[PlayCard, dict[str, Any]]:
        if not isinstance(turn, dict):
            raise TranscriptFormatError(
                where,
                Text(
                    "a turn is an object: player, play, and target/guess/keep/bottom",
                    "un tour est un objet : « player », « play », et « target », « guess », « keep » ou « bottom »",
                ),
            )
        unknown = sorted(set(turn) - set(_TURN_FIELDS))
        if unknown:
            quoted = ", ".join(f"« {name} »" for name in unknown)
            near = nearest(unknown[0], _TURN_FIELDS)
            hint = Text(f" (did you mean {near}?)", f" (vouliez-vous dire « {near} » ?)") if near else Text("", "")
            raise TranscriptFormatError(
                where,
                Text(
                    f"unknown field(s) {', '.join(unknown)}{hint.en}",
                    (f"champ inconnu : {quoted}" if len(unknown) == 1 else f"champs inconnus : {quoted}") + hint.fr,
                ),
            )
        target = turn.get("target")
        guess = turn.get("guess")
        return (
            PlayCard(
                player=self.seat(turn.get("player"), f"{where}.player", "turn.order"),
                card=self.card(turn.get("play"), f"{where}.play", "turn.play-from-hand"),
                target=None if target is None else self.seat(target, f"{where}.target", "target.required"),
                guess=None if guess is None else self.card(guess, f"{where}.guess", "guard.guess"),
            ),
            turn,
        )

    def rounds(self) -> list[Any]:
        rounds = self.doc.get("rounds", [])
        if not isinstance(rounds, list):
            raise TranscriptFormatError("$.rounds", Text("must be a list of rounds", "doit être une liste de manches"))
        return rounds


def is_transcript(doc: Any) -> bool:
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def transcript_in(data: bytes | str) -> Any:
    """The transcript document `data` holds, or None when it is not one (a JSONL log, say); a text that looks
    like a transcript but is not JSON raises `orjson.JSONDecodeError`."""
    if isinstance(data, bytes):
        looks = data.lstrip().startswith(b"{") and f'"{FORMAT}"'.encode() in data
    else:
        looks = data.lstrip().startswith("{") and f'"{FORMAT}"' in data
    if not looks:
        return None
    doc = orjson.loads(data)
    return doc if is_transcript(doc) else None
