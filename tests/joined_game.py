"""A whole game whose second seat was left open at creation and taken later (`seat_joined`), written as a log:
what a lobby game looks like once `GET /games/{id}/log` hands it out."""

from __future__ import annotations

from pathlib import Path

from loveletter.core.catalogue import Event
from loveletter.core.chance import chance_move, commitment
from loveletter.core.commands import JoinSeat, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.legal import legal_moves
from loveletter.core.state import INITIAL, PHASE_CHANCELLOR, PHASE_PLAY
from loveletter.events.log import game_lines

SEED = bytes(range(32))


def joined_game_events(host: str = "Alice", guest: str = "Bob", first_player: int = 0, pick: int = 0) -> list[Event]:
    """Alice creates the game with seat 1 open, Bob takes it, and both play their `pick`-th legal move (the first by
    default, the last with -1) to the end."""
    start = StartGame("2019", (host, ""), first_player=first_player, open_seats=(1,), seed_commitment=commitment(SEED))
    events = list(decide(INITIAL, start))
    state = fold(events)
    events += decide(state, JoinSeat(1, guest, 1_700_000_000_000))
    state = fold(events)
    while True:
        command = chance_move(state, SEED)
        if command is None and state.phase in (PHASE_PLAY, PHASE_CHANCELLOR):
            moves = legal_moves(state, state.active)
            command = moves[pick % len(moves)]
        if command is None:
            return events
        caused = decide(state, command)
        events += caused
        state = fold(caused, state)


def write_joined_game(path: Path, games: int = 1) -> Path:
    """`games` such games, one after the other, in one log file."""
    with path.open("wb") as out:
        for _ in range(games):
            out.writelines(line + b"\n" for line in game_lines(joined_game_events()))
    return path
