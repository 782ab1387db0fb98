"""The referee's one runner of background jobs (`referee/jobs.py`), in process with work the test controls: so many
jobs of a kind at once and waiting, the rest refused in the kind's words; progress; a cancelled job stopping at its
next step (a waiting one never starting); the oldest finished jobs dropped beyond what the kind keeps; a failure
said; and every refusal code the runner gives mapped to the status the HTTP API has always answered."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any, cast

import pytest

from loveletter.api.problem_codes import STATUSES
from loveletter.core.lang import Text
from loveletter.play.thinking import Busy, Thinking
from loveletter.referee.jobs import KINDS, Job, Jobs, Kind, in_own_thread
from loveletter.referee.refusals import Refusal

KIND = Kind(
    running=1,
    queued=1,
    kept=2,
    keep_seconds=float("inf"),
    busy=lambda waiting: Refusal("busy", Text(f"{waiting} jobs", f"{waiting} tâches")),
    missing=lambda job_id: Refusal("not_found", Text(f"no {job_id}", f"pas de {job_id}")),
    failed=lambda exc: Text(f"failed: {exc}", f"échec : {exc}"),
)


def runner(**changes: Any) -> Jobs:
    return Jobs(cast(Thinking, None), {"test": dataclasses.replace(KIND, **changes)})


class Gated:
    """Work of `steps` steps, each waiting for the test to open the gate once; its answer is the steps it made."""

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.gate = asyncio.Semaphore(0)
        self.started = False

    async def __call__(self, job: Job) -> int:
        self.started = True
        for _ in range(self.steps):
            await self.gate.acquire()
            job.step()
        return self.steps

    def open(self, times: int = 1) -> None:
        for _ in range(times):
            self.gate.release()


async def settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def test_so_many_at_once_so_many_waiting_the_rest_refused() -> None:
    async def scenario() -> None:
        jobs = runner()
        first, second = Gated(2), Gated(1)
        a = jobs.start("test", 2, first)
        b = jobs.start("test", 1, second)
        with pytest.raises(Refusal) as refused:
            jobs.start("test", 1, Gated(1))
        assert refused.value.code == "busy" and refused.value.detail.en == "2 jobs"
        await settle()
        assert (a.status, b.status) == ("running", "queued") and not second.started
        first.open()
        await settle()
        assert (a.done, a.total) == (1, 2)
        first.open()
        await settle()
        assert (a.status, a.result, a.done) == ("done", 2, 2) and b.status == "running"
        second.open()
        await settle()
        assert (b.status, b.result) == ("done", 1)
        assert jobs.start("test", 1, Gated(0)).status == "queued"  # room again
        await jobs.stop()

    asyncio.run(scenario())


def test_a_cancelled_job_stops_at_its_next_step_and_a_waiting_one_never_starts() -> None:
    async def scenario() -> None:
        jobs = runner()
        running, waiting = Gated(5), Gated(1)
        a = jobs.start("test", 5, running)
        b = jobs.start("test", 1, waiting)
        await settle()
        running.open(2)
        await settle()
        assert jobs.cancel("test", a.id) is a and a.status == "running"  # it stops at its next step, not now
        assert jobs.cancel("test", b.id) is b
        running.open()
        await settle()
        assert (a.status, a.done, a.result) == ("cancelled", 2, None)
        assert (b.status, b.done) == ("cancelled", 0) and not waiting.started
        assert jobs.start("test", 1, Gated(0)).status == "queued"  # both slots free again
        await settle()
        done = jobs.start("test", 0, Gated(0))
        await settle()
        assert jobs.cancel("test", done.id).status == "done"  # a finished job is left as it is
        await jobs.stop()

    asyncio.run(scenario())


def test_the_oldest_finished_jobs_are_dropped_beyond_what_is_kept() -> None:
    async def scenario(counts_running: bool) -> tuple[list[bool], list[bool]]:
        jobs = runner(kept_counts_running=counts_running)  # two kept
        one = jobs.start("test", 0, Gated(0))
        await settle()
        two = jobs.start("test", 0, Gated(0))
        await settle()
        gate = Gated(1)
        three = jobs.start("test", 1, gate)  # under way: counted against the two kept, or not
        while three.status != "running":
            await settle()
        it_runs = [kept(jobs, job) for job in (one, two, three)]
        gate.open()
        await settle()
        assert three.status == "done"
        once_done = [kept(jobs, job) for job in (one, two, three)]
        await jobs.stop()
        return it_runs, once_done

    assert asyncio.run(scenario(False)) == ([True, True, True], [False, True, True])
    # a simulation's "last 20" include the one running
    assert asyncio.run(scenario(True)) == ([False, True, True], [False, True, True])


def kept(jobs: Jobs, job: Job) -> bool:
    """Whether the runner still answers for `job` (else its kind's not-found refusal)."""
    try:
        return jobs.get("test", job.id) is job
    except Refusal as refusal:
        assert (refusal.code, refusal.detail.en) == ("not_found", f"no {job.id}")
        return False


def test_a_job_that_raises_says_why_in_its_kinds_words() -> None:
    async def broken(job: Job) -> None:
        raise ValueError("no such deck")

    async def scenario() -> Job:
        jobs = runner()
        job = jobs.start("test", 1, broken)
        await settle()
        return job

    job = asyncio.run(scenario())
    assert job.status == "failed" and job.failed == Text("failed: no such deck", "échec : no such deck")
    assert KINDS["analysis"].failed(Busy("background")).en == "the server is too busy to finish this analysis"
    assert KINDS["simulation"].failed(Busy("background")).en == "the simulation failed: background"


def test_work_in_its_own_thread_answers_or_raises_on_the_loop() -> None:
    async def scenario() -> tuple[str, str]:
        name = await in_own_thread(lambda: threading.current_thread().name, "simulation-x")
        with pytest.raises(ZeroDivisionError):
            await in_own_thread(lambda: 1 // 0, "simulation-y")
        return name, threading.current_thread().name

    there, here = asyncio.run(scenario())
    assert there == "simulation-x" and here != there


@pytest.mark.parametrize(
    ("kind", "refusal", "status"),
    [
        ("simulation", lambda k: k.busy(1), 409),
        ("analysis", lambda k: k.busy(10), 503),
        ("simulation", lambda k: k.missing("x"), 404),
        ("analysis", lambda k: k.missing("x"), 404),
    ],
)
def test_each_refusal_of_the_runner_has_the_status_the_api_always_gave(kind: str, refusal: Any, status: int) -> None:
    said: Refusal = refusal(KINDS[kind])
    assert STATUSES[said.code] == status
    assert {"simulation_running": 5, "overloaded": 10}.get(said.code) == said.about.get("retry_after")
