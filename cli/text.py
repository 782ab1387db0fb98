"""The command line's own words in both languages: which language, click's usage errors, and its help layout.

The language is chosen before the command line is parsed (an explicit `--lang`, then `LOVELETTER_LANG`, then the
locale), so that help pages and usage errors — which click produces before any command runs — are in it too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import click

from loveletter.core.lang import Lang, Text


def detect_lang(argv: Sequence[str], env: Mapping[str, str]) -> Lang:
    for i, arg in enumerate(argv):
        value = arg.removeprefix("--lang=") if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        if value in ("en", "fr"):
            return "fr" if value == "fr" else "en"
    for name in ("LOVELETTER_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "en"


def option_name(param: click.Parameter | None) -> str:
    if param is None:
        return "?"
    if isinstance(param, click.Option) and param.opts:
        return max(param.opts, key=len)
    return param.human_readable_name.upper()


_EXTRA = re.compile(r"Got unexpected extra arguments? \((.*)\)")
_COMMAND = re.compile(r"No such command '(.*)'")


def usage_error(exc: click.UsageError) -> Text:
    """click's usage errors, said again in both languages (click itself speaks only English)."""
    if isinstance(exc, click.NoSuchOption):
        en, fr = f"no such option: {exc.option_name}", f"option inconnue : {exc.option_name}"
        if exc.possibilities:
            others = ", ".join(sorted(exc.possibilities))
            en, fr = f"{en} (did you mean {others}?)", f"{fr} (vouliez-vous dire {others} ?)"
        return Text(en, fr)
    if isinstance(exc, click.BadOptionUsage):
        name = exc.option_name
        if "requires an argument" in exc.message:
            return Text(f"{name} needs a value", f"l'option {name} attend une valeur")
        if "does not take a value" in exc.message:
            return Text(f"{name} takes no value", f"l'option {name} ne prend pas de valeur")
        return Text(f"{name}: {exc.message}", f"l'option {name} est mal employée")
    if isinstance(exc, click.MissingParameter):
        name = option_name(exc.param)
        if isinstance(exc.param, click.Option):
            return Text(f"missing option {name}", f"il manque l'option {name}")
        return Text(f"missing {name}", f"il manque l'argument {name}")
    if isinstance(exc, click.BadParameter):
        name = option_name(exc.param)
        # Our own parameter types raise their message already in the chosen language (see `Integer`, `OneOf`).
        return Text(f"{name}: {exc.message}", f"{name} : {exc.message}")
    if match := _EXTRA.match(exc.message):
        return Text(f"unexpected argument: {match[1]}", f"argument en trop : {match[1]}")
    if match := _COMMAND.match(exc.message):
        return Text(f"no such command: {match[1]}", f"commande inconnue : « {match[1]} »")
    return Text(exc.message, "la ligne de commande est mal formée")


class Integer(click.ParamType):
    """A whole number, at least `minimum`, refused in the user's language."""

    name = "integer"

    def __init__(self, lang: Lang, minimum: int | None = None) -> None:
        self.lang = lang
        self.minimum = minimum

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "N"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                self.fail(
                    Text(f"{value!r} is not a whole number", f"« {value} » n'est pas un nombre entier")(self.lang)
                )
            number = int(text)
        if self.minimum is not None and number < self.minimum:
            self.fail(
                Text(f"must be at least {self.minimum}, not {number}", f"au moins {self.minimum}, pas {number}")(
                    self.lang
                )
            )
        return number


class OneOf(click.ParamType):
    """One of a few words, refused in the user's language."""

    name = "choice"

    def __init__(self, lang: Lang, choices: Sequence[str]) -> None:
        self.lang = lang
        self.choices = tuple(choices)

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "[" + "|".join(self.choices) + "]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        if value in self.choices:
            return str(value)
        known = ", ".join(self.choices)
        self.fail(
            Text(f"{value!r} is not one of {known}", f"« {value} » n'est pas l'une des valeurs {known}")(self.lang)
        )


_HEADINGS_FR = {"Options": "Options", "Arguments": "Arguments", "Commands": "Commandes"}


class HelpFormatter(click.HelpFormatter):
    """click's help page, with its headings and notes in French when the user reads French."""

    lang: Lang = "en"

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        if self.lang == "fr":
            args = args.replace("COMMAND [ARGS]...", "COMMANDE [ARGUMENTS]...")
            prefix = "Utilisation : "
        super().write_usage(prog, args, prefix)

    def write_heading(self, heading: str) -> None:
        if self.lang == "fr":
            self.write(f"{'':>{self.current_indent}}{_HEADINGS_FR.get(heading, heading)} :\n")
        else:
            super().write_heading(heading)

    def write_dl(self, rows: Sequence[tuple[str, str]], col_max: int = 30, col_spacing: int = 2) -> None:
        if self.lang == "fr":
            rows = [
                (term, text.replace("[default: ", "[par défaut : ").replace("[required]", "[obligatoire]"))
                for term, text in rows
            ]
        super().write_dl(rows, col_max, col_spacing)
