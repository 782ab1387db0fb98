"""A legal move in words, as a ruling or a position lists it: « Garde sur Bob, en nommant le Prêtre », "keep the King,
Guard under the deck". Its own module because both `rulings` and `position` list moves, and `rulings` reads
positions."""

from __future__ import annotations

from typing import Any

from loveletter.core.cards import Card
from loveletter.core.rulesets import Ruleset


def describe_move(move: dict[str, Any], rs: Ruleset, lang: str = "en") -> str:
    """A legal move in words: « Garde sur Bob, en nommant le Prêtre », "keep the King, Guard under the deck"."""
    fr = lang == "fr"

    def name(card_id: Any) -> str:
        return rs.name(Card(card_id), "fr" if fr else "en")

    if move.get("type") == "return":
        under = ", ".join(name(c) for c in move.get("bottom", []))
        return (
            f"garder {name(move['keep'])}, remettre {under} sous la pioche"
            if fr
            else (f"keep {name(move['keep'])}, {under} under the deck")
        )
    text = name(move["card"])
    if "target_name" in move:
        text += f" sur {move['target_name']}" if fr else f" on {move['target_name']}"
    if "guess" in move:
        text += f" en nommant {name(move['guess'])}" if fr else f" naming {name(move['guess'])}"
    return text
