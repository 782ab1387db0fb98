"""Names as people write them: a card by its id, its English or French name or a themed edition's name (case and
accents aside), and the nearest name when one is mistyped ("Prinse" -> "Prince", "Servnte" -> "Servante").

Transcripts, rulings and the HTTP bodies read cards through `card_named`."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from typing import Any

from loveletter.core.cards import NAMES_EN, NAMES_FR, Card
from loveletter.core.lang import Text
from loveletter.core.rulesets import RULESETS
from loveletter.events.codec import quoted_fr


def _fold_name(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.strip().casefold())
    return "".join(ch for ch in text if not unicodedata.combining(ch)).replace("’", "'")


_CARD_NAMES: dict[str, Card] = {}
for _card in Card:
    _CARD_NAMES[_card.value] = _card
    _CARD_NAMES[_fold_name(NAMES_EN[_card])] = _card
    _CARD_NAMES[_fold_name(NAMES_FR[_card])] = _card
for _rs in RULESETS.values():
    for _card, _name in (*_rs.names_en.items(), *_rs.names_fr.items()):
        _CARD_NAMES.setdefault(_fold_name(_name), _card)


_WRITTEN: dict[str, str] = {}
"""Each folded card name with a way to write it, for suggestions: "pretre" -> "Prêtre"."""
for _card in Card:
    for _name in (NAMES_EN[_card], NAMES_FR[_card]):
        _WRITTEN.setdefault(_fold_name(_name), _name)
for _rs in RULESETS.values():
    for _name in (*_rs.names_en.values(), *_rs.names_fr.values()):
        _WRITTEN.setdefault(_fold_name(_name), _name)
for _card in Card:
    _WRITTEN.setdefault(_card.value, _card.value)


def nearest(value: Any, written: Iterable[str]) -> str | None:
    """The name of `written` closest to `value` (accents and case aside), or None if none is close: the
    suggestion for a typo ("Prinse" -> "Prince", "Servnte" -> "Servante")."""
    if not isinstance(value, str):
        return None
    folded: dict[str, str] = {}
    for name in written:
        folded.setdefault(_fold_name(name), name)
    found = difflib.get_close_matches(_fold_name(value), list(folded), n=1, cutoff=0.6)
    return folded[found[0]] if found else None


def not_a_card(value: Any) -> Text:
    """Why `value` is no card, with the nearest card name when there is one."""
    near = nearest(value, _WRITTEN.values())
    if near is not None:
        return Text(
            f"{value!r} is not a card: did you mean {near!r}?",
            f"{quoted_fr(value)} n'est pas une carte : vouliez-vous dire « {near} » ?",
        )
    return Text(
        f"{value!r} is not a card (write its id, e.g. 'guard', or its name)",
        f"{quoted_fr(value)} n'est pas une carte (écrivez son identifiant, par exemple « guard », ou son nom)",
    )


def card_named(value: Any) -> Card | None:
    """The card `value` names (id, English or French name, themed names; case and accents aside), or None."""
    if not isinstance(value, str):
        return None
    exact = _CARD_NAMES.get(value)  # most bodies name a card by its id: no folding needed
    return exact if exact is not None else _CARD_NAMES.get(_fold_name(value))
