"""The review of a game as data: its header and one entry per decision, the JSON that `loveletter analyse --json`
prints and `GET /analyses/{id}` answers (docs/engine.md). Both call these functions, decision by decision, so
the same log, seat, budget and seed give the same JSON whichever asked.

An entry is a pure function of the game's events, the decision, the budget, the seed and the language (its worlds
widened where the verdict is in doubt, the same way every time: `review.settle`): the HTTP job computes each one in
a worker process of the thinking room (`play.thinking`, by `entry_at`: a state does not pickle, its events do), the
command line in its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, PlayerCommand
from loveletter.core.lang import Lang, Text, de, number, percent
from loveletter.core.legal import action_code, legal_moves, move_as_dict
from loveletter.core.rulesets import Ruleset, get_ruleset
from loveletter.core.views import View, view
from loveletter.play.engine.belief import can_hit
from loveletter.play.engine.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    OPPONENTS,
    ROUND_MARKS,
    WIDEN,
    Decision,
    Trial,
    decisions,
    settle,
)
from loveletter.replays.moves import describe_move
from loveletter.replays.position import position


def pct(x: float, lang: str) -> str:
    """0.05 -> "5.0%" ("5,0 %" in French)."""
    return percent(x, lang)


def model(budget: int) -> Text:
    """The sentence that states how the figures were made."""
    top = number(WIDEN * budget, "en")
    return Text(
        f"Model: every legal move is tried in {budget} worlds drawn from what the seat knew (never the hidden "
        f"cards), the others' hands dealt by how well each card explains what they played; then every seat, this "
        f"one included, plays {OPPONENTS} from its own view to the end of the round. Figures: chance of winning the "
        f"game (round won in brackets). Marks by what the move played gave up against the best move, of the "
        f"game's chance: inaccuracy from {pct(INACCURACY, 'en')}, mistake from {pct(MISTAKE, 'en')}, blunder from "
        f"{pct(BLUNDER, 'en')}; or of the round's, twice as much: {_round_marks('en')}; a Guard's guess that "
        f"cannot hit, where one at the same target could, is at least an inaccuracy. Where the mark is in doubt "
        f"(not the same two standard errors up or down), the moves that may change it are tried in twice the worlds, "
        f'again up to {top}; their number is then given, and "uncertain" if still in doubt.',
        f"Modèle : chaque coup légal est essayé dans {budget} mondes tirés de ce que le siège savait (jamais les "
        f"cartes cachées), la main des autres donnée selon ce que chaque carte explique de leur jeu ; puis chaque "
        f"siège, celui-ci compris, joue {OPPONENTS} d'après ce qu'il voit jusqu'à la fin de la manche. Chiffres : "
        f"chance de gagner la partie (manche gagnée entre parenthèses). Marques selon ce que le coup joué a perdu "
        f"face au meilleur coup, en chance de gagner la partie : imprécision dès {pct(INACCURACY, 'fr')}, erreur "
        f"dès {pct(MISTAKE, 'fr')}, gaffe dès {pct(BLUNDER, 'fr')} ; ou de la manche, deux fois plus : "
        f"{_round_marks('fr')} ; une supposition du Garde qui ne peut pas toucher, là où une autre sur la même "
        f"cible le pouvait, est au moins une imprécision. Quand la marque est douteuse (pas la même deux "
        f"écarts-types plus haut ou plus bas), les coups qui peuvent la changer sont essayés dans deux fois plus de "
        f"mondes, jusqu'à {number(WIDEN * budget, 'fr')} ; leur nombre est alors donné, et « incertain » si le doute "
        "demeure.",
    )


def _round_marks(lang: str) -> str:
    names = {"inaccuracy": "imprécision", "mistake": "erreur", "blunder": "gaffe"} if lang == "fr" else {}
    since = "dès" if lang == "fr" else "from"
    return ", ".join(f"{names.get(m, m)} {since} {pct(t, lang)}" for m, t in ROUND_MARKS.items())


def header(file: str | None, game: int | None, seat: str | None, budget: int, seed: int, lang: Lang) -> dict[str, Any]:
    """Everything a review says before its decisions: what was reviewed, how, and the marks' thresholds."""
    return {
        "file": file,
        "game": game,
        "seat": seat,
        "rollouts": budget,
        "seed": seed,
        "model": model(budget)(lang),
        "others": OPPONENTS,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE, "blunder": BLUNDER},
        "round_thresholds": dict(ROUND_MARKS),
        "max_rollouts": WIDEN * budget,
    }


def chosen(events: Sequence[Any], seat: int | None) -> list[Decision]:
    """The decisions reviewed: every one of `seat`'s (of every seat's when None), in the order of the game."""
    return [d for d in decisions(events) if seat is None or d.seat == seat]


def cannot_succeed(seen: View, move: PlayerCommand, lang: Lang) -> str | None:
    """Why `move` could not succeed, from what the seat knew when it chose (a Guard's guess that cannot hit, a Baron
    whose comparison is lost whatever the target holds), or None. Said whatever the rollouts make of the move: a
    reader is told the reason, not only the cost."""
    if not isinstance(move, PlayCard) or move.target is None:
        return None
    if move.card is Card.BARON:
        return _baron_loses(seen, move, lang)
    if move.card is not Card.GUARD or not move.guess or can_hit(seen, move.target, move.guess):
        return None
    rs = get_ruleset(seen.ruleset)
    target = seen.seats[move.target]
    if target.known_hand is not None:
        return Text(
            f"{target.name} holds {rs.the(target.known_hand)}, as this seat knew: this guess cannot hit",
            f"{target.name} a {rs.the(target.known_hand, 'fr')}, ce que ce siège savait : cette supposition ne peut "
            "pas toucher",
        )(lang)
    return Text(
        f"no {rs.name(move.guess)} is left unseen: this guess cannot hit",
        f"plus aucun exemplaire {de(rs.name(move.guess, 'fr'))} n'est inconnu de ce siège : cette supposition ne "
        "peut pas toucher",
    )(lang)


def _baron_loses(seen: View, move: PlayCard, lang: Lang) -> str | None:
    """Why a Baron's comparison is lost for certain: every card the target may hold beats the card kept."""
    assert move.target is not None
    rs = get_ruleset(seen.ruleset)
    hand = list(seen.hand)
    if move.card not in hand or len(hand) != 2:
        return None
    hand.remove(move.card)
    kept = hand[0]
    target = seen.seats[move.target]
    possible = [target.known_hand] if target.known_hand is not None else [c for c, n in seen.unseen.items() if n > 0]
    if not possible or any(rs.values[c] <= rs.values[kept] for c in possible):
        return None
    if target.known_hand is not None:
        return Text(
            f"{target.name} holds {rs.the(target.known_hand)}, as this seat knew, which beats {rs.the(kept)} kept: "
            "this Baron loses the comparison",
            f"{target.name} a {rs.the(target.known_hand, 'fr')}, qui {_beat(rs, target.known_hand)} "
            f"{rs.the(kept, 'fr')} restant en main, et ce siège le savait : ce Baron perd la comparaison",
        )(lang)
    return Text(
        f"every card left unseen beats {rs.the(kept)} kept: this Baron loses the comparison",
        f"toute carte encore inconnue de ce siège bat {rs.the(kept, 'fr')} restant en main : ce Baron perd la "
        "comparaison",
    )(lang)


def dominated(seen: View, move: PlayerCommand, moves: Sequence[PlayerCommand]) -> bool:
    """A Guard's guess that cannot hit where a guess at the same target that can was legal: at least an inaccuracy,
    whatever its cost (the expert never plays it)."""
    if not (isinstance(move, PlayCard) and move.card is Card.GUARD and move.target is not None and move.guess):
        return False
    if can_hit(seen, move.target, move.guess):
        return False
    return any(
        isinstance(m, PlayCard)
        and m.card is Card.GUARD
        and m.target == move.target
        and m.guess
        and can_hit(seen, m.target, m.guess)
        for m in moves
    )


def _beat(rs: Ruleset, card: Card) -> str:
    return "battent" if rs.plural(card, "fr") else "bat"


def entry(d: Decision, events: Sequence[Any], budget: int, seed: int, lang: Lang) -> dict[str, Any]:
    """One decision's entry: where it stands, the move played, and unless forced every legal move's figures from
    `budget` worlds seeded by `seed` and the decision's place (public: how many events came before), more where the
    played move's mark is in doubt (`review.settle`)."""
    rs = d.state.ruleset
    assert rs is not None
    moves = legal_moves(d.state, d.seat)
    played = action_code(d.played)

    def shown(move: Any) -> dict[str, Any]:
        fields = move_as_dict(d.state, move)
        return {**fields, "text": describe_move(fields, rs, lang)}

    seen = view(d.state, d.seat)
    out: dict[str, Any] = {
        "at": d.at,
        "round": d.state.round,
        "player": d.state.players[d.seat],
        "when": position(d.state, events[: d.at]).when(lang),
        "played": {**shown(d.played), "cannot_succeed": cannot_succeed(seen, d.played, lang)},
        "forced": len(moves) == 1,
    }
    if len(moves) < 2:
        return out
    trial = Trial(seen, moves, random.Random(f"{seed}/{d.at}"))
    mine = next((i for i, m in enumerate(moves) if action_code(m) == played), None)
    if mine is None:  # not a legal move here: every move's figures, nothing to mark
        values = trial.more(budget).values()
        judged = None
    else:
        judged = settle(trial, mine, budget, "inaccuracy" if dominated(seen, d.played, moves) else None)
        values = judged.values
    ranked = sorted(values, key=lambda v: -v.game)  # stable: ties keep the rules core's order
    out.update(
        best=shown(ranked[0].move),
        drop=None if judged is None else judged.drop,
        verdict=None if judged is None else judged.verdict,
        round_best=None if judged is None else shown(judged.round_best.move),
        round_drop=None if judged is None else judged.round_drop,
        game_verdict=None if judged is None else judged.game_verdict,
        round_verdict=None if judged is None else judged.round_verdict,
        by=None if judged is None else judged.by,
        loses_round=judged is not None and judged.loses_round,
        rollouts=trial.worlds,
        uncertain=judged is not None and judged.uncertain,
        moves=[
            {
                **shown(v.move),
                "game": v.game,
                "round": v.round,
                "rollouts": v.rollouts,
                "cannot_succeed": cannot_succeed(seen, v.move, lang),
            }
            for v in ranked
        ],
    )
    return out


def entry_at(events: Sequence[Any], at: int, budget: int, seed: int, lang: Lang) -> dict[str, Any]:
    """The entry of the decision made by event `at` + 1 of `events` (the game up to that decision at least)."""
    *_, d = decisions(events[: at + 1])
    if d.at != at:
        raise ValueError(f"no decision after event {at}")
    return entry(d, events, budget, seed, lang)
