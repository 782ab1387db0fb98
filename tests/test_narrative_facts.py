"""Issue 12, item 6: the story tells the facts a dispute needs — a Princess discarded to a Prince rather than
played, and the 2012 discard sums that broke a tie — in English and French."""

from __future__ import annotations

import json
from pathlib import Path

from loveletter.replays.narrative import narrate
from loveletter.replays.transcript import expand

DISPUTES = Path(__file__).resolve().parents[1] / "examples" / "disputes"


def story(name: str, lang: str) -> list[str]:
    expanded = expand(json.loads((DISPUTES / name).read_text("utf-8")))
    return narrate(expanded.events, lang)


def test_a_princess_discarded_to_a_prince_is_told_as_such() -> None:
    assert any(
        line.endswith("is out of the round — the Princess was discarded.")
        for line in story("prince-on-princess-holder.json", "en")
    )
    assert any(line.endswith("— Princesse défaussée.") for line in story("prince-on-princess-holder.json", "fr"))
    played = story("princess-played.json", "en")
    assert not any("was discarded" in line for line in played) and any("plays the Princess" in line for line in played)


def test_the_2012_discard_sums_that_broke_a_tie_are_told() -> None:
    # the file's deck-out: both hold a Baron. Summed by hand from its turns: Alice's discards 13; Bob's 17, the
    # 15 he played and the Priest Alice's Prince made him discard
    (end,) = [line for line in story("2012-tie-discard-sums.json", "en") if line.startswith("End of round")]
    assert end.endswith("Discard sums: Alice 13, Bob 17.") and "Bob won" in end
    (fin,) = [line for line in story("2012-tie-discard-sums.json", "fr") if line.startswith("Fin de la manche")]
    assert fin.endswith("Sommes des défausses : Alice 13, Bob 17.")
