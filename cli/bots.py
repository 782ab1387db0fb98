"""`loveletter bot run`: one seat played at a referee over HTTP by a bot of the user's own (`MODULE:NAME` or
`path/to/bot.py:NAME`) or a built-in one, through the same client and harness (`client`, `play.harness`) any
outside program would use."""

from __future__ import annotations

import sys
import time
from contextlib import nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import click
import httpx
import orjson
from rich.console import Console

from loveletter.cli.bot_names import BUILT_IN_BOTS
from loveletter.cli.failures import Failure, fail, fail_with
from loveletter.cli.options import UI, Group, _, lang_option
from loveletter.cli.text import Integer, OneOf
from loveletter.core.lang import BilingualError, Lang, Text
from loveletter.core.rulesets import RULESETS

if TYPE_CHECKING:
    from loveletter.client import Client, Joined, LobbyGame


@click.group(
    cls=Group, help=_("Bots that play at a referee over HTTP.", "Des robots qui jouent chez un arbitre, par HTTP.")
)
@click.option(
    "--lang",
    type=OneOf(UI, ("en", "fr")),
    default=UI,
    show_default=True,
    expose_value=False,
    help=_(
        "language of messages, for every bot command (default: LOVELETTER_LANG, then the locale)",
        "langue des messages, pour toutes les commandes de robot (par défaut : LOVELETTER_LANG, puis la locale)",
    ),
)
def bot() -> None:
    """The group takes `--lang` as every command does (`loveletter bot --lang fr run …`); the language itself is read
    from the command line before click parses it (`cli.options.UI`), so nothing is passed on here."""


@bot.command(
    "run",
    help=_(
        "Play one seat with the bot BOT — MODULE:NAME, path/to/bot.py:NAME (a function or class given the seat's "
        f"game, answering one of its legal moves) or a built-in ({BUILT_IN_BOTS}) — until the game ends: a game by "
        "its invite, or the first open public seat of the lobby.",
        "Jouer un siège avec le robot BOT — MODULE:NOM, chemin/du/robot.py:NOM (une fonction ou une classe qui "
        f"reçoit la partie du siège et répond l'un de ses coups légaux) ou un robot intégré ({BUILT_IN_BOTS}) — "
        "jusqu'à la fin de la partie : une partie par son invitation, ou le premier siège ouvert d'une partie "
        "publique du salon.",
    ),
)
@click.argument("spec", metavar="BOT")
@click.option("--server", default="http://127.0.0.1:8000", show_default=True, help=_("the referee", "l'arbitre"))
@click.option("--game", "game_id", default=None, metavar="ID", help=_("the game to join", "la partie à rejoindre"))
@click.option("--invite", default=None, metavar="CODE", help=_("its invite", "son invitation"))
@click.option(
    "--join-open", is_flag=True, help=_("take the lobby's first open seat", "prendre le premier siège ouvert du salon")
)
@click.option(
    "--wait",
    is_flag=True,
    help=_(
        "with --join-open, wait for a public game with an open seat instead of stopping when there is none (a "
        "progress line on stderr; Ctrl-C stops)",
        "avec --join-open, attendre une partie publique avec un siège ouvert au lieu de s'arrêter s'il n'y en a "
        "aucune (une ligne d'avancement sur la sortie d'erreur ; Ctrl-C arrête)",
    ),
)
@click.option(
    "--ruleset",
    type=OneOf(UI, tuple(RULESETS)),
    default=None,
    help=_("with --join-open, only a game of this ruleset", "avec --join-open, seulement une partie de ces règles"),
)
@click.option(
    "--players",
    type=Integer(UI, 2),
    default=None,
    help=_(
        "with --join-open, only a game of this many seats", "avec --join-open, seulement une partie de tant de sièges"
    ),
)
@click.option("--name", default="bot", show_default=True, help=_("the seat's name", "le nom du siège"))
@click.option(
    "--seed",
    type=Integer(UI),
    default=None,
    help=_(
        f"seed of a built-in bot's random choices ({BUILT_IN_BOTS})",
        f"graine des choix au hasard d'un robot intégré ({BUILT_IN_BOTS})",
    ),
)
@click.option(
    "--jsonl",
    is_flag=True,
    help=_(
        "print a JSON line for each refused move and for a crash; a refused move is then left to the game's clock "
        "instead of stopping the bot (as loveletter tournament runs its bots)",
        "écrire une ligne JSON par coup refusé et si le robot échoue ; un coup refusé est alors laissé à la "
        "pendule de la partie au lieu d'arrêter le robot (ainsi loveletter tournament lance ses robots)",
    ),
)
@click.option(
    "--account-key",
    envvar="LOVELETTER_ACCOUNT_KEY",
    default=None,
    metavar="KEY",
    help=_(
        "with --stay, the bot account's key (or LOVELETTER_ACCOUNT_KEY)",
        "avec --stay, la clé du compte du robot (ou LOVELETTER_ACCOUNT_KEY)",
    ),
)
@click.option(
    "--stay",
    is_flag=True,
    help=_(
        "stay online: answer the account's challenges, take the games made for it, play them; Ctrl-C stops",
        "rester en ligne : répondre aux défis du compte, prendre ses parties, les jouer ; Ctrl-C arrête",
    ),
)
@click.option(
    "--seek",
    is_flag=True,
    help=_("with --stay, seek games when there is room", "avec --stay, chercher des parties quand il y a de la place"),
)
@click.option(
    "--rated/--unrated",
    "rated",
    default=None,
    help=_(
        "with --stay, the games sought and the challenges accepted (default: seek unrated, accept both)",
        "avec --stay, les parties cherchées et les défis acceptés (défaut : chercher non classées, accepter les deux)",
    ),
)
@click.option(
    "--at-once",
    type=Integer(UI, 1),
    default=1,
    show_default=True,
    help=_("with --stay, games played at once", "avec --stay, parties jouées à la fois"),
)
@click.option(
    "--games",
    "game_count",
    type=Integer(UI, 1),
    default=None,
    help=_("with --stay, stop after this many games", "avec --stay, s'arrêter après tant de parties"),
)
@click.option(
    "--on-stop",
    type=OneOf(UI, ("finish", "resign")),
    default="finish",
    show_default=True,
    help=_(
        "with --stay, on Ctrl-C: finish the games under way or resign them",
        "avec --stay, sur Ctrl-C : finir les parties en cours ou les abandonner",
    ),
)
@click.option(
    "--state",
    "state_file",
    default=None,
    metavar="FILE",
    help=_(
        "with --stay, where the bot keeps its games and place in the stream across restarts (default: "
        ".loveletter-bot-HASH.json in the working directory, HASH the first 12 hex digits of the key's SHA-256)",
        "avec --stay, où le robot garde ses parties et sa place dans le flux d'un redémarrage à l'autre (défaut : "
        ".loveletter-bot-EMPREINTE.json dans le dossier courant, EMPREINTE les 12 premiers chiffres hexadécimaux du "
        "SHA-256 de la clé)",
    ),
)
@lang_option
def bot_run(
    spec: str,
    server: str,
    game_id: str | None,
    invite: str | None,
    join_open: bool,
    wait: bool,
    ruleset: str | None,
    players: int | None,
    name: str,
    seed: int | None,
    jsonl: bool,
    account_key: str | None,
    stay: bool,
    seek: bool,
    rated: bool | None,
    at_once: int,
    game_count: int | None,
    on_stop: str,
    state_file: str | None,
    lang: Lang,
) -> None:
    from loveletter.client import Client, RefereeError
    from loveletter.play.harness import load, play

    try:
        player = load(spec, seed)
    except (ImportError, AttributeError, ValueError, SyntaxError) as exc:
        fail(
            f"cannot load the bot {spec}: {exc}",
            f"impossible de charger le robot {spec} : module, fichier ou nom introuvable, ou écrit autrement que "
            "MODULE:NOM ou chemin/du/robot.py:NOM",
        )
    if stay:
        if account_key is None or game_id is not None or join_open:
            fail("--stay needs --account-key, and no --game nor --join-open",
                 "--stay demande --account-key, et ni --game ni --join-open")  # fmt: skip
        from loveletter.play.online import Settings

        wanted = Settings(
            rulesets=None if ruleset is None else frozenset({ruleset}),
            players=None if players is None else frozenset({players}), rated=rated, at_once=at_once, seek=seek,
            seek_ruleset=ruleset or "2019", seek_players=players or 2, seek_rated=bool(rated), games=game_count,
            on_stop="resign" if on_stop == "resign" else "finish",
        )  # fmt: skip
        _stay(server, account_key or "", player, wanted, state_file, lang)
        return
    if (game_id is None) == (not join_open):
        fail("give --game ID (with --invite) or --join-open", "donnez --game ID (avec --invite) ou --join-open")
    if not join_open and (wait or ruleset is not None or players is not None):
        fail(
            "--wait, --ruleset and --players choose a lobby game: they go with --join-open",
            "--wait, --ruleset et --players choisissent une partie du salon : ils vont avec --join-open",
        )

    def said(item: dict[str, Any]) -> None:
        print(orjson.dumps(item).decode(), flush=True)

    def refused(refusal: RefereeError) -> None:
        said({"refused": refusal.code, "rule_id": refusal.rule_id, "status": refusal.status})

    with Client(server, language=lang) as anyone:
        try:
            if join_open:
                game_id, joined = _join_open(anyone, name, Wanted(ruleset, players), wait, lang)
            else:
                assert game_id is not None
                joined = anyone.join(game_id, name, invite=invite)
            final = play(anyone.seat(joined.token), game_id, player, on_refused=refused if jsonl else None)
        except RefereeError as exc:
            fail_with(BilingualError(Text(f"the referee refused: {exc}", f"l'arbitre a refusé : {exc}")))
        except httpx.TransportError as exc:
            fail(f"cannot reach {server}: {exc}", f"impossible de joindre {server} (est-il démarré ?)")
        except Failure:
            raise
        except Exception as exc:  # the bot's own code failed: say so, and where
            import traceback

            traceback.print_exc()
            if jsonl:
                said({"crashed": f"{type(exc).__name__}: {exc}"})
            fail(
                f"the bot {spec} failed: {type(exc).__name__}: {exc}",
                f"le robot {spec} a échoué : {type(exc).__name__} : {exc}",
            )
    winners = ", ".join(final.players[w] for w in final.view.winners) or "—"
    print(
        f"{name} (siège {joined.seat}) : partie {game_id} terminée, gagnants : {winners}"
        if lang == "fr"
        else f"{name} (seat {joined.seat}): game {game_id} over, winners: {winners}"
    )


def _stay(server: str, key: str, player: Any, wanted: Any, state_file: str | None, lang: Lang) -> None:
    """Keep the bot online (`play.online.Staying`) until Ctrl-C or its count of games."""
    import hashlib
    from pathlib import Path

    from loveletter.client import Client, RefereeError
    from loveletter.play.online import Staying

    default = f".loveletter-bot-{hashlib.sha256(key.encode()).hexdigest()[:12]}.json"  # no key in a file name
    _stop_on_signals()
    with Client(server, language=lang) as c:
        try:
            say = lambda line: print(line, flush=True)  # noqa: E731 - one line: each as soon as it is said
            Staying(c, key, player, wanted, Path(state_file or default), say, lang).run()
        except RefereeError as exc:  # a refusal, not an absence (those are waited for): nothing to wait for
            if exc.code == "account_key_rejected":
                fail(
                    f"{server} refused the account key ({exc.status} {exc.code}): give the key the account was "
                    "made with, or its latest rotation (--account-key or LOVELETTER_ACCOUNT_KEY)",
                    f"{server} a refusé la clé du compte ({exc.status} {exc.code}) : donnez la clé reçue à la "
                    "création du compte, ou la dernière reçue (--account-key ou LOVELETTER_ACCOUNT_KEY)",
                )
            fail_with(BilingualError(Text(f"the referee refused: {exc}", f"l'arbitre a refusé : {exc}")))


def _ctrl_c_stops() -> None:
    """A shell ignores SIGINT in the jobs it starts in the background, and Python then leaves it ignored: Ctrl-C (or
    `kill -INT`) would not stop the bot. Python's own handler makes it a KeyboardInterrupt again."""
    import signal

    signal.signal(signal.SIGINT, signal.default_int_handler)


def _stop_on_signals() -> None:
    """Ctrl-C (SIGINT) and SIGTERM both stop a staying bot as `--on-stop` says. A service manager stops with SIGTERM:
    without this, it would end the bot without finishing or resigning its games."""
    import signal

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    _ctrl_c_stops()
    signal.signal(signal.SIGTERM, interrupt)


POLL_SECONDS = 0.5
"""How often a waiting bot asks the lobby again."""
PROGRESS_SECONDS = 5.0
"""How often the progress line is said again on stderr, off a terminal."""


@dataclass(frozen=True, slots=True)
class Wanted:
    """Which lobby games a bot may join: of this ruleset, of this many seats (None: any)."""

    ruleset: str | None
    players: int | None

    def fits(self, game: LobbyGame) -> bool:
        return (self.ruleset is None or game.ruleset == self.ruleset) and (
            self.players is None or len(game.seats) == self.players
        )

    def words(self) -> Text:
        """The filters, said after the game looked for: " (ruleset 2012, 3 players)" (empty without filters)."""
        en, fr = [], []
        if self.ruleset is not None:
            en.append(f"ruleset {self.ruleset}")
            fr.append(f"règles {self.ruleset}")
        if self.players is not None:
            en.append(f"{self.players} players")
            fr.append(f"{self.players} joueurs")
        return Text(f" ({', '.join(en)})" if en else "", f" ({', '.join(fr)})" if fr else "")


def _join_open(anyone: Client, name: str, wanted: Wanted, wait: bool, lang: Lang) -> tuple[str, Joined]:
    """Take the first open seat of a public game that fits `wanted`. Without `wait`, none is a one-line error;
    with it, the lobby is asked again until one opens, saying so on stderr (a rich status on a terminal, a line
    every few seconds elsewhere), and a seat taken by someone else meanwhile is waited past. Ctrl-C stops (130)."""
    from loveletter.client import RefereeError

    looked_for = wanted.words()
    if not wait:
        found = next((g.game_id for g in anyone.lobby(status="open", ruleset=wanted.ruleset) if wanted.fits(g)), None)
        if found is None:  # told like the referee's refusals, in the user's language (tests/test_bot_wait.py)
            fail_with(
                BilingualError(
                    Text(
                        f"no public game has an open seat{looked_for.en}; --wait waits for one",
                        f"aucune partie publique n'a de siège ouvert{looked_for.fr} ; --wait en attend une",
                    )
                )
            )
        return found, anyone.join(found, name)
    _ctrl_c_stops()
    err = Console(stderr=True)
    status = err.status("") if err.is_terminal else nullcontext(None)
    start, said, refused = time.monotonic(), -PROGRESS_SECONDS, set()
    try:
        with status as shown:
            while True:
                for game in anyone.lobby(status="open", ruleset=wanted.ruleset):
                    if game.game_id in refused or not wanted.fits(game):
                        continue
                    try:
                        return game.game_id, anyone.join(game.game_id, name)
                    except RefereeError:  # taken meanwhile, or this name is already at that table: look further
                        refused.add(game.game_id)
                waited = time.monotonic() - start
                line = Text(
                    f"waiting for a public game with an open seat{looked_for.en}… {waited:.0f} s (Ctrl-C stops)",
                    f"en attente d'une partie publique avec un siège ouvert{looked_for.fr}… {waited:.0f} s (Ctrl-C "
                    "arrête)",
                )(lang)
                if shown is not None:
                    shown.update(line)
                elif waited - said >= PROGRESS_SECONDS:
                    print(line, file=sys.stderr, flush=True)
                    said = waited
                time.sleep(POLL_SECONDS)
    except KeyboardInterrupt:
        print(
            Text("stopped waiting: no game joined", "attente arrêtée : aucune partie rejointe")(lang), file=sys.stderr
        )
        sys.exit(130)
