"""Chance as a pure function of a seed: the deck order and random first player of a round.

The caller supplies a 256-bit seed (from `secrets`, or derived from a simulation seed); the same
seed always gives the same deal, and the deal is recorded in the log, so replay never draws.

Algorithm `hmac-sha256-fy/1`: a byte stream of HMAC-SHA256(key=seed, msg=counter as 8-byte
big-endian), counter from 0; 32-bit big-endian words are read from it. Fisher–Yates runs from the
last position down: for i = n-1 … 1, draw words until one is below 2**32 - (2**32 mod (i+1)) and take
j = word mod (i+1) (rejection keeps it unbiased), then swap positions i and j. A random first player
is the next such uniform draw over the candidate seats, in seat order.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Sequence, TypeVar

from core.cards import Card
from core.commands import DealRound
from core.decide import first_player_candidates
from core.state import GameState
from events.catalogue import Shuffle

ALGORITHM = "hmac-sha256-fy/1"
SEED_BYTES = 32
T = TypeVar("T")


class SeedStream:
    """Uniform integers from a seed, reproducible by any HMAC-SHA256 implementation."""

    __slots__ = ("_key", "_counter", "_buffer")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self._key = seed
        self._counter = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 4:
            block = hmac.new(self._key, self._counter.to_bytes(8, "big"), hashlib.sha256).digest()
            self._counter += 1
            self._buffer += block
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound)."""
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            word = self._word()
            if word < limit:
                return word % bound

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def deal(state: GameState, seed: bytes) -> DealRound:
    """The next round's deal from `seed`: shuffle, set aside, face up (2 players), one card each.

    Cards are dealt one per seat starting with the first player and going clockwise.
    """
    rs = state.ruleset
    if rs is None:
        raise ValueError("no game to deal for")
    stream = SeedStream(seed)
    order = stream.shuffled(rs.deck)
    candidates, _ = first_player_candidates(state)
    first = candidates[stream.below(len(candidates))] if len(candidates) > 1 else candidates[0]
    n = len(state.players)
    set_aside, rest = order[0], order[1:]
    face_up: tuple[Card, ...] = ()
    if n == 2:
        face_up, rest = tuple(rest[:3]), rest[3:]
    hands: list[Card | None] = [None] * n
    for k in range(n):
        hands[(first + k) % n] = rest[k]
    return DealRound(
        set_aside=set_aside,
        face_up=face_up,
        hands=tuple(h for h in hands if h is not None),
        deck=tuple(rest[n:]),
        first_player=first,
        shuffle=Shuffle(ALGORITHM, seed.hex()),
    )
