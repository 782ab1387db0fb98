"""decide(state, command) -> events: every rule of the game, judged in one place.

A legal command becomes the tuple of events it causes, up to the next decision anyone has to make
(a player's move, or chance dealing the next round). An illegal one raises `RuleViolation` naming
the rule, and nothing happens. `decide` never draws a random number: chance is a command too.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from typing import Any, Callable, TypeVar

from loveletter.core.cards import TARGETS_OTHER, Card
from loveletter.core.catalogue import (
    CardDrawn,
    CardPlayed,
    ChancellorDrew,
    ChancellorReturned,
    Event,
    FavorGained,
    FavorReason,
    FirstPlayerRule,
    GameEnded,
    GameStarted,
    HandDiscarded,
    HandsCompared,
    HandSeen,
    HandsTraded,
    PlayerEliminated,
    RoundEnded,
    RoundStarted,
    SeedContributed,
    SeedRevealed,
    TurnStarted,
)
from loveletter.core.commands import Command, ContributeSeed, DealRound, PlayCard, ReturnCards, RevealSeed, StartGame
from loveletter.core.evolve import fold
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import RULESETS, GuardUnknown, Options, Tie2012, TieRule, get_ruleset
from loveletter.core.state import (
    PHASE_CHANCELLOR,
    PHASE_DEAL,
    PHASE_NEW,
    PHASE_OVER,
    PHASE_PLAY,
    GameState,
)

Events = tuple[Event, ...]


def decide(state: GameState, command: Command) -> Events:
    """The events `command` causes in `state`, or `RuleViolation` if the rules refuse it."""
    kind = type(command)
    if kind is PlayCard:
        return _play(state, command)  # type: ignore[arg-type]
    if kind is ReturnCards:
        return _return(state, command)  # type: ignore[arg-type]
    if kind is DealRound:
        return _deal(state, command)  # type: ignore[arg-type]
    if kind is StartGame:
        return _start(state, command)  # type: ignore[arg-type]
    if kind is ContributeSeed:
        return _contribute(state, command)  # type: ignore[arg-type]
    if kind is RevealSeed:
        return _reveal(state, command)  # type: ignore[arg-type]
    raise RuleViolation(
        "invalid_command", "turn.order", f"unknown command {command!r}", f"commande inconnue {command!r}"
    )


# -- messages ----------------------------------------------------------------------------------


def _card(state: GameState, card: Card, lang: str) -> str:
    rs = state.ruleset or RULESETS["2019"]
    return rs.name(card, "fr" if lang == "fr" else "en")


def _who(state: GameState, seat: int) -> str:
    return state.players[seat] if 0 <= seat < len(state.players) else f"seat {seat}"


# -- creating a game and dealing rounds ----------------------------------------------------------


def _start(state: GameState, cmd: StartGame) -> Events:
    if state.phase != PHASE_NEW:
        raise RuleViolation(
            "game_exists", "setup.ruleset", "this game has already been created", "cette partie existe déjà"
        )
    if cmd.ruleset not in RULESETS:
        known = ", ".join(RULESETS)
        raise RuleViolation(
            "unknown_ruleset",
            "setup.ruleset",
            f"unknown ruleset {cmd.ruleset!r}; known rulesets: {known}",
            f"jeu de règles inconnu {cmd.ruleset!r} ; jeux connus : {known}",
        )
    rs = get_ruleset(cmd.ruleset)
    n = len(cmd.players)
    if not rs.min_players <= n <= rs.max_players:
        raise RuleViolation(
            "player_count",
            "setup.players",
            f"{rs.id} is played by {rs.min_players} to {rs.max_players} players, not {n}",
            f"{rs.id} se joue de {rs.min_players} à {rs.max_players} joueurs, pas {n}",
        )
    names = [name.strip() if isinstance(name, str) else "" for name in cmd.players]
    if any(not name for name in names) or len(set(names)) != n:
        raise RuleViolation(
            "player_names",
            "setup.players",
            "player names must be distinct and not empty",
            "les noms des joueurs doivent être distincts et non vides",
        )
    try:
        options = Options.from_dict(cmd.options)
    except ValueError as exc:
        raise RuleViolation(
            "invalid_option", "setup.options", f"invalid rule option: {exc}", f"option de règle invalide : {exc}"
        ) from None
    if cmd.seed_commitment is not None and not _is_seed(cmd.seed_commitment):
        raise RuleViolation(
            "invalid_commitment",
            "shuffle.commitment",
            "a seed commitment is a SHA-256 digest: 64 lowercase hex digits",
            "un engagement de graine est un condensé SHA-256 : 64 chiffres hexadécimaux minuscules",
        )
    if cmd.first_player is not None and not 0 <= cmd.first_player < n:
        raise RuleViolation(
            "unknown_player",
            "setup.first-player",
            f"the first player must be a seat from 0 to {n - 1}",
            f"le premier joueur doit être un siège de 0 à {n - 1}",
        )
    return (
        GameStarted(
            ruleset=rs.id,
            players=tuple(names),
            options=options.as_dict(),
            first_player=cmd.first_player,
            scenario=cmd.scenario,
            seed_commitment=cmd.seed_commitment,
        ),
    )


def _is_seed(text: object) -> bool:
    """64 lowercase hex digits: 256 bits."""
    return isinstance(text, str) and len(text) == 64 and not text.strip("0123456789abcdef")


def _contribute(state: GameState, cmd: ContributeSeed) -> Events:
    if state.phase == PHASE_NEW:
        raise RuleViolation("no_game", "setup.ruleset", "no game has been created yet", "aucune partie n'existe")
    _refuse_if_over(state)
    if not 0 <= cmd.player < len(state.players):
        raise RuleViolation(
            "unknown_player",
            "shuffle.seat-seed",
            f"there is no seat {cmd.player}",
            f"il n'y a pas de siège {cmd.player}",
        )
    if not _is_seed(cmd.seed):
        raise RuleViolation(
            "invalid_seed",
            "shuffle.seat-seed",
            "a seed is 256 bits written as 64 lowercase hex digits",
            "une graine fait 256 bits, écrits en 64 chiffres hexadécimaux minuscules",
        )
    if state.seat_seeds[cmd.player] is not None:
        raise RuleViolation(
            "seed_already_given",
            "shuffle.seat-seed",
            f"{_who(state, cmd.player)} has already contributed a seed",
            f"{_who(state, cmd.player)} a déjà fourni une graine",
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
            "cette partie n'a pas d'engagement de graine à ouvrir",
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
    n = len(state.players)
    if state.round == 0:
        if state.named_first_player is not None:
            return (state.named_first_player,), "named"
        return tuple(range(n)), "random"
    winners = state.round_winners
    if len(winners) == 1:
        return winners, "previous-winner"
    if winners:
        return winners, "random-among-winners"
    return tuple(range(n)), "random"


def _same_cards(cards: tuple[Card, ...], deck: tuple[Card, ...]) -> bool:
    """Quickly: whether `cards` are exactly the cards of `deck`."""
    try:
        return len(cards) == len(deck) and sorted(cards) == _sorted_deck(deck)
    except TypeError:
        return False


_SORTED_DECKS: dict[tuple[Card, ...], list[Card]] = {}


def _sorted_deck(deck: tuple[Card, ...]) -> list[Card]:
    found = _SORTED_DECKS.get(deck)
    if found is None:
        found = _SORTED_DECKS[deck] = sorted(deck)
    return found


def _deal(state: GameState, cmd: DealRound) -> Events:
    if state.phase == PHASE_NEW:
        raise RuleViolation(
            "no_game", "setup.ruleset", "no game has been created yet", "aucune partie n'a encore été créée"
        )
    _refuse_if_over(state)
    if state.phase != PHASE_DEAL:
        raise RuleViolation(
            "round_in_progress",
            "setup.deal",
            "a round is in progress: the next deal comes when it ends",
            "une manche est en cours : la distribution suivante vient à sa fin",
        )
    rs = state.ruleset
    assert rs is not None
    n = len(state.players)
    face_up_count = 3 if n == 2 else 0
    problems = []
    if len(cmd.hands) != n:
        problems.append((f"{len(cmd.hands)} hands for {n} players", f"{len(cmd.hands)} mains pour {n} joueurs"))
    if len(cmd.face_up) != face_up_count:
        problems.append(
            (
                f"{len(cmd.face_up)} face-up cards where {face_up_count} are set aside face up",
                f"{len(cmd.face_up)} cartes face visible au lieu de {face_up_count}",
            )
        )
    cards = (cmd.set_aside, *cmd.face_up, *cmd.hands, *cmd.deck)
    dealt = None if _same_cards(cards, rs.deck) else Counter(cards)
    if dealt is not None and dealt != Counter(rs.deck):
        extra = dealt - Counter(rs.deck)
        missing = Counter(rs.deck) - dealt
        problems.append(
            (
                f"the deal is not the {rs.id} deck (extra: {dict(extra) or '-'}, missing: {dict(missing) or '-'})",
                f"la distribution n'est pas le paquet {rs.id} (en trop : {dict(extra) or '-'}, "
                f"manquant : {dict(missing) or '-'})",
            )
        )
    if problems:
        raise RuleViolation(
            "invalid_deal",
            "setup.deal",
            "; ".join(en for en, _ in problems),
            " ; ".join(fr for _, fr in problems),
        )
    candidates, why = first_player_candidates(state)
    if cmd.first_player not in candidates:
        names = ", ".join(_who(state, c) for c in candidates)
        raise RuleViolation(
            "wrong_first_player",
            "setup.first-player",
            f"{_who(state, cmd.first_player)} may not start this round ({why}: {names})",
            f"{_who(state, cmd.first_player)} ne peut pas commencer cette manche ({why} : {names})",
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
        _turn_started(cmd.first_player, cmd.deck[0]),
    )


# -- a player's move -------------------------------------------------------------------------------


def _refuse_if_over(state: GameState) -> None:
    if state.phase == PHASE_OVER:
        raise RuleViolation("game_over", "game.over", "the game is over", "la partie est terminée")


def _check_turn(state: GameState, player: int, phase: str) -> None:
    if state.phase != phase:
        _refuse_if_over(state)
        if state.phase == PHASE_NEW:
            raise RuleViolation("no_game", "setup.ruleset", "no game has been created yet", "aucune partie n'existe")
        if state.phase == PHASE_DEAL:
            raise RuleViolation(
                "round_not_started",
                "round.not-started",
                "the next round has not been dealt yet",
                "la manche suivante n'a pas encore été distribuée",
            )
        if state.phase == PHASE_CHANCELLOR:
            raise RuleViolation(
                "chancellor_pending",
                "chancellor.pending",
                f"{_who(state, state.active)} must first choose which card to keep after the Chancellor",
                f"{_who(state, state.active)} doit d'abord choisir la carte gardée après le Chancelier",
            )
        raise RuleViolation(
            "no_chancellor_pending",
            "chancellor.return",
            "no Chancellor decision is pending",
            "aucune décision de Chancelier n'est en attente",
        )
    if not 0 <= player < len(state.players):
        raise RuleViolation(
            "unknown_player",
            "turn.order",
            f"there is no seat {player} in this game",
            f"il n'y a pas de siège {player} dans cette partie",
        )
    if player != state.active:
        raise RuleViolation(
            "not_your_turn",
            "turn.order",
            f"it is {_who(state, state.active)}'s turn, not {_who(state, player)}'s",
            f"c'est au tour de {_who(state, state.active)}, pas de {_who(state, player)}",
        )


def _check_play(state: GameState, cmd: PlayCard) -> None:
    """Refuse every illegal play; return quietly for a legal one."""
    p, card, target, guess = cmd.player, cmd.card, cmd.target, cmd.guess
    _check_turn(state, p, PHASE_PLAY)
    hand = state.hands[p]
    if card not in hand:
        raise RuleViolation(
            "card_not_in_hand",
            "turn.play-from-hand",
            f"{_who(state, p)} does not hold the {_card(state, card, 'en')}",
            f"{_who(state, p)} n'a pas la carte {_card(state, card, 'fr')} en main",
        )
    if card is not Card.COUNTESS and Card.COUNTESS in hand and (Card.KING in hand or Card.PRINCE in hand):
        other = Card.KING if Card.KING in hand else Card.PRINCE
        raise RuleViolation(
            "countess_required",
            "countess.forced",
            f"holding the Countess with the {_card(state, other, 'en')}, you must play the Countess",
            f"avec la Comtesse et la carte {_card(state, other, 'fr')} en main, vous devez jouer la Comtesse",
        )
    if card in TARGETS_OTHER or card is Card.PRINCE:
        _check_target(state, p, card, target)
    elif target is not None:
        raise RuleViolation(
            "unexpected_target",
            "target.unexpected",
            f"the {_card(state, card, 'en')} chooses nobody",
            f"la carte {_card(state, card, 'fr')} ne cible personne",
        )
    if card is Card.GUARD and target is not None:
        _check_guess(state, guess)
    elif guess is not None:
        raise RuleViolation(
            "unexpected_guess",
            "target.unexpected",
            "only a Guard with a target names a card",
            "seul un Garde qui cible un joueur nomme une carte",
        )


def _check_target(state: GameState, p: int, card: Card, target: int | None) -> None:
    name_en, name_fr = _card(state, card, "en"), _card(state, card, "fr")
    if target is None:
        if card is Card.PRINCE or valid_targets(state, p, card):
            raise RuleViolation(
                "target_required",
                "target.required" if card is not Card.PRINCE else "target.none",
                f"the {name_en} must choose a player: a legal target exists",
                f"la carte {name_fr} doit cibler un joueur : une cible valide existe",
            )
        return
    if not 0 <= target < len(state.players):
        raise RuleViolation(
            "unknown_player",
            "target.required",
            f"there is no seat {target} in this game",
            f"il n'y a pas de siège {target} dans cette partie",
        )
    if target == p and card is not Card.PRINCE:
        raise RuleViolation(
            "self_target",
            "target.other",
            f"the {name_en} must choose another player",
            f"la carte {name_fr} doit cibler un autre joueur",
        )
    if state.out[target]:
        raise RuleViolation(
            "target_eliminated",
            "target.eliminated",
            f"{_who(state, target)} is out of the round and cannot be chosen",
            f"{_who(state, target)} a quitté la manche et ne peut pas être ciblé",
        )
    if target != p and state.protected[target]:
        raise RuleViolation(
            "target_protected",
            "target.protected",
            f"{_who(state, target)} is protected by the Handmaid and cannot be chosen",
            f"{_who(state, target)} est protégé par la Servante et ne peut pas être ciblé",
        )


def _check_guess(state: GameState, guess: Card | None) -> None:
    if guess is None or guess is Card.GUARD:
        raise RuleViolation(
            "invalid_guess",
            "guard.guess",
            "the Guard must name a card other than the Guard",
            "le Garde doit nommer une carte autre que le Garde",
        )
    rs = state.ruleset
    assert rs is not None
    if not rs.has(guess) and state.options.guard_unknown is GuardUnknown.REFUSE:
        raise RuleViolation(
            "guess_not_in_ruleset",
            "guard.guess-in-ruleset",
            f"the {guess.value} is not a card of the {rs.id} ruleset",
            f"la carte {guess.value} n'existe pas dans le jeu de règles {rs.id}",
        )


def valid_targets(state: GameState, p: int, card: Card) -> tuple[int, ...]:
    """The players `p` may choose with `card` (empty: the card is played with no effect)."""
    out, protected = state.out, state.protected
    others = tuple(i for i in range(len(out)) if i != p and not out[i] and not protected[i])
    if card is Card.PRINCE:
        return tuple(sorted((p, *others)))
    return others if card in TARGETS_OTHER else ()


_GUARD, _PRIEST, _BARON, _PRINCE = Card.GUARD, Card.PRIEST, Card.BARON, Card.PRINCE
_KING, _COUNTESS, _PRINCESS, _CHANCELLOR = Card.KING, Card.COUNTESS, Card.PRINCESS, Card.CHANCELLOR
_MISS = GuardUnknown.MISS


_CARD_PLAYED: dict[tuple[int, Card, int | None, Card | None], CardPlayed] = {}
_SHARED: dict[tuple[Any, ...], Any] = {}
E = TypeVar("E")


def _shared(cls: Callable[..., E], *fields: Any) -> E:
    """`cls(*fields)`, one instance per distinct value: events are immutable, so sharing them is safe
    (callers only share events whose fields are ints, `Card`s and tuples of `Card`s)."""
    key = (cls, *fields)
    event: E | None = _SHARED.get(key)
    if event is None:
        event = cls(*fields)
        if len(_SHARED) < 1 << 16:
            _SHARED[key] = event
    return event


def _plainly_legal(state: GameState, p: int, card: Card, t: int | None, guess: Card | None) -> bool:
    """A quick test that accepts only plays `_check_play` accepts (it may send legal ones to the full check)."""
    if state.phase != PHASE_PLAY or type(p) is not int or p != state.active or type(card) is not Card:
        return False
    hand = state.hands[p]
    if card not in hand or (card is not _COUNTESS and _COUNTESS in hand and (_KING in hand or _PRINCE in hand)):
        return False
    if t is None:
        return guess is None and card not in TARGETS_OTHER and card is not _PRINCE
    if type(t) is not int or not 0 <= t < len(state.out) or state.out[t]:
        return False
    if card is _PRINCE:
        return guess is None and (t == p or not state.protected[t])
    if t == p or state.protected[t] or card not in TARGETS_OTHER:
        return False
    if card is _GUARD:
        if type(guess) is not Card or guess is _GUARD:
            return False
        rs = state.ruleset
        return rs is not None and (
            (guess in rs.copies and rs.copies[guess] > 0) or state.options.guard_unknown is _MISS
        )
    return guess is None


def _play(state: GameState, cmd: PlayCard) -> Events:
    p, card, t, guess = cmd.player, cmd.card, cmd.target, cmd.guess
    plain = _plainly_legal(state, p, card, t, guess)
    if plain:
        # Events are immutable values: a legal play's `card_played` is shared, not rebuilt.
        key = (p, card, t, guess)
        played = _CARD_PLAYED.get(key)
        if played is None:
            played = _CARD_PLAYED[key] = CardPlayed(p, card, t, guess)
    else:
        _check_play(state, cmd)
        played = CardPlayed(p, card, t, guess)
    hand = state.hands[p]
    mine = hand[1] if hand[0] is card else hand[0]
    if len(hand) != 2 or (hand[0] is not card and hand[1] is not card):
        rest = list(hand)
        rest.remove(card)
        mine = rest[0]
    events: list[Event] = [played]
    eliminated: int = -1
    deck = state.deck
    drawn = 0  # cards this move takes from the top of the deck
    if t is not None:
        theirs = state.hands[t][0] if t != p else mine
        # Shared events (immutable values) when every card involved is a `Card`, as it always is in play.
        share = plain and type(mine) is Card and type(theirs) is Card
        if card is _GUARD:
            if guess is theirs:
                events.append(
                    _shared(PlayerEliminated, t, (theirs,), _GUARD) if share else PlayerEliminated(t, (theirs,), _GUARD)
                )
                eliminated = t
        elif card is _PRIEST:
            events.append(_shared(HandSeen, p, t, theirs) if share else HandSeen(p, t, theirs))
        elif card is _BARON:
            events.append(_shared(HandsCompared, p, t, mine, theirs) if share else HandsCompared(p, t, mine, theirs))
            values = state.ruleset.values  # type: ignore[union-attr]
            if values[mine] < values[theirs]:
                events.append(
                    _shared(PlayerEliminated, p, (mine,), _BARON) if share else PlayerEliminated(p, (mine,), _BARON)
                )
                eliminated = p
            elif values[theirs] < values[mine]:
                events.append(
                    _shared(PlayerEliminated, t, (theirs,), _BARON) if share else PlayerEliminated(t, (theirs,), _BARON)
                )
                eliminated = t
        elif card is _PRINCE:
            events.append(_shared(HandDiscarded, t, theirs) if share else HandDiscarded(t, theirs))
            if theirs is _PRINCESS:
                events.append(PlayerEliminated(t, (), _PRINCESS))
                eliminated = t
            elif deck:
                top = deck[0]
                drew = CardDrawn(t, top, "deck") if type(top) is not Card else _shared(CardDrawn, t, top, "deck")
                events.append(drew)
                drawn = 1
            else:
                assert state.set_aside is not None
                events.append(CardDrawn(t, state.set_aside, "set-aside"))
        elif card is _KING:
            events.append(HandsTraded(p, t, mine, theirs))
    elif card is _PRINCESS:
        events.append(PlayerEliminated(p, (mine,), _PRINCESS))
        eliminated = p
    elif card is _CHANCELLOR and deck:
        events.append(ChancellorDrew(p, deck[:2]))
        return tuple(events)
    deck_left = len(deck) - drawn
    return _end_of_turn(state, events, eliminated, deck_left, deck[drawn] if deck_left else None)


def _same_hand(keep: Card, bottom: tuple[Card, ...], hand: tuple[Card, ...]) -> bool:
    """Quickly: whether `keep` and `bottom` are exactly the cards of `hand`."""
    try:
        return len(bottom) == len(hand) - 1 and sorted((keep, *bottom)) == sorted(hand)
    except TypeError:
        return False


def _return(state: GameState, cmd: ReturnCards) -> Events:
    p = cmd.player
    if not (
        state.phase == PHASE_CHANCELLOR
        and type(p) is int
        and p == state.active
        and _same_hand(cmd.keep, cmd.bottom, state.hands[p])
    ):
        _check_return(state, cmd)
    deck = state.deck + cmd.bottom
    events: list[Event] = [ChancellorReturned(p, cmd.keep, cmd.bottom)]
    return _end_of_turn(state, events, -1, len(deck), deck[0] if deck else None)


def _check_return(state: GameState, cmd: ReturnCards) -> None:
    """Refuse every illegal return; return quietly for a legal one."""
    p = cmd.player
    _check_turn(state, p, PHASE_CHANCELLOR)
    hand = state.hands[p]
    if Counter((cmd.keep, *cmd.bottom)) != Counter(hand) or len(cmd.bottom) != len(hand) - 1:
        raise RuleViolation(
            "invalid_return",
            "chancellor.return",
            f"keep one card and return the other {len(hand) - 1} of your hand "
            f"({', '.join(_card(state, c, 'en') for c in hand)})",
            f"gardez une carte et replacez les {len(hand) - 1} autres de votre main "
            f"({', '.join(_card(state, c, 'fr') for c in hand)})",
        )


# -- the end of a turn, a round and the game ------------------------------------------------------


def _end_of_turn(state: GameState, events: list[Event], eliminated: int, deck_left: int, top: Card | None) -> Events:
    """After a move's effects (`eliminated`: the seat it knocked out, or -1): end the round (last
    standing, or deck out) or start the next turn."""
    out = state.out
    n = len(out)
    alive = n - sum(out) - (eliminated >= 0)
    if alive == 1 or deck_left == 0:
        after = fold(events, state)
        events.extend(_end_of_round(after, "last-standing" if alive == 1 else "deck-out"))
        return tuple(events)
    nxt = state.active + 1
    if nxt == n:
        nxt = 0
    while out[nxt] or nxt == eliminated:
        nxt += 1
        if nxt == n:
            nxt = 0
    assert top is not None
    events.append(_turn_started(nxt, top))
    return tuple(events)


def _turn_started(seat: int, card: Card) -> TurnStarted:
    """`TurnStarted(seat, card)`, shared: events are immutable values."""
    turn = _TURN_STARTED.get((seat, card)) if type(card) is Card else None
    if turn is None:
        turn = TurnStarted(seat, card)
        if type(card) is Card and type(seat) is int and 0 <= seat < 8:
            _TURN_STARTED[(seat, card)] = turn
    return turn


_TURN_STARTED: dict[tuple[int, Card], TurnStarted] = {}


def showdown_winners(state: GameState) -> tuple[int, ...]:
    """Who wins a deck-out showdown among the players still in the round (RULINGS §1, §6, §11)."""
    rs = state.ruleset
    assert rs is not None
    values = rs.values
    alive = state.in_round()
    best = max(values[state.hands[i][0]] for i in alive)
    tied = tuple(i for i in alive if values[state.hands[i][0]] == best)
    if len(tied) == 1 or rs.tie_rule is TieRule.ALL_WIN:
        return tied
    sums = {i: sum(values[c] for c in state.front[i]) for i in tied}
    top = max(sums.values())
    still = tuple(i for i in tied if sums[i] == top)
    if len(still) == 1 or state.options.tie_2012 is Tie2012.ALL:
        return still
    return ()


def _favor(seat: int, reason: FavorReason) -> FavorGained:
    event = _FAVORS.get((seat, reason))
    if event is None:
        event = FavorGained(seat, reason)
        if type(seat) is int and 0 <= seat < 8:
            _FAVORS[(seat, reason)] = event
    return event


_FAVORS: dict[tuple[int, str], FavorGained] = {}
_SPY = Card.SPY


def _end_of_round(state: GameState, reason: str) -> list[Event]:
    rs = state.ruleset
    assert rs is not None
    out = state.out
    n = len(out)
    alive = tuple([i for i in range(n) if not out[i]])
    if reason == "last-standing":
        winners: tuple[int, ...] = alive
        hands: tuple[Card | None, ...] = ()
    else:
        winners = showdown_winners(state)
        hands = tuple([h[0] if not out[i] else None for i, h in enumerate(state.hands)])
    events: list[Event] = [
        RoundEnded(
            state.round, "last-standing" if reason == "last-standing" else "deck-out", winners, state.set_aside, hands
        )
    ]
    gains = [0] * n
    for w in winners:
        gains[w] += 1
        events.append(_favor(w, "round"))
    front = state.front
    if rs.spy_favor:
        spies = [i for i in alive if _SPY in front[i]]
        if len(spies) == 1:
            events.append(_favor(spies[0], "spy"))
            gains[spies[0]] += 1
    if rs.amira_sadie_favor:
        pair = [i for i in alive if _CHANCELLOR in front[i]]
        if len(pair) == 2:
            for i in pair:
                events.append(_favor(i, "amira-sadie"))
                gains[i] += 1
    threshold = rs.favors_to_win[n]
    game_winners = tuple([i for i, f in enumerate(state.favors) if f + gains[i] >= threshold])
    if game_winners:
        events.append(GameEnded(game_winners))
    return events
