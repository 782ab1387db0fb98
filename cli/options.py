"""What every command is built from: the user's language, click's command and group classes whose help pages speak
it, and the options and arguments several commands share.

The language is read once, before click parses anything (`text.detect_lang`), so that the help texts written here
with `_` and every page click draws are already in it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from loveletter.cli.text import HelpFormatter, Integer, OneOf, detect_lang
from loveletter.core.lang import Lang, Text

UI: Lang = detect_lang(sys.argv[1:], os.environ)
HelpFormatter.lang = UI


def _(en: str, fr: str) -> str:
    """A help text in the user's language."""
    return Text(en, fr)(UI)


class Context(click.Context):
    formatter_class = HelpFormatter


def _help_option(option: click.Option | None) -> click.Option | None:
    if option is not None:
        option.help = _("show this help and exit", "afficher cette aide et quitter")
    return option


class Command(click.Command):
    context_class = Context

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _help_option(super().get_help_option(ctx))


class Group(click.Group):
    context_class = Context
    command_class = Command

    def get_help_option(self, ctx: click.Context) -> click.Option | None:
        return _help_option(super().get_help_option(ctx))


def command(name: str | None = None, **settings: Any) -> Callable[[Callable[..., Any]], Command]:
    """A command whose help page speaks the user's language; `cli.main` adds it to the `loveletter` group."""
    return click.command(name, cls=Command, **settings)


def lang_option(f: Callable[..., Any]) -> Callable[..., Any]:
    return click.option(
        "--lang",
        type=OneOf(UI, ("en", "fr")),
        default=UI,
        show_default=True,
        help=_(
            "language of messages (default: LOVELETTER_LANG, then the locale)",
            "langue des messages (par défaut : LOVELETTER_LANG, puis la locale)",
        ),
    )(f)


RULESET_HELP = _("2019, 2019-classic, 2012 or princess-princess", "2019, 2019-classic, 2012 ou princess-princess")


def game_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """`--game K`: which game of a log holding several, counted from 1 as `replay` and `audit` print them."""
    return click.option(
        "--game",
        "game",
        type=Integer(UI, 1),
        default=None,
        metavar="K",
        help=_(
            "in a log of several games, read the K-th (counted from 1, as replay and audit number them: 'game 1' is "
            "the first)",
            "dans un journal de plusieurs parties, lire la K-ième (comptée à partir de 1, comme replay et audit les "
            "numérotent : « partie 1 » est la première)",
        ),
    )(f)


FILE = click.argument("file", type=click.Path(path_type=Path), metavar="FILE")
"""The log or transcript a command reads."""
