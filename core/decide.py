"""decide(state, command) -> events: every rule of the game, judged from one entry point.

A legal command becomes the tuple of events it causes, up to the next decision anyone has to make
(a player's move, or chance dealing the next round). An illegal one raises `RuleViolation` naming
the rule, and nothing happens. `decide` never draws a random number: chance is a command too.

This module holds the dispatcher and the commands that set a game up: creating it, the seeds of the
shuffle and each round's deal. A player's move is checked by `core.move_checks` and carried out by
`core.card_effects`; the end of a turn, a round and the game is `core.round_end`.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from loveletter.core import memo
from loveletter.core.card_effects import play, return_cards
from loveletter.core.cards import Card
from loveletter.core.catalogue import FirstPlayerRule, GameStarted, RoundStarted, SeedContributed, SeedRevealed
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
from loveletter.core.evolve import apply_all
from loveletter.core.lang import BilingualError, Lang, Text, plural_en, plural_fr
from loveletter.core.move_checks import card_name, not_a_card, refuse_if_over, seat_given, who
from loveletter.core.round_end import Events, turn_started
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import RULESETS, Options, get_ruleset
from loveletter.core.seats import (
    abort,
    check_table,
    expire_seats,
    join,
    refuse_if_gone,
    refuse_open_seats,
    resign,
    set_clock,
    time_out,
)
from loveletter.core.state import PHASE_DEAL, PHASE_NEW, PHASE_OVER, GameState, Transient


def decide(state: GameState, command: Command) -> Events:
    """The events `command` causes in `state`, or `RuleViolation` if the rules refuse it."""
    kind = type(command)
    if kind is not PlayCard and kind is not ReturnCards:
        return _other(state, command)
    try:
        return play(state, command) if kind is PlayCard else return_cards(state, command)  # type: ignore[arg-type]
    except RuleViolation:
        refuse_if_gone(state, command.player)  # type: ignore[union-attr]
        raise


def advance(s: Transient, command: Command) -> Events:
    """`decide(s, command)`, its events folded into `s` as well: for a caller that owns `s` and goes on from the
    state after (the engine's rollouts). The same judgement, with less work: a move that ends the round is judged on
    `s` itself, where `decide` folds a copy that the caller would fold again. Refused, `s` is unchanged."""
    kind = type(command)
    if kind is not PlayCard and kind is not ReturnCards:
        events = _other(s, command)
        apply_all(s, events)
        return events
    try:
        return play(s, command, s) if kind is PlayCard else return_cards(s, command, s)  # type: ignore[arg-type]
    except RuleViolation:
        refuse_if_gone(s, command.player)  # type: ignore[union-attr]
        raise


def _other(state: GameState, command: Command) -> Events:
    kind = type(command)
    if kind is DealRound:
        return _deal(state, command)  # type: ignore[arg-type]
    if kind is StartGame:
        return _start(state, command)  # type: ignore[arg-type]
    if kind is ContributeSeed:
        return _contribute(state, command)  # type: ignore[arg-type]
    if kind is RevealSeed:
        return _reveal(state, command)  # type: ignore[arg-type]
    handler = _SEATS.get(kind)
    if handler is not None:
        return handler(state, command)
    raise RuleViolation(
        "invalid_command", "turn.order", f"unknown command {command!r}", f"commande inconnue : « {command!r} »"
    )


# -- creating a game and dealing rounds ----------------------------------------------------------


def _start(state: GameState, cmd: StartGame) -> Events:
    if state.phase != PHASE_NEW:
        raise RuleViolation(
            "game_exists", "setup.ruleset", "this game has already been created", "cette partie a déjà été créée"
        )
    if cmd.ruleset not in RULESETS:
        known = ", ".join(RULESETS)
        raise RuleViolation(
            "unknown_ruleset",
            "setup.ruleset",
            f"unknown ruleset {cmd.ruleset!r}; known rulesets: {known}",
            f"jeu de règles inconnu : « {cmd.ruleset} » ; jeux de règles connus : {known}",
        )
    rs = get_ruleset(cmd.ruleset)
    n = len(cmd.players)
    if not rs.min_players <= n <= rs.max_players:
        raise RuleViolation(
            "player_count",
            "setup.players",
            f"{rs.id} is played by {rs.min_players} to {rs.max_players} players, not {n}",
            f"le jeu de règles « {rs.id} » se joue entre {rs.min_players} et {rs.max_players} joueurs, pas à {n}",
        )
    names = [name.strip() if isinstance(name, str) else "" for name in cmd.players]
    if not cmd.open_seats and (any(not name for name in names) or len(set(names)) != n):
        raise RuleViolation(
            "player_names",
            "setup.players",
            "player names must be distinct and not empty",
            "les noms des joueurs doivent être distincts et non vides",
        )
    check_table(cmd, names)
    try:
        options = Options.from_dict(cmd.options)
    except BilingualError as exc:  # the only error `Options.from_dict` raises
        raise RuleViolation(
            "invalid_option",
            "setup.options",
            f"invalid rule option: {exc.text.en}",
            f"option de règle invalide : {exc.text.fr}",
        ) from None
    if cmd.seed_commitment is not None and not _is_seed(cmd.seed_commitment):
        raise RuleViolation(
            "invalid_commitment",
            "shuffle.commitment",
            "a seed commitment is a SHA-256 digest: 64 lowercase hex digits",
            "un engagement de graine est un condensé SHA-256 : 64 chiffres hexadécimaux minuscules",
        )
    if cmd.first_player is not None and not 0 <= cmd.first_player < n:
        raise RuleViolation(
            "unknown_player",
            "setup.first-player",
            f"the first player must be a seat from 0 to {n - 1}",
            f"le premier joueur doit occuper l'un des sièges 0 à {n - 1}",
        )
    return (
        GameStarted(
            ruleset=rs.id,
            players=tuple(names),
            options=options.as_dict(),
            first_player=cmd.first_player,
            scenario=cmd.scenario,
            seed_commitment=cmd.seed_commitment,
            open_seats=tuple(cmd.open_seats),
            turn_seconds=cmd.turn_seconds,
            on_timeout=cmd.on_timeout,
            accounts=tuple(cmd.accounts),
            rated=cmd.rated,
            at=cmd.at,
            join_by=cmd.join_by,
            bots=tuple(cmd.bots),
            stand_in=cmd.stand_in,
        ),
    )


_SEATS: dict[type, Callable[[GameState, Any], Events]] = {
    JoinSeat: join,
    SetClock: set_clock,
    TimeOut: time_out,
    Resign: resign,
    Abort: abort,
    ExpireSeats: expire_seats,
}
"""The commands of online play (`core.seats`): joining, clocks, leaving."""


def _is_seed(text: object) -> bool:
    """64 lowercase hex digits: 256 bits."""
    return isinstance(text, str) and len(text) == 64 and not text.strip("0123456789abcdef")


def _contribute(state: GameState, cmd: ContributeSeed) -> Events:
    if state.phase == PHASE_NEW:
        raise RuleViolation(
            "no_game", "setup.ruleset", "no game has been created yet", "aucune partie n'a encore été créée"
        )
    refuse_if_over(state)
    if type(cmd.player) is not int or not 0 <= cmd.player < len(state.players):
        raise RuleViolation(
            "unknown_player",
            "shuffle.seat-seed",
            f"there is no seat {seat_given(cmd.player, 'en')}",
            f"il n'y a pas de siège {seat_given(cmd.player, 'fr')}",
        )
    if not _is_seed(cmd.seed):
        raise RuleViolation(
            "invalid_seed",
            "shuffle.seat-seed",
            "a seed is 256 bits written as 64 lowercase hex digits",
            "une graine compte 256 bits, écrits sous la forme de 64 chiffres hexadécimaux minuscules",
        )
    if state.seat_seeds[cmd.player] is not None:
        raise RuleViolation(
            "seed_already_given",
            "shuffle.seat-seed",
            f"{who(state, cmd.player)} has already contributed a seed",
            f"{who(state, cmd.player, 'fr')} a déjà fourni une graine",
        )
    return (SeedContributed(cmd.player, cmd.seed),)


def _reveal(state: GameState, cmd: RevealSeed) -> Events:
    if state.phase != PHASE_OVER:
        raise RuleViolation(
            "game_not_over",
            "shuffle.commitment",
            "the server seed is revealed only once the game is over",
            "la graine du serveur n'est révélée qu'à la fin de la partie",
        )
    if state.seed_commitment is None or state.server_seed is not None:
        raise RuleViolation(
            "nothing_to_reveal",
            "shuffle.commitment",
            "this game has no seed commitment left to open",
            "cette partie n'a plus d'engagement de graine à ouvrir",
        )
    if not _is_seed(cmd.seed) or hashlib.sha256(bytes.fromhex(cmd.seed)).hexdigest() != state.seed_commitment:
        raise RuleViolation(
            "seed_mismatch",
            "shuffle.commitment",
            "the revealed seed does not match the commitment made when the game was created",
            "la graine révélée ne correspond pas à l'engagement pris à la création de la partie",
        )
    return (SeedRevealed(cmd.seed),)


def first_player_candidates(state: GameState) -> tuple[tuple[int, ...], FirstPlayerRule]:
    """Who may start the next round, and which clause of RULINGS §2 says so."""
    seats = state.in_game()
    if state.round == 0:
        if state.named_first_player is not None:
            return (state.named_first_player,), "named"
        return seats, "random"
    winners = state.round_winners
    if True in state.resigned:  # RULINGS §12: a winner who has left the game starts nothing
        winners = tuple(w for w in winners if not state.resigned[w])
    if len(winners) == 1:
        return winners, "previous-winner"
    if winners:
        return winners, "random-among-winners"
    return seats, "random"


def _same_cards(cards: tuple[Card, ...], deck: tuple[Card, ...]) -> bool:
    """Quickly: whether `cards` are exactly the cards of `deck`, each a `Card` (a `Card` is a `str`: the plain
    string "guard" compares and hashes like the Guard, but the rules, which compare cards by identity, would not
    see a Guard in it). Sorting only `Card`s cannot fail."""
    return len(cards) == len(deck) and all(type(card) is Card for card in cards) and sorted(cards) == _sorted_deck(deck)


@dataclass(frozen=True, slots=True)
class _NotACard:
    """Something dealt that is no `Card`, counted apart from every card (even the string of a card's id)."""

    value: object


_SORTED_DECKS: dict[tuple[Card, ...], list[Card]] = memo.table()


def _sorted_deck(deck: tuple[Card, ...]) -> list[Card]:
    found = _SORTED_DECKS.get(deck)
    if found is None:
        found = _SORTED_DECKS[deck] = sorted(deck)
    return found


_WHY: dict[FirstPlayerRule, Text] = {
    "named": Text("named", "premier joueur désigné"),
    "previous-winner": Text("previous-winner", "vainqueur de la manche précédente"),
    "random-among-winners": Text("random-among-winners", "tirage au sort parmi les vainqueurs"),
    "random": Text("random", "tirage au sort parmi tous les joueurs"),
}
"""Who may start a round, by the clause of RULINGS §2 that says so: the English shows the clause's id."""


def _counted(state: GameState, cards: Counter[Card | _NotACard], lang: Lang) -> str:
    """Cards and how many of each: "Guard × 2, Spy × 1"; "none" for none."""
    if not cards:
        return "aucune" if lang == "fr" else "none"
    parts = []
    for card, count in cards.items():
        name = card_name(state, card, lang) if isinstance(card, Card) else not_a_card(card.value, lang)
        parts.append(f"{name} × {count}")
    return ", ".join(parts)


def _deal(state: GameState, cmd: DealRound) -> Events:
    if state.phase == PHASE_NEW:
        raise RuleViolation(
            "no_game", "setup.ruleset", "no game has been created yet", "aucune partie n'a encore été créée"
        )
    refuse_if_over(state)
    if state.phase != PHASE_DEAL:
        raise RuleViolation(
            "round_in_progress",
            "setup.deal",
            "a round is in progress: the next deal comes when it ends",
            "une manche est en cours : la prochaine distribution aura lieu à sa fin",
        )
    refuse_open_seats(state)
    rs = state.ruleset
    assert rs is not None
    n = len(state.players)
    resigned = state.resigned
    playing = n - sum(resigned)
    face_up_count = 3 if playing == 2 else 0
    problems = []
    if len(cmd.hands) != n:
        problems.append(
            Text(
                f"{plural_en(len(cmd.hands), 'hand', 'hands')} for {n} players",
                f"{plural_fr(len(cmd.hands), 'main', 'mains')} pour {n} joueurs",
            )
        )
    elif any((hand is None) is not gone for hand, gone in zip(cmd.hands, resigned, strict=False)):
        problems.append(
            Text(
                "a hand is dealt to each seat still in the game, and none to a seat that left it",
                "une main est distribuée à chaque siège encore en jeu, et aucune à un siège qui a quitté la partie",
            )
        )
    if len(cmd.face_up) != face_up_count:
        problems.append(
            Text(
                f"{plural_en(len(cmd.face_up), 'face-up card', 'face-up cards')} where {face_up_count} are set "
                "aside face up",
                f"{plural_fr(len(cmd.face_up), 'carte', 'cartes')} face visible, alors que la mise en place en "
                f"prévoit {face_up_count}",
            )
        )
    cards = (cmd.set_aside, *cmd.face_up, *[hand for hand in cmd.hands if hand is not None], *cmd.deck)
    if not _same_cards(cards, rs.deck):
        dealt = Counter(card if type(card) is Card else _NotACard(card) for card in cards)
        deck: Counter[Card | _NotACard] = Counter(rs.deck)
        extra, missing = dealt - deck, deck - dealt
        problems.append(
            Text(
                f"the deal is not the {rs.id} deck (extra: {_counted(state, extra, 'en')}, "
                f"missing: {_counted(state, missing, 'en')})",
                f"la distribution ne correspond pas au paquet du jeu de règles « {rs.id} » (cartes en trop : "
                f"{_counted(state, extra, 'fr')} ; cartes manquantes : {_counted(state, missing, 'fr')})",
            )
        )
    if problems:
        raise RuleViolation(
            "invalid_deal",
            "setup.deal",
            "; ".join(problem.en for problem in problems),
            " ; ".join(problem.fr for problem in problems),
        )
    candidates, why = first_player_candidates(state)
    if cmd.first_player not in candidates:
        names = ", ".join(who(state, c) for c in candidates)
        raise RuleViolation(
            "wrong_first_player",
            "setup.first-player",
            f"{who(state, cmd.first_player)} may not start this round ({why}: {names})",
            f"{who(state, cmd.first_player, 'fr')} ne peut pas commencer cette manche ({_WHY[why].fr} : {names})",
        )
    return (
        RoundStarted(
            round=state.round + 1,
            first_player=cmd.first_player,
            first_player_rule=why,
            set_aside=cmd.set_aside,
            face_up=cmd.face_up,
            hands=cmd.hands,
            deck=cmd.deck,
            shuffle=cmd.shuffle,
        ),
        turn_started(cmd.first_player, cmd.deck[0]),
    )
