"""The command-line examples of the docs are run, and must print what the page shows.

A ```console block right after a `<!-- checked -->` line is a transcript: each `$ loveletter …` line is run from
the repository's root (the installed command, English unless it says `--lang`), and the lines up to the next `$`
must be exactly what it printed, stdout then stderr; `$ echo $?` shows the exit code of the command before it.
`python tests/test_docs_console.py` rewrites those blocks from real runs.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.cli import loveletter  # noqa: E402

BLOCK = re.compile(r"<!-- checked -->\n```console\n(.*?)```", re.S)


def transcripts() -> list[tuple[Path, str]]:
    return [(page, block) for page in sorted((ROOT / "docs").glob("*.md")) for block in BLOCK.findall(page.read_text())]


def run_block(block: str) -> str:
    """The block as a real run prints it."""
    out: list[str] = []
    code = 0
    for line in block.splitlines():
        if not line.startswith("$ "):
            continue
        out.append(line)
        command = line[2:]
        if command == "echo $?":
            out.append(str(code))
            continue
        args = shlex.split(command)
        assert args[0] == "loveletter", f"only loveletter commands are run: {line}"
        result = loveletter(*args[1:], env={"LOVELETTER_LANG": "en"})
        code = result.returncode
        out += (result.stdout + result.stderr).rstrip("\n").splitlines()
    return "\n".join(out) + "\n"


def test_there_are_checked_transcripts() -> None:
    assert len(transcripts()) >= 3


@pytest.mark.parametrize(("page", "block"), transcripts(), ids=lambda v: v.name if isinstance(v, Path) else "")
def test_a_checked_transcript_prints_what_the_page_shows(page: Path, block: str) -> None:
    assert run_block(block) == block, f"{page.name}: rewrite with python tests/test_docs_console.py"


if __name__ == "__main__":
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text()
        fresh = BLOCK.sub(lambda m: f"<!-- checked -->\n```console\n{run_block(m[1])}```", text)
        if fresh != text:
            page.write_text(fresh)
            print(f"rewrote {page.relative_to(ROOT)}")
