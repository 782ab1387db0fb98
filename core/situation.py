"""A position as a table describes it ("we were in round 2, Ann to play…"), made into a state the rules can judge.

A log starts from the game's creation; a dispute often starts in the middle of a round. `position_state` builds the
state of such a moment from every zone, all cards known (the caller fills the unknown ones, case by case), so
`decide` judges the moves that follow exactly as it judges a logged game. `check_position` says whether a described
position can happen at all, by the ruleset's card counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from loveletter.core.cards import Card
from loveletter.core.lang import plural_en, plural_fr
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import Options, Ruleset
from loveletter.core.state import INITIAL, PHASE_PLAY, GameState


def check_position(
    rs: Ruleset,
    known: Sequence[Card],
    unknown_places: int,
    hand_sizes: Sequence[int],
    out: Sequence[bool],
    active: int,
) -> Counter[Card]:
    """The cards nobody has seen (what fills the unknown places), or `RuleViolation` under `position.possible`."""
    for seat, size in enumerate(hand_sizes):
        want = 0 if out[seat] else 2 if seat == active else 1
        if size != want:
            raise RuleViolation(
                "impossible_position",
                "position.possible",
                f"seat {seat} holds {plural_en(size, 'card', 'cards')} where the position needs {want}",
                f"le siège {seat} tient {plural_fr(size, 'carte', 'cartes')} là où la position en demande {want}",
            )
    if out[active]:
        raise RuleViolation(
            "impossible_position",
            "position.possible",
            f"seat {active} is to play but is out of the round",
            f"le siège {active} doit jouer mais a quitté la manche",
        )
    unseen = Counter(rs.deck)
    unseen.subtract(known)
    extra = sorted(card.value for card, n in unseen.items() if n < 0)
    if extra:
        raise RuleViolation(
            "impossible_position",
            "position.possible",
            f"more copies than the {rs.id} deck holds: {', '.join(extra)}",
            f"plus d'exemplaires que le paquet « {rs.id} » n'en compte : {', '.join(extra)}",
        )
    left = sum(unseen.values())
    if left != unknown_places:
        raise RuleViolation(
            "impossible_position",
            "position.possible",
            f"the {rs.id} deck leaves {plural_en(left, 'card', 'cards')} not written for "
            f"{plural_en(unknown_places, 'unknown place', 'unknown places')}",
            f"le paquet « {rs.id} » laisse {plural_fr(left, 'carte non écrite', 'cartes non écrites')} pour "
            f"{plural_fr(unknown_places, 'place inconnue', 'places inconnues')}",
        )
    return +unseen


def position_state(
    rs: Ruleset,
    options: Options,
    players: tuple[str, ...],
    *,
    round_no: int,
    favors: tuple[int, ...],
    active: int,
    hands: tuple[tuple[Card, ...], ...],
    front: tuple[tuple[Card, ...], ...],
    out: tuple[bool, ...],
    protected: tuple[bool, ...],
    face_up: tuple[Card, ...],
    set_aside: Card | None,
    deck: tuple[Card, ...],
) -> GameState:
    """The state of a described moment: `active` holds two cards and must play one; nobody knows another's hand."""
    n = len(players)
    s = INITIAL.thaw()
    s.ruleset, s.options, s.players, s.scenario = rs, options, players, True
    s.favors, s.round, s.phase, s.active = favors, round_no, PHASE_PLAY, active
    s.deck, s.drawn, s.set_aside, s.face_up = deck, 0, set_aside, face_up
    s.hands, s.front, s.out, s.protected = hands, front, out, protected
    s.knows = ((None,) * n,) * n
    s.deck_known = ((),) * n
    s.seat_seeds = (None,) * n
    s.resigned = (False,) * n
    return s.freeze()
