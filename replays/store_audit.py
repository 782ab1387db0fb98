"""A whole store audited game by game, as its logs would be: what proves a backup, or a restored database, whole.

Each game is read back from the store and written out as its log (`events.log.game_lines`): the audit then replays
that log through the rules (`replays.audit`, the same checks as `loveletter audit`), and the hash chain the store
recorded with each event must be the chain of that log, line for line. A row changed, lost or reordered in the copy
breaks one or the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import orjson

from loveletter.core.catalogue import GameStarted
from loveletter.events.log import Header, digest, game_lines
from loveletter.events.store import EventStore
from loveletter.replays.audit import audit_bytes


@dataclass(slots=True)
class StoreAudit:
    games: int = 0
    events: int = 0
    finished: int = 0
    problems: list[str] = field(default_factory=list)
    """One line per game that fails, naming the game and what is wrong."""
    versions: dict[str, int] = field(default_factory=dict)
    """Each game's version (its last event's seq) in the store."""

    @property
    def whole(self) -> bool:
        return not self.problems


def audit_store(store: EventStore, progress: Callable[[int, int], None] | None = None) -> StoreAudit:
    """Audit every game of `store` (`progress(done, total)` after each)."""
    report = StoreAudit()
    ids = store.game_ids()
    for done, game_id in enumerate(ids, 1):
        _audit_game(store, game_id, report)
        if progress is not None:
            progress(done, len(ids))
    return report


def _audit_game(store: EventStore, game_id: str, report: StoreAudit) -> None:
    report.games += 1
    rows = store.load(game_id)
    events = [event for _, event in rows]
    report.events += len(events)
    report.versions[game_id] = rows[-1][0] if rows else 0
    if not events or not isinstance(events[0], GameStarted):
        report.problems.append(f"{game_id}: no game_started first")
        return
    if [seq for seq, _ in rows] != list(range(1, len(rows) + 1)):
        report.problems.append(f"{game_id}: its events are not numbered 1 to {len(rows)}")
        return
    lines = list(game_lines(events, Header.of(events[0], game_id)))
    chained = [(n, orjson.loads(line)["prev"], digest(line)) for n, line in enumerate(lines[1:], 1)]
    if store.hashes(game_id) != chained:
        report.problems.append(f"{game_id}: the stored hash chain is not the chain of its events")
        return
    audited = audit_bytes(b"\n".join(lines) + b"\n", game_id)
    if audited.error is not None:
        report.problems.append(f"{game_id}: {audited.error}")
        return
    (game,) = audited.games
    if not game.valid:
        first = game.problems[0]
        report.problems.append(f"{game_id}: event {first.seq} breaks {first.rule_id}: {first.en}")
    report.finished += game.finished
