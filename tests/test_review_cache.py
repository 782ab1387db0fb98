"""A worker remembers the decisions it has reviewed: a review is a pure function of the log up to the decision, the
rollouts, the seed and the language, so a game's second viewer, a reload or another seat's review of the same game
asks the engine nothing for what was reviewed already — and answers exactly what the engine answered."""

from __future__ import annotations

import asyncio
from typing import Any

from loveletter.core.lang import Lang
from loveletter.play.bots import get_bot
from loveletter.play.engine.analysis import chosen, entry_at, header
from loveletter.play.simulate import play_game, root_key
from loveletter.referee import jobs as jobs_module
from loveletter.referee.jobs import Jobs

BUDGET, SEED = 3, 5


class CountingRoom:
    """The thinking room as `Jobs` uses it (`run`), in this process, noting each decision it is asked to review."""

    def __init__(self) -> None:
        self.reviewed: list[int] = []

    async def run(self, fn: Any, *args: Any, urgent: bool = False, timeout: float | None = None) -> Any:
        self.reviewed.append(args[1])  # entry_at(prefix, at, …): the decision's event number
        return fn(*args)


def a_game(game: int) -> list[Any]:
    events: list[Any] = []
    play_game("2019", [get_bot("heuristic")] * 2, root_key(7), game, record=events)
    return events


async def review(jobs: Jobs, events: list[Any], seat: int | None, lang: Lang) -> dict[str, Any]:
    job = jobs.analysis(events, chosen(events, seat), header(None, None, None, BUDGET, SEED, lang), lang)
    while not job.over:
        await asyncio.sleep(0)
    assert job.status == "done", job.failed
    result: dict[str, Any] = job.result
    return result


def a_start(game: int, decisions: int) -> list[Any]:
    """A game's log up to its `decisions`-th decision (a review of a whole game plays tens of thousands of rollouts)."""
    events = a_game(game)
    return events[: [d.at for d in chosen(events, None)][decisions - 1] + 1]


def test_a_decision_reviewed_once_is_not_reviewed_again() -> None:
    events = a_start(0, 4)
    everyone = [d.at for d in chosen(events, None)]
    room = CountingRoom()

    async def main() -> None:
        jobs = Jobs(room)  # type: ignore[arg-type]
        first = await review(jobs, events, None, "en")
        assert room.reviewed == everyone and len(everyone) == 4
        again = await review(jobs, events, None, "en")
        assert room.reviewed == everyone  # nothing asked of the engine
        assert again == first
        # each entry is the engine's own answer for the log up to its decision
        assert first["decisions"] == [entry_at(events[: at + 1], at, BUDGET, SEED, "en") for at in everyone]
        one_seat = await review(jobs, events, 1, "en")  # one seat's decisions: all known already
        assert room.reviewed == everyone and one_seat["decisions"] == [
            e for e, d in zip(first["decisions"], chosen(events, None), strict=True) if d.seat == 1
        ]
        french = await review(jobs, events, None, "fr")  # another language: reviewed in it
        assert room.reviewed == everyone * 2 and french["decisions"] != first["decisions"]
        assert (
            french["decisions"][0]["when"]
            == entry_at(events[: everyone[0] + 1], everyone[0], BUDGET, SEED, "fr")["when"]
        )

    asyncio.run(main())


def test_a_log_sharing_a_prefix_meets_the_decisions_of_that_prefix_and_the_oldest_are_dropped(monkeypatch: Any) -> None:
    """A log cut after a decision shares every decision up to the cut with the whole game (each is reviewed from the
    log up to it); another game shares none; the worker keeps at most `REVIEWED_KEPT` decisions, the least recently
    asked dropped first."""
    events, other = a_start(0, 6), a_start(1, 3)
    decided = [d.at for d in chosen(events, None)]
    cut = events[: decided[2] + 1]  # the log up to its third decision
    room = CountingRoom()

    async def main() -> None:
        jobs = Jobs(room)  # type: ignore[arg-type]
        await review(jobs, cut, None, "en")
        assert room.reviewed == decided[:3]
        await review(jobs, events, None, "en")
        assert room.reviewed == decided  # the rest only
        await review(jobs, other, None, "en")
        assert room.reviewed == decided + [d.at for d in chosen(other, None)]

    asyncio.run(main())

    monkeypatch.setattr(jobs_module, "REVIEWED_KEPT", 4)
    room.reviewed.clear()

    async def kept() -> None:
        jobs = Jobs(room)  # type: ignore[arg-type]
        await review(jobs, events, None, "en")
        assert len(jobs._reviewed) == 4 and room.reviewed == decided
        await review(jobs, cut, None, "en")  # its three were dropped: asked again
        assert room.reviewed == decided + decided[:3]
        # kept now: the first run's newest decision and the three just asked again. The whole game once more: the
        # three are met; each decision after them is asked, the oldest kept (the newest of the first run) dropped
        # by the first of them, so the game's last decision too
        room.reviewed.clear()
        await review(jobs, events, None, "en")
        assert room.reviewed == decided[3:]

    asyncio.run(kept())
