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
import struct
from typing import Sequence, TypeVar

from loveletter.core.cards import Card
from loveletter.core.catalogue import Shuffle
from loveletter.core.commands import DealRound, RevealSeed
from loveletter.core.decide import first_player_candidates
from loveletter.core.state import PHASE_DEAL, PHASE_OVER, GameState

ALGORITHM = "hmac-sha256-fy/1"
COMMITTED = "commit-hmac-sha256-fy/1"
"""Commit–reveal: the round's seed is HMAC-SHA256(key=server seed, msg=round_message(...)); see docs/shuffle.md."""
SEED_BYTES = 32
T = TypeVar("T")


class SeedStream:
    """Uniform integers from a seed, reproducible by any HMAC-SHA256 implementation."""

    __slots__ = ("_counter", "_inner", "_key", "_next", "_outer", "_words")

    def __init__(self, seed: bytes) -> None:
        if len(seed) != SEED_BYTES:
            raise ValueError(f"a seed is {SEED_BYTES} bytes, not {len(seed)}")
        self._key = seed
        # HMAC-SHA256 (RFC 2104) with the key's padded blocks hashed once: each block then costs two
        # hash copies instead of a whole HMAC set-up.
        block = seed.ljust(_SHA256_BLOCK, b"\0")
        self._inner = hashlib.sha256(block.translate(_IPAD))
        self._outer = hashlib.sha256(block.translate(_OPAD))
        self._counter = 0
        self._words: tuple[int, ...] = ()  # the current block's eight 32-bit big-endian words
        self._next = 0  # the next unread word of `_words`

    def _word(self) -> int:
        if self._next == len(self._words):
            self._words = _WORDS(self._block())
            self._next = 0
        word = self._words[self._next]
        self._next += 1
        return word

    def _block(self) -> bytes:
        """HMAC-SHA256(key=seed, msg=counter as 8-byte big-endian), then the counter moves on."""
        inner = self._inner.copy()
        inner.update(self._counter.to_bytes(8, "big"))
        self._counter += 1
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound)."""
        limit = _LIMITS[bound] if bound < len(_LIMITS) else (1 << 32) - (1 << 32) % bound
        while True:
            word = self._word()
            if word < limit:
                return word % bound

    def shuffled(self, items: Sequence[T]) -> list[T]:
        out = list(items)
        if len(out) >= len(_LIMITS):
            for i in range(len(out) - 1, 0, -1):
                j = self.below(i + 1)
                out[i], out[j] = out[j], out[i]
            return out
        # `below(i + 1)` for i = n-1 … 1, with the word stream inlined (the deal's hot loop).
        words, k = self._words, self._next
        limits, block = _LIMITS, self._block
        for i in range(len(out) - 1, 0, -1):
            bound = i + 1
            limit = limits[bound]
            if k == len(words):
                words, k = _WORDS(block()), 0
            w = words[k]
            k += 1
            while w >= limit:  # rejection: rare (probability below bound / 2**32)
                if k == len(words):
                    words, k = _WORDS(block()), 0
                w = words[k]
                k += 1
            j = w % bound
            out[i], out[j] = out[j], out[i]
        self._words, self._next = words, k
        return out


_SHA256_BLOCK = 64
_IPAD = bytes(b ^ 0x36 for b in range(256))
_OPAD = bytes(b ^ 0x5C for b in range(256))
_WORDS = struct.Struct(">8I").unpack
_LIMITS = (0, *((1 << 32) - (1 << 32) % bound for bound in range(1, 64)))


def round_message(round_no: int, seat_seeds: tuple[str | None, ...]) -> bytes:
    """What the server seed is applied to for round `round_no`: the round and every seat's seed so far."""
    return f"loveletter/round/v1|{round_no}|{'|'.join(seed or '-' for seed in seat_seeds)}".encode()


def round_seed(server_seed: bytes, round_no: int, seat_seeds: tuple[str | None, ...]) -> bytes:
    """The 256-bit seed of one round under commit–reveal."""
    return hmac.new(server_seed, round_message(round_no, seat_seeds), hashlib.sha256).digest()


def committed_deal(state: GameState, server_seed: bytes) -> DealRound:
    """The next round's deal under commit–reveal: reproducible by anyone once the server seed is revealed."""
    seed = round_seed(server_seed, state.round + 1, state.seat_seeds)
    return deal(state, seed, COMMITTED)


def chance_move(state: GameState, server_seed: bytes) -> DealRound | RevealSeed | None:
    """Chance's move, where chance is to move: the next round dealt from the committed server seed, or that seed
    revealed once the game is over. None where a seat decides or nothing is left to do. The referee, simulations,
    tournaments, the environment and the benchmarks all let chance move through this one function."""
    if state.phase == PHASE_DEAL:
        return committed_deal(state, server_seed)
    if state.phase == PHASE_OVER and state.server_seed is None and state.seed_commitment is not None:
        return RevealSeed(server_seed.hex())
    return None


def commitment(server_seed: bytes) -> str:
    return hashlib.sha256(server_seed).hexdigest()


def deal(state: GameState, seed: bytes, algorithm: str = ALGORITHM) -> DealRound:
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
    seats = state.in_game()  # RULINGS §12: a seat that left the game is dealt nothing
    n = len(seats)
    start = 4 if n == 2 else 1  # after the face-down card (and the three face-up ones with 2 players)
    dealt = order[start : start + n]
    # One card per seat in the game from the first player clockwise: the k-th of them gets dealt[k].
    at = seats.index(first)
    hands: list[Card | None] = [None] * len(state.players)
    for k, seat in enumerate(seats[at:] + seats[:at]):
        hands[seat] = dealt[k]
    return DealRound(
        order[0],
        tuple(order[1:4]) if n == 2 else (),
        tuple(hands),
        tuple(order[start + n :]),
        first,
        Shuffle(algorithm, seed.hex()),
    )
