"""The shuffle is uniform (a quick chi-square run), and docs/shuffle.md's standalone re-derivation is right."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from loveletter.core.chance import SeedStream, commitment, committed_deal, round_message, round_seed
from loveletter.core.commands import ContributeSeed, StartGame
from loveletter.core.decide import decide
from loveletter.core.evolve import fold
from loveletter.core.state import INITIAL

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import shuffle_uniformity as bench  # noqa: E402

SERVER = hashlib.sha256(b"loveletter docs: server seed 3").digest()
BOB = hashlib.sha256(b"loveletter docs: Bob's seed").hexdigest()


def test_quick_uniformity_of_positions_and_first_player_draws() -> None:
    results = bench.run(20_000, 1)
    pairs = {"ordered pair on top", "ordered pair at bottom"}
    assert set(results) == {"card kind by position", *pairs, *(f"first player among {m}" for m in range(2, 7))}
    assert results["card kind by position"][1] == 180
    assert all(results[name][1] == 419 for name in pairs)
    for name, (_, df, p) in results.items():
        assert p > 1e-6, (name, df, p)


def test_a_biased_shuffle_is_caught() -> None:
    """The test has teeth: a classic off-by-one Fisher–Yates (j below i, never i itself) fails it."""
    counts = [[0] * len(bench.KINDS) for _ in bench.DECK]
    indices = list(range(len(bench.DECK)))
    for n in range(5_000):
        stream = SeedStream(hashlib.sha256(b"%d" % n).digest())
        order = list(indices)
        for i in range(len(order) - 1, 0, -1):
            j = stream.below(i)  # biased (Sattolo): a card never stays where it is
            order[i], order[j] = order[j], order[i]
        for position, index in enumerate(order):
            counts[position][bench.KIND_OF[index]] += 1
    statistic, df = bench.chi_square_positions(counts, 5_000)
    assert bench.p_value(statistic, df) < 1e-6


def test_an_ordering_bias_is_caught_where_positions_see_nothing() -> None:
    """A fixed order rotated by each amount in turn lands every kind at every position exactly equally often, so
    the position test sees a perfect shuffle (a statistic of 0); the ordered-pair tests must not."""
    decks = 21 * 1_000
    turns = iter(range(decks))

    def rotated(stream: SeedStream, indices: list[int]) -> list[int]:
        k = next(turns) % len(indices)
        return indices[k:] + indices[:k]

    counts, _, top, bottom = bench.count(decks, rotated)
    assert bench.chi_square_positions(counts, decks)[0] == pytest.approx(0.0, abs=1e-6)
    assert bench.p_value(*bench.chi_square_pairs(top)) < 1e-12
    assert bench.p_value(*bench.chi_square_pairs(bottom)) < 1e-12


@pytest.mark.parametrize(
    ("statistic", "df", "p"),
    [(3.841458820694124, 1, 0.05), (11.070497693516351, 5, 0.05), (180.0, 180, 0.4859817), (0.0, 4, 1.0)],
)
def test_the_chi_square_p_value_matches_known_quantiles(statistic: float, df: int, p: float) -> None:
    assert bench.p_value(statistic, df) == pytest.approx(p, rel=1e-5)
    if statistic:
        assert bench.wilson_hilferty(statistic, df) == pytest.approx(p, abs=5e-3)


def _snippet() -> str:
    text = (ROOT / "docs" / "shuffle.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    (snippet,) = [b for b in blocks if "round_seed = hmac.new" in b]
    return snippet


def test_the_standalone_snippet_of_the_docs_rederives_committed_deal(tmp_path: Path) -> None:
    snippet = _snippet()
    assert not re.search(r"^\s*(from|import)\s+(core|events|replays|api)\b", snippet, flags=re.M)
    path = tmp_path / "rederive.py"
    path.write_text(snippet, "utf-8")
    # -I: isolated, so the project cannot be imported even by accident
    result = subprocess.run([sys.executable, "-I", str(path)], capture_output=True, text=True, timeout=60, check=True)
    printed = json.loads(result.stdout)

    events = list(decide(INITIAL, StartGame("2019", ("Ann", "Bob"), seed_commitment=commitment(SERVER))))
    events += decide(fold(events), ContributeSeed(1, BOB))
    state = fold(events)
    deal = committed_deal(state, SERVER)
    assert deal.shuffle is not None and deal.shuffle.algorithm == "commit-hmac-sha256-fy/1"
    assert printed == {
        "round_seed": deal.shuffle.seed,
        "set_aside": deal.set_aside.value,
        "face_up": [c.value for c in deal.face_up],
        "hands": [c.value for c in deal.hands],
        "deck": [c.value for c in deal.deck],
        "first_player": deal.first_player,
    }
    # and the figures the page quotes are the code's
    doc = (ROOT / "docs" / "shuffle.md").read_text("utf-8")
    assert round_message(1, state.seat_seeds).decode() in doc.replace("\\|", "|")
    assert len(round_message(1, state.seat_seeds)) == 88
    assert round_seed(SERVER, 1, state.seat_seeds).hex() in doc
    assert commitment(SERVER) in doc and SERVER.hex() in doc
    assert json.dumps(printed) in doc
