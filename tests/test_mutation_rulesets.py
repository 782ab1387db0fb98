"""Examples aimed at what `make mutation` found unguarded in `core/rulesets.py` and `core/rules.py`: a ruleset's deck
and card list, its words in English and French, the rule table's builder and a refusal's JSON.

`RULESETS` and `RULES` are built once, when their modules are imported, so no other test builds a ruleset or a rule
table again: the tests below do. Decks are written from RULINGS §1 (value × copies), words from the rulebooks'
names (cards.py's tables are the code under test's data: the expected words here are typed out).
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

import pytest

from loveletter.core.cards import NAMES_EN, NAMES_FR, Card
from loveletter.core.lang import BilingualError
from loveletter.core.rules import RULES, Rule, RuleViolation, _rules
from loveletter.core.rulesets import RULESETS, Options, Ruleset, TieRule, _frozen, get_ruleset
from tests.helpers import PR, PS, B, C, G, H, K, P, S

CO = Card.COUNTESS

# RULINGS §1, in the order of the card ids (spy … princess), each kind as many times as it has copies.
DECK_2019 = (S, S, G, G, G, G, G, G, PR, PR, B, B, H, H, P, P, C, C, K, CO, PS)  # 21 cards
DECK_16 = (G, G, G, G, G, PR, PR, B, B, H, H, P, P, K, CO, PS)  # 2019-classic and 2012: 16 cards

DECKS = {
    "2019": (DECK_2019, (S, G, PR, B, H, P, C, K, CO, PS)),
    "2019-classic": (DECK_16, (G, PR, B, H, P, K, CO, PS)),
    "2012": (DECK_16, (G, PR, B, H, P, K, CO, PS)),
    "princess-princess": (DECK_2019, (S, G, PR, B, H, P, C, K, CO, PS)),
}


@pytest.mark.parametrize("ruleset_id", list(DECKS))
def test_a_ruleset_built_again_deals_the_rulebook_deck(ruleset_id: str) -> None:
    """A ruleset rebuilt from the same fields computes its deck and card kinds again (2012 gives no count for the
    Spy and the Chancellor at all: absent means none)."""
    deck, cards = DECKS[ruleset_id]
    assert len(deck) == (21 if ruleset_id in ("2019", "princess-princess") else 16)
    for ruleset in (get_ruleset(ruleset_id), dataclasses.replace(get_ruleset(ruleset_id))):
        assert ruleset.deck == deck
        assert ruleset.cards == cards


def _odd_ruleset(**changes: object) -> Ruleset:
    """A ruleset no edition has: two Guards worth 8 and one Princess worth 1; the other cards have no count."""
    fields: dict[str, object] = {
        "id": "odd",
        "title": "Odd",
        "title_fr": "Bizarre",
        "values": {G: 8, PS: 1, K: 5},
        "copies": {PS: 1, G: 2, K: 0},
        "min_players": 2,
        "max_players": 2,
        "favors_to_win": {2: 1},
        "tie_rule": TieRule.ALL_WIN,
        "spy_favor": False,
        "amira_sadie_favor": False,
        "names_en": NAMES_EN,
        "names_fr": NAMES_FR,
        **changes,
    }
    return Ruleset(**fields)  # type: ignore[arg-type]


def test_a_ruleset_lists_its_cards_by_value_not_by_id_or_name() -> None:
    """The deck follows the card ids' order; the card kinds follow the values (Princess 1 before Guard 8, where both
    the ids' order and the alphabet put the Guard first); a kind with 0 copies or none given is left out."""
    odd = _odd_ruleset()
    assert odd.deck == (G, G, PS)
    assert odd.cards == (PS, G)
    assert odd.has(G) and not odd.has(K) and not odd.has(S)


TITLES = {
    "2019": ("Love Letter (2019, 21 cards)", "Love Letter (2019, 21 cartes)"),
    "2019-classic": (
        "Love Letter (2019, classic variant, 16 cards)",
        "Love Letter (2019, version classique, 16 cartes)",
    ),
    "2012": ("Love Letter (original edition, 16 cards)", "Love Letter (édition originale, 16 cartes)"),
    "princess-princess": (
        "Love Letter: Princess Princess (themed 2019 edition)",
        "Love Letter : Princesse Princesse (édition thématique de 2019)",
    ),
}


@pytest.mark.parametrize("ruleset_id", list(TITLES))
def test_a_ruleset_title_in_each_language(ruleset_id: str) -> None:
    en, fr = TITLES[ruleset_id]
    rs = get_ruleset(ruleset_id)
    assert (rs.title_in(), rs.title_in("en"), rs.title_in("fr")) == (en, en, fr)


# (ruleset, card, English name, with its article, French name, with its article, plural)
WORDS = [
    ("2019", S, "Spy", "the Spy", "Espionne", "l'Espionne", False),
    ("2019", CO, "Countess", "the Countess", "Comtesse", "la Comtesse", False),
    ("2019", G, "Guard", "the Guard", "Garde", "le Garde", False),
    ("2019-classic", H, "Handmaid", "the Handmaid", "Servante", "la Servante", False),
    ("2012", G, "Guard", "the Guard", "Garde Odette", "la Garde Odette", False),
    ("2012", K, "King", "the King", "Roi Arnaud IV", "le Roi Arnaud IV", False),
    ("princess-princess", PR, "King's Advisors", "the King's Advisors", "Conseillers du roi",
     "les Conseillers du roi", True),
    ("princess-princess", C, "Princesses Amira & Sadie", "Princesses Amira & Sadie", "Princesses Amira & Sadie",
     "les Princesses Amira & Sadie", True),
    ("princess-princess", CO, "Celeste the Unicorn", "Celeste the Unicorn", "Céleste la licorne",
     "Céleste la licorne", False),
    ("princess-princess", PS, "Ogre", "the Ogre", "Ogre", "l'Ogre", False),
]  # fmt: skip


@pytest.mark.parametrize(("ruleset_id", "card", "en", "the_en", "fr", "the_fr", "plural"), WORDS)
def test_a_card_name_with_its_article_and_number_in_each_language(
    ruleset_id: str, card: Card, en: str, the_en: str, fr: str, the_fr: str, plural: bool
) -> None:
    rs = get_ruleset(ruleset_id)
    assert (rs.name(card), rs.name(card, "en"), rs.name(card, "fr")) == (en, en, fr)
    assert (rs.the(card), rs.the(card, "en"), rs.the(card, "fr")) == (the_en, the_en, the_fr)
    assert (rs.plural(card), rs.plural(card, "en"), rs.plural(card, "fr")) == (plural, plural, plural)


def test_a_name_is_plural_and_takes_its_article_in_its_own_language() -> None:
    """A hand-built ruleset whose French Priest is plural where its English one is not, and whose French Guard has
    no article in the table: each language answers for its own word, and a name with no article is said bare."""
    mixed = _odd_ruleset(names_fr={**NAMES_FR, PR: "Conseillers du roi", G: "Sentinelle"})
    assert mixed.plural(PR, "fr") is True
    assert mixed.plural(PR, "en") is False and mixed.plural(PR) is False
    assert mixed.the(G, "fr") == "Sentinelle"
    assert mixed.the(G, "en") == "the Guard"


def test_frozen_is_a_read_only_copy() -> None:
    source = {G: 1, PS: 8}
    frozen = _frozen(source)
    assert isinstance(frozen, MappingProxyType)
    assert dict(frozen) == {G: 1, PS: 8}
    source[G] = 5
    assert frozen[G] == 1
    with pytest.raises(TypeError):
        frozen[G] = 2  # type: ignore[index]


def test_an_unknown_ruleset_id_names_the_known_ones() -> None:
    with pytest.raises(KeyError) as raised:
        get_ruleset("1999")
    assert raised.value.args == ("unknown ruleset '1999' (known: 2019, 2019-classic, 2012, princess-princess)",)
    assert list(RULESETS) == ["2019", "2019-classic", "2012", "princess-princess"]


def test_a_guard_option_value_it_does_not_take_names_the_option_and_its_values() -> None:
    with pytest.raises(BilingualError) as raised:
        Options.from_dict({"guard_unknown": "maybe"})
    assert raised.value.message("en") == "guard_unknown must be one of refuse, miss, not 'maybe'"
    assert raised.value.message("fr") == "l'option guard_unknown doit valoir « refuse » ou « miss », et non « maybe »"


# -- the rule table and a refusal ---------------------------------------------------------------------------------


def test_the_rule_table_is_a_read_only_map_by_id_refusing_a_duplicate() -> None:
    one = Rule("x.one", "One.", "Un.", ("RULINGS §1",))
    two = Rule("x.two", "Two.", "Deux.", ())
    table = _rules(one, two)
    assert isinstance(table, MappingProxyType)
    assert dict(table) == {"x.one": one, "x.two": two}
    with pytest.raises(TypeError):
        table["x.three"] = one  # type: ignore[index]
    with pytest.raises(AssertionError, match=r"^duplicate rule id$"):
        _rules(one, two, Rule("x.one", "Again.", "Encore.", ()))
    assert RULES["setup.players"].text("fr").startswith("Une partie réunit")


def test_a_refusal_reads_in_english_as_an_exception_and_as_json_in_both() -> None:
    v = RuleViolation("too_many_players", "setup.players", "five is too many", "cinq, c'est trop")
    assert str(v) == "five is too many" and v.args == ("five is too many",)
    assert (v.message(), v.message("en")) == ("five is too many", "five is too many")
    assert v.message("fr") == "cinq, c'est trop"
    assert v.as_dict() == {
        "code": "too_many_players",
        "rule_id": "setup.players",
        "en": "five is too many",
        "fr": "cinq, c'est trop",
    }
