"""HTTP routes of issue 4 (being written)."""

from __future__ import annotations

from fastapi import FastAPI

from api.referee import Referee


def install(app: FastAPI, referee: Referee) -> None:
    """Add this module's routes to `app`."""
