"""Every sentence a person reads exists in English and in French; this module holds the few tools for that.

A message is written once, in both languages side by side where it is raised (`Text(en=…, fr=…)`), so a reviewer
sees the pair together and no message can exist in one language only. French grammar that depends on the words
put into a sentence (elision before a vowel, plurals) is done here, not by hand at each call.
"""

from __future__ import annotations

import errno
import functools
from decimal import Decimal
from typing import Literal, NamedTuple

from babel import Locale
from babel.numbers import format_decimal, format_percent

Lang = Literal["en", "fr"]
LANGS: tuple[Lang, ...] = ("en", "fr")


class Text(NamedTuple):
    """One message in both languages."""

    en: str
    fr: str

    def __call__(self, lang: str) -> str:
        return self.fr if lang == "fr" else self.en


def lang_of(value: str | None) -> Lang:
    """fr for any French tag ("fr", "fr-CA"), else en."""
    return "fr" if value and value.strip().lower()[:2] == "fr" else "en"


# Words starting with these letters take elision in French (d'Alice, l'Espionne, qu'Hélène). A mute h is the
# common case for names; the few aspirated ones (Hugo) read acceptably either way.
_ELIDING = frozenset("aàâäeéèêëiîïoôöuùûüyœæhAÀÂÄEÉÈÊËIÎÏOÔÖUÙÛÜYŒÆH")


def elides(word: str) -> bool:
    return bool(word) and word[0] in _ELIDING


def de(word: str) -> str:
    """« de Bob », « d'Alice »."""
    return f"d'{word}" if elides(word) else f"de {word}"


def que(word: str) -> str:
    """« que Bob », « qu'Alice »."""
    return f"qu'{word}" if elides(word) else f"que {word}"


def le(word: str, feminine: bool = False) -> str:
    """« le Baron », « la Comtesse », « l'Espionne »."""
    if elides(word):
        return f"l'{word}"
    return f"{'la' if feminine else 'le'} {word}"


@functools.cache
def _locale(lang: str) -> Locale:
    """The language's CLDR data (Babel reads it once, at its first use: no start-up pays for it)."""
    return Locale.parse(lang_of(lang))


def plural(count: int, one: str, many: str, lang: str) -> str:
    """The count, as the language writes it, and the noun in the form CLDR's plural rules choose: "0 cards",
    "1 card", « 0 carte », « 1 carte », « 12 345 cartes »."""
    return f"{number(count, lang)} {one if _locale(lang).plural_form(count) == 'one' else many}"


def plural_fr(count: int, one: str, many: str) -> str:
    return plural(count, one, many, "fr")


def plural_en(count: int, one: str, many: str) -> str:
    return plural(count, one, many, "en")


class BilingualError(ValueError):
    """An error a person reads: its message exists in both languages. `str(error)` is the English one."""

    def __init__(self, text: Text | str) -> None:
        # A plain str is accepted while a message still waits for its French; docs/glossary.md's test finds them.
        self.text = text if isinstance(text, Text) else Text(text, text)
        super().__init__(self.text.en)

    def message(self, lang: str = "en") -> str:
        return self.text(lang)


def number(value: float, lang: str = "en", digits: int = 0) -> str:
    """`value` with `digits` decimals, grouped and pointed as the language writes numbers ("12,345.6",
    « 12 345,6 »): Babel's CLDR patterns, so no language's rules are written here by hand."""
    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    # the float's exact value, as Python's own formatting rounds it (2.255 is 2.25499…: "2.25", never "2.26")
    return format_decimal(Decimal(value), format=pattern, locale=_locale(lang))


def percent(share: float, lang: str = "en", digits: int = 1) -> str:
    """A share of 1 as a percentage in the language's pattern: 0.823 → "82.3%", « 82,3 % »."""
    locale = _locale(lang)
    pattern = locale.percent_formats[None].pattern.replace("0", "0" + ("." + "0" * digits if digits else ""), 1)
    return format_percent(Decimal(share), format=pattern, locale=locale)


_OS_ERRORS_FR = {
    errno.ENOENT: "fichier ou dossier introuvable",
    errno.EACCES: "permission refusée",
    errno.EPERM: "opération non permise",
    errno.EISDIR: "c'est un dossier",
    errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
    errno.ENOSPC: "plus de place sur le disque",
    errno.EROFS: "système de fichiers en lecture seule",
    errno.EEXIST: "le fichier existe déjà",
    errno.ENAMETOOLONG: "nom de fichier trop long",
}


def os_error(exc: OSError) -> Text:
    """Why a file could not be read or written, in both languages (the system's own words are English only)."""
    en = exc.strerror or str(exc)
    fr = _OS_ERRORS_FR.get(
        exc.errno or 0, f"erreur du système (code {exc.errno})" if exc.errno else "erreur du système"
    )
    return Text(en, fr)
