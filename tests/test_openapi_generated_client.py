"""A client generated from the referee's OpenAPI document by a standard generator (openapi-python-client, at test
time, into a temporary folder) imports, names its calls after the operations, covers `POST /audits`, and plays
whole two-seat games against a real server with every answer read into its typed model — never left unparsed —
its seat credential sent by its `AuthenticatedClient` alone, as the document's bearer security schemes say."""

from __future__ import annotations

import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest

from loveletter.events.sqlite_store import SqliteStore
from loveletter.server.settings import Settings
from tests.servers import serve

PACKAGE = "ll_generated"
EXPECTED_WARNINGS = {
    "POST /audits": "text/plain",  # it uploads the log as application/octet-stream, which the referee takes too
    "POST /simulations/tally": "text/plain",  # the same
}


@pytest.fixture(scope="module")
def referee() -> Iterator[str]:
    path = str(Path(tempfile.mkdtemp(prefix="loveletter-generated-")) / "games.db")
    settings = Settings(database_url=f"sqlite:///{path}", log_level="error", create_rate=0, move_rate=0)
    with serve(settings, SqliteStore(path)) as base:
        yield base


@pytest.fixture(scope="module")
def generated(referee: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ModuleType, str]]:
    """The generated package, imported, and what the generator printed."""
    folder = tmp_path_factory.mktemp("generated")
    document = folder / "openapi.json"
    document.write_bytes(httpx.get(f"{referee}/openapi.json").content)
    bin_dir = Path(sys.executable).parent
    generator = shutil.which("openapi-python-client", path=str(bin_dir)) or shutil.which("openapi-python-client")
    assert generator is not None, "openapi-python-client is a dev dependency: pip install -e '.[dev]'"
    run = subprocess.run(
        [
            generator,
            "generate",
            "--path",
            str(document),
            "--meta",
            "none",
            "--output-path",
            str(folder / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"},  # its ruff post-hooks
    )
    assert run.returncode == 0, run.stdout + run.stderr
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE), run.stdout + run.stderr
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def module(package: ModuleType, name: str) -> Any:
    return importlib.import_module(f"{package.__name__}.{name}")


def typed(response: Any, model: type) -> Any:
    """The answer read into `model`, having kept every field of the JSON the server sent: written back, it is that
    JSON exactly (so no member was left unread or read wrong)."""
    assert isinstance(response.parsed, model), (response.status_code, response.content[:300])
    assert response.parsed.to_dict() == json.loads(response.content)
    return response.parsed


def test_the_generator_names_calls_after_operations_and_skips_none(generated: tuple[ModuleType, str]) -> None:
    package, printed = generated
    for tag, calls in {
        "games": ("create_game", "get_game", "play_move", "list_events", "contribute_seed", "get_state"),
        "lobby": ("list_games", "join_game", "resign_seat", "abort_game", "rematch_game"),
        "audit": ("audit_log",),
        "rulings": ("ask_ruling", "replay_views"),
        "simulations": ("start_simulation", "simulation", "tally_log"),
        "rulesets": ("list_rulesets", "get_ruleset"),
        "service": ("health", "get_keys"),
    }.items():
        for call in calls:
            assert callable(module(package, f"api.{tag}.{call}").sync), f"{tag}.{call}"
    # The generator warns only where a body is not JSON, and generates every endpoint all the same.
    assert "will not be generated" not in printed, printed
    assert "Unable to" not in printed, printed
    for operation, media in EXPECTED_WARNINGS.items():
        assert f"WARNING parsing {operation}" in printed and media in printed, printed


def test_a_generated_client_plays_a_whole_game_every_answer_typed(
    referee: str, generated: tuple[ModuleType, str]
) -> None:
    package, _ = generated
    models = module(package, "models")
    api = lambda name: module(package, f"api.{name}")  # noqa: E731
    unset = module(package, "types").Unset
    client = package.Client(base_url=referee, raise_on_unexpected_status=True)

    created = typed(
        api("games.create_game").sync_detailed(
            client=client, body=models.CreateGameIn(players=[models.SeatIn(name="Ann"), models.SeatIn(name="Ben")])
        ),
        models.Created,
    )
    tokens = {seat.name: seat.token for seat in created.seats}
    assert set(tokens) == {"Ann", "Ben"} and all(len(t) > 20 for t in tokens.values())
    seats = {name: package.AuthenticatedClient(base_url=referee, token=t) for name, t in tokens.items()}
    game_id = created.game_id

    kinds: set[str] = set()
    moves = 0
    while True:
        views = {
            name: typed(api("games.get_game").sync_detailed(game_id, client=seat), models.Game)
            for name, seat in seats.items()
        }
        for game in views.values():
            assert isinstance(game.view, models.View) and not isinstance(game.view.seats, unset)
        if next(iter(views.values())).over:
            break
        name, game = next((n, g) for n, g in views.items() if g.your_turn)
        move = game.legal_moves[moves % len(game.legal_moves)]
        assert isinstance(move, models.LegalMove) and isinstance(move.action_code, int)
        answer = typed(
            api("games.play_move").sync_detailed(
                game_id,
                client=seats[name],
                body=models.CodeIn(type_="code", action_code=move.action_code),
            ),
            models.MoveResult,
        )
        for event in answer.events:  # each event read into the model of its kind, never a bare dict
            assert type(event).__name__.endswith("Event"), event
            kinds.add(type(event).__name__)
        moves += 1
        assert moves < 500
    assert {"CardPlayedEvent", "RoundEndedEvent", "GameEndedEvent"} <= kinds, kinds

    events = api("games.list_events").sync(game_id, client=client)
    assert isinstance(events, models.Events) and events.version == game.version
    assert all(type(e).__name__.endswith("Event") for e in events.events)
    refused = api("games.play_move").sync(game_id, client=seats["Ann"], body=models.CodeIn(type_="code", action_code=0))
    assert isinstance(refused, models.Problem) and refused.status in (409, 422), refused

    log = httpx.get(f"{referee}/games/{game_id}/log").content
    file = module(package, "types").File(payload=io.BytesIO(log), file_name="game.jsonl")
    report = api("audit.audit_log").sync(client=client, body=file)
    assert isinstance(report, models.AuditReport), report
    assert report.verdict.value == "valid" and report.counts.games == 1 and report.games[0].finished

    assert isinstance(api("rulesets.get_ruleset").sync("2019", client=client), models.Ruleset)
    assert isinstance(api("service.health").sync(client=client), models.Health)
    assert isinstance(api("lobby.list_games").sync(client=client), models.LobbyPage)


def test_the_document_declares_bearer_security_where_a_token_is_taken(referee: str) -> None:
    """Bearer schemes on exactly the routes that read a token: required where a seat must be named, "or none"
    where a spectator may read; public routes declare none; the stream's `?token=` stays a documented parameter."""
    document = httpx.get(f"{referee}/openapi.json").json()
    schemes = document["components"]["securitySchemes"]
    assert {name: (s["type"], s["scheme"]) for name, s in schemes.items()} == {
        "seat": ("http", "bearer"),
        "admin": ("http", "bearer"),
    }
    paths = document["paths"]

    def security(method: str, path: str) -> Any:
        return paths[path][method].get("security")

    for path in (
        "/games/{game_id}/moves",
        "/games/{game_id}/seed",
        "/games/{game_id}/resign",
        "/games/{game_id}/rematch",
    ):
        assert security("post", path) == [{"seat": []}], path
    assert security("post", "/games/{game_id}/abort") == [{"seat": []}, {"admin": []}]
    for path in ("/games/{game_id}", "/games/{game_id}/events", "/games/{game_id}/stream"):
        assert security("get", path) == [{"seat": []}, {}], path
    assert security("get", "/games/{game_id}/log") == [{"admin": []}, {}]
    assert security("post", "/games") == [{"admin": []}, {}]
    for method, path in (("get", "/games"), ("post", "/games/{game_id}/join"), ("get", "/lobby/stream")):
        assert security(method, path) is None, path
    for path, operations in paths.items():
        for method, operation in operations.items():
            names = [p["name"].lower() for p in operation.get("parameters", [])]
            if operation.get("security"):
                assert "authorization" not in names, (method, path)
                assert "401" in operation["responses"], (method, path)
    assert "token" in [p["name"] for p in paths["/games/{game_id}/stream"]["get"]["parameters"]]


def test_a_generated_client_plays_a_server_bot_with_its_authenticated_client_alone(
    referee: str, generated: tuple[ModuleType, str]
) -> None:
    """One seat against the server's heuristic bot: the seat's seed, every move, its view, the events and the
    signed log, all through the generated `AuthenticatedClient` and read into typed models."""
    package, _ = generated
    models = module(package, "models")
    api = lambda name: module(package, f"api.{name}")  # noqa: E731
    public = package.Client(base_url=referee, raise_on_unexpected_status=True)
    bob = models.SeatIn(name="Bob", bot=models.SeatInBotType0("heuristic"))
    created = typed(
        api("games.create_game").sync_detailed(
            client=public, body=models.CreateGameIn(players=[models.SeatIn(name="Ann"), bob])
        ),
        models.Created,
    )
    game_id = created.game_id
    ann_seat = next(seat for seat in created.seats if seat.name == "Ann")
    ann = package.AuthenticatedClient(base_url=referee, token=ann_seat.token, raise_on_unexpected_status=True)

    seeded = typed(
        api("games.contribute_seed").sync_detailed(game_id, client=ann, body=models.SeedIn(seed="5e" * 32)),
        models.MoveResult,
    )
    assert any(type(e).__name__ == "SeedContributedEvent" for e in seeded.events), seeded.events
    moves = 0
    while True:
        game = typed(api("games.get_game").sync_detailed(game_id, client=ann), models.Game)
        if game.over:
            break
        assert game.your_turn, "the bot moves at once: the human seat is always the one to play"
        move = game.legal_moves[moves % len(game.legal_moves)]
        typed(
            api("games.play_move").sync_detailed(
                game_id, client=ann, body=models.CodeIn(type_="code", action_code=move.action_code)
            ),
            models.MoveResult,
        )
        moves += 1
        assert moves < 500
    assert game.view.seat == 0 and game.bots[1] == "heuristic"
    assert moves > 0

    events = typed(api("games.list_events").sync_detailed(game_id, client=ann), models.Events)
    assert events.version == game.version and type(events.events[-1]).__name__ == "SeedRevealedEvent"
    log = api("games.get_log").sync_detailed(game_id, client=ann)
    file = log.parsed
    assert log.status_code == 200 and isinstance(file, module(package, "types").File), log
    lines = file.payload.read().splitlines()
    assert (
        json.loads(lines[0])["players"] == ["Ann", "Bob"] and json.loads(lines[-1])["format"] == "loveletter-signature"
    )
    report = api("audit.audit_log").sync(
        client=public, body=module(package, "types").File(payload=io.BytesIO(b"\n".join(lines) + b"\n"))
    )
    assert isinstance(report, models.AuditReport) and report.verdict.value == "valid", report
