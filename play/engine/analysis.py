"""The review of a game as data: its header and one entry per decision, the JSON that `loveletter analyse --json`
prints and `GET /analyses/{id}` answers (docs/engine.md). Both call these functions, decision by decision, so
the same log, seat, budget and seed give the same JSON whichever asked.

An entry is a pure function of the game's events, the decision, the budget, the seed and the language: the HTTP
job computes each one in a worker process of the thinking room (`play.thinking`, by `entry_at`: a state does not
pickle, its events do), the command line in its own.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from loveletter.core.cards import Card
from loveletter.core.commands import PlayCard, PlayerCommand
from loveletter.core.lang import Lang, Text, de, number
from loveletter.core.legal import action_code, legal_moves, move_as_dict
from loveletter.core.rulesets import get_ruleset
from loveletter.core.views import View, view
from loveletter.play.engine.belief import can_hit
from loveletter.play.engine.review import BLUNDER, INACCURACY, MISTAKE, OPPONENTS, Decision, decisions, review, verdict
from loveletter.replays.moves import describe_move
from loveletter.replays.position import position


def pct(x: float, lang: str) -> str:
    """0.05 -> "5.0%" ("5,0 %" in French)."""
    return number(f"{100 * x:.1f}%", lang)


def model(budget: int) -> Text:
    """The sentence that states how the figures were made."""
    return Text(
        f"Model: every legal move is tried in {budget} worlds drawn from what the seat knew (never the hidden "
        f"cards), the others' hands dealt by how well each card explains what they played; then every seat, this "
        f"one included, plays {OPPONENTS} from its own view to the end of the round. Figures: chance of winning the "
        f"game (round won in brackets). Marks by the game's chance lost against the best move: inaccuracy from "
        f"{pct(INACCURACY, 'en')}, mistake from {pct(MISTAKE, 'en')}, blunder from {pct(BLUNDER, 'en')}.",
        f"Modèle : chaque coup légal est essayé dans {budget} mondes tirés de ce que le siège savait (jamais les "
        f"cartes cachées), la main des autres donnée selon ce que chaque carte explique de leur jeu ; puis chaque "
        f"siège, celui-ci compris, joue {OPPONENTS} d'après ce qu'il voit jusqu'à la fin de la manche. Chiffres : "
        f"chance de gagner la partie (manche gagnée entre parenthèses). Marques selon la chance perdue face au "
        f"meilleur coup : imprécision dès {pct(INACCURACY, 'fr')}, erreur dès {pct(MISTAKE, 'fr')}, gaffe dès "
        f"{pct(BLUNDER, 'fr')}.",
    )


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
    }


def chosen(events: Sequence[Any], seat: int | None) -> list[Decision]:
    """The decisions reviewed: every one of `seat`'s (of every seat's when None), in the order of the game."""
    return [d for d in decisions(events) if seat is None or d.seat == seat]


def cannot_succeed(seen: View, move: PlayerCommand, lang: Lang) -> str | None:
    """Why `move` could not succeed, from what the seat knew when it chose (a Guard's guess that cannot hit), or
    None. Said whatever the rollouts make of the move: a reader is told the reason, not only the cost."""
    if not (isinstance(move, PlayCard) and move.card is Card.GUARD and move.target is not None and move.guess):
        return None
    if can_hit(seen, move.target, move.guess):
        return None
    rs = get_ruleset(seen.ruleset)
    target = seen.seats[move.target]
    if target.known_hand is not None:
        return Text(
            f"{target.name} holds {rs.the(target.known_hand)}, as this seat knew: this guess cannot hit",
            f"{target.name} a {rs.the(target.known_hand, 'fr')}, ce que ce siège savait : cette supposition ne peut "
            "pas toucher",
        )(lang)
    return Text(
        f"no {rs.name(move.guess)} is left unseen: this guess cannot hit",
        f"plus aucun exemplaire {de(rs.name(move.guess, 'fr'))} n'est inconnu de ce siège : cette supposition ne "
        "peut pas toucher",
    )(lang)


def entry(d: Decision, events: Sequence[Any], budget: int, seed: int, lang: Lang) -> dict[str, Any]:
    """One decision's entry: where it stands, the move played, and unless forced every legal move's figures from
    `budget` worlds seeded by `seed` and the decision's place (public: how many events came before)."""
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
    if len(moves) > 1:
        values = review(seen, moves, random.Random(f"{seed}/{d.at}"), budget)
        ranked = sorted(values, key=lambda v: -v.game)  # stable: ties keep the rules core's order
        best = ranked[0]
        mine = next((v for v in values if action_code(v.move) == played), None)
        drop = None if mine is None else max(0.0, best.game - mine.game)
        out.update(
            best=shown(best.move),
            drop=drop,
            verdict=None if drop is None else verdict(drop),
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
