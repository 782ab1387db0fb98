"""Every setting of the referee, read from LOVELETTER_* environment variables (pydantic-settings)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LOVELETTER_", extra="ignore")

    database_url: str = Field(
        "sqlite:///loveletter.db",
        description="sqlite:///path/to/file.db (embedded, one worker) or postgresql://user@host:port/db",
    )
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    workers: int = Field(1, ge=1, le=64, description="worker processes; more than one needs PostgreSQL")
    durability: Literal["full", "normal"] = Field(
        "full", description="SQLite synchronous mode: full (every commit on disk) or normal (WAL, faster)"
    )
    log_format: Literal["auto", "json", "console"] = Field(
        "auto", description="auto: pretty on a terminal, JSON lines otherwise"
    )
    log_level: str = "info"
    admin_token: str | None = Field(None, description="bearer token that may read any game's full log")
    key_path: str = Field(
        "loveletter-signing.key", description="the referee's Ed25519 key (PKCS#8 PEM), created on first start"
    )
    max_body_bytes: int = Field(64 * 1024, description="largest request body accepted")
    cache_games: int = Field(10_000, description="games whose folded state is kept in memory")

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite:")

    @property
    def sqlite_path(self) -> str:
        return self.database_url.removeprefix("sqlite:///").removeprefix("sqlite://") or "loveletter.db"
