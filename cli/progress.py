"""Progress on stderr while a command works through many games: the audit's bar (or its plain lines when stderr is
not a terminal) and the games-per-second column the audit and the tournament share."""

from __future__ import annotations

import sys
import time
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text as RichText

from loveletter.core.lang import Lang, Text, number


class GameProgress:
    """The audit's progress in games, with their rate and the time left, on stderr: a live bar on a terminal;
    asked for elsewhere (`--progress`), a plain line every few seconds and one at the end of each file."""

    EVERY = 2.0

    def __init__(self, err: Console, lang: Lang, shown: bool) -> None:
        self.err, self.lang, self.shown = err, lang, shown
        self.live = shown and err.is_terminal
        self.name = ""
        self.started = self.said = 0.0
        self.done = self.total = 0
        columns = (
            TextColumn(Text("auditing", "audit de")(lang) + " {task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn(Text("games", "parties")(lang)),
            RateColumn(lang),
            TimeRemainingColumn(),
        )
        self.bar = Progress(*columns, console=err, transient=True, disable=not self.live)
        self.task: Any = None

    def __enter__(self) -> GameProgress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)

    def start(self, name: str) -> None:
        self.name, self.done, self.total = name, 0, 0
        self.started = self.said = time.monotonic()
        if self.live:
            self.task = self.bar.add_task(name, total=None)

    def update(self, done: int, total: int) -> None:
        self.done, self.total = done, total
        if self.live:
            self.bar.update(self.task, completed=done, total=total)
        elif self.shown and time.monotonic() - self.said >= self.EVERY:
            self.said = time.monotonic()
            self._line()

    def stop(self) -> None:
        if self.live:
            self.bar.remove_task(self.task)
        elif self.shown:
            self._line()

    def _line(self) -> None:
        """ "auditing big.jsonl: 4,000/20,000 games, 1,150 games/s, 14 s left" """
        fr = self.lang == "fr"
        seconds = max(time.monotonic() - self.started, 1e-9)
        rate = self.done / seconds
        left = (self.total - self.done) / rate if rate else 0.0
        count = f"{number(self.done, self.lang)}/{number(self.total, self.lang)}"
        speed = number(rate, self.lang)
        when = _duration(left)
        if fr:
            text = f"audit de {self.name} : {count} parties, {speed} parties/s, encore {when}"
        else:
            text = f"auditing {self.name}: {count} games, {speed} games/s, {when} left"
        print(text, file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    """14 s, 2 min 05 s."""
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{whole} s"


class RateColumn(ProgressColumn):
    """Games audited per second."""

    def __init__(self, lang: Lang) -> None:
        super().__init__()
        self.unit = Text("games/s", "parties/s")(lang)
        self.lang = lang

    def render(self, task: Task) -> RichText:
        speed = task.speed
        return RichText("" if speed is None else f"{number(speed, self.lang)} {self.unit}")
