"""The commands that read logs: `loveletter replay` (a log or a transcript replayed through the rules),
`loveletter audit` (whole logs checked line by line: chain, signature, seeds, decks, moves) and `loveletter show`
(a game told as a story, from one seat's point of view or with every card, or what a seat knew at a point). The
checks and stories come from `replays`."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson
from rich.console import Console

from loveletter.cli.failures import fail
from loveletter.cli.game_file import check_at, load_events, seq_at
from loveletter.cli.options import FILE, UI, _, command, game_option, lang_option
from loveletter.cli.progress import GameProgress
from loveletter.cli.text import Integer
from loveletter.core.lang import BilingualError, Lang, Text, os_error


@command(
    help=_(
        "Replay a log or a transcript through the rules: exit 0 verified, 1 violation, 2 unreadable.",
        "Rejouer un journal ou une transcription selon les règles : code 0 vérifié, 1 infraction, 2 illisible.",
    )
)
@FILE
@click.option("--json", "as_json", is_flag=True, help=_("print the report as JSON", "afficher le rapport en JSON"))
@click.option(
    "--lenient",
    is_flag=True,
    help=_("report every problem, not just the first", "signaler chaque problème, pas seulement le premier"),
)
@click.option(
    "--emit-log",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    metavar="FILE",
    help=_("write the event log a transcript expands to", "écrire le journal d'événements que donne une transcription"),
)
@lang_option
def replay(file: Path, as_json: bool, lenient: bool, emit_log: Path | None, lang: Lang) -> None:
    from loveletter.replays.report import expanded_log, render_json, render_text, replay_file

    report = replay_file(str(file), lenient=lenient)
    print(render_json(report, lang) if as_json else render_text(report, lang))
    if emit_log is not None and report.expanded:
        try:
            emit_log.write_bytes(expanded_log(report))
        except OSError as exc:
            reason = os_error(exc)
            fail(f"cannot write {emit_log}: {reason.en}", f"impossible d'écrire {emit_log} : {reason.fr}")
    sys.exit(report.exit_code)


@command(
    help=_(
        "Tell a game as a story (--pov: as one seat lived it; --all: every hidden card, once the game is over), "
        "or (with --at/--seat) what a seat knew at a point.",
        "Raconter une partie (--pov : telle qu'un siège l'a vécue ; --all : toutes les cartes cachées, une fois la "
        "partie terminée), ou (avec --at/--seat) ce qu'un siège savait à un moment donné.",
    )
)
@FILE
@click.option(
    "--at",
    default=None,
    metavar="WHEN",
    help=_(
        "show the state after this event number, or at this turn ('round 2, Bob's third turn')",
        "montrer l'état après cet événement (numéro), ou à ce tour (« manche 2, troisième tour de Bob »)",
    ),
)
@click.option(
    "--seat",
    default=None,
    metavar="SEAT",
    help=_("whose view (a name or seat number)", "le point de vue de qui (un nom ou un numéro de siège)"),
)
@click.option(
    "--pov",
    default=None,
    metavar="SEAT",
    help=_(
        "tell the story as this seat lived it (a name or seat number)",
        "raconter la partie telle que ce siège l'a vécue (un nom ou un numéro de siège)",
    ),
)
@click.option(
    "--all",
    "everything",
    is_flag=True,
    help=_(
        "tell the story with every hidden card (only once the game is over)",
        "raconter la partie avec toutes les cartes cachées (seulement une fois la partie terminée)",
    ),
)
@game_option
@lang_option
def show(
    file: Path, at: str | None, seat: str | None, pov: str | None, everything: bool, game: int | None, lang: Lang
) -> None:
    from loveletter.replays.narrative import narrate
    from loveletter.replays.players import seat_names
    from loveletter.replays.pov import narrate_pov
    from loveletter.replays.replay import check
    from loveletter.replays.rulings import seat_view_at

    events = load_events(file, game)
    players = list(seat_names(events))
    point = None if at is None else seq_at(at, events)
    if pov is not None or everything or (point is None and seat is None):
        if point is not None:
            check_at(point, events)
            events = events[:point]
        result = check(events, lenient=True)
        flagged = [p.seq for p in result.problems if p.seq is not None]
        plain = [e.event if hasattr(e, "event") else e for e in events]
        if everything:
            if not result.state.over:
                fail(
                    "--all tells every hidden card: only once the game is over, and this one is not",
                    "--all dévoile toutes les cartes cachées : seulement une fois la partie terminée, et elle ne "
                    "l'est pas",
                )
            story = narrate(plain, lang, flagged, omniscient=True)
        elif pov is not None:
            story = narrate_pov(plain, _seat_of(pov, players, "--pov"), lang, flagged)
        else:
            story = narrate(plain, lang, flagged)
        for line in story:
            print(line)
        sys.exit(0 if result.ok else 1)
    point = len(events) if point is None else point
    check_at(point, events)
    who = None if seat is None else _seat_of(seat, players, "--seat")
    print(orjson.dumps(seat_view_at(events, point, who), option=orjson.OPT_INDENT_2).decode())


def _seat_of(value: str, players: list[str], option: str) -> int:
    """A seat given on the command line, by name or number (one-line error otherwise)."""
    if value.isascii() and value.isdigit() and int(value) < len(players):
        return int(value)
    if value in players:
        return players.index(value)
    listed = ", ".join(players)
    fail(f"{option} {value!r} is not a player ({listed})", f"{option} « {value} » n'est pas un joueur ({listed})")


@command(
    help=_(
        "Audit logs: sequence, hash chain, signature, seed commitment, every deck and every move. "
        "Exit 0 all valid, 1 a problem found, 2 unreadable.",
        "Auditer des journaux : ordre, chaîne de hachage, signature, engagement de graine, chaque paquet "
        "et chaque coup. Code 0 tout est valide, 1 un problème trouvé, 2 illisible.",
    )
)
@click.argument("files", type=click.Path(path_type=Path), nargs=-1, required=True, metavar="FILE...")
@click.option("--json", "as_json", is_flag=True, help=_("print the report as JSON", "afficher le rapport en JSON"))
@click.option(
    "--strict/--lenient",
    default=True,
    show_default=True,
    help=_(
        "stop each game at its first problem, or report them all",
        "arrêter chaque partie à son premier problème, ou les signaler tous",
    ),
)
@click.option(
    "--key",
    default=None,
    metavar="KEY",
    help=_(
        "the referee's public key (64 hex digits, or a file holding them)",
        "la clé publique de l'arbitre (64 chiffres hexadécimaux, ou un fichier qui les contient)",
    ),
)
@click.option(
    "--require-signature",
    is_flag=True,
    help=_(
        "an unsigned game is a problem, not a note", "une partie non signée est un problème, pas une simple remarque"
    ),
)
@click.option(
    "--jobs",
    type=Integer(UI, 1),
    default=None,
    help=_("worker processes (default: every core)", "processus de travail (par défaut : un par cœur)"),
)
@click.option(
    "--per-game",
    is_flag=True,
    help=_(
        "after the summary, a verdict for every game (without it: only the invalid games' problems)",
        "après le bilan, un verdict pour chaque partie (sans elle : seulement les problèmes des parties invalides)",
    ),
)
@click.option(
    "--progress/--no-progress",
    default=None,
    help=_(
        "show the progress in games on stderr (default: only on a terminal)",
        "afficher l'avancement en parties sur la sortie d'erreur (par défaut : seulement dans un terminal)",
    ),
)
@lang_option
def audit(
    files: tuple[Path, ...],
    as_json: bool,
    strict: bool,
    key: str | None,
    require_signature: bool,
    jobs: int | None,
    per_game: bool,
    progress: bool | None,
    lang: Lang,
) -> None:
    from loveletter.replays.audit import Options, UnreadableLog, default_jobs, normalise_key, stream_file
    from loveletter.replays.audit_report import Listing
    from loveletter.replays.report import cannot_read

    pinned = None
    if key is not None:
        text = key
        if not _is_hex_key(key):
            try:
                text = Path(key).read_text().strip()
            except OSError as exc:
                reason = os_error(exc)
                fail(
                    f"--key is neither 64 hex digits nor a readable file: {reason.en}",
                    f"--key n'est ni 64 chiffres hexadécimaux ni un fichier lisible : {reason.fr}",
                )
        try:
            pinned = normalise_key(text)
        except ValueError as exc:
            message = exc.message(lang) if isinstance(exc, BilingualError) else str(exc)
            fail(f"--key: {exc}", f"--key : {message}")
    workers = default_jobs() if jobs is None else jobs
    options = Options(lenient=not strict, key=pinned, require_signature=require_signature)
    err = Console(stderr=True)
    shown = err.is_terminal if progress is None else progress
    listings = []
    with GameProgress(err, lang, shown) as bar:
        for file in files:
            listing = Listing(str(file), lang, as_json=as_json, every=per_game)
            bar.start(file.name)
            try:
                for games in stream_file(str(file), options, workers, bar.update):
                    listing.add(games)
            except OSError as exc:
                listing.failure = cannot_read(str(file), exc)
            except UnreadableLog as exc:
                listing.failure, listing.error_line = exc.text, exc.line
            bar.stop()
            if as_json:
                listings.append(listing)
                continue
            listing.write(sys.stdout)
            if listing.failure is not None:
                said = Text(f"error: {listing.path}: ", f"erreur : {listing.path} : ")(lang)
                print(said + listing.failure(lang), file=sys.stderr)
            listings.append(listing)
    if as_json:
        if len(listings) > 1:
            sys.stdout.write('{"files": [\n')
        for i, listing in enumerate(listings):
            if i:
                sys.stdout.write(",\n")
            listing.write(sys.stdout)
        sys.stdout.write("\n]}\n" if len(listings) > 1 else "\n")
    sys.exit(max(listing.exit_code for listing in listings))


def _is_hex_key(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdefABCDEF" for c in text)
