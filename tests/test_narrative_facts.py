"""Issue 12, item 6: the story tells the facts a dispute needs — a Princess discarded to a Prince rather than
played, and the 2012 discard sums that broke a tie — in English and French."""

from __future__ import annotations

import json
from pathlib import Path

from loveletter.core.cards import Card
from loveletter.core.catalogue import CardPlayed, ChancellorDrew, ChancellorReturned, HandsCompared
from loveletter.core.evolve import fold
from loveletter.replays.narrative import narrate
from loveletter.replays.position import position
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
    assert fin.endswith("Sommes des défausses : Alice 13, Bob 17.")


def told(extra: list[object], lang: str, omniscient: bool = False) -> list[str]:
    """The story of a real game's start followed by `extra` events (each narrated on its own line)."""
    events = expand(json.loads((DISPUTES / "baron-tie.json").read_text("utf-8"))).events
    start = [e for e in events if not isinstance(e, (CardPlayed, HandsCompared))][:3]
    return [line.strip() for line in narrate([*start, *extra], lang, omniscient=omniscient)]  # type: ignore[list-item]


def test_the_story_says_it_as_people_do_in_both_languages() -> None:
    prince = CardPlayed(player=0, card=Card("prince"), target=0)
    assert any(line.endswith("plays the Prince on themselves.") for line in told([prince], "en"))
    assert any(line.endswith("joue le Prince en se désignant.") for line in told([prince], "fr"))
    compared = HandsCompared(player=1, target=0, player_card=Card("guard"), target_card=Card("priest"))
    assert "(Bob with the Guard against Alice with the Priest)" in told([compared], "en", omniscient=True)
    assert "(Bob, avec le Garde, contre Alice, avec le Prêtre)" in told([compared], "fr", omniscient=True)
    two, one = ChancellorDrew(player=0, cards=(Card("guard"), Card("spy"))), ChancellorDrew(0, (Card("guard"),))
    back = ChancellorReturned(player=0, kept=Card("guard"), bottom=(Card("spy"),))
    en = told([two, one, back], "en")
    assert "Alice draws 2 cards." in en and "Alice draws 1 card." in en
    assert "Alice puts 1 card under the deck." in en and not any("(s)" in line for line in en)
    fr = told([two, one, back], "fr")
    assert "Alice pioche 2 cartes." in fr and "Alice pioche 1 carte." in fr
    assert "Alice remet 1 carte sous la pioche." in fr


def test_before_the_first_deal_no_round_zero_is_over() -> None:
    events = expand(json.loads((DISPUTES / "baron-tie.json").read_text("utf-8"))).events
    where = position(fold(events[:1]), events[:1])
    assert where.text.en == "the first round is to be dealt"
    assert where.text.fr == "la première manche reste à distribuer"
