"""The rules core speaks native French: every rule text and every refusal a player can read.

(a) Every rule's French text is French (`tests.french.not_french`) and follows French typography.
(b) Every `RuleViolation(code, rule_id, en, fr)` and every `Text(en, fr)` written in core/ is read from the source
    (placeholders removed): its French is French, differs from its English, never puts « de », « que », « d' » or
    « qu' » by hand before a placeholder (a player's name needs `de()` / `que()` for elision), and never shows a
    Python repr ('…') outside guillemets.
(c) Real refusals, produced through `decide` for players named Alice, Hugo, Émile and Bob, read as a French
    speaker would write them (« au tour d'Alice », « d'Émile »); the expected sentences are written out by hand.
"""

from __future__ import annotations

import ast
import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import loveletter.core
from loveletter.core.commands import Command, ContributeSeed, PlayCard, ReturnCards, StartGame
from loveletter.core.decide import decide
from loveletter.core.rules import RULES, RuleViolation
from loveletter.core.state import INITIAL, GameState
from tests.french import not_french
from tests.helpers import (
    CO,
    PR,
    B,
    C,
    G,
    Game,
    H,
    K,
    P,
    S,
    explicit_deal,
    start,
)

CORE = Path(loveletter.core.__file__).parent  # the rules as imported (under make mutation, the mutated copy)
PLAYERS = ("Alice", "Hugo", "Émile", "Bob")

# French typography: a space (plain or narrow no-break) before « : ; ? ! » and inside « ».
_TIGHT_PUNCTUATION = re.compile(r"[^\s\u00a0\u202f][:;?!](?=\s|$)")
_TIGHT_GUILLEMETS = re.compile(r"«[^\s\u00a0\u202f]|[^\s\u00a0\u202f]»")


def typography(text: str) -> list[str]:
    """The places where `text` breaks French typography."""
    return _TIGHT_PUNCTUATION.findall(text) + _TIGHT_GUILLEMETS.findall(text)


# -- (a) the rule texts ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", list(RULES))
def test_every_rule_text_is_french(rule_id: str) -> None:
    text = RULES[rule_id].text("fr")
    assert not_french(text) == [], text
    assert typography(text) == [], text
    assert text != RULES[rule_id].text("en")


# -- (b) every message written in core/ --------------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    where: str
    code: str  # the RuleViolation's code, or "Text"
    en: ast.expr
    fr: ast.expr


def _messages() -> list[Message]:
    found = []
    for path in sorted(CORE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            where = f"{path.name}:{node.lineno}"
            if node.func.id == "RuleViolation" and len(node.args) == 4:
                code = node.args[0]
                assert isinstance(code, ast.Constant), where
                found.append(Message(where, str(code.value), node.args[2], node.args[3]))
            elif node.func.id == "Text" and len(node.args) == 2 and literal(node.args[1]) is not None:
                # A Text of two variables only carries a pair written elsewhere.
                found.append(Message(where, "Text", node.args[0], node.args[1]))
    return found


def literal(node: ast.expr, placeholder: str = " ") -> str | None:
    """The text of a string or f-string, each placeholder replaced by `placeholder`; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) and isinstance(part.value, str) else placeholder
            for part in node.values
        )
    return None


# Under `make mutation` the core is mutmut's rewritten copy (every function several times over): the source scans
# below read source text, so they only run on the real source.
REWRITTEN = "__mutmut_" in (CORE / "decide.py").read_text()
scan = pytest.mark.skipif(REWRITTEN, reason="the source is mutmut's rewritten copy")
MESSAGES = [] if REWRITTEN else _messages()
# A refusal listing several problems joins the French of `Text` pairs, each checked on its own.
JOINED = {"invalid_deal"}


@scan
def test_the_scan_finds_the_messages() -> None:
    codes = {m.code for m in MESSAGES}
    assert len(MESSAGES) > 40
    assert {"not_your_turn", "target_protected", "countess_required", "invalid_option", "Text"} <= codes


@pytest.mark.parametrize("message", MESSAGES, ids=lambda m: f"{m.where}-{m.code}")
def test_every_french_message_is_french(message: Message) -> None:
    fr, en = literal(message.fr), literal(message.en)
    if fr is None:
        assert message.code in JOINED, f"{message.where}: the French of {message.code} is not a literal"
        return
    assert not_french(fr) == [], f"{message.where}: {fr}"
    if en is not None:  # else the English is computed (an exception's own words)
        assert fr.strip() != en.strip(), f"{message.where}: the French is the English: {fr}"
    assert typography(literal(message.fr, "X") or "") == [], f"{message.where}: {fr}"


@pytest.mark.parametrize(
    "message", [m for m in MESSAGES if isinstance(m.fr, ast.JoinedStr)], ids=lambda m: f"{m.where}-{m.code}"
)
def test_no_hand_made_elision_before_a_placeholder(message: Message) -> None:
    assert isinstance(message.fr, ast.JoinedStr)
    parts = message.fr.values
    for before, after in itertools.pairwise(parts):
        if isinstance(before, ast.Constant) and isinstance(after, ast.FormattedValue):
            text = str(before.value)
            assert not re.search(r"(?:^|[\s(])(?:de|que) $", text, re.IGNORECASE), (
                f"{message.where}: « {text}{{…}} »: use de() / que()"
            )
            assert not re.search(r"(?:^|[\s(])(?:d|qu)['’]$", text, re.IGNORECASE), (
                f"{message.where}: « {text}{{…}} »: use de() / que()"
            )
            # A Python repr ('…') is the English's business; the French quotes a value with « ».
            if after.conversion == ord("r"):
                assert text.endswith("« "), f"{message.where}: a repr in the French outside « »"


# -- (c) real refusals -------------------------------------------------------------------------------------------


def refusal(state: GameState, command: Command) -> RuleViolation:
    with pytest.raises(RuleViolation) as info:
        decide(state, command)
    return info.value


def table(ruleset: str = "2019", first_player: int | None = 0) -> Game:
    return start(ruleset, PLAYERS, first_player=first_player)


def test_out_of_turn_elides_before_a_vowel_and_a_mute_h() -> None:
    game = table()
    game.deal([H, G, PR, B], [G, G, B, PR])  # Alice holds the Handmaid, draws a Guard
    v = refusal(game.state, PlayCard(1, G, 0, PR))
    assert v.code == "not_your_turn"
    assert v.message("fr") == "c'est au tour d'Alice, pas d'Hugo"
    assert v.message("en") == "it is Alice's turn, not Hugo's"
    game.play(0, H)  # Alice protected; Hugo draws a Guard
    assert refusal(game.state, PlayCard(3, B, 1)).message("fr") == "c'est au tour d'Hugo, pas de Bob"
    protected = refusal(game.state, PlayCard(1, G, 0, PR))
    assert protected.code == "target_protected"
    assert protected.message("fr") == "la Servante protège Alice, qui ne peut pas être la cible d'un autre joueur"
    assert protected.message("en") == "Alice is protected by the Handmaid and cannot be chosen"
    game.play(1, G, 2, B)  # a miss: Émile holds the Priest
    assert refusal(game.state, PlayCard(3, B, 2)).message("fr") == "c'est au tour d'Émile, pas de Bob"
    assert (
        refusal(game.state, PlayCard(2, CO)).message("fr")
        == "Émile n'a pas la Comtesse en main (sa main : le Prêtre et le Baron)"
    )
    assert refusal(game.state, PlayCard(2, PR, 2)).message("fr") == "le Prêtre doit cibler un autre joueur que vous"


def test_a_player_out_of_the_round_and_a_guard_naming_the_guard() -> None:
    game = table()
    game.deal([G, PR, B, H], [G, G, G])  # Alice: Guard, Guard
    assert (
        refusal(game.state, PlayCard(0, G, 3, G)).message("fr") == "le Garde doit nommer une carte autre que le Garde"
    )
    game.play(0, G, 1, PR)  # Hugo holds the Priest: out
    game.play(2, B, 3)  # Émile's Guard (1) loses to Bob's Handmaid (4): out
    assert game.out(1) and game.out(2)
    v = refusal(game.state, PlayCard(3, G, 1, PR))
    assert v.message("fr") == "Hugo a quitté la manche et ne peut plus être la cible d'aucune carte"


def test_a_seat_seed_given_twice() -> None:
    game = table()
    game.do(ContributeSeed(2, "ab" * 32))
    v = refusal(game.state, ContributeSeed(2, "cd" * 32))
    assert v.message("fr") == "Émile a déjà fourni une graine"
    assert v.message("en") == "Émile has already contributed a seed"


def test_the_wrong_first_player_and_a_seat_without_a_player() -> None:
    named = table(first_player=0)
    v = refusal(named.state, explicit_deal(named.state, [G, PR, B, H], first_player=3))
    assert v.message("fr") == "Bob ne peut pas commencer cette manche (premier joueur désigné : Alice)"
    assert v.message("en") == "Bob may not start this round (named: Alice)"
    drawn = table(first_player=None)
    v = refusal(drawn.state, explicit_deal(drawn.state, [G, PR, B, H], first_player=7))
    assert v.message("fr") == (
        "le siège 7 ne peut pas commencer cette manche "
        "(tirage au sort parmi tous les joueurs : Alice, Hugo, Émile, Bob)"
    )
    assert v.message("en") == "seat 7 may not start this round (random: Alice, Hugo, Émile, Bob)"


def test_the_chancellor_decision_comes_first() -> None:
    game = table()
    game.deal([C, G, PR, B], [G, PR, B])  # Alice: Chancellor, Guard; she draws the Priest and the Baron
    game.play(0, C)
    assert game.hand(0) == (G, PR, B)
    v = refusal(game.state, PlayCard(1, G, 0, PR))
    assert v.message("fr") == "Alice doit d'abord choisir quelle carte garder après avoir joué le Chancelier"
    v = refusal(game.state, ReturnCards(0, G, (PR,)))
    assert v.message("fr") == "gardez une carte de votre main et replacez les 2 autres (Garde, Prêtre, Baron)"


def test_the_themed_edition_names_its_own_cards() -> None:
    game = table("princess-princess", first_player=2)
    game.deal([G, PR, CO, H], [K, G, B])  # Émile: Countess, draws the King (Ghost King)
    v = refusal(game.state, PlayCard(2, K, 0))
    assert v.message("fr") == "avec Céleste la licorne et le Roi fantôme en main, vous devez jouer Céleste la licorne"
    assert v.message("en") == "holding Celeste the Unicorn with the Ghost King, you must play Celeste the Unicorn"
    game.play(2, CO)
    game.play(3, H)  # Bob: Oliver the Dragon
    v = refusal(game.state, PlayCard(0, G, 3, PR))
    assert v.message("fr") == "Oliver le dragon protège Bob, qui ne peut pas être la cible d'un autre joueur"


def test_a_plural_card_name_agrees_with_its_verb() -> None:
    game = table("princess-princess")
    game.deal([C, G, PR, B], [S])  # Alice: Princesses Amira & Sadie, draws Claire the Spy
    v = refusal(game.state, PlayCard(0, C, 1))
    assert v.message("fr") == "les Princesses Amira & Sadie ne ciblent personne"
    assert v.message("en") == "Princesses Amira & Sadie choose nobody"
    assert refusal(game.state, PlayCard(0, S, 1)).message("fr") == "Claire l'espionne ne cible personne"


def test_an_invalid_rule_option_is_told_in_french() -> None:
    v = refusal(INITIAL, StartGame("2019", PLAYERS, {"tie_2012": "tous"}))
    assert v.message("fr") == (
        "option de règle invalide : l'option tie_2012 doit valoir « nobody » ou « all », et non « tous »"
    )
    v = refusal(INITIAL, StartGame("2019", PLAYERS, {"egalite": "all"}))
    assert v.message("fr") == "option de règle invalide : l'option « egalite » n'existe pas"
    v = refusal(INITIAL, StartGame("2012", (*PLAYERS, "Zoé"), {}))
    assert v.message("fr") == "le jeu de règles « 2012 » se joue entre 2 et 4 joueurs, pas à 5"


def test_a_prince_with_no_target_in_the_original_edition() -> None:
    game = table("2012")
    game.deal([P, G, PR, B], [G])
    v = refusal(game.state, PlayCard(0, P))
    assert v.message("fr") == "le Prince Arnaud doit cibler un joueur : il existe une cible valide"
    v = refusal(game.state, PlayCard(0, G, 1, C))
    assert v.message("fr") == "le Chancelier n'est pas une carte du jeu de règles « 2012 »"
