"""Who sits at the table and for how long: open seats, joining, turn clocks, resigning and aborting.

The rules of online play that no rulebook covers (RULINGS §12, and the lobby): they decide events like the
card rules do, so replay and audit judge a join, a timeout or a resignation exactly as they judge a move.
Times are Unix milliseconds given by the caller; `core` never reads a clock.
"""

from __future__ import annotations

from loveletter.core.catalogue import ClockRanOut, ClockSet, Event, GameAborted, GameEnded, PlayerResigned, SeatJoined
from loveletter.core.commands import Abort, ExpireSeats, JoinSeat, Resign, SetClock, StartGame, TimeOut
from loveletter.core.evolve import fold
from loveletter.core.move_checks import of_who, refuse_if_over, who
from loveletter.core.round_end import Events, end_of_round, end_of_turn
from loveletter.core.rules import RuleViolation
from loveletter.core.state import PHASE_CHANCELLOR, PHASE_DEAL, PHASE_NEW, PHASE_PLAY, GameState

MAX_TURN_SECONDS = 7 * 24 * 3600


def check_table(cmd: StartGame, names: list[str]) -> None:
    """The seats and clock of a new game: open seats are named "" until joined, a clock has both its settings."""
    n = len(names)
    opened = cmd.open_seats
    if len(set(opened)) != len(opened) or any(type(i) is not int or not 0 <= i < n for i in opened):
        raise RuleViolation(
            "invalid_open_seats",
            "lobby.join",
            f"open seats are distinct seats from 0 to {n - 1}",
            f"les sièges ouverts sont des sièges distincts, de 0 à {n - 1}",
        )
    taken = [name for i, name in enumerate(names) if i not in opened]
    if any(names[i] for i in opened) or any(not name for name in taken) or len(set(taken)) != len(taken):
        raise RuleViolation(
            "player_names",
            "setup.players",
            "player names must be distinct and not empty (an open seat has no name until someone takes it)",
            "les noms des joueurs doivent être distincts et non vides (un siège ouvert n'a pas de nom avant "
            "d'être pris)",
        )
    seconds, on_timeout = cmd.turn_seconds, cmd.on_timeout
    if (seconds is None) != (on_timeout is None) or (
        seconds is not None
        and (type(seconds) is not int or not 1 <= seconds <= MAX_TURN_SECONDS or on_timeout not in ("bot", "resign"))
    ):
        raise RuleViolation(
            "invalid_clock",
            "clock.deadline",
            f"a turn clock needs turn_seconds (1 to {MAX_TURN_SECONDS}) and on_timeout (bot or resign), or neither",
            f"une pendule demande « turn_seconds » (de 1 à {MAX_TURN_SECONDS}) et « on_timeout » (« bot » ou "
            "« resign »), ou ni l'un ni l'autre",
        )
    join_by = cmd.join_by
    if join_by is not None and (not opened or type(join_by) is not int or join_by <= 0):
        raise RuleViolation(
            "invalid_join_by",
            "lobby.join-deadline",
            "a deadline for the seats (join_by) is given only to a game with open seats, as a positive time",
            "une échéance des sièges (join_by) ne se donne qu'à une partie aux sièges ouverts, comme une heure "
            "positive",
        )


def _started(state: GameState) -> None:
    if state.phase == PHASE_NEW:
        raise RuleViolation(
            "no_game", "setup.ruleset", "no game has been created yet", "aucune partie n'a encore été créée"
        )
    refuse_if_over(state)


def _seat(state: GameState, player: int, rule_id: str) -> None:
    if type(player) is not int or not 0 <= player < len(state.players):
        raise RuleViolation("unknown_player", rule_id, f"there is no seat {player}", f"il n'y a pas de siège {player}")


def _in_order(state: GameState, at: int) -> None:
    if type(at) is not int or at < state.clock:
        raise RuleViolation(
            "clock_backwards",
            "clock.order",
            f"time {at} is earlier than the last time recorded ({state.clock})",
            f"l'heure {at} précède la dernière heure enregistrée ({state.clock})",
        )


def join(state: GameState, cmd: JoinSeat) -> Events:
    _started(state)
    _seat(state, cmd.player, "lobby.join")
    if state.round > 0:
        raise RuleViolation(
            "game_dealt",
            "lobby.join",
            "the game has been dealt: its seats can no longer be taken",
            "la partie a été distribuée : ses sièges ne peuvent plus être pris",
        )
    if state.players[cmd.player]:
        raise RuleViolation(
            "seat_taken",
            "lobby.join",
            f"seat {cmd.player} is already taken by {state.players[cmd.player]}",
            f"le siège {cmd.player} est déjà pris par {state.players[cmd.player]}",
        )
    name = cmd.name.strip() if isinstance(cmd.name, str) else ""
    if not name:
        raise RuleViolation(
            "name_taken", "lobby.join", "a player's name cannot be empty", "le nom d'un joueur ne peut pas être vide"
        )
    if name in state.players:
        raise RuleViolation(
            "name_taken", "lobby.join", f"{name} is already at this table", f"{name} est déjà à cette table"
        )
    _in_order(state, cmd.at)
    if state.join_by is not None and cmd.at >= state.join_by:
        raise RuleViolation(
            "seats_expired",
            "lobby.join-deadline",
            f"the open seats expired at {state.join_by}: seat {cmd.player} can no longer be taken",
            f"les sièges ouverts ont expiré à {state.join_by} : le siège {cmd.player} ne peut plus être pris",
        )
    return (SeatJoined(cmd.player, name, cmd.at, cmd.account),)


def expire_seats(state: GameState, cmd: ExpireSeats) -> Events:
    """A seat still open at the game's `join_by` ends the game unplayed: nobody wins."""
    _started(state)
    if state.join_by is None or not state.open_seats:
        raise RuleViolation(
            "no_join_deadline",
            "lobby.join-deadline",
            "this game has no open seat waiting for a deadline",
            "cette partie n'a aucun siège ouvert soumis à une échéance",
        )
    _in_order(state, cmd.at)
    if cmd.at < state.join_by:
        raise RuleViolation(
            "join_deadline_not_passed",
            "lobby.join-deadline",
            f"the open seats expire at {state.join_by}: not yet at {cmd.at}",
            f"les sièges ouverts expirent à {state.join_by} : pas encore à {cmd.at}",
        )
    return (GameAborted(cmd.at, "seats_unfilled"),)


def refuse_open_seats(state: GameState) -> None:
    """The first deal waits for every seat to be taken."""
    opened = state.open_seats
    if opened:
        seats = ", ".join(str(i) for i in opened)
        raise RuleViolation(
            "seats_open",
            "lobby.deal",
            f"seats still open: {seats}; the game is dealt once every seat is taken",
            f"sièges encore ouverts : {seats} ; la partie n'est distribuée qu'une fois tous les sièges pris",
        )


def _pending(state: GameState, player: int) -> bool:
    return state.phase in (PHASE_PLAY, PHASE_CHANCELLOR) and state.active == player


def _clocked(state: GameState, rule_id: str) -> int:
    seconds = state.turn_seconds
    if seconds is None:
        raise RuleViolation("no_clock", rule_id, "this game has no turn clock", "cette partie n'a pas de pendule")
    return seconds


def set_clock(state: GameState, cmd: SetClock) -> Events:
    _started(state)
    seconds = _clocked(state, "clock.deadline")
    _seat(state, cmd.player, "clock.deadline")
    if not _pending(state, cmd.player):
        raise RuleViolation(
            "no_pending_decision",
            "clock.deadline",
            f"{who(state, cmd.player)} has no decision to make now",
            f"{who(state, cmd.player, 'fr')} n'a aucune décision à prendre maintenant",
        )
    if state.deadline is not None:
        raise RuleViolation(
            "clock_running",
            "clock.deadline",
            "this decision's clock is already running",
            "la pendule de cette décision tourne déjà",
        )
    _in_order(state, cmd.at)
    return (ClockSet(cmd.player, cmd.at, cmd.at + seconds * 1000),)


def time_out(state: GameState, cmd: TimeOut) -> Events:
    _started(state)
    _clocked(state, "clock.timeout")
    _seat(state, cmd.player, "clock.timeout")
    deadline = state.deadline
    if deadline is None or deadline[0] != cmd.player:
        raise RuleViolation(
            "no_deadline",
            "clock.timeout",
            f"no clock is running for {who(state, cmd.player)}",
            f"aucune pendule ne tourne pour {who(state, cmd.player, 'fr')}",
        )
    _in_order(state, cmd.at)
    if cmd.at < deadline[1]:
        raise RuleViolation(
            "deadline_not_passed",
            "clock.timeout",
            f"{who(state, cmd.player)}'s deadline is {deadline[1]}: a timeout at {cmd.at} is too early",
            f"l'échéance {of_who(state, cmd.player)} est {deadline[1]} : un dépassement à {cmd.at} est prématuré",
        )
    ran_out: Event = ClockRanOut(cmd.player, cmd.at)
    if state.on_timeout != "resign":
        return (ran_out,)
    return _leave(state, cmd.player, "timeout", cmd.at, [ran_out])


def resign(state: GameState, cmd: Resign) -> Events:
    _started(state)
    _seat(state, cmd.player, "leave.resign")
    if state.resigned[cmd.player]:
        raise RuleViolation(
            "already_resigned",
            "leave.gone",
            f"{who(state, cmd.player)} has already left the game",
            f"{who(state, cmd.player, 'fr')} a déjà quitté la partie",
        )
    if state.round == 0:
        raise RuleViolation(
            "game_not_dealt",
            "leave.resign",
            "the game has not been dealt yet: there is nothing to resign from (the organiser may abort it)",
            "la partie n'a pas encore été distribuée : il n'y a rien à abandonner (l'organisateur peut l'annuler)",
        )
    _in_order(state, cmd.at)
    return _leave(state, cmd.player, "resigned", cmd.at, [])


def _leave(state: GameState, p: int, reason: str, at: int, events: list[Event]) -> Events:
    """RULINGS §12: out of the round at once, hand face up without effect; the turn ends if it was theirs."""
    in_round = state.phase != PHASE_DEAL and not state.out[p]
    events.append(PlayerResigned(p, state.hands[p] if in_round else (), reason, at))  # type: ignore[arg-type]
    if not in_round:
        left = [i for i in state.in_game() if i != p]
        if len(left) == 1 and state.phase == PHASE_DEAL:
            events.append(GameEnded((left[0],)))
        return tuple(events)
    if p == state.active:
        top = state.deck[0] if state.deck else None
        return end_of_turn(state, events, p, len(state.deck), top)
    if len(state.in_round()) - 1 == 1:
        events.extend(end_of_round(fold(events, state), "last-standing"))
    return tuple(events)


def abort(state: GameState, cmd: Abort) -> Events:
    _started(state)
    _in_order(state, cmd.at)
    return (GameAborted(cmd.at),)


def refuse_if_gone(state: GameState, player: object) -> None:
    """A seat that left the game makes no more moves: say so rather than "not your turn"."""
    if type(player) is int and 0 <= player < len(state.resigned) and state.resigned[player]:
        raise RuleViolation(
            "player_resigned",
            "leave.gone",
            f"{who(state, player)} has left the game and makes no more moves",
            f"{who(state, player, 'fr')} a quitté la partie et ne joue plus",
        )
