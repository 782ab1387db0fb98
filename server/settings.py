"""Every setting of the referee, read from LOVELETTER_* environment variables (pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from platformdirs import user_data_dir
from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="LOVELETTER_", extra="ignore")

    database_url: str = Field(
        "sqlite:///loveletter.db",
        description="sqlite:///path/to/file.db (embedded, one worker) or postgresql://user@host:port/db",
    )
    host: str = Field("127.0.0.1", description="the address to listen on (0.0.0.0: every interface)")
    port: int = Field(8000, ge=1, le=65535, description="the port to listen on")
    workers: int = Field(1, ge=1, le=64, description="worker processes; more than one needs PostgreSQL")
    forwarded_allow_ips: str = Field(
        "127.0.0.1",
        description="the load balancers (addresses, comma-separated, or *) whose X-Forwarded-For names the client: "
        "the per-address limits then count each client, not the balancer",
    )
    durability: Literal["full", "normal"] = Field(
        "full", description="SQLite synchronous mode: full (every commit on disk) or normal (WAL, faster)"
    )
    log_format: Literal["auto", "json", "console"] = Field(
        "auto", description="auto: pretty on a terminal, JSON lines otherwise"
    )
    log_level: str = Field("info", description="lowest level logged: debug, info, warning, error")
    request_log_level: str = Field(
        "info", description="level of the line logged for each answered request (5xx answers: always error)"
    )
    admin_token: str | None = Field(
        None, description="a bearer token that may read any game's full log and state (see admin_tokens)"
    )
    admin_tokens: str | None = Field(
        None, description="more admin tokens, comma-separated: several are valid at once, to rotate them"
    )
    admin_tokens_file: str | None = Field(
        None,
        description="a file of admin tokens, one a line (# comments), read again whenever it changes: "
        "add or remove a token without a restart",
    )
    key_path: str = Field(
        default_factory=lambda: str(Path(user_data_dir("loveletter-referee", appauthor=False)) / "signing.key"),
        description="the referee's Ed25519 key (PKCS#8 PEM), created on first start; default: the user's data "
        "directory (~/.local/share/loveletter-referee/signing.key on Linux)",
    )
    max_body_bytes: int = Field(64 * 1024, description="largest request body accepted")
    cache_games: int = Field(10_000, description="games whose folded state is kept in memory")
    stream_keep_alive: float = Field(
        15.0, gt=0, description="seconds between keep-alives on an idle event stream (and looks at its client)"
    )
    clock_poll: float = Field(
        1.0, gt=0, description="longest sleep, in seconds, of the turn clocks' keeper between looks at the time"
    )
    clock_rescan: float = Field(
        10.0, gt=0, description="seconds between two reads of the store's running deadlines (a shared store)"
    )

    # -- deadlines: nothing waits for ever (docs/operations.md) --
    join_seconds: int = Field(
        60,
        ge=0,
        description="seconds the accounts of a game made for them (paired seeks, an accepted challenge) have to take "
        "their seats; then the game ends unplayed and the seeks of those who took theirs go back to the queue (0: "
        "never)",
    )
    open_seat_seconds: int = Field(
        3600, ge=0, description="seconds any other game's open seats wait for players; then it ends unplayed (0: never)"
    )
    challenge_seconds: int = Field(
        600, ge=0, description="seconds a challenge waits for its answer; then it expires (0: never)"
    )

    metrics: Literal["admin", "open", "off"] = Field(
        "admin",
        description="who may read GET /metrics: admin (an admin token), open (anyone: keep the port private), or "
        "off (no such page)",
    )

    # -- limits and timeouts (api/limits.py, docs/reliability.md) --
    create_rate: float = Field(2.0, ge=0, description="games a client address may create per second (0: no limit)")
    create_burst: int = Field(30, ge=1, description="games a client address may create at once")
    creation_refill: float = Field(
        1.0,
        gt=0,
        le=1,
        description="the pace at which the account, challenge and seek limits refill, as a share of their documented "
        "rate (1; a test slows it so that a spent burst stays spent however slow the machine)",
    )
    move_rate: float = Field(20.0, ge=0, description="moves (and seeds) a seat token may send per second (0: no limit)")
    move_burst: int = Field(40, ge=1, description="moves a seat token may send at once")
    shared_limits: bool = Field(
        True,
        description="on PostgreSQL, keep every rate limit in the store, so that all workers and hosts allow together "
        "what one allows (false: each process keeps its own, as on SQLite)",
    )
    max_in_flight: int = Field(
        32, ge=0, description="requests answered at once; beyond it 503 at once (health and streams apart; 0: none)"
    )
    max_streams: int = Field(1000, ge=0, description="event streams open at once in all (0: no limit)")
    max_streams_per_client: int = Field(
        8, ge=0, description="event streams open at once per token, or per address without one (0: no limit)"
    )
    keep_alive_timeout: float = Field(5.0, gt=0, description="seconds an idle kept-alive connection stays open")
    header_timeout: float = Field(
        10.0, ge=0, description="seconds to send a request's head, from connecting or its first byte (0: none)"
    )
    body_timeout: float = Field(30.0, ge=0, description="seconds to send a request's body after its head (0: none)")
    max_header_bytes: int = Field(16 * 1024, ge=1024, description="largest request head (line and headers)")
    shutdown_timeout: float = Field(
        10.0, gt=0, description="seconds open requests and streams get to finish when the server stops"
    )

    @field_validator("log_level", "request_log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        if value.lower() not in ("debug", "info", "warning", "error", "critical"):
            raise ValueError("a level is debug, info, warning, error or critical")
        return value.lower()

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite:")

    @property
    def sqlite_path(self) -> str:
        return self.database_url.removeprefix("sqlite:///").removeprefix("sqlite://") or "loveletter.db"
