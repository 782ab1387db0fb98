"""Every sentence a person reads exists in English and in French; this module holds the few tools for that.

A message is written once, in both languages side by side where it is raised (`Text(en=…, fr=…)`), so a reviewer
sees the pair together and no message can exist in one language only. French grammar that depends on the words
put into a sentence (elision before a vowel, plurals) is done here, not by hand at each call.
"""

from __future__ import annotations

import errno
from typing import Literal, NamedTuple

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
    """« de Bob », « d'Alice »."""
    return f"d'{word}" if elides(word) else f"de {word}"


def que(word: str) -> str:
    """« que Bob », « qu'Alice »."""
    return f"qu'{word}" if elides(word) else f"que {word}"


def le(word: str, feminine: bool = False) -> str:
    """« le Baron », « la Comtesse », « l'Espionne »."""
    if elides(word):
        return f"l'{word}"
    return f"{'la' if feminine else 'le'} {word}"


def plural_fr(count: int, one: str, many: str) -> str:
    """French counts 0 and 1 as singular (« 0 carte », « 1 carte », « 2 cartes »)."""
    return f"{count} {one if count < 2 else many}"


def plural_en(count: int, one: str, many: str) -> str:
    """English counts only 1 as singular ("0 cards", "1 card")."""
    return f"{count} {one if count == 1 else many}"


class BilingualError(ValueError):
    """An error a person reads: its message exists in both languages. `str(error)` is the English one."""

    def __init__(self, text: Text | str) -> None:
        # A plain str is accepted while a message still waits for its French; docs/glossary.md's test finds them.
        self.text = text if isinstance(text, Text) else Text(text, text)
        super().__init__(self.text.en)

    def message(self, lang: str = "en") -> str:
        return self.text(lang)


def number(formatted: str, lang: str = "en") -> str:
    """An English-formatted number ("12,345.6", "82.3%") in the language's typography ("12 345,6", "82,3 %")."""
    if lang != "fr":
        return formatted
    return formatted.replace(",", "\u202f").replace(".", ",").replace("%", "\u202f%")


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
