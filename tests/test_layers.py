"""The imports run one way (docs/architecture.md), from the outside in:

    cli → server → web → api → referee → play → replays → events → core
                                client → core        env → play, replays, core

`core` is the pure rules with their vocabulary; `events` writes and stores it; `replays` judges recorded logs;
`play` plays games (bots, simulations, tournaments, ratings); `referee` is the authority between players and the
store and knows no HTTP; `api` is the HTTP routes; `web` the pages; `server` builds and runs the app; `cli` is the
command line. A module anywhere under a room (subfolders included) that imports against the arrows, or any code
that imports a room by its bare name instead of `loveletter.…`, fails here.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("core", "events", "replays", "play", "referee", "api", "web", "server", "cli")
# What each layer may import from the project: itself and the layers below it.
ALLOWED = {layer: set(LAYERS[: i + 1]) for i, layer in enumerate(LAYERS)}
# The client library speaks HTTP to the referee and shares only the rules' vocabulary with it (docs/client.md).
ALLOWED["client"] = {"core", "client"}
for outer in ("play", "api", "web", "server", "cli"):
    ALLOWED[outer].add("client")  # bot harness, answer models, `bot run`: clients of a referee like any other
# The PettingZoo environment plays on the rules and the built-in bots; only render() uses replays' narrator.
ALLOWED["env"] = {"core", "env", "replays", "play"}
ALLOWED["cli"].add("env")
PACKAGES = (*LAYERS, "client", "env")
# The authority knows no HTTP: no web framework, no HTTP client, no server.
HTTP = {"fastapi", "starlette", "uvicorn", "httpx", "httpx_sse", "jinja2", "http"}
# I/O and clocks have no place in the pure rules.
IMPURE = {
    "os",
    "io",
    "sys",
    "time",
    "socket",
    "sqlite3",
    "subprocess",
    "pathlib",
    "tempfile",
    "shutil",
    "asyncio",
    "threading",
    "logging",
    "structlog",
    "psycopg",
    "psycopg_pool",
    "urllib",
    "http",
    "datetime",
}


def imported_modules(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
            found += [(node.lineno, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def project_files() -> list[Path]:
    return sorted(
        p for p in ROOT.rglob("*.py") if not {".venv", "site", "loveletter", "build", "mutants"} & set(p.parts)
    )


def room_files(room: str, base: Path = ROOT) -> list[Path]:
    """Every module of a room, in its subfolders too."""
    return sorted((base / room).rglob("*.py"))


def wrong_imports(layer: str, base: Path = ROOT) -> list[str]:
    return [
        f"{path.relative_to(base)}:{line} imports {name}"
        for path in room_files(layer, base)
        for line, name in imported_modules(path)
        if name.startswith("loveletter.")
        and name.split(".")[1] in PACKAGES
        and name.split(".")[1] not in ALLOWED[layer]
    ]


@pytest.mark.parametrize("layer", PACKAGES)
def test_a_layer_imports_only_itself_and_the_layers_below(layer: str) -> None:
    assert wrong_imports(layer) == []


def test_a_wrong_import_deep_in_a_room_is_found(tmp_path: Path) -> None:
    """The check above can fail, however deep the module sits in its room."""
    nested = tmp_path / "referee" / "tables" / "cache"
    nested.mkdir(parents=True)
    (nested / "lookup.py").write_text("from loveletter.web.pages import page\n")
    assert wrong_imports("referee", tmp_path) == [
        "referee/tables/cache/lookup.py:1 imports loveletter.web.pages",
        "referee/tables/cache/lookup.py:1 imports loveletter.web.pages.page",
    ]


FACE = {"loveletter.referee.referee", "loveletter.referee.inputs", "loveletter.referee.refusals"}
"""What the rooms outside the referee may import of it: its face (`Referee`, the `Reader` it hands out, the results
it answers), the plain inputs it takes and the refusals it raises — never a `Table`, the store or a service."""
BEHIND_THE_FACE = {"store", "tables", "judge", "seating", "clocks", "credentials", "meta", "events_json"}
"""Attributes that mean reaching round the referee: its store, its services, a table's record or events."""
FILTERS = {"seen_by", "state_seen_by"}
"""The referee's own spectator filter, by name, wherever it came from (a `Table` cannot be imported at all)."""
OUTSIDE = ("api", "web", "server", "cli")


def reaching_round(room: str, base: Path = ROOT) -> list[str]:
    """Every import of a referee module other than its face, and every use of a name behind the face."""
    found = []
    for path in room_files(room, base):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            where = f"{path.relative_to(base)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("loveletter.referee"):
                modules = (
                    {node.module}
                    if node.module != "loveletter.referee"
                    else {f"loveletter.referee.{alias.name}" for alias in node.names}
                )
                found += [f"{where} imports {m}" for m in sorted(modules - FACE)]
            elif isinstance(node, ast.Attribute) and node.attr in BEHIND_THE_FACE:
                found.append(f"{where} uses .{node.attr}")
            elif isinstance(node, ast.Name) and node.id in FILTERS:
                found.append(f"{where} uses {node.id}")
    return sorted(found)


@pytest.mark.parametrize("room", OUTSIDE)
def test_nothing_outside_the_referee_reaches_round_its_face(room: str) -> None:
    assert reaching_round(room) == []


def test_reaching_round_the_face_is_found(tmp_path: Path) -> None:
    """The check above can fail: a route that reads a table or the store, or imports a service, is found."""
    routes = tmp_path / "api" / "routes"
    routes.mkdir(parents=True)
    (routes / "sneaky.py").write_text(
        "from loveletter.referee.tables import seen_by\n"
        "from loveletter.referee import tables\n"
        "async def read(referee):\n"
        "    return referee.store.load('g'), seen_by(await referee.table('g'), None)\n"
    )
    assert reaching_round("api", tmp_path) == [
        "api/routes/sneaky.py:1 imports loveletter.referee.tables",
        "api/routes/sneaky.py:2 imports loveletter.referee.tables",
        "api/routes/sneaky.py:4 uses .store",
        "api/routes/sneaky.py:4 uses seen_by",
    ]


HTTP_WORDS = re.compile(
    r"Authorization|Bearer|If-Match|If-None-Match|Idempotency-Key|Retry-After|Last-Event-ID|"
    r"\b(?:200|201|202|204|304|400|401|403|404|409|412|413|415|422|429|500|503)\b|/games/|https?://"
)


def test_the_referee_speaks_no_http() -> None:
    """No header, status code or URL in the authority's code: refusals are codes, and the HTTP layer words them."""
    found = []
    for path in room_files("referee"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                text = node.value
                if len(text) <= 200 and HTTP_WORDS.search(text):  # docstrings may say how a transport words it
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:60]!r}")
    assert found == []


def test_the_rules_core_does_no_io() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in room_files("core")
        for line, name in imported_modules(path)
        if name.split(".")[0] in IMPURE
    ]
    assert wrong == []


def test_the_referee_knows_no_http() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in room_files("referee")
        for line, name in imported_modules(path)
        if name.split(".")[0] in HTTP
    ]
    assert wrong == []


LAYER = r"(?:core|events|replays|play|referee|api|web|server|cli|client|env)"
BARE_IN_TEXT = re.compile(rf"\bfrom\s+{LAYER}(?:\.\w+)*\s+import\b|\bimport\s+{LAYER}\b|-m\s+{LAYER}\b")


def test_no_command_line_or_string_imports_a_folder_by_its_bare_name() -> None:
    """A command that imports `api.cli` by its bare name works only from the checkout's root: never in a test."""
    found = []
    for path in project_files():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and BARE_IN_TEXT.search(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}")
    assert found == []


def test_the_checker_sees_a_wrong_import(tmp_path: Path) -> None:
    """The rule above can fail: an `events` import in a core module is found."""
    module = tmp_path / "bad.py"
    module.write_text("from loveletter.events.log import read_games\nimport sqlite3\n")
    names = [name for _, name in imported_modules(module)]
    assert "loveletter.events.log" in names and "sqlite3" in names


def test_the_wheel_installs_one_package_named_loveletter(tmp_path: Path) -> None:
    # Built from a copy of the tracked files, so the build leaves nothing behind in the checkout.
    source = tmp_path / "source"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_symlink():
            (source / name).symlink_to((ROOT / name).readlink())
        elif (ROOT / name).is_file():
            (source / name).write_bytes((ROOT / name).read_bytes())
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(source),
        ],
        check=True,
        capture_output=True,
    )
    (wheel,) = wheels.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == {"loveletter"}
    for layer in PACKAGES:
        assert f"loveletter/{layer}/__init__.py" in names
    assert "loveletter/client/py.typed" in names and "loveletter/client/sync.py" in names
    assert "loveletter/env/py.typed" in names and "loveletter/env/aec.py" in names
    assert "loveletter/core/decide.py" in names and "loveletter/api/openapi_examples.json" in names
