"""The referee's background jobs — simulations for the statistics page, reviews of finished games — run by one
runner: each kind bounded (so many at once, so many waiting, the rest refused with a retry hint), with progress
(`done` of `total`), cancellation (a job stops at its next step), and finished jobs kept a while for their answer.

The work itself is the play library's (`play.simulate`, the engine's review); a job that thinks runs in the thinking
room's worker processes, one that does not in a thread, never on the event loop."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import secrets
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from loveletter.core.lang import Lang, Text
from loveletter.events.codec import encode
from loveletter.events.log import Entry
from loveletter.play.report import statistics
from loveletter.play.simulate import Config, Stats, simulate
from loveletter.play.thinking import OFF_THE_LOOP, Busy, Thinking, simulated_game
from loveletter.referee.refusals import Refusal

if TYPE_CHECKING:
    from loveletter.play.engine.review import Decision

T = TypeVar("T")


class Cancelled(Exception):
    """Raised at a job's next step once it is cancelled."""


@dataclass
class Job:
    """One background job: its progress while it runs, its answer once done."""

    id: str
    kind: str
    total: int
    status: str = "queued"
    """queued, running, done, failed or cancelled."""
    done: int = 0
    result: Any = None
    failed: Text | None = None
    rounds: Counter[int] = field(default_factory=Counter)
    """A simulation's games by their number of rounds (the statistics page draws them as they come)."""
    finished: float | None = None
    """When it ended (`time.monotonic`), for its expiry."""
    _cancel: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def over(self) -> bool:
        return self.finished is not None

    def step(self, done: int | None = None) -> None:
        """Progress by one step (or to `done`); raises `Cancelled` once the job is cancelled. Any thread."""
        if self._cancel.is_set():
            raise Cancelled
        self.done = self.done + 1 if done is None else done

    def cancel(self) -> None:
        """Ask the job to stop at its next step (any thread); a finished job is left as it is."""
        if not self.over:
            self._cancel.set()


@dataclass(frozen=True)
class Kind:
    """How many jobs of a kind run at once and wait, how many are kept and how long, and what its refusals and
    failures say."""

    running: int
    queued: int
    kept: int
    """Finished jobs kept for their answer, the oldest dropped first."""
    keep_seconds: float
    busy: Callable[[int], Refusal]
    """The refusal of a job beyond `running` + `queued`, given how many are under way or waiting."""
    missing: Callable[[str], Refusal]
    failed: Callable[[Exception], Text]
    """What a job that raised says (`error`)."""
    starts: str = "queued"
    """What a new job says it is until it runs (a simulation that never waits says running)."""
    kept_counts_running: bool = False
    """Whether the jobs under way count against `kept` too (a simulation's "last 20" include the one running)."""


def simulation_busy(_: int) -> Refusal:
    return Refusal(
        "simulation_running",
        Text(
            "a simulation is already running on this server: try again when it ends",
            "une simulation tourne déjà sur ce serveur : réessayez quand elle sera finie",
        ),
        about={"retry_after": 5},
    )


def analyses_busy(waiting: int) -> Refusal:
    return Refusal(
        "overloaded",
        Text(
            f"{waiting} analyses are under way or waiting on this server: try again shortly",
            f"{waiting} analyses sont en cours ou en attente sur ce serveur : réessayez bientôt",
        ),
        about={"retry_after": 10},
    )


def simulation_failed(exc: Exception) -> Text:
    return Text(f"the simulation failed: {exc}", f"la simulation a échoué : {exc}")


def analysis_failed(exc: Exception) -> Text:
    if isinstance(exc, Busy):  # the thinking room refused a decision: the server, not the job, is at fault
        return Text("the server is too busy to finish this analysis", "le serveur est trop occupé")
    return Text(f"the analysis failed: {exc}", f"l'analyse a échoué : {exc}")


KINDS = {
    "simulation": Kind(
        running=1,
        queued=0,
        kept=20,
        keep_seconds=float("inf"),
        busy=simulation_busy,
        failed=simulation_failed,
        starts="running",
        kept_counts_running=True,
        missing=lambda job_id: Refusal(
            "not_found",
            Text(
                f"no simulation {job_id!r} here (only the last 20 are kept)",
                f"aucune simulation « {job_id} » ici (seules les 20 dernières sont gardées)",
            ),
        ),
    ),
    "analysis": Kind(
        running=2,
        queued=8,
        kept=100,
        keep_seconds=3600.0,
        busy=analyses_busy,
        failed=analysis_failed,
        missing=lambda job_id: Refusal(
            "not_found",
            Text(
                f"no analysis {job_id!r} on this server (a finished one is kept an hour)",
                f"aucune analyse « {job_id} » sur ce serveur (une analyse finie est gardée une heure)",
            ),
        ),
    ),
}


REVIEWED_KEPT = 4096
"""How many reviewed decisions a worker keeps (least recently asked dropped first): a long game has ~60."""


class Jobs:
    """The background jobs of one worker, of every kind."""

    def __init__(self, thinking: Thinking, kinds: dict[str, Kind] | None = None) -> None:
        self.thinking = thinking
        self.kinds = kinds or KINDS
        self._jobs: dict[str, OrderedDict[str, Job]] = {kind: OrderedDict() for kind in self.kinds}
        self._slots: dict[str, asyncio.Semaphore] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._reviewed: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        """Decisions already reviewed, by (the digest of the log up to the decision, its event number, rollouts, seed,
        language): a review is a pure function of those, so a game's second viewer, a reload or the other language's
        page costs nothing for what was seen already."""

    def under_way(self) -> dict[str, int]:
        """Jobs queued or running, by kind (what an operator watches)."""
        return {
            kind: sum(1 for job in jobs.values() if job.status in ("queued", "running"))
            for kind, jobs in self._jobs.items()
        }

    def start(self, kind: str, total: int, work: Callable[[Job], Awaitable[Any]]) -> Job:
        """Start a job of `kind` whose `work` (given the job, to report its steps) answers its result; refused when
        the kind has as many jobs running and waiting as it takes."""
        rules, jobs = self.kinds[kind], self._jobs[kind]
        waiting = sum(1 for j in jobs.values() if not j.over)
        if waiting >= rules.running + rules.queued:
            raise rules.busy(waiting)
        job = Job(secrets.token_urlsafe(9), kind, total, status=rules.starts)
        jobs[job.id] = job
        self._expire(kind)
        task = asyncio.get_running_loop().create_task(self._run(job, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def _run(self, job: Job, work: Callable[[Job], Awaitable[Any]]) -> None:
        slots = self._slots.get(job.kind)
        if slots is None:
            slots = self._slots[job.kind] = asyncio.Semaphore(self.kinds[job.kind].running)
        try:
            async with slots:
                job.step(job.done)  # cancelled while it waited: never starts
                job.status = "running"
                job.result = await work(job)
                job.status = "done"
        except Cancelled:
            job.status = "cancelled"
        except Exception as exc:  # a bug of the engine, the room closed: say so rather than spin forever
            job.status = "failed"
            job.failed = self.kinds[job.kind].failed(exc)
        finally:
            job.finished = time.monotonic()

    def get(self, kind: str, job_id: str) -> Job:
        self._expire(kind)
        job = self._jobs[kind].get(job_id)
        if job is None:
            raise self.kinds[kind].missing(job_id)
        return job

    def cancel(self, kind: str, job_id: str) -> Job:
        """Ask a job to stop at its next step (a finished one is left as it is)."""
        job = self.get(kind, job_id)
        job.cancel()
        return job

    def _expire(self, kind: str) -> None:
        """Drop the oldest finished jobs beyond what the kind keeps, and those kept longer than it keeps them."""
        rules, jobs = self.kinds[kind], self._jobs[kind]
        now = time.monotonic()
        ended = [j for j in jobs.values() if j.finished is not None]
        room = rules.kept - (len(jobs) - len(ended) if rules.kept_counts_running else 0)
        for job in ended[: max(0, len(ended) - room)]:
            del jobs[job.id]
        for job in ended:
            if job.finished is not None and now - job.finished > rules.keep_seconds:
                jobs.pop(job.id, None)

    async def stop(self) -> None:
        """Cancel every job and wait for them to end."""
        for jobs in self._jobs.values():
            for job in jobs.values():
                job.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    # -- the work ------------------------------------------------------------------------------------

    def simulation(self, config: Config) -> Job:
        """Bots against bots: in a thread, or a game at a time in the thinking room when a bot thinks."""
        thinks = bool(set(config.bots) & OFF_THE_LOOP)

        async def work(job: Job) -> dict[str, Any]:
            last = [0]

            def seen(stats: Stats) -> None:
                job.rounds[stats.rounds - last[0]] += 1  # each game's rounds: how far the running total moved
                last[0] = stats.rounds
                job.step(stats.games)

            if not thinks:
                return statistics(await in_own_thread(lambda: simulate(config, on_stats=seen), f"simulation-{job.id}"))
            start = time.perf_counter()
            total = Stats(config, wins_by_seat=[0] * config.players)
            for game in range(config.games):
                total.add(await self.thinking.run(simulated_game, config, game))
                seen(total)
            total.seconds = time.perf_counter() - start
            return statistics(total)

        return self.start("simulation", config.games, work)

    def analysis(self, events: list[Any], decisions: list[Decision], head: dict[str, Any], lang: Lang) -> Job:
        """The engine's review of each of `decisions`, in the thinking room, a decision a step."""
        from loveletter.play.engine.analysis import entry_at  # the engine: loaded when an analysis is asked for

        async def work(job: Job) -> dict[str, Any]:
            entries = []
            prefixes = prefix_digests(events)
            for d in decisions:
                key = (prefixes[d.at], d.at, head["rollouts"], head["seed"], lang)
                found = self._reviewed.get(key)
                if found is None:
                    prefix = events[: d.at + 1]
                    found = await self.thinking.run(entry_at, prefix, d.at, head["rollouts"], head["seed"], lang)
                    self._reviewed[key] = found
                    while len(self._reviewed) > REVIEWED_KEPT:
                        self._reviewed.popitem(last=False)
                else:
                    self._reviewed.move_to_end(key)
                entries.append(found)
                job.step()
            return {**head, "decisions": entries}

        return self.start("analysis", len(decisions), work)


def prefix_digests(events: list[Any]) -> list[bytes]:
    """The SHA-256 of each prefix of `events` (`[i]`: events 0 to i), each event (or a log's entry's) as the log
    encodes it."""
    running = hashlib.sha256()
    digests = []
    for event in events:
        running.update(orjson.dumps(encode(event.event if isinstance(event, Entry) else event)))
        digests.append(running.digest())
    return digests


async def in_own_thread(work: Callable[[], T], name: str) -> T:
    """`work()` in a thread of its own, awaited: a long simulation holds none of the event loop's shared threads,
    which the store's reads need."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[T] = loop.create_future()

    def run() -> None:
        try:
            settle = functools.partial(_give, answer, work())
        except BaseException as exc:  # handed to the awaiting job, which says what went wrong
            settle = functools.partial(_fail, answer, exc)
        with contextlib.suppress(RuntimeError):  # the loop closed first: nobody is waiting any more
            loop.call_soon_threadsafe(settle)

    threading.Thread(target=run, name=name, daemon=True).start()
    return await answer


def _give(answer: asyncio.Future[T], result: T) -> None:
    if not answer.done():
        answer.set_result(result)


def _fail(answer: asyncio.Future[Any], error: BaseException) -> None:
    if not answer.done():
        answer.set_exception(error)
