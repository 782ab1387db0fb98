"""Reduced research decks: a ruleset of the catalogue cut down to fewer cards, for the exact solver (play/solver).

A reduced ruleset keeps everything of its parent (the card values and names, the tie rule, the favors) but holds
only the copies its id names, and is played by two players only. Its id says it all, so a log that names one can be
folded anywhere without registering anything first: `"2012@guard*4,baron*1,prince*1,king*1,countess*1"`.

These decks are not offered at a table: `decide` creates games of the rulesets of `RULESETS` only, and a reduced
one is reached through `get_ruleset`, which the fold and the engine use. The rules stay those of `core.decide`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from loveletter.core.cards import CARD_ORDER, Card
from loveletter.core.rulesets import RULESETS, Ruleset, _frozen

MARK = "@"
"""What separates the parent's id from the list of copies in a reduced ruleset's id."""

SMALLEST = 7
"""A two-player round deals one card aside, three face up, one to each seat and needs one to draw: seven cards."""


def reduced_id(parent: str, copies: Mapping[Card, int]) -> str:
    """The id of `parent` cut down to `copies` (cards in the catalogue's order, kinds with no copy left out)."""
    kinds = ",".join(f"{card.value}*{copies[card]}" for card in CARD_ORDER if copies.get(card, 0) > 0)
    return f"{parent}{MARK}{kinds}"


def reduced(parent: str, copies: Mapping[Card, int]) -> Ruleset:
    """The reduced ruleset of `parent` holding `copies`; a `KeyError` says why when it cannot be one."""
    return parse(reduced_id(parent, copies))


@lru_cache(maxsize=256)
def parse(ruleset_id: str) -> Ruleset:
    """The reduced ruleset an id names (one object per id, so states that share it compare alike)."""
    parent_id, _, spec = ruleset_id.partition(MARK)
    parent = RULESETS.get(parent_id)
    if parent is None or not spec:
        raise KeyError(f"unknown ruleset {ruleset_id!r}: a reduced ruleset is <ruleset>{MARK}<card>*<copies>,…")
    copies: dict[Card, int] = {}
    for part in spec.split(","):
        name, _, count = part.partition("*")
        try:
            card, n = Card(name), int(count)
        except ValueError:
            raise KeyError(f"unknown ruleset {ruleset_id!r}: {part!r} is not <card>*<copies>") from None
        if card in copies or not 0 < n <= parent.copies.get(card, 0):
            raise KeyError(f"unknown ruleset {ruleset_id!r}: {parent_id} has {parent.copies.get(card, 0)} {name}")
        copies[card] = n
    size = sum(copies.values())
    if size < SMALLEST:
        raise KeyError(f"unknown ruleset {ruleset_id!r}: {size} cards, a two-player round needs {SMALLEST}")
    if reduced_id(parent_id, copies) != ruleset_id:
        raise KeyError(f"unknown ruleset {ruleset_id!r}: write it {reduced_id(parent_id, copies)!r}")
    return Ruleset(
        id=ruleset_id,
        title=f"{parent.title}, cut down to {size} cards (research)",
        title_fr=f"{parent.title_fr}, réduit à {size} cartes (recherche)",
        values=parent.values,
        copies=_frozen(copies),
        min_players=2,
        max_players=2,
        favors_to_win=_frozen({2: parent.favors_to_win[2]}),
        tie_rule=parent.tie_rule,
        spy_favor=parent.spy_favor,
        amira_sadie_favor=parent.amira_sadie_favor,
        names_en=parent.names_en,
        names_fr=parent.names_fr,
    )
