"""Every refusal of the rules, by its stable machine code and rule id: the contract clients program against.

Each row is a situation built by hand and a command the rulebook refuses there, with the `code` and `rule_id`
the refusal must carry, and a word its English and French messages must contain. A source scan checks that every
refusal `core/` can raise has a row, so a new refusal without one fails here.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from spellchecker import SpellChecker

import loveletter.core
from loveletter.core.cards import Card
from loveletter.core.commands import (
    Abort,
    Command,
    ContributeSeed,
    DealRound,
    ExpireSeats,
    JoinSeat,
    PlayCard,
    Resign,
    ReturnCards,
    RevealSeed,
    SetClock,
    StartGame,
    TimeOut,
)
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import get_ruleset
from loveletter.core.state import INITIAL, GameState
from tests.french import not_french
from tests.helpers import CO, PR, B, C, G, H, K, P, explicit_deal, finished, position, start

SEED = "ab" * 32
CORE = Path(loveletter.core.__file__).parent


@cache
def over() -> GameState:
    return finished(True)[0]


def two_players(hands: tuple, top: tuple = (), **kw: object) -> GameState:
    game = start("2019", 2)
    game.deal(hands, top, **kw)  # type: ignore[arg-type]
    return game.state


def three_players_one_out() -> GameState:
    """Ann guesses Bob's Priest right: Bob is out; Ann's turn is over, Cid is to play."""
    game = start("2019", 3)
    game.deal((G, PR, B), (H, K))
    game.play(0, G, 1, PR)
    return game.state


def bob_protected() -> GameState:
    game = start("2019", 2)
    game.deal((H, G), (G, PR))
    game.play(0, H)
    return game.state


def in_chancellor() -> GameState:
    game = start("2019", 2)
    game.deal((G, PR), (C, H, B))
    game.play(0, C)
    return game.state


T0 = 1_790_000_000_000


def open_seat() -> GameState:
    """Ann at seat 0, Bob at seat 1, seat 2 open."""
    return fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob", ""), open_seats=(2,))))


def expiring() -> GameState:
    """Ann at seat 0, seat 1 open until T0 + 60 s."""
    return fold(decide(INITIAL, StartGame("2019", ("Ann", ""), open_seats=(1,), join_by=T0 + 60_000)))


def clocked(running: bool = True) -> GameState:
    """A 2-player game with a 30-second clock, Ann to play; her clock started at T0 when `running`."""
    state = fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), first_player=0, turn_seconds=30, on_timeout="bot")))
    state = fold(decide(state, explicit_deal(state, (G, PR), (H,))), state)
    return fold(decide(state, SetClock(0, T0)), state) if running else state


def bob_resigned() -> GameState:
    game = start("2019", 3)
    game.deal((G, PR, B), (H, K))
    return fold(decide(game.state, Resign(1, T0)), game.state)


def guard_hits_and_ends_round() -> GameState:
    game = start("2019", 2)
    game.deal((G, PR), (H,))
    game.play(0, G, 1, PR)
    return game.state


ROWS: list[tuple[str, Callable[[], GameState], Callable[[GameState], Command], str, str, tuple[str, str]]] = [
    # (name, situation, command, code, rule_id, (a word of the English, a word of the French))
    ("not a command", lambda: INITIAL, lambda s: "deal me in", "invalid_command", "turn.order", ("command", "commande")),  # type: ignore[arg-type,return-value]
    ("a game created twice", lambda: start().state, lambda s: StartGame("2019", ("A", "B")), "game_exists", "setup.ruleset", ("already", "déjà")),
    ("an unknown ruleset", lambda: INITIAL, lambda s: StartGame("1999", ("A", "B")), "unknown_ruleset", "setup.ruleset", ("1999", "1999")),
    ("five players in 2012", lambda: INITIAL, lambda s: StartGame("2012", tuple("ABCDE")), "player_count", "setup.players", ("5", "5")),
    ("two players named alike", lambda: INITIAL, lambda s: StartGame("2019", ("Ann", "Ann")), "player_names", "setup.players", ("distinct", "distinct")),
    ("a commitment that is no digest", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), seed_commitment="xyz"), "invalid_commitment", "shuffle.commitment", ("SHA-256", "SHA-256")),
    ("a first player nobody is", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), first_player=7), "unknown_player", "setup.first-player", ("seat", "siège")),
    ("a rule option off the list", lambda: INITIAL, lambda s: StartGame("2012", ("A", "B"), {"tie_2012": "maybe"}), "invalid_option", "setup.options", ("maybe", "maybe")),
    ("a seed before any game", lambda: INITIAL, lambda s: ContributeSeed(0, SEED), "no_game", "setup.ruleset", ("game", "partie")),
    ("a seed from no seat", lambda: start().state, lambda s: ContributeSeed(9, SEED), "unknown_player", "shuffle.seat-seed", ("9", "9")),
    ("a seed that is not 64 hex digits", lambda: start().state, lambda s: ContributeSeed(0, "xyz"), "invalid_seed", "shuffle.seat-seed", ("64", "64")),
    ("a second seed from one seat", lambda: fold(decide(start().state, ContributeSeed(1, SEED)), start().state), lambda s: ContributeSeed(1, SEED), "seed_already_given", "shuffle.seat-seed", ("Bob", "Bob")),
    ("the server seed before the end", lambda: start().state, lambda s: RevealSeed(SEED), "game_not_over", "shuffle.commitment", ("over", "fin")),
    ("a seed nobody committed to", lambda: finished(False)[0], lambda s: RevealSeed(SEED), "nothing_to_reveal", "shuffle.commitment", ("commit", "engag")),
    ("the wrong server seed", over, lambda s: RevealSeed(SEED), "seed_mismatch", "shuffle.commitment", ("commitment", "engagement")),
    ("a deal before any game", lambda: INITIAL, lambda s: DealRound(G, (), (G, G), (), 0), "no_game", "setup.ruleset", ("game", "partie")),
    ("a deal in the middle of a round", lambda: two_players((G, PR)), lambda s: DealRound(G, (), (G, G), (), 0), "round_in_progress", "setup.deal", ("round", "manche")),
    ("a deal that is not the deck", lambda: start().state, lambda s: DealRound(G, (G, G, G), (G, G), (G,) * 12, 0), "invalid_deal", "setup.deal", ("deck", "paquet")),
    ("a first player other than the named one", lambda: start().state, lambda s: explicit_deal(s, (G, PR), first_player=1), "wrong_first_player", "setup.first-player", ("Ann", "Ann")),
    ("a move after the game's end", over, lambda s: PlayCard(0, G, 1, PR), "game_over", "game.over", ("over", "termin")),
    ("a Chancellor's return with none pending", lambda: two_players((G, PR)), lambda s: ReturnCards(0, G, ()), "no_chancellor_pending", "chancellor.return", ("Chancellor", "Chancelier")),
    ("a move from no seat", lambda: two_players((G, PR)), lambda s: PlayCard(9, G, 0, PR), "unknown_player", "turn.order", ("9", "9")),
    ("Bob on Ann's turn", lambda: two_players((G, PR)), lambda s: PlayCard(1, PR, 0), "not_your_turn", "turn.order", ("Ann", "Ann")),
    ("a card not in hand", lambda: two_players((G, PR), (H,)), lambda s: PlayCard(0, K, 1), "card_not_in_hand", "turn.play-from-hand", ("King", "Roi")),
    ("the King beside the Countess", lambda: two_players((CO, PR), (K,)), lambda s: PlayCard(0, K, 1), "countess_required", "countess.forced", ("Countess", "Comtesse")),
    ("a target nobody is", lambda: two_players((G, PR), (H,)), lambda s: PlayCard(0, G, 9, PR), "unknown_player", "target.required", ("9", "9")),
    ("a Guard on oneself", lambda: two_players((G, PR), (H,)), lambda s: PlayCard(0, G, 0, PR), "self_target", "target.other", ("Guard", "Garde")),
    ("a player already out", three_players_one_out, lambda s: PlayCard(2, H if H in s.hands[2] else s.hands[2][0], 1), "target_eliminated", "target.eliminated", ("Bob", "Bob")),
    ("a protected player", bob_protected, lambda s: PlayCard(1, G, 0, PR), "target_protected", "target.protected", ("Ann", "Ann")),
    ("a Guard naming the Guard", lambda: two_players((G, PR), (H,)), lambda s: PlayCard(0, G, 1, G), "invalid_guess", "guard.guess", ("Guard", "Garde")),
    ("a 2012 Guard naming the Chancellor", lambda: _2012_guard(), lambda s: PlayCard(0, G, 1, C), "guess_not_in_ruleset", "guard.guess-in-ruleset", ("Chancellor", "Chancelier")),
    ("a return that is not the hand", in_chancellor, lambda s: ReturnCards(0, K, (G, G)), "invalid_return", "chancellor.return", ("keep", "gard")),
    ("a move before any game", lambda: INITIAL, lambda s: PlayCard(0, G, 1, PR), "no_game", "setup.ruleset", ("game", "partie")),
    ("a move between rounds", guard_hits_and_ends_round, lambda s: PlayCard(0, G, 1, PR), "round_not_started", "round.not-started", ("round", "manche")),
    ("a card during the Chancellor's decision", in_chancellor, lambda s: PlayCard(0, G, 1, PR), "chancellor_pending", "chancellor.pending", ("Chancellor", "Chancelier")),
    ("a Handmaid with a target", lambda: two_players((H, PR), (G,)), lambda s: PlayCard(0, H, 1), "unexpected_target", "target.unexpected", ("Handmaid", "Servante")),
    ("a Priest with a guess", lambda: two_players((PR, H), (G,)), lambda s: PlayCard(0, PR, 1, G), "unexpected_guess", "target.unexpected", ("Guard", "Garde")),
    ("a Guard with no target while one exists", lambda: two_players((G, PR), (H,)), lambda s: PlayCard(0, G), "target_required", "target.required", ("Guard", "Garde")),
    ("a Prince with no target", lambda: two_players((P, PR), (H,)), lambda s: PlayCard(0, P), "target_required", "target.none", ("Prince", "Prince")),
    ("an open seat that is no seat", lambda: INITIAL, lambda s: StartGame("2019", ("Ann", "Bob"), open_seats=(5,)), "invalid_open_seats", "lobby.join", ("seats", "sièges")),
    ("a taken seat", open_seat, lambda s: JoinSeat(1, "Cid", T0), "seat_taken", "lobby.join", ("Bob", "Bob")),
    ("a name already at the table", open_seat, lambda s: JoinSeat(2, "Ann", T0), "name_taken", "lobby.join", ("Ann", "Ann")),
    ("a join after the deal", lambda: two_players((G, PR)), lambda s: JoinSeat(1, "Cid", T0), "game_dealt", "lobby.join", ("dealt", "distribuée")),
    ("a deal with a seat open", open_seat, lambda s: explicit_deal(s, (G, PR, B)), "seats_open", "lobby.deal", ("2", "2")),
    ("a clock with one setting", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), turn_seconds=30), "invalid_clock", "clock.deadline", ("on_timeout", "on_timeout")),
    ("a clock for a seat with nothing to decide", lambda: clocked(running=False), lambda s: SetClock(1, T0), "no_pending_decision", "clock.deadline", ("Bob", "Bob")),
    ("a second clock for one decision", clocked, lambda s: SetClock(0, T0), "clock_running", "clock.deadline", ("running", "tourne")),
    ("a timeout with no clock running", lambda: clocked(running=False), lambda s: TimeOut(0, T0), "no_deadline", "clock.timeout", ("Ann", "Ann")),
    ("a timeout before the deadline", clocked, lambda s: TimeOut(0, T0 + 29_999), "deadline_not_passed", "clock.timeout", ("early", "prématuré")),
    ("a time earlier than the last one", clocked, lambda s: Abort(T0 - 1), "clock_backwards", "clock.order", ("earlier", "précède")),
    ("a resignation before the deal", lambda: start("2019", 3).state, lambda s: Resign(1, T0), "game_not_dealt", "leave.resign", ("dealt", "distribuée")),
    ("a second resignation", bob_resigned, lambda s: Resign(1, T0), "already_resigned", "leave.gone", ("Bob", "Bob")),
    ("a move by a seat that left", bob_resigned, lambda s: PlayCard(1, PR, 0), "player_resigned", "leave.gone", ("Bob", "Bob")),
    ("a clock in a game without one", lambda: two_players((G, PR)), lambda s: SetClock(0, T0), "no_clock", "clock.deadline", ("clock", "pendule")),
    ("a join at no seat", open_seat, lambda s: JoinSeat(9, "Cid", T0), "unknown_player", "lobby.join", ("9", "9")),
    ("a seats' deadline without open seats", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), join_by=T0), "invalid_join_by", "lobby.join-deadline", ("open", "ouverts")),
    ("a join at the seats' deadline", expiring, lambda s: JoinSeat(1, "Bob", T0 + 60_000), "seats_expired", "lobby.join-deadline", ("expired", "expiré")),
    ("seats expired before their deadline", expiring, lambda s: ExpireSeats(T0 + 59_999), "join_deadline_not_passed", "lobby.join-deadline", ("yet", "pas encore")),
    ("seats expired in a game with none open", lambda: two_players((G, PR)), lambda s: ExpireSeats(T0), "no_join_deadline", "lobby.join-deadline", ("open", "ouvert")),
]  # fmt: skip


def _2012_guard() -> GameState:
    game = start("2012", 2)
    game.deal((G, PR), (H,))
    return game.state


@cache
def _english() -> SpellChecker:
    return SpellChecker(language="en")


def english_words_missing(text: str) -> list[str]:
    """Words of an English message that are no English words (a mutated "XXmessage", say); names and ids aside."""
    import re

    words = re.findall(r"[A-Za-z]+", re.sub(r"'[^']*'|\S*[0-9_]\S*", " ", text))
    allowed = {
        "ann",
        "bob",
        "cid",
        "sha",
        "hex",
        "seq",
        "ruleset",
        "rulesets",
        "princess",
        "classic",
        "bot",
        "organiser",
        "amira",
        "sadie",
    }
    return sorted(_english().unknown(w.lower() for w in words if w.lower() not in allowed))


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r[0])
def test_a_refusal_carries_its_code_and_rule(row: tuple) -> None:
    _, situation, make, code, rule_id, (en_word, fr_word) = row
    state = situation()
    before = state.as_dict() if state is not INITIAL else None
    with pytest.raises(RuleViolation) as info:
        decide(state, make(state))
    v = info.value
    assert (v.code, v.rule_id) == (code, rule_id), v
    assert en_word in v.en and fr_word in v.fr, (v.en, v.fr)
    assert not_french(v.fr, allowed=["Ann", "Bob", "Cid", "princess", "classic"]) == [], v.fr
    assert english_words_missing(v.en) == [], v.en
    if before is not None:
        assert state.as_dict() == before


def _raised() -> set[tuple[str, str]]:
    found = set()
    for path in CORE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleViolation":
                code, rule = node.args[0], node.args[1]
                rules = (
                    [rule.value]
                    if isinstance(rule, ast.Constant)
                    else [c.value for c in ast.walk(rule) if isinstance(c, ast.Constant) and isinstance(c.value, str)]
                )
                found |= {(code.value, r) for r in rules if isinstance(code, ast.Constant)}  # type: ignore[misc]
    return found


@pytest.mark.skipif("__mutmut_" in (CORE / "decide.py").read_text(), reason="the source is mutmut's rewritten copy")
def test_every_refusal_core_can_raise_has_a_row() -> None:
    rows = {(row[3], row[4]) for row in ROWS}
    # judged before any command, by core.situation.check_position (tests/test_situations.py holds its cases)
    rows.add(("impossible_position", "position.possible"))
    assert _raised() <= rows
    # a refusal whose rule id is passed in (core.seats' `_seat` and `_clocked`) has a row per call, not a literal
    assert {code for code, _ in rows - _raised()} == {"unknown_player", "no_clock"}


# The whole sentence of each refusal, English then French, written from the situation and the rule (the names of
# the table, the cards in their hands, the seats and times the row sets up) — a changed word, number or article
# in any message fails here.
T0_DEADLINE = T0 + 30_000
WHOLE: dict[str, tuple[str, str]] = {
    "not a command": ("unknown command 'deal me in'", "commande inconnue : « 'deal me in' »"),
    "a game created twice": ("this game has already been created", "cette partie a déjà été créée"),
    "an unknown ruleset": (
        "unknown ruleset '1999'; known rulesets: 2019, 2019-classic, 2012, princess-princess",
        "jeu de règles inconnu : « 1999 » ; jeux de règles connus : 2019, 2019-classic, 2012, princess-princess",
    ),
    "five players in 2012": (
        "2012 is played by 2 to 4 players, not 5",
        "le jeu de règles « 2012 » se joue entre 2 et 4 joueurs, pas à 5",
    ),
    "two players named alike": (
        "player names must be distinct and not empty",
        "les noms des joueurs doivent être distincts et non vides",
    ),
    "a commitment that is no digest": (
        "a seed commitment is a SHA-256 digest: 64 lowercase hex digits",
        "un engagement de graine est un condensé SHA-256 : 64 chiffres hexadécimaux minuscules",
    ),
    "a first player nobody is": (
        "the first player must be a seat from 0 to 1",
        "le premier joueur doit occuper l'un des sièges 0 à 1",
    ),
    "a rule option off the list": (
        "invalid rule option: tie_2012 must be one of nobody, all, not 'maybe'",
        "option de règle invalide : l'option tie_2012 doit valoir « nobody » ou « all », et non « maybe »",
    ),
    "a seed before any game": ("no game has been created yet", "aucune partie n'a encore été créée"),
    "a seed from no seat": ("there is no seat 9", "il n'y a pas de siège 9"),
    "a seed that is not 64 hex digits": (
        "a seed is 256 bits written as 64 lowercase hex digits",
        "une graine compte 256 bits, écrits sous la forme de 64 chiffres hexadécimaux minuscules",
    ),
    "a second seed from one seat": ("Bob has already contributed a seed", "Bob a déjà fourni une graine"),
    "the server seed before the end": (
        "the server seed is revealed only once the game is over",
        "la graine du serveur n'est révélée qu'à la fin de la partie",
    ),
    "a seed nobody committed to": (
        "this game has no seed commitment left to open",
        "cette partie n'a plus d'engagement de graine à ouvrir",
    ),
    "the wrong server seed": (
        "the revealed seed does not match the commitment made when the game was created",
        "la graine révélée ne correspond pas à l'engagement pris à la création de la partie",
    ),
    "a deal before any game": ("no game has been created yet", "aucune partie n'a encore été créée"),
    "a deal in the middle of a round": (
        "a round is in progress: the next deal comes when it ends",
        "une manche est en cours : la prochaine distribution aura lieu à sa fin",
    ),
    # 18 Guards dealt: 12 more than the 6 of the deck, and every other card of the 2019 deck missing, in the
    # deck's order (Spy first).
    "a deal that is not the deck": (
        "the deal is not the 2019 deck (extra: Guard × 12, missing: Spy × 2, Priest × 2, Baron × 2, Handmaid × 2, "
        "Prince × 2, Chancellor × 2, King × 1, Countess × 1, Princess × 1)",
        "la distribution ne correspond pas au paquet du jeu de règles « 2019 » (cartes en trop : Garde × 12 ; "
        "cartes manquantes : Espionne × 2, Prêtre × 2, Baron × 2, Servante × 2, Prince × 2, Chancelier × 2, "
        "Roi × 1, Comtesse × 1, Princesse × 1)",
    ),
    "a first player other than the named one": (
        "Bob may not start this round (named: Ann)",
        "Bob ne peut pas commencer cette manche (premier joueur désigné : Ann)",
    ),
    "a move after the game's end": ("the game is over", "la partie est terminée"),
    "a Chancellor's return with none pending": (
        "no Chancellor decision is pending",
        "aucune décision n'est attendue après le Chancelier",
    ),
    "a move from no seat": ("there is no seat 9 in this game", "il n'y a pas de siège 9 dans cette partie"),
    "Bob on Ann's turn": ("it is Ann's turn, not Bob's", "c'est au tour d'Ann, pas de Bob"),
    # Ann was dealt the Guard and drew the Handmaid.
    "a card not in hand": (
        "Ann does not hold the King (Ann holds the Guard and the Handmaid)",
        "Ann n'a pas le Roi en main (sa main : le Garde et la Servante)",
    ),
    "the King beside the Countess": (
        "holding the Countess with the King, you must play the Countess",
        "avec la Comtesse et le Roi en main, vous devez jouer la Comtesse",
    ),
    "a target nobody is": ("there is no seat 9 in this game", "il n'y a pas de siège 9 dans cette partie"),
    "a Guard on oneself": ("the Guard must choose another player", "le Garde doit cibler un autre joueur que vous"),
    "a player already out": (
        "Bob is out of the round and cannot be chosen",
        "Bob a quitté la manche et ne peut plus être la cible d'aucune carte",
    ),
    "a protected player": (
        "Ann is protected by the Handmaid and cannot be chosen",
        "la Servante protège Ann, qui ne peut pas être la cible d'un autre joueur",
    ),
    "a Guard naming the Guard": (
        "the Guard must name a card other than the Guard",
        "le Garde doit nommer une carte autre que le Garde",
    ),
    "a 2012 Guard naming the Chancellor": (
        "the Chancellor is not a card of the 2012 ruleset",
        "le Chancelier n'est pas une carte du jeu de règles « 2012 »",
    ),
    # Ann kept the Guard, played the Chancellor and drew the Handmaid and the Baron.
    "a return that is not the hand": (
        "keep one card and return the other 2 of your hand (Guard, Handmaid, Baron)",
        "gardez une carte de votre main et replacez les 2 autres (Garde, Servante, Baron)",
    ),
    "a move before any game": ("no game has been created yet", "aucune partie n'a encore été créée"),
    "a move between rounds": (
        "the next round has not been dealt yet",
        "la manche suivante n'a pas encore été distribuée",
    ),
    "a card during the Chancellor's decision": (
        "Ann must first finish the Chancellor: keep one of the Guard, the Handmaid and the Baron and put the other "
        "2 cards on the bottom of the deck",
        "Ann doit d'abord terminer le Chancelier : garder une carte parmi le Garde, la Servante et le Baron et "
        "placer les 2 autres sous la pioche",
    ),
    "a Handmaid with a target": ("the Handmaid chooses nobody", "la Servante ne cible personne"),
    "a Priest with a guess": (
        "only a Guard with a target names a card",
        "on ne nomme une carte qu'en jouant le Garde sur un joueur",
    ),
    "a Guard with no target while one exists": (
        "the Guard must choose a player: a legal target exists",
        "le Garde doit cibler un joueur : il existe une cible valide",
    ),
    "a Prince with no target": (
        "the Prince must choose a player: a legal target exists",
        "le Prince doit cibler un joueur : il existe une cible valide",
    ),
    "an open seat that is no seat": (
        "open seats are distinct seats from 0 to 1",
        "les sièges ouverts sont des sièges distincts, de 0 à 1",
    ),
    "a taken seat": ("seat 1 is already taken by Bob", "le siège 1 est déjà pris par Bob"),
    "a name already at the table": ("Ann is already at this table", "Ann est déjà à cette table"),
    "a join after the deal": (
        "the game has been dealt: its seats can no longer be taken",
        "la partie a été distribuée : ses sièges ne peuvent plus être pris",
    ),
    "a deal with a seat open": (
        "seats still open: 2; the game is dealt once every seat is taken",
        "sièges encore ouverts : 2 ; la partie n'est distribuée qu'une fois tous les sièges pris",
    ),
    # A week is the longest turn clock: 7 × 24 × 3600 seconds.
    "a clock with one setting": (
        "a turn clock needs turn_seconds (1 to 604800) and on_timeout (bot or resign), or neither",
        "une pendule demande « turn_seconds » (de 1 à 604800) et « on_timeout » (« bot » ou « resign »), "
        "ou ni l'un ni l'autre",
    ),
    "a clock for a seat with nothing to decide": (
        "Bob has no decision to make now",
        "Bob n'a aucune décision à prendre maintenant",
    ),
    "a second clock for one decision": (
        "this decision's clock is already running",
        "la pendule de cette décision tourne déjà",
    ),
    "a timeout with no clock running": ("no clock is running for Ann", "aucune pendule ne tourne pour Ann"),
    # The clock started at T0 with 30 seconds: the deadline is T0 + 30,000 ms, and the timeout came 1 ms before.
    "a timeout before the deadline": (
        f"Ann's deadline is {T0_DEADLINE}: a timeout at {T0_DEADLINE - 1} is too early",
        f"l'échéance d'Ann est {T0_DEADLINE} : un dépassement à {T0_DEADLINE - 1} est prématuré",
    ),
    "a time earlier than the last one": (
        f"time {T0 - 1} is earlier than the last time recorded ({T0})",
        f"l'heure {T0 - 1} précède la dernière heure enregistrée ({T0})",
    ),
    "a resignation before the deal": (
        "the game has not been dealt yet: there is nothing to resign from (the organiser may abort it)",
        "la partie n'a pas encore été distribuée : il n'y a rien à abandonner (l'organisateur peut l'annuler)",
    ),
    "a second resignation": ("Bob has already left the game", "Bob a déjà quitté la partie"),
    "a move by a seat that left": (
        "Bob has left the game and makes no more moves",
        "Bob a quitté la partie et ne joue plus",
    ),
    "a clock in a game without one": ("this game has no turn clock", "cette partie n'a pas de pendule"),
    "a join at no seat": ("there is no seat 9", "il n'y a pas de siège 9"),
    "a seats' deadline without open seats": (
        "a deadline for the seats (join_by) is given only to a game with open seats, as a positive time",
        "une échéance des sièges (join_by) ne se donne qu'à une partie aux sièges ouverts, comme une heure positive",
    ),
    "a join at the seats' deadline": (
        f"the open seats expired at {T0 + 60_000}: seat 1 can no longer be taken",
        f"les sièges ouverts ont expiré à {T0 + 60_000} : le siège 1 ne peut plus être pris",
    ),
    "seats expired before their deadline": (
        f"the open seats expire at {T0 + 60_000}: not yet at {T0 + 59_999}",
        f"les sièges ouverts expirent à {T0 + 60_000} : pas encore à {T0 + 59_999}",
    ),
    "seats expired in a game with none open": (
        "this game has no open seat waiting for a deadline",
        "cette partie n'a aucun siège ouvert soumis à une échéance",
    ),
}


# -- more situations for the same refusals: the branches of their messages the rows above do not take ----------


def chancellor_with_one_card_to_draw() -> GameState:
    """A described position (RULINGS-style, `core.situation`): Ann holds the Chancellor and the Guard, one card
    is left in the deck; she plays the Chancellor and draws it, so she returns one card, not two."""
    state = position(((C, G), (PR,)), (H,), set_aside=B)
    return fold(decide(state, PlayCard(0, C)), state)


def cards() -> list[Card]:
    """The 2019 deck in its own order: a deal of exactly the right cards."""
    return list(get_ruleset("2019").deck)


def deal_after_bob_left() -> GameState:
    """Bob resigned in round 1 of three; Ann's Guard then names Cid's Baron: round 2 waits for its deal."""
    state = bob_resigned()
    return fold(decide(state, PlayCard(0, G, 2, B)), state)


def unnamed_first_player() -> GameState:
    return fold(decide(INITIAL, StartGame("2019", ("Ann", "Bob"))))


ROWS += [
    ("a return of one card drawn, not the hand", chancellor_with_one_card_to_draw, lambda s: ReturnCards(0, K, (G,)), "invalid_return", "chancellor.return", ("keep", "gard")),
    ("a card while one drawn card waits to be returned", chancellor_with_one_card_to_draw, lambda s: PlayCard(0, G, 1, PR), "chancellor_pending", "chancellor.pending", ("Chancellor", "Chancelier")),
    ("Bob's card during Ann's Chancellor", in_chancellor, lambda s: PlayCard(1, PR, 0), "chancellor_pending", "chancellor.pending", ("Chancellor", "Chancelier")),
    ("a first player who is no seat", unnamed_first_player, lambda s: explicit_deal(s, (G, PR), first_player=7), "wrong_first_player", "setup.first-player", ("seat", "siège")),
    ("the Prince beside the Countess", lambda: two_players((CO, PR), (P,)), lambda s: PlayCard(0, P, 1), "countess_required", "countess.forced", ("Prince", "Prince")),
    ("a return naming no card", in_chancellor, lambda s: ReturnCards(0, None, (H, B)), "invalid_return", "chancellor.return", ("keep", "gard")),  # type: ignore[arg-type]
    ("Bob's return during Ann's Chancellor", in_chancellor, lambda s: ReturnCards(1, PR, ()), "not_your_turn", "turn.order", ("Ann", "Ann")),
    ("a first player one past the last seat", unnamed_first_player, lambda s: explicit_deal(s, (G, PR), first_player=2), "wrong_first_player", "setup.first-player", ("seat", "siège")),
    ("a first player other than the round's winner", guard_hits_and_ends_round, lambda s: explicit_deal(s, (G, PR), first_player=1), "wrong_first_player", "setup.first-player", ("Ann", "Ann")),
    ("Princesses Amira & Sadie with a target", lambda: _princess_princess((C, PR), (G,)), lambda s: PlayCard(0, C, 1), "unexpected_target", "target.unexpected", ("Amira", "Amira")),
    ("the King's Advisors on oneself", lambda: _princess_princess((PR, G), (H,)), lambda s: PlayCard(0, PR, 0), "self_target", "target.other", ("Advisors", "Conseillers")),
    ("three hands for two players", lambda: start().state, lambda s: DealRound(cards()[0], tuple(cards()[1:4]), tuple(cards()[4:7]), tuple(cards()[7:]), 0), "invalid_deal", "setup.deal", ("hands", "mains")),
    ("one hand and one face-up card for two players", lambda: start().state, lambda s: DealRound(cards()[0], (cards()[1],), (cards()[2],), tuple(cards()[3:]), 0), "invalid_deal", "setup.deal", ("hand", "main")),
    ("no face-up card for two players", lambda: start().state, lambda s: DealRound(cards()[0], (), tuple(cards()[1:3]), tuple(cards()[3:]), 0), "invalid_deal", "setup.deal", ("face-up", "visible")),
    ("a hand for a seat that left", deal_after_bob_left, lambda s: DealRound(cards()[0], tuple(cards()[1:4]), tuple(cards()[4:7]), tuple(cards()[7:]), 0), "invalid_deal", "setup.deal", ("left", "quitté")),
    ("a deal with a card that is no card", lambda: start().state, lambda s: DealRound(cards()[0], tuple(cards()[1:4]), tuple(cards()[4:6]), ("joker", *cards()[7:]), 0), "invalid_deal", "setup.deal", ("joker", "joker")),  # type: ignore[arg-type]
    ("a deal one card short", lambda: start().state, lambda s: DealRound(cards()[0], tuple(cards()[1:4]), tuple(cards()[4:6]), tuple(cards()[6:-1]), 0), "invalid_deal", "setup.deal", ("none", "aucune")),
    # Each seat check at its edges: one past the last seat, and -1.
    ("a seed from the seat after the last", lambda: start().state, lambda s: ContributeSeed(2, SEED), "unknown_player", "shuffle.seat-seed", ("2", "2")),
    ("a seed that is not lowercase hex", lambda: start().state, lambda s: ContributeSeed(0, "0X" * 32), "invalid_seed", "shuffle.seat-seed", ("64", "64")),
    ("a move from the seat after the last", lambda: two_players((G, PR)), lambda s: PlayCard(2, G, 0, PR), "unknown_player", "turn.order", ("2", "2")),
    ("a move from seat -1", lambda: two_players((G, PR)), lambda s: PlayCard(-1, G, 0, PR), "unknown_player", "turn.order", ("-1", "-1")),
    ("a target after the last seat", lambda: two_players((G, PR), (H,)), lambda s: PlayCard(0, G, 2, PR), "unknown_player", "target.required", ("2", "2")),
    ("a target at seat -1", lambda: two_players((G, PR), (H,)), lambda s: PlayCard(0, G, -1, PR), "unknown_player", "target.required", ("-1", "-1")),
    ("a first player after the last seat", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), first_player=2), "unknown_player", "setup.first-player", ("seat", "siège")),
    ("a first player at seat -1", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), first_player=-1), "unknown_player", "setup.first-player", ("seat", "siège")),
    ("a join at the seat after the last", open_seat, lambda s: JoinSeat(3, "Dee", T0), "unknown_player", "lobby.join", ("3", "3")),
    ("a clock for the seat after the last", clocked, lambda s: SetClock(2, T0), "unknown_player", "clock.deadline", ("2", "2")),
    ("a timeout for seat -1", clocked, lambda s: TimeOut(-1, T0 + 30_000), "unknown_player", "clock.timeout", ("-1", "-1")),
    ("a resignation from the seat after the last", bob_resigned, lambda s: Resign(3, T0), "unknown_player", "leave.resign", ("3", "3")),
    ("an open seat after the last", lambda: INITIAL, lambda s: StartGame("2019", ("Ann", "Bob"), open_seats=(2,)), "invalid_open_seats", "lobby.join", ("seats", "sièges")),
    ("an open seat -1", lambda: INITIAL, lambda s: StartGame("2019", ("Ann", "Bob"), open_seats=(-1,)), "invalid_open_seats", "lobby.join", ("seats", "sièges")),
    ("one seat opened twice", lambda: INITIAL, lambda s: StartGame("2019", ("Ann", "", "Cid"), open_seats=(1, 1)), "invalid_open_seats", "lobby.join", ("seats", "sièges")),
    ("a turn clock of no time", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), turn_seconds=0, on_timeout="bot"), "invalid_clock", "clock.deadline", ("on_timeout", "on_timeout")),
    ("a turn clock over a week", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), turn_seconds=604_801, on_timeout="bot"), "invalid_clock", "clock.deadline", ("on_timeout", "on_timeout")),
    ("a turn clock that waits on a timeout", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), turn_seconds=30, on_timeout="wait"), "invalid_clock", "clock.deadline", ("on_timeout", "on_timeout")),
    ("an empty name for an open seat", open_seat, lambda s: JoinSeat(2, "  ", T0), "name_taken", "lobby.join", ("empty", "vide")),
    ("a name at an open seat", lambda: INITIAL, lambda s: StartGame("2019", ("Ann", "Bob", "Cid"), open_seats=(2,)), "player_names", "setup.players", ("open", "ouvert")),
    ("a rule option nobody knows", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), {"deck": "red"}), "invalid_option", "setup.options", ("deck", "deck")),
    ("two rule options nobody knows", lambda: INITIAL, lambda s: StartGame("2019", ("A", "B"), {"speed": "x", "deck": "red"}), "invalid_option", "setup.options", ("speed", "speed")),
]  # fmt: skip


def _princess_princess(hands: tuple, top: tuple) -> GameState:
    game = start("princess-princess", 2)
    game.deal(hands, top)
    return game.state


# The 2019 deck in its order is Spy × 2, Guard × 6, Priest × 2, …: the "joker" deal puts it where the deck's
# seventh card, a Guard, belongs.
WHOLE.update(
    {
        "a return of one card drawn, not the hand": (
            "keep one card and return the other 1 of your hand (Guard, Handmaid)",
            "gardez une carte de votre main et replacez l'autre (Garde, Servante)",
        ),
        "a card while one drawn card waits to be returned": (
            "Ann must first finish the Chancellor: keep one of the Guard and the Handmaid and put the other 1 card "
            "on the bottom of the deck",
            "Ann doit d'abord terminer le Chancelier : garder une carte parmi le Garde et la Servante et placer "
            "l'autre sous la pioche",
        ),
        "Bob's card during Ann's Chancellor": (
            "Ann must first choose which card to keep after the Chancellor",
            "Ann doit d'abord choisir quelle carte garder après avoir joué le Chancelier",
        ),
        "a first player who is no seat": (
            "seat 7 may not start this round (random: Ann, Bob)",
            "le siège 7 ne peut pas commencer cette manche (tirage au sort parmi tous les joueurs : Ann, Bob)",
        ),
        "the Prince beside the Countess": (
            "holding the Countess with the Prince, you must play the Countess",
            "avec la Comtesse et le Prince en main, vous devez jouer la Comtesse",
        ),
        "a return naming no card": (
            "keep one card and return the other 2 of your hand (Guard, Handmaid, Baron)",
            "gardez une carte de votre main et replacez les 2 autres (Garde, Servante, Baron)",
        ),
        "Bob's return during Ann's Chancellor": ("it is Ann's turn, not Bob's", "c'est au tour d'Ann, pas de Bob"),
        "a first player one past the last seat": (
            "seat 2 may not start this round (random: Ann, Bob)",
            "le siège 2 ne peut pas commencer cette manche (tirage au sort parmi tous les joueurs : Ann, Bob)",
        ),
        "a first player other than the round's winner": (
            "Bob may not start this round (previous-winner: Ann)",
            "Bob ne peut pas commencer cette manche (vainqueur de la manche précédente : Ann)",
        ),
        # A plural name takes a plural verb, and a character's own name no article in English.
        "Princesses Amira & Sadie with a target": (
            "Princesses Amira & Sadie choose nobody",
            "les Princesses Amira & Sadie ne ciblent personne",
        ),
        "the King's Advisors on oneself": (
            "the King's Advisors must choose another player",
            "les Conseillers du roi doivent cibler un autre joueur que vous",
        ),
        "three hands for two players": ("3 hands for 2 players", "3 mains pour 2 joueurs"),
        "one hand and one face-up card for two players": (
            "1 hand for 2 players; 1 face-up card where 3 are set aside face up",
            "1 main pour 2 joueurs ; 1 carte face visible, alors que la mise en place en prévoit 3",
        ),
        "no face-up card for two players": (
            "0 face-up cards where 3 are set aside face up",
            "0 carte face visible, alors que la mise en place en prévoit 3",
        ),
        "a hand for a seat that left": (
            "a hand is dealt to each seat still in the game, and none to a seat that left it",
            "une main est distribuée à chaque siège encore en jeu, et aucune à un siège qui a quitté la partie",
        ),
        "a deal with a card that is no card": (
            "the deal is not the 2019 deck (extra: 'joker' × 1, missing: Guard × 1)",
            "la distribution ne correspond pas au paquet du jeu de règles « 2019 » (cartes en trop : « joker » × 1 ; "
            "cartes manquantes : Garde × 1)",
        ),
        # The deck's last card, the Princess, is left out: nothing extra, one missing.
        "a deal one card short": (
            "the deal is not the 2019 deck (extra: none, missing: Princess × 1)",
            "la distribution ne correspond pas au paquet du jeu de règles « 2019 » (cartes en trop : aucune ; "
            "cartes manquantes : Princesse × 1)",
        ),
        "a seed from the seat after the last": ("there is no seat 2", "il n'y a pas de siège 2"),
        "a seed that is not lowercase hex": (
            "a seed is 256 bits written as 64 lowercase hex digits",
            "une graine compte 256 bits, écrits sous la forme de 64 chiffres hexadécimaux minuscules",
        ),
        "a move from the seat after the last": (
            "there is no seat 2 in this game",
            "il n'y a pas de siège 2 dans cette partie",
        ),
        "a move from seat -1": ("there is no seat -1 in this game", "il n'y a pas de siège -1 dans cette partie"),
        "a target after the last seat": (
            "there is no seat 2 in this game",
            "il n'y a pas de siège 2 dans cette partie",
        ),
        "a target at seat -1": ("there is no seat -1 in this game", "il n'y a pas de siège -1 dans cette partie"),
        "a first player after the last seat": (
            "the first player must be a seat from 0 to 1",
            "le premier joueur doit occuper l'un des sièges 0 à 1",
        ),
        "a first player at seat -1": (
            "the first player must be a seat from 0 to 1",
            "le premier joueur doit occuper l'un des sièges 0 à 1",
        ),
        "a join at the seat after the last": ("there is no seat 3", "il n'y a pas de siège 3"),
        "a clock for the seat after the last": ("there is no seat 2", "il n'y a pas de siège 2"),
        "a timeout for seat -1": ("there is no seat -1", "il n'y a pas de siège -1"),
        "a resignation from the seat after the last": ("there is no seat 3", "il n'y a pas de siège 3"),
        "an open seat after the last": (
            "open seats are distinct seats from 0 to 1",
            "les sièges ouverts sont des sièges distincts, de 0 à 1",
        ),
        "an open seat -1": (
            "open seats are distinct seats from 0 to 1",
            "les sièges ouverts sont des sièges distincts, de 0 à 1",
        ),
        "one seat opened twice": (
            "open seats are distinct seats from 0 to 2",
            "les sièges ouverts sont des sièges distincts, de 0 à 2",
        ),
        "a turn clock of no time": (
            "a turn clock needs turn_seconds (1 to 604800) and on_timeout (bot or resign), or neither",
            "une pendule demande « turn_seconds » (de 1 à 604800) et « on_timeout » (« bot » ou « resign »), "
            "ou ni l'un ni l'autre",
        ),
        "a turn clock over a week": (
            "a turn clock needs turn_seconds (1 to 604800) and on_timeout (bot or resign), or neither",
            "une pendule demande « turn_seconds » (de 1 à 604800) et « on_timeout » (« bot » ou « resign »), "
            "ou ni l'un ni l'autre",
        ),
        "a turn clock that waits on a timeout": (
            "a turn clock needs turn_seconds (1 to 604800) and on_timeout (bot or resign), or neither",
            "une pendule demande « turn_seconds » (de 1 à 604800) et « on_timeout » (« bot » ou « resign »), "
            "ou ni l'un ni l'autre",
        ),
        "an empty name for an open seat": (
            "a player's name cannot be empty",
            "le nom d'un joueur ne peut pas être vide",
        ),
        "a name at an open seat": (
            "player names must be distinct and not empty (an open seat has no name until someone takes it)",
            "les noms des joueurs doivent être distincts et non vides (un siège ouvert n'a pas de nom avant d'être pris)",
        ),
        "a rule option nobody knows": (
            "invalid rule option: unknown rule option(s): deck",
            "option de règle invalide : l'option « deck » n'existe pas",
        ),
        "two rule options nobody knows": (
            "invalid rule option: unknown rule option(s): deck, speed",
            "option de règle invalide : les options « deck », « speed » n'existent pas",
        ),
    }
)


def test_every_row_has_its_whole_sentences() -> None:
    assert set(WHOLE) == {row[0] for row in ROWS}


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r[0])
def test_a_refusal_says_its_whole_sentence(row: tuple) -> None:
    name, situation, make, *_ = row
    state = situation()
    with pytest.raises(RuleViolation) as info:
        decide(state, make(state))
    assert (info.value.en, info.value.fr) == WHOLE[name]
