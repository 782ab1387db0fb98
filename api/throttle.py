"""`Throttle`: the routes' own limit on creating accounts, challenges and seeks, per client address and, when a key
is sent, per account (429 with the route's code and `Retry-After`); those routes call it before touching the store.
Its buckets are `api.limits`' own: in the app, or in the store for every worker and host (`Shared`)."""

from __future__ import annotations

import hashlib
import math
import time

from fastapi import Request

from loveletter.api.limits import Buckets, Shared, take_shared
from loveletter.api.problems import Problem, fr_int
from loveletter.core.lang import Text


class Throttle:
    """A rate limit on one kind of creation (accounts, challenges, seeks), per client address and, when a key is
    sent, per account (the key kept only as a digest). Each application keeps its own buckets (in `app.state`), so
    two referees in one process (the tests' servers) never share a client's count."""

    def __init__(
        self, code: str, client: tuple[float, int], account: tuple[float, int] | None, en: str, fr: str
    ) -> None:
        self.code, self.client, self.account = code, client, account
        self.en, self.fr = en, fr
        """The refusal's wording, with `{who}`, `{rate}` and `{burst}` to fill."""

    def _buckets(self, request: Request, which: str, rate: float, burst: int) -> Buckets:
        held: dict[str, Buckets] | None = getattr(request.app.state, "throttles", None)
        if held is None:
            held = {}
            request.app.state.throttles = held
        found = held.get(f"{self.code}:{which}")
        if found is None:
            pace = getattr(request.app.state, "creation_refill", 1.0)  # `Settings.creation_refill`
            found = held[f"{self.code}:{which}"] = Buckets(rate * pace, burst)
        return found

    async def check(self, request: Request, key: str | None = None) -> None:
        """429 `code` with `Retry-After` when this client address, or the account of `key`, asks too often."""
        now = time.monotonic()
        shared: Shared | None = getattr(request.app.state, "shared_limits", None)
        address = request.client.host if request.client else ""
        limits = [("client", self.client, address, Text("this address", "cette adresse"))]
        if key is not None and self.account is not None:
            digest = hashlib.sha256(key.encode()).hexdigest()
            limits.append(("account", self.account, digest, Text("this account", "ce compte")))
        for which, (rate, burst), held, who in limits:
            if shared is not None:
                pace = getattr(request.app.state, "creation_refill", 1.0)
                wait = await take_shared(shared, f"{self.code}:{which}:{held}", rate * pace, burst)
            else:
                wait = self._buckets(request, which, rate, burst).take(held, now)
            if wait:
                shown = f"{rate:g}"
                raise Problem(
                    429,
                    self.code,
                    Text(
                        self.en.format(who=who.en, rate=shown, burst=burst),
                        self.fr.format(who=who.fr, rate=shown.replace(".", ","), burst=fr_int(burst)),
                    ),
                    headers={"Retry-After": str(max(1, math.ceil(wait)))},
                )
