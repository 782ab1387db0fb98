"""A game log told as a story, in English or French, one line per public happening.

    Manche 2, tour 3 — Alice joue le Garde sur Bob et nomme le Prêtre : raté.

The narrative shows what the whole table saw (RULINGS §10): private cards stay hidden, except at
the end of a round when hands and the set-aside card are revealed. Lines an audit flagged are marked.
An omniscient narrator (`loveletter demo`) also tells every draw and every private look.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime

from loveletter.core.cards import Card
from loveletter.core.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    ClockRanOut,
    ClockSet,
    Event,
    FavorGained,
    GameAborted,
    GameEnded,
    GameStarted,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    PlayerResigned,
    RoundEnded,
    RoundStarted,
    SeatJoined,
    SeedContributed,
    SeedRevealed,
    TurnStarted,
)
from loveletter.core.lang import de, plural_fr
from loveletter.core.rulesets import RULESETS, Ruleset
from loveletter.events.codec import quoted_fr
from loveletter.replays.outcomes import round_outcomes


def _cards_en(n: int) -> str:
    """A count of cards as English says it: 1 card, 2 cards."""
    return f"{n} card" if n == 1 else f"{n} cards"


def clock_time(ms: int) -> str:
    """A recorded time as people read it: 2026-11-24 06:30:05 UTC."""
    try:
        return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    except (OverflowError, OSError, ValueError):
        return str(ms)


def _and_fr(items: Sequence[str]) -> str:
    """« Ann », « Ann et Bob », « Ann, Bob et Cleo »."""
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} et {items[-1]}"


class Narrator:
    def __init__(self, lang: str = "en", *, omniscient: bool = False, names: Sequence[str] = ()) -> None:
        self.fr = lang == "fr"
        self.omniscient = omniscient
        self.names = tuple(names)
        self.rs: Ruleset = RULESETS["2019"]
        self.players: tuple[str, ...] = ()
        self.round = 0
        self.turn = 0
        self.pending: CardPlayed | None = None

    def card(self, card: Card) -> str:
        """The card's name in this edition, with its article: "the Guard", « la Garde Odette », « l'Ogre »."""
        return self.rs.the(card, "fr" if self.fr else "en")

    def who(self, seat: int) -> str:
        return self.players[seat] if 0 <= seat < len(self.players) else f"#{seat}"

    def prefix(self) -> str:
        if self.fr:
            return f"Manche {self.round}, tour {self.turn} — "
        return f"Round {self.round}, turn {self.turn} — "

    def line(self, event: Event) -> str | None:
        fr = self.fr
        if isinstance(event, GameStarted):
            self.rs = RULESETS.get(event.ruleset, self.rs)
            self.players = self.names[: len(event.players)] if self.names else event.players
            open_seat = "(siège ouvert)" if fr else "(open seat)"
            names = ", ".join(name or open_seat for name in self.players)
            kind = (" (scénario)" if fr else " (scenario)") if event.scenario else ""
            if fr:
                ruleset = self.rs.id if self.rs.id.isdigit() else quoted_fr(self.rs.id)  # « princess-princess »
                return f"Partie {ruleset}{kind} : {names}."
            return f"Game {self.rs.id}{kind}: {names}."
        if isinstance(event, RoundStarted):
            self.round, self.turn = event.round, 0
            first = self.who(event.first_player)
            up = ", ".join(self.card(c) for c in event.face_up)
            extra = (f" Cartes face visible : {up}." if fr else f" Face up: {up}.") if up else ""
            if self.omniscient:
                if fr:
                    dealt = ", ".join(
                        f"{self.who(i)} reçoit {self.card(c)}" for i, c in enumerate(event.hands) if c is not None
                    )
                    extra += f" Donne : {dealt}."
                else:
                    dealt = ", ".join(
                        f"{self.who(i)} {self.card(c)}" for i, c in enumerate(event.hands) if c is not None
                    )
                    extra += f" Dealt: {dealt}."
            if fr:
                return f"Manche {event.round} : {first} commence.{extra}"
            return f"Round {event.round}: {first} plays first.{extra}"
        if isinstance(event, TurnStarted):
            self.turn += 1
            if self.omniscient:
                p = self.who(event.player)
                return f"    ({p} pioche {self.card(event.card)})" if fr else f"    ({p} draws {self.card(event.card)})"
            return None
        if isinstance(event, CardPlayed):
            self.pending = event
            return self.prefix() + self.play(event)
        if isinstance(event, HandSeen):
            if not self.omniscient:
                return None
            p, t, c = self.who(event.player), self.who(event.target), self.card(event.card)
            return f"    ({p} voit {c} dans la main {de(t)})" if fr else f"    ({p} sees {c} in {t}'s hand)"
        if isinstance(event, HandsCompared):
            if not self.omniscient:
                return None
            p, t = self.who(event.player), self.who(event.target)
            pc, tc = self.card(event.player_card), self.card(event.target_card)
            if fr:
                return f"    ({p}, avec {pc}, contre {t}, avec {tc})"
            return f"    ({p} with {pc} against {t} with {tc})"
        if isinstance(event, HandsTraded):
            p, t = self.who(event.player), self.who(event.target)
            if self.omniscient:
                pc, tc = self.card(event.player_card), self.card(event.target_card)
                if fr:
                    return f"    {p} donne {pc} à {t} et reçoit {tc}."
                return f"    {p} gives {pc} to {t} and gets {tc}."
            return f"    {p} et {t} échangent leurs mains." if fr else f"    {p} and {t} trade hands."
        if isinstance(event, HandDiscarded):
            p = self.who(event.player)
            return f"    {p} défausse {self.card(event.card)}." if fr else f"    {p} discards {self.card(event.card)}."
        if isinstance(event, CardDrawn):
            p = self.who(event.player)
            if self.omniscient:
                what = self.card(event.card)
                where = ("la carte mise de côté" if fr else "the set-aside card") if event.source == "set-aside" else ""
                if fr:
                    return f"    {p} pioche {what}" + (f" ({where})." if where else ".")
                return f"    {p} draws {what}" + (f" ({where})." if where else ".")
            if event.source == "set-aside":
                return f"    {p} pioche la carte mise de côté." if fr else f"    {p} draws the set-aside card."
            return f"    {p} pioche une nouvelle carte." if fr else f"    {p} draws a new card."
        if isinstance(event, ChancellorDrew):
            p, n = self.who(event.player), len(event.cards)
            if self.omniscient:
                drawn = [self.card(c) for c in event.cards]
                return f"    {p} pioche {_and_fr(drawn)}." if fr else f"    {p} draws {', '.join(drawn)}."
            return f"    {p} pioche {plural_fr(n, 'carte', 'cartes')}." if fr else f"    {p} draws {_cards_en(n)}."
        if isinstance(event, ChancellorReturned):
            p, n = self.who(event.player), len(event.bottom)
            if self.omniscient:
                kept, under = self.card(event.kept), ", ".join(self.card(c) for c in event.bottom)
                if fr:
                    return f"    {p} garde {kept} et place sous la pioche : {under}."
                return f"    {p} keeps {kept} and puts under the deck: {under}."
            if fr:
                return f"    {p} remet {plural_fr(n, 'carte', 'cartes')} sous la pioche."
            return f"    {p} puts {_cards_en(n)} under the deck."
        if isinstance(event, PlayerEliminated):
            p = self.who(event.player)
            shown = ", ".join(self.card(c) for c in event.cards)
            tail = (f" (main : {shown})" if fr else f" (hand: {shown})") if shown else ""
            return f"    {p} quitte la manche{tail}." if fr else f"    {p} is out of the round{tail}."
        if isinstance(event, RoundEnded):
            won_by = [self.who(w) for w in event.winners]
            winners = _and_fr(won_by) if fr else ", ".join(won_by) or "nobody"
            how = {
                "last-standing": ("dernier en lice" if fr else "last one standing"),
                "deck-out": ("pioche épuisée" if fr else "the deck ran out"),
            }[event.reason]
            reveal = ""
            if event.hands:
                has = " a " if fr else " "  # « Ann a le Garde » / "Ann the Guard"
                held = ", ".join(
                    f"{self.who(i)}{has}{self.card(c)}" for i, c in enumerate(event.hands) if c is not None
                )
                reveal = f" Mains révélées : {held}." if fr else f" Hands revealed: {held}."
            aside = ""
            if event.set_aside is not None:
                aside = (
                    f" Carte mise de côté : {self.card(event.set_aside)}."
                    if fr
                    else f" Set-aside card: {self.card(event.set_aside)}."
                )
            if fr:
                n = len(event.winners)
                won = "personne ne la remporte" if n == 0 else f"{winners} la remporte" + ("nt" if n > 1 else "")
                return f"Fin de la manche {event.round} ({how}) : {won}.{reveal}{aside}"
            return f"End of round {event.round} ({how}): {winners} won.{reveal}{aside}"
        if isinstance(event, FavorGained):
            p = self.who(event.player)
            why = {
                "round": ("manche gagnée" if fr else "round won"),
                "spy": ("Espionne" if fr else "Spy"),
                "amira-sadie": "Amira & Sadie",
            }[event.reason]
            return f"    {p} gagne un pion Faveur ({why})." if fr else f"    {p} gains a favor ({why})."
        if isinstance(event, SeedContributed):
            p = self.who(event.player)
            return f"{p} ajoute sa graine au mélange." if fr else f"{p} adds a seed of their own to the shuffle."
        if isinstance(event, SeedRevealed):
            short = event.seed[:12]
            if fr:
                return f"L'arbitre révèle sa graine ({short}…) : chaque paquet peut être vérifié."
            return f"The referee reveals its seed ({short}…): every deck can now be checked."
        if isinstance(event, SeatJoined):
            if not self.names and 0 <= event.player < len(self.players):
                self.players = (*self.players[: event.player], event.name, *self.players[event.player + 1 :])
            p = self.who(event.player)
            return f"{p} prend le siège {event.player}." if fr else f"{p} takes seat {event.player}."
        if isinstance(event, ClockSet):
            p, when = self.who(event.player), clock_time(event.deadline)
            return f"    ({p} doit décider avant {when}.)" if fr else f"    ({p} must decide by {when}.)"
        if isinstance(event, ClockRanOut):
            p = self.who(event.player)
            return f"    Le temps de {p} est écoulé." if fr else f"    {p}'s time has run out."
        if isinstance(event, PlayerResigned):
            p = self.who(event.player)
            shown = ", ".join(self.card(c) for c in event.cards)
            if fr:
                why = "temps écoulé" if event.reason == "timeout" else "abandon"
                tail = f" et défausse {shown}" if shown else ""
                return f"    {p} quitte la partie ({why}){tail}."
            why = "time ran out" if event.reason == "timeout" else "resigned"
            tail = f" and discards {shown}" if shown else ""
            return f"    {p} leaves the game ({why}){tail}."
        if isinstance(event, GameAborted):
            when = clock_time(event.at)
            if event.reason == "seats_unfilled":
                if fr:
                    return f"Partie annulée : un siège était encore libre à l'échéance ({when})."
                return f"Game aborted: a seat was still open at its deadline ({when})."
            return f"Partie annulée par l'organisateur ({when})." if fr else f"Game aborted by its organiser ({when})."
        if isinstance(event, GameEnded):
            won_by = [self.who(w) for w in event.winners]
            winners = _and_fr(won_by) if fr else ", ".join(won_by)
            if fr:
                return f"Fin de la partie : {winners} {'gagnent' if len(event.winners) > 1 else 'gagne'}."
            return f"Game over: {winners} won."
        return None

    def play(self, e: CardPlayed) -> str:
        fr = self.fr
        p, c = self.who(e.player), self.card(e.card)
        text = f"{p} joue {c}" if fr else f"{p} plays {c}"
        if e.target is not None:
            if e.target == e.player:
                text += " en se désignant" if fr else " on themselves"
            else:
                text += f" sur {self.who(e.target)}" if fr else f" on {self.who(e.target)}"
        if e.guess is not None:
            text += f" et nomme {self.card(e.guess)}" if fr else f" and names {self.card(e.guess)}"
        elif e.target is None and e.card in (Card.GUARD, Card.PRIEST, Card.BARON, Card.KING):
            text += " sans effet (personne à cibler)" if fr else " with no effect (nobody to choose)"
        return text


def narrate(
    events: Iterable[Event],
    lang: str = "en",
    flagged: Sequence[int] = (),
    *,
    omniscient: bool = False,
    names: Sequence[str] = (),
    narrator: Narrator | None = None,
) -> list[str]:
    """The story of `events`; seqs in `flagged` get a ⚠ mark (an audit found a problem there).
    `omniscient` also tells the hidden cards; `names` replaces the players' names; `narrator`, one already told
    where the game stands, tells events that do not start at the game's creation."""
    narrator = narrator or Narrator(lang, omniscient=omniscient, names=names)
    lines: list[str] = []
    marks = set(flagged)
    events = list(events)
    outcomes = iter(round_outcomes(events))
    eliminations: list[dict[str, object]] = []
    sums: object = None
    fr = lang == "fr"
    for seq, event in enumerate(events, start=1):
        text = narrator.line(event)
        if isinstance(event, RoundStarted):
            outcome = next(outcomes, None)
            eliminations = list(outcome["eliminations"]) if outcome else []
            sums = outcome["discard_sums"] if outcome else None
        elif isinstance(event, PlayerEliminated) and eliminations:
            how = eliminations.pop(0).get("princess")
            if how == "discarded" and text:  # the dispute is often exactly this: played, or discarded to a Prince?
                text = text[:-1] + (" — Princesse défaussée." if fr else " — the Princess was discarded.")
        elif isinstance(event, RoundEnded) and isinstance(sums, dict) and text:
            shown = ", ".join(f"{name} {total}" for name, total in sums.items())
            text += f" Sommes des défausses : {shown}." if fr else f" Discard sums: {shown}."
        if isinstance(event, CardPlayed) and event.card is Card.GUARD and event.target is not None:
            nxt = events[seq] if seq < len(events) else None
            hit = isinstance(nxt, PlayerEliminated) and nxt.player == event.target
            text = f"{text} : touché !" if lang == "fr" and hit else f"{text}: hit!" if hit else text
            if not hit:
                text = f"{text} : raté." if lang == "fr" else f"{text}: miss."
        elif isinstance(event, CardPlayed) and event.card is Card.BARON and event.target is not None:
            out = [e for e in events[seq : seq + 2] if isinstance(e, PlayerEliminated)]
            if not out:
                tie_fr = f"{text} : égalité, personne ne quitte la manche."
                text = tie_fr if lang == "fr" else f"{text}: a tie, nobody is out."
            else:
                text = f"{text}."
        elif isinstance(event, CardPlayed) and text and not text.endswith("."):
            text += "."
        if seq in marks:
            text = (f"⚠ [événement {seq}] " if lang == "fr" else f"⚠ [seq {seq}] ") + (text or type(event).TYPE)
        if text:
            lines.append(text)
    return lines
