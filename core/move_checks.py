"""Whether a player's move is legal: every refusal of a play or a Chancellor's return, with its rule.

Split from `core.decide` so the checks can be read apart from what the cards do (`core.card_effects`). Also
the targets a card may choose (`valid_targets`, which `core.legal` lists moves with) and the names the
refusals' messages use.
"""

from __future__ import annotations

from collections import Counter

from loveletter.core.cards import TARGETS_OTHER, Card
from loveletter.core.commands import PlayCard, ReturnCards
from loveletter.core.lang import Lang, de, plural_en, que
from loveletter.core.rules import RuleViolation
from loveletter.core.rulesets import GuardUnknown, Ruleset
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_DEAL, PHASE_NEW, PHASE_OVER, PHASE_PLAY, GameState


def _ruleset(state: GameState) -> Ruleset:
    """The game's ruleset: a refusal that names a card comes after the game's creation (`_check_turn` first)."""
    assert state.ruleset is not None
    return state.ruleset


def card_name(state: GameState, card: Card, lang: Lang) -> str:
    return _ruleset(state).name(card, lang)


def the_card(state: GameState, card: Card, lang: Lang) -> str:
    """The card's name with its article in the game's ruleset: "the Handmaid", « la Servante », « Oliver le dragon »."""
    return _ruleset(state).the(card, lang)


def _agree(state: GameState, card: Card, lang: Lang, one: str, many: str) -> str:
    """The verb `one` or, after a plural card name (« les Conseillers du roi »), `many`."""
    return many if _ruleset(state).plural(card, lang) else one


def _cards(state: GameState, cards: tuple[Card, ...], lang: Lang) -> str:
    """Two cards or more in a sentence (a hand): "the Guard and the Baron", « le Garde, le Prêtre et le Roi »."""
    names = [the_card(state, c, lang) for c in cards]
    return f"{', '.join(names[:-1])} {'et' if lang == 'fr' else 'and'} {names[-1]}"


def not_a_card(value: object, lang: Lang) -> str:
    """What was given in place of a card, quoted: "'joker'", « joker »."""
    return f"« {value} »" if lang == "fr" else repr(value)


def _the_given(state: GameState, card: object, lang: Lang) -> str:
    """`the_card`, or what was given in its place when it is no card."""
    return the_card(state, card, lang) if type(card) is Card else not_a_card(card, lang)


def seat_given(value: object, lang: Lang) -> str:
    """A seat number as given: the number, or what was given in its place, quoted ("'0'", « 0 »)."""
    return str(value) if type(value) is int else not_a_card(value, lang)


def who(state: GameState, seat: int, lang: str = "en") -> str:
    """The player's name, or the seat's number when no player sits there ("seat 7", « le siège 7 »)."""
    if 0 <= seat < len(state.players):
        return state.players[seat]
    return f"le siège {seat}" if lang == "fr" else f"seat {seat}"


def of_who(state: GameState, seat: int) -> str:
    """French « de » and a seated player (the seat already checked): « d'Alice », « de Bob »."""
    return de(state.players[seat])


def refuse_if_over(state: GameState) -> None:
    if state.phase == PHASE_OVER:
        raise RuleViolation("game_over", "game.over", "the game is over", "la partie est terminée")


def _check_turn(state: GameState, player: int, phase: str) -> None:
    if state.phase != phase:
        refuse_if_over(state)
        if state.phase == PHASE_NEW:
            raise RuleViolation(
                "no_game", "setup.ruleset", "no game has been created yet", "aucune partie n'a encore été créée"
            )
        if state.phase == PHASE_DEAL:
            raise RuleViolation(
                "round_not_started",
                "round.not-started",
                "the next round has not been dealt yet",
                "la manche suivante n'a pas encore été distribuée",
            )
        if state.phase == PHASE_CHANCELLOR and player == state.active:
            # The mover's own decision: say what it is (the hand is theirs to know).
            hand = state.hands[player]
            others = len(hand) - 1
            rest_fr = "l'autre" if others == 1 else f"les {others} autres"
            raise RuleViolation(
                "chancellor_pending",
                "chancellor.pending",
                f"{who(state, player)} must first finish {the_card(state, Card.CHANCELLOR, 'en')}: keep one of "
                f"{_cards(state, hand, 'en')} and put the other {plural_en(others, 'card', 'cards')} on the bottom "
                "of the deck",
                f"{who(state, player, 'fr')} doit d'abord terminer {the_card(state, Card.CHANCELLOR, 'fr')} : garder "
                f"une carte parmi {_cards(state, hand, 'fr')} et placer "
                f"{rest_fr} sous la pioche",
            )
        if state.phase == PHASE_CHANCELLOR:
            raise RuleViolation(
                "chancellor_pending",
                "chancellor.pending",
                f"{who(state, state.active)} must first choose which card to keep after "
                f"{the_card(state, Card.CHANCELLOR, 'en')}",
                f"{who(state, state.active, 'fr')} doit d'abord choisir quelle carte garder après avoir joué "
                f"{the_card(state, Card.CHANCELLOR, 'fr')}",
            )
        raise RuleViolation(
            "no_chancellor_pending",
            "chancellor.return",
            f"no {card_name(state, Card.CHANCELLOR, 'en')} decision is pending",
            f"aucune décision n'est attendue après {the_card(state, Card.CHANCELLOR, 'fr')}",
        )
    if type(player) is not int or not 0 <= player < len(state.players):  # a bool, a str, a float: no seat either
        raise RuleViolation(
            "unknown_player",
            "turn.order",
            f"there is no seat {seat_given(player, 'en')} in this game",
            f"il n'y a pas de siège {seat_given(player, 'fr')} dans cette partie",
        )
    if player != state.active:
        raise RuleViolation(
            "not_your_turn",
            "turn.order",
            f"it is {who(state, state.active)}'s turn, not {who(state, player)}'s",
            f"c'est au tour {of_who(state, state.active)}, pas {of_who(state, player)}",
        )


def check_play(state: GameState, cmd: PlayCard) -> None:
    """Refuse every illegal play; return quietly for a legal one."""
    p, card, target, guess = cmd.player, cmd.card, cmd.target, cmd.guess
    _check_turn(state, p, PHASE_PLAY)
    hand = state.hands[p]
    if type(card) is not Card or card not in hand:  # a `Card` is a `str`: "guard" is in a hand holding the Guard
        raise RuleViolation(
            "card_not_in_hand",
            "turn.play-from-hand",
            f"{who(state, p)} does not hold {_the_given(state, card, 'en')} ({who(state, p)} holds "
            f"{_cards(state, hand, 'en')})",
            f"{who(state, p, 'fr')} n'a pas {_the_given(state, card, 'fr')} en main "
            f"(sa main : {_cards(state, hand, 'fr')})",
        )
    if card is not Card.COUNTESS and Card.COUNTESS in hand and (Card.KING in hand or Card.PRINCE in hand):
        other = Card.KING if Card.KING in hand else Card.PRINCE
        raise RuleViolation(
            "countess_required",
            "countess.forced",
            f"holding {the_card(state, Card.COUNTESS, 'en')} with {the_card(state, other, 'en')}, "
            f"you must play {the_card(state, Card.COUNTESS, 'en')}",
            f"avec {the_card(state, Card.COUNTESS, 'fr')} et {the_card(state, other, 'fr')} en main, "
            f"vous devez jouer {the_card(state, Card.COUNTESS, 'fr')}",
        )
    if card in TARGETS_OTHER or card is Card.PRINCE:
        _check_target(state, p, card, target)
    elif target is not None:
        raise RuleViolation(
            "unexpected_target",
            "target.unexpected",
            f"{the_card(state, card, 'en')} {_agree(state, card, 'en', 'chooses', 'choose')} nobody",
            f"{the_card(state, card, 'fr')} {_agree(state, card, 'fr', 'ne cible', 'ne ciblent')} personne",
        )
    if card is Card.GUARD and target is not None:
        _check_guess(state, guess)
    elif guess is not None:
        raise RuleViolation(
            "unexpected_guess",
            "target.unexpected",
            "only a Guard with a target names a card",
            f"on ne nomme une carte qu'en jouant {the_card(state, Card.GUARD, 'fr')} sur un joueur",
        )


def _check_target(state: GameState, p: int, card: Card, target: int | None) -> None:
    the_en, the_fr = the_card(state, card, "en"), the_card(state, card, "fr")
    must_fr = _agree(state, card, "fr", "doit", "doivent")
    if target is None:
        if card is Card.PRINCE or valid_targets(state, p, card):
            raise RuleViolation(
                "target_required",
                "target.required" if card is not Card.PRINCE else "target.none",
                f"{the_en} must choose a player: a legal target exists",
                f"{the_fr} {must_fr} cibler un joueur : il existe une cible valide",
            )
        return
    if type(target) is not int or not 0 <= target < len(state.players):
        raise RuleViolation(
            "unknown_player",
            "target.required",
            f"there is no seat {seat_given(target, 'en')} in this game",
            f"il n'y a pas de siège {seat_given(target, 'fr')} dans cette partie",
        )
    if target == p and card is not Card.PRINCE:
        raise RuleViolation(
            "self_target",
            "target.other",
            f"{the_en} must choose another player",
            f"{the_fr} {must_fr} cibler un autre joueur que vous",
        )
    if state.out[target]:
        raise RuleViolation(
            "target_eliminated",
            "target.eliminated",
            f"{who(state, target)} is out of the round and cannot be chosen",
            f"{who(state, target, 'fr')} a quitté la manche et ne peut plus être la cible d'aucune carte",
        )
    if target != p and state.protected[target]:
        raise RuleViolation(
            "target_protected",
            "target.protected",
            f"{who(state, target)} is protected by {the_card(state, Card.HANDMAID, 'en')} and cannot be chosen",
            f"{the_card(state, Card.HANDMAID, 'fr')} protège {who(state, target, 'fr')}, qui ne peut pas être la cible "
            "d'un autre joueur",
        )


def _check_guess(state: GameState, guess: Card | None) -> None:
    if guess is None or type(guess) is not Card or guess is Card.GUARD:
        guard_en, guard_fr = the_card(state, Card.GUARD, "en"), the_card(state, Card.GUARD, "fr")
        raise RuleViolation(
            "invalid_guess",
            "guard.guess",
            f"{guard_en} must name a card other than {guard_en}",
            f"{guard_fr} doit nommer une carte autre {que(guard_fr)}",
        )
    rs = state.ruleset
    assert rs is not None
    if not rs.has(guess) and state.options.guard_unknown is GuardUnknown.REFUSE:
        raise RuleViolation(
            "guess_not_in_ruleset",
            "guard.guess-in-ruleset",
            f"{the_card(state, guess, 'en')} is not a card of the {rs.id} ruleset",
            f"{the_card(state, guess, 'fr')} n'est pas une carte du jeu de règles « {rs.id} »",
        )


def valid_targets(state: GameState, p: int, card: Card) -> tuple[int, ...]:
    """The players `p` may choose with `card` (empty: the card is played with no effect)."""
    out, protected = state.out, state.protected
    others = tuple(i for i in range(len(out)) if i != p and not out[i] and not protected[i])
    if card is Card.PRINCE:
        return tuple(sorted((p, *others)))
    return others if card in TARGETS_OTHER else ()


def check_return(state: GameState, cmd: ReturnCards) -> None:
    """Refuse every illegal return; return quietly for a legal one."""
    p = cmd.player
    _check_turn(state, p, PHASE_CHANCELLOR)
    hand = state.hands[p]
    given = (cmd.keep, *cmd.bottom) if type(cmd.bottom) is tuple else (None,)  # the returned cards: a tuple of cards
    if any(type(c) is not Card for c in given) or Counter(given) != Counter(hand) or len(given) != len(hand):
        others_fr = "l'autre" if len(hand) == 2 else f"les {len(hand) - 1} autres"
        raise RuleViolation(
            "invalid_return",
            "chancellor.return",
            f"keep one card and return the other {len(hand) - 1} of your hand "
            f"({', '.join(card_name(state, c, 'en') for c in hand)})",
            f"gardez une carte de votre main et replacez {others_fr} "
            f"({', '.join(card_name(state, c, 'fr') for c in hand)})",
        )
