"""Every legal command of a player, and stable integer action codes for bots.

Action codes (documented in docs/bots.md) never change meaning:
- play: ((card_slot * 8) + (target + 1)) * 11 + guess_slot, where card_slot is the card's index in
  `CARD_ORDER`, target is -1 for none, and guess_slot is 0 for none or 1 + the named card's index;
- Chancellor return: 1000 + keep_slot * 121 + (b0 + 1) * 11 + (b1 + 1), b0/b1 the returned cards'
  slots in top-to-bottom order, -1 when absent.
"""

from __future__ import annotations

from itertools import permutations

from core.cards import CARD_INDEX, CARD_ORDER, TARGETS_OTHER, Card
from core.commands import PlayCard, PlayerCommand, ReturnCards
from core.decide import valid_targets
from core.rulesets import GuardUnknown
from core.state import PHASE_CHANCELLOR, PHASE_PLAY, GameState

RETURN_BASE = 1000


def _guesses(state: GameState) -> tuple[Card, ...]:
    rs = state.ruleset
    assert rs is not None
    if state.options.guard_unknown is GuardUnknown.MISS:
        return tuple(c for c in CARD_ORDER if c is not Card.GUARD)
    return tuple(c for c in CARD_ORDER if c is not Card.GUARD and rs.has(c))


def legal_moves(state: GameState, player: int) -> list[PlayerCommand]:
    """All distinct legal commands of `player` now (empty when it is not their decision)."""
    if player != state.active:
        return []
    if state.phase == PHASE_PLAY:
        return list(_plays(state, player))
    if state.phase == PHASE_CHANCELLOR:
        return list(_returns(state, player))
    return []


def _plays(state: GameState, p: int) -> list[PlayCard]:
    hand = state.hands[p]
    cards = dict.fromkeys(hand)
    if Card.COUNTESS in cards and (Card.KING in cards or Card.PRINCE in cards):
        cards = {Card.COUNTESS: None}
    moves: list[PlayCard] = []
    for card in cards:
        if card in TARGETS_OTHER or card is Card.PRINCE:
            targets = valid_targets(state, p, card)
            if not targets:
                moves.append(PlayCard(p, card))
            elif card is Card.GUARD:
                guesses = _guesses(state)
                moves.extend(PlayCard(p, card, t, g) for t in targets for g in guesses)
            else:
                moves.extend(PlayCard(p, card, t) for t in targets)
        else:
            moves.append(PlayCard(p, card))
    return moves


def _returns(state: GameState, p: int) -> list[ReturnCards]:
    hand = state.hands[p]
    moves: list[ReturnCards] = []
    for keep in dict.fromkeys(hand):
        rest = list(hand)
        rest.remove(keep)
        for order in dict.fromkeys(permutations(rest)):
            moves.append(ReturnCards(p, keep, order))
    return moves


def action_code(command: PlayerCommand) -> int:
    """The stable integer code of a player command (the seat is not part of it)."""
    if isinstance(command, PlayCard):
        target = -1 if command.target is None else command.target
        guess = 0 if command.guess is None else CARD_INDEX[command.guess] + 1
        return ((CARD_INDEX[command.card] * 8) + target + 1) * 11 + guess
    b = [CARD_INDEX[c] for c in command.bottom] + [-1, -1]
    return RETURN_BASE + CARD_INDEX[command.keep] * 121 + (b[0] + 1) * 11 + (b[1] + 1)


def from_action_code(code: int, player: int) -> PlayerCommand:
    """The command an action code stands for, played by `player`; `ValueError` if it names nothing."""
    if code < 0:
        raise ValueError(f"no action has code {code}")
    if code >= RETURN_BASE:
        keep, rest = divmod(code - RETURN_BASE, 121)
        b0, b1 = divmod(rest, 11)
        if keep >= len(CARD_ORDER) or b0 > len(CARD_ORDER) or b1 > len(CARD_ORDER) or (b0 == 0 and b1):
            raise ValueError(f"no action has code {code}")
        bottom = tuple(CARD_ORDER[b - 1] for b in (b0, b1) if b)
        return ReturnCards(player, CARD_ORDER[keep], bottom)
    rest, guess = divmod(code, 11)
    card, target = divmod(rest, 8)
    if card >= len(CARD_ORDER) or guess > len(CARD_ORDER):
        raise ValueError(f"no action has code {code}")
    return PlayCard(
        player,
        CARD_ORDER[card],
        None if target == 0 else target - 1,
        None if guess == 0 else CARD_ORDER[guess - 1],
    )


def legal_action_codes(state: GameState, player: int) -> list[int]:
    return [action_code(m) for m in legal_moves(state, player)]
