"""Problem answers (RFC 9457) as exceptions: a client catches one type and reads the stable `code` and `rule_id`."""

from __future__ import annotations

from typing import Any

from loveletter.client.models import LegalMove


class RefereeError(Exception):
    """A refusal by the referee: HTTP `status`, stable `code`, `detail` in the language answered, and `details`
    by language (both `en` and `fr` when the client asked for both and could safely ask again)."""

    def __init__(self, status: int, problem: dict[str, Any], lang: str, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.problem = problem
        self.code: str = str(problem.get("code", "http_error"))
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", ""))
        self.details: dict[str, str] = {lang: self.detail}
        self.rule_id: str | None = problem.get("rule_id")
        self.legal_moves: tuple[LegalMove, ...] = tuple(LegalMove.of(m) for m in problem.get("legal_moves") or ())
        self.headers = headers or {}
        super().__init__(f"{status} {self.code}: {self.detail}")

    @property
    def retry_after(self) -> float | None:
        """Seconds the referee asked to wait (`Retry-After`), if it said."""
        value = self.headers.get("retry-after")
        try:
            return float(value) if value is not None else None
        except ValueError:
            return None


class RuleRefusal(RefereeError):
    """The rules refused a move (409 out of turn, 422 illegal): `rule_id` names the rule, `rule` quotes it, and
    `legal_moves` lists what the seat may do instead."""

    def __init__(self, status: int, problem: dict[str, Any], lang: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(status, problem, lang, headers)
        self.rules: dict[str, str] = {lang: str(problem.get("rule", ""))}


def error_of(status: int, problem: dict[str, Any], lang: str, headers: dict[str, str] | None = None) -> RefereeError:
    """The exception for a problem answer: a `RuleRefusal` when it names a rule."""
    kind = RuleRefusal if problem.get("rule_id") else RefereeError
    return kind(status, problem, lang, headers)
