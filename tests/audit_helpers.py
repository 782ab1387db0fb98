"""Clean signed logs for the audit tests: simulated games, chained, committed, revealed and signed."""

from __future__ import annotations

import io
from functools import lru_cache

from loveletter.core.catalogue import Event
from loveletter.events.log import write_game
from loveletter.events.signing import SigningKey
from loveletter.play.bots import get_bot
from loveletter.play.simulate import Config, _header, play_game, root_key


@lru_cache(maxsize=1)
def signing_key() -> SigningKey:
    return SigningKey.generate()


def simulated(games: int, seed: int = 1, players: int = 4, ruleset: str = "2019") -> list[list[Event]]:
    config = Config(ruleset, players, games, seed, ("random",) * players)
    bots = [get_bot(b) for b in config.bots]
    key = root_key(seed)
    out = []
    for game in range(games):
        record: list[Event] = []
        play_game(ruleset, bots, key, game, {}, record)
        out.append(record)
    return out


def signed_log(games: int, seed: int = 1, players: int = 4, ruleset: str = "2019", sign: bool = True) -> bytes:
    """`games` simulated games as one JSONL log, each closed by a signature line."""
    config = Config(ruleset, players, games, seed, ("random",) * players)
    buf = io.BytesIO()
    signer = signing_key().sign if sign else None
    for number, record in enumerate(simulated(games, seed, players, ruleset)):
        write_game(buf, record, _header(record, config, number), signer=signer)
    return buf.getvalue()
