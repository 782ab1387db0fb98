"""The one-line error a command stops with: raised anywhere in a command, printed by `cli.main.main` on stderr in
the user's language, exit code 2, never a traceback."""

from __future__ import annotations

from typing import NoReturn

from loveletter.core.lang import BilingualError, Text


class Failure(Exception):
    """A one-line error for the user (exit 2)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.en)
        self.text = text


def fail(en: str, fr: str) -> NoReturn:
    raise Failure(Text(en, fr))


def fail_with(exc: BilingualError) -> NoReturn:
    raise Failure(exc.text)
