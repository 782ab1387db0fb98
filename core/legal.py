"""Every legal command of a player, and stable integer action codes for bots.

Action codes (documented in docs/bots.md) never change meaning:
- play: ((card_slot * 8) + (target + 1)) * 11 + guess_slot, where card_slot is the card's index in
  `CARD_ORDER`, target is -1 for none, and guess_slot is 0 for none or 1 + the named card's index;
- Chancellor return: 1000 + keep_slot * 121 + (b0 + 1) * 11 + (b1 + 1), b0/b1 the returned cards'
  slots in top-to-bottom order, -1 when absent.
"""

from __future__ import annotations

from itertools import permutations

from loveletter.core import memo
from loveletter.core.cards import CARD_INDEX, CARD_ORDER, TARGETS_OTHER, Card
from loveletter.core.commands import PlayCard, PlayerCommand, ReturnCards
from loveletter.core.rulesets import GuardUnknown
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_PLAY, GameState

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
        # The player to move always holds two cards (drawn at the turn's start; `core.situation` asks the same of
        # a described position): their moves are the cached codes' shared commands.
        return list(_legal(state, player)[1])
    if state.phase == PHASE_CHANCELLOR:
        return list(_returns(state, player))
    return []


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


_COMMANDS: dict[tuple[int, int], PlayerCommand] = memo.table()


def from_action_code(code: int, player: int) -> PlayerCommand:
    """The command an action code stands for, played by `player`; `ValueError` if it names nothing."""
    command = _COMMANDS.get((code, player))
    if command is None:
        command = _decode(code, player)
        if type(code) is int and type(player) is int and 0 <= player < 8:
            _COMMANDS[(code, player)] = command  # commands are immutable: one instance serves every game
    return command


def _decode(code: int, player: int) -> PlayerCommand:
    if code < 0:
        raise ValueError(f"no action has code {code}")
    if code >= RETURN_BASE:
        keep, rest = divmod(code - RETURN_BASE, 121)
        b0, b1 = divmod(rest, 11)
        if keep >= len(CARD_ORDER) or (b0 == 0 and b1):  # divmod by 11 of rest < 121: b0, b1 <= 10
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


_GUESS_SLOTS: dict[tuple[str, GuardUnknown], tuple[int, ...]] = memo.table()


def _guess_slots(state: GameState) -> tuple[int, ...]:
    """The guess part of the Guard's codes (1 + card slot), in `_guesses` order; cached per ruleset and option."""
    rs = state.ruleset
    assert rs is not None
    key = (rs.id, state.options.guard_unknown)
    slots = _GUESS_SLOTS.get(key)
    if slots is None:
        slots = _GUESS_SLOTS[key] = tuple(CARD_INDEX[c] + 1 for c in _guesses(state))
    return slots


_GUARD, _PRINCE, _COUNTESS, _KING = Card.GUARD, Card.PRINCE, Card.COUNTESS, Card.KING
_TARGETS_OTHER = TARGETS_OTHER


def legal_action_codes(state: GameState, player: int) -> list[int]:
    """The action codes of `legal_moves(state, player)`, in the same order, without building the commands."""
    return list(legal_codes(state, player))


def legal_codes(state: GameState, player: int) -> tuple[int, ...]:
    """`legal_action_codes` as a shared tuple (the bots' hot path: no copy)."""
    return _legal(state, player)[0]


def legal_move_tuple(state: GameState, player: int) -> tuple[PlayerCommand, ...]:
    """`legal_moves` as a shared tuple of shared commands (the simulator's hot path: no copy)."""
    return _legal(state, player)[1]


_NONE: tuple[tuple[int, ...], tuple[PlayerCommand, ...]] = ((), ())


def _legal(state: GameState, player: int) -> tuple[tuple[int, ...], tuple[PlayerCommand, ...]]:
    """(codes, commands) of the legal moves, remembered: they depend on nothing but the key below."""
    if player != state.active:
        return _NONE
    if state.phase != PHASE_PLAY:
        if state.phase != PHASE_CHANCELLOR:
            return _NONE
        hand = state.hands[player]
        key: tuple[object, ...] = (hand, player)  # a return depends on the hand only
        found = _RETURN_CODES.get(key)
        if found is None:
            codes = tuple([action_code(m) for m in _returns(state, player)])
            found = _remember(_RETURN_CODES, key, codes, player)
        return found
    hand = state.hands[player]
    rs = state.ruleset
    assert rs is not None
    key = (hand, player, state.out, state.protected, rs.id, state.options.guard_unknown)
    found = _CODES.get(key)
    if found is None:
        found = _remember(_CODES, key, tuple(_play_codes(state, player, hand)), player)
    return found


def _remember(
    cache: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[PlayerCommand, ...]]],
    key: tuple[object, ...],
    codes: tuple[int, ...],
    player: int,
) -> tuple[tuple[int, ...], tuple[PlayerCommand, ...]]:
    found = (codes, tuple([from_action_code(code, player) for code in codes]))
    if type(player) is int:  # (a bool seat would be equal to an int one in the key)
        if len(cache) >= _CODES_MAX:
            cache.clear()
        cache[key] = found
    return found


_CODES: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[PlayerCommand, ...]]] = memo.table()
_RETURN_CODES: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[PlayerCommand, ...]]] = memo.table()
_CODES_MAX = 1 << 16


def _play_codes(state: GameState, player: int, hand: tuple[Card, ...]) -> list[int]:
    """The codes of the plays of a two-card hand (the only hand a player to move holds)."""
    a, b = hand
    if a is b:
        cards: tuple[Card, ...] = (a,)
    elif (a is _COUNTESS and (b is _KING or b is _PRINCE)) or (b is _COUNTESS and (a is _KING or a is _PRINCE)):
        cards = (_COUNTESS,)
    else:
        cards = (a, b)
    codes: list[int] = []
    out, protected = state.out, state.protected
    for card in cards:
        slot88 = CARD_INDEX[card] * 88
        if card in _TARGETS_OTHER:
            others = [i for i in range(len(out)) if i != player and not out[i] and not protected[i]]
            if not others:
                codes.append(slot88)
            elif card is _GUARD:
                guesses = _guess_slots(state)
                for t in others:
                    base = slot88 + (t + 1) * 11
                    codes.extend([base + g for g in guesses])
            else:
                codes.extend([slot88 + (t + 1) * 11 for t in others])
        elif card is _PRINCE:
            codes.extend(
                [slot88 + (i + 1) * 11 for i in range(len(out)) if i == player or not (out[i] or protected[i])]
            )
        else:
            codes.append(slot88)
    return codes


def legal_moves_as_dicts(state: GameState, player: int) -> list[dict[str, object]]:
    """`player`'s legal moves as clients and rulings show them."""
    return [move_as_dict(state, m) for m in legal_moves(state, player)]


def move_as_dict(state: GameState, move: PlayerCommand) -> dict[str, object]:
    """A command as clients and rulings show it: card ids, the target's seat and name, the action code."""
    out: dict[str, object]
    if isinstance(move, PlayCard):
        out = {"type": "play", "card": str(move.card)}  # str(card) is its id (a StrEnum), cheaper than .value
        if move.target is not None:
            out["target"] = move.target
            out["target_name"] = state.players[move.target]
        if move.guess is not None:
            out["guess"] = str(move.guess)
    else:
        out = {"type": "return", "keep": str(move.keep), "bottom": [str(c) for c in move.bottom]}
    out["action_code"] = action_code(move)
    return out
