"""`event_line` (the generated canonical line writer) agrees with the reference encoding on every event type."""

from __future__ import annotations

import pytest

from loveletter.core.catalogue import EVENT_TYPES, GameStarted, RoundStarted
from loveletter.events.codec import decode, dumps, encode, event_line
from tests.audit_helpers import simulated


def _reference(event: object, seq: int, prev: str | None) -> bytes:
    data = encode(event)  # type: ignore[arg-type]
    data["seq"], data["prev"] = seq, prev
    return dumps(data)


@pytest.mark.parametrize(("ruleset", "players"), [("2019", 4), ("2019", 2), ("2012", 4), ("princess-princess", 6)])
def test_event_line_is_the_canonical_line_of_every_event(ruleset: str, players: int) -> None:
    seen = set()
    for record in simulated(20, seed=11, players=players, ruleset=ruleset):
        for seq, event in enumerate(record, start=1):
            line = event_line(event, seq, f"{seq:064x}")
            assert line == _reference(event, seq, f"{seq:064x}")
            seen.add(type(event))
    assert len(seen) >= 12


def test_event_line_sorts_option_keys_and_writes_a_missing_shuffle_and_prev_as_null() -> None:
    started = GameStarted("2019", ("Ann", "Bob"), {"tie_2012": "all", "guard_unknown": "miss"}, None, True, None)
    assert event_line(started, 1, None) == _reference(started, 1, None)
    assert event_line(started, 1, None).index(b"guard_unknown") < event_line(started, 1, None).index(b"tie_2012")
    record = simulated(1, seed=2)[0]
    dealt = next(e for e in record if isinstance(e, RoundStarted))
    given = RoundStarted(dealt.round, dealt.first_player, "named", dealt.set_aside, (), dealt.hands, dealt.deck)
    assert event_line(given, 2, "ab") == _reference(given, 2, "ab")
    assert decode({**encode(given), "seq": 2}) == given
    assert set(EVENT_TYPES.values()) >= {GameStarted, RoundStarted}
