"""Every rule the referee enforces, with a stable id, its text in English and French, and its sources: the registry
`RULES`, and `RuleViolation`, the refusal that names one.

Errors, rulings, docs and tests cite these ids; `docs/rules.md` is generated from this table. The texts themselves
are data of their own: the rules of play in `core.rule_texts`, the referee's own rules in `core.rule_texts_referee`.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from loveletter.core.lang import Lang
from loveletter.core.rule_texts import PLAY

# The rulebooks cited (their files in the sources folder), named here too for the docs.
from loveletter.core.rule_texts import S2012 as S2012
from loveletter.core.rule_texts import S2019_EN as S2019_EN
from loveletter.core.rule_texts import S2019_FR as S2019_FR
from loveletter.core.rule_texts import S2019_WEB as S2019_WEB
from loveletter.core.rule_texts import SPP as SPP
from loveletter.core.rule_texts_referee import REFEREE


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    en: str
    fr: str
    sources: tuple[str, ...]

    def text(self, lang: Lang = "en") -> str:
        return self.fr if lang == "fr" else self.en


def _rules(*rules: Rule) -> Mapping[str, Rule]:
    table = {rule.id: rule for rule in rules}
    assert len(table) == len(rules), "duplicate rule id"
    return MappingProxyType(table)


RULES: Mapping[str, Rule] = _rules(*(Rule(*written) for written in (*PLAY, *REFEREE)))


def rule(rule_id: str) -> Rule:
    return RULES[rule_id]


class RuleViolation(ValueError):
    """A command the rules refuse. `code` is a stable machine code; `rule_id` names the rule broken."""

    def __init__(self, code: str, rule_id: str, en: str, fr: str) -> None:
        assert rule_id in RULES, rule_id
        super().__init__(en)
        self.code = code
        self.rule_id = rule_id
        self.en = en
        self.fr = fr

    def message(self, lang: Lang = "en") -> str:
        return self.fr if lang == "fr" else self.en

    def as_dict(self) -> dict[str, str]:
        return {"code": self.code, "rule_id": self.rule_id, "en": self.en, "fr": self.fr}

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, {self.rule_id!r}, {self.en!r})"
