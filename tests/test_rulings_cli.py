"""`loveletter explain` and `loveletter show`, run as real processes on the reader question and on a played log."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.cli import loveletter

ROOT = Path(__file__).resolve().parent.parent
READER = str(ROOT / "examples" / "reader-question.json")


def explain(*args: str) -> subprocess.CompletedProcess[str]:
    return loveletter("explain", READER, "--at", "5", *args)


def test_explain_illegal_prince_on_the_protected_player_in_french_exits_1() -> None:
    result = explain("--move", '{"card": "prince", "target": "Thibault"}', "--lang", "fr")
    assert result.returncode == 1, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == (
        "ILLÉGAL — Claire, après l'événement 5 (manche 1, premier tour de Claire) : la Servante protège Thibault, "
        "qui ne peut pas être la cible d'un autre joueur"
    )
    assert lines[1].startswith("  [target.protected] Un joueur protégé par la Servante")
    assert lines[2] == (
        "  sources : Décisions §5 ; Love Letter (2019), règles françaises ; Love Letter (2019), règles anglaises ; "
        "une page web de règles pour l'édition 2019, avec la question d'un lecteur"
    )
    assert lines[-1] == "  coups légaux : Princesse ; Prince sur Claire"
    assert result.stderr == ""


def test_explain_legal_prince_on_herself_exits_0_and_lists_what_follows() -> None:
    result = explain("--move", '{"player": "Claire", "card": "prince", "target": "Claire"}')
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith(
        "LEGAL — Claire, after event 5 (round 1, Claire's first turn): this move is legal\n  [target.none] "
    )
    follows = out.split("  what follows:\n")[1].split("  legal moves:")[0]
    assert "Claire discards the Princess." in follows and "Claire is out of the round." in follows
    assert "(last one standing): Thibault won." in follows
    assert out.endswith("  legal moves: Princess; Prince on Claire\n")


@pytest.mark.parametrize(("move", "code"), [('{"card": "princess"}', 0), ('{"card": "prince", "target": 1}', 1)])
def test_explain_json_has_the_ruling_and_the_exit_code(move: str, code: int) -> None:
    result = explain("--move", move, "--json", "--lang", "fr")
    assert result.returncode == code, result.stderr
    ruling = json.loads(result.stdout)
    assert ruling["legal"] is (code == 0) and ruling["mover"] == "Claire" and ruling["at"] == 5
    assert ruling["rule_id"] == ("princess.eliminated" if code == 0 else "target.protected")
    assert set(ruling) >= {"rule", "sources", "rule_sources", "message", "events", "legal_moves", "prefix_problem"}


def test_explain_names_the_sources_in_english_and_its_json_keeps_the_ids_beside_the_names() -> None:
    """target.protected: RULINGS §5, the 2019 French and English rulebooks, the web page's reader question (by hand
    from core/rules.py); a file name is never shown as text, the JSON keeps them as ids."""
    text = explain("--move", '{"card": "prince", "target": "Thibault"}').stdout.splitlines()
    assert text[2] == (
        "  sources: Rulings §5; Love Letter (2019), French rulebook; Love Letter (2019), English rules; "
        "a French rules web page for the 2019 edition, with a reader's question"
    )
    assert ".txt" not in "\n".join(text)
    ruling = json.loads(explain("--move", '{"card": "prince", "target": "Thibault"}', "--json").stdout)
    assert ruling["sources"] == [
        "RULINGS §5",
        "000_91a7d2231e64ad36.txt",
        "003_0fc648c025107d8d.txt",
        "001_d78694f395ea141b.txt",
    ]
    assert ruling["rule_sources"] == [
        {"text": "Rulings §5", "href": "/rulings#s5"},
        {"text": "Love Letter (2019), French rulebook", "href": "/rulings#sources"},
        {"text": "Love Letter (2019), English rules", "href": "/rulings#sources"},
        {"text": "a French rules web page for the 2019 edition, with a reader's question", "href": "/rulings#sources"},
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--at", "5", "--move", "{nope"), "--move is not JSON"),
        (("--at", "5", "--move", "[1]"), "--move: a move is a JSON object"),
        (("--at", "5", "--move", '{"card": "joker"}'), "--move: card: 'joker' is not a card"),
        (("--at", "5", "--move", '{"player": "Zoé"}'), "--move: player: 'Zoé' is not a player (Claire, Thibault)"),
        (("--at", "99", "--move", "{}"), "--at must be a seq from 1 to 10"),
        (("--at", "5", "--move", "{}", "--lang", "de"), "--lang: 'de' is not one of en, fr"),
        (("--move", "{}"), "--move: nobody is to move here"),
    ],
)
def test_explain_bad_input_exits_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    result = loveletter("explain", READER, *args)
    assert result.returncode == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], result.stderr
    assert "Traceback" not in result.stderr


def test_explain_unreadable_file_exits_2(tmp_path: Path) -> None:
    missing = loveletter("explain", str(tmp_path / "none.jsonl"), "--at", "1", "--move", "{}")
    assert missing.returncode == 2 and missing.stderr.startswith("error: cannot read ")
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("this is not a log\n")
    bad = loveletter("explain", str(garbage), "--at", "1", "--move", "{}")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "Traceback" not in bad.stderr


def test_show_tells_the_reader_question_in_french() -> None:
    result = loveletter("show", READER, "--lang", "fr")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "Partie 2019 (scénario) : Claire, Thibault.",
        "Manche 1 : Thibault commence. Cartes face visible : le Garde, le Garde, le Prêtre.",
        "Manche 1, tour 1 — Thibault joue la Servante.",
        "Manche 1, tour 2 — Claire joue le Prince en se désignant.",
        "    Claire défausse la Princesse.",
        "    Claire quitte la manche — Princesse défaussée.",
        "Fin de la manche 1 (dernier en lice) : Thibault la remporte. Carte mise de côté : le Roi.",
        "    Thibault gagne un pion Faveur (manche gagnée).",
    ]


def test_show_in_english_by_default() -> None:
    result = loveletter("show", READER)
    assert result.returncode == 0, result.stderr
    assert "Round 1, turn 2 — Claire plays the Prince on themselves." in result.stdout.splitlines()


def test_show_at_seq_for_a_seat_prints_only_what_that_seat_knew() -> None:
    claire = loveletter("show", READER, "--at", "5", "--seat", "Claire")
    assert claire.returncode == 0, claire.stderr
    view = json.loads(claire.stdout)
    assert view["seat"] == 0 and view["version"] == 5 and view["hand"] == ["princess", "prince"]
    assert [s["known_hand"] for s in view["seats"]] == [None, None] and view["seats"][1]["protected"]
    thibault = json.loads(loveletter("show", READER, "--at", "5", "--seat", "1").stdout)
    assert thibault["seat"] == 1 and thibault["hand"] == ["guard"]
    spectator = json.loads(loveletter("show", READER, "--at", "5").stdout)
    assert spectator["seat"] is None and spectator["hand"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--at", "5", "--seat", "Zoé"), "--seat 'Zoé' is not a player (Claire, Thibault)"),
        (("--at", "5", "--seat", "7"), "--seat '7' is not a player"),
        (("--at", "11", "--seat", "Claire"), "--at must be a seq from 1 to 10"),
        (("--lang", "de"), "--lang: 'de' is not one of en, fr"),
    ],
)
def test_show_bad_options_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    result = loveletter("show", READER, *args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], result.stderr


def test_show_and_explain_read_a_simulated_jsonl_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert loveletter("simulate", "--games", "1", "--players", "2", "--seed", "4", "--log", str(log)).returncode == 0
    story = loveletter("show", str(log), "--lang", "fr")
    assert story.returncode == 0, story.stderr
    lines = story.stdout.splitlines()
    assert lines[0].startswith("Partie 2019 : ") and lines[-2].startswith("Fin de la partie : ")
    assert lines[-1].startswith("L'arbitre révèle sa graine")
    assert any(line.startswith("Manche 1, tour 1 — ") for line in lines)
    view = json.loads(loveletter("show", str(log), "--at", "4", "--seat", "0").stdout)
    assert view["version"] == 4 and view["seat"] == 0
