"""`loveletter bot run`: one seat played at a referee over HTTP by a bot of the user's own (`MODULE:NAME` or
`path/to/bot.py:NAME`) or a built-in one, through the same client and harness (`client`, `play.harness`) any
outside program would use."""

from __future__ import annotations

from typing import Any

import click
import httpx
import orjson

from loveletter.cli.failures import Failure, fail, fail_with
from loveletter.cli.options import UI, Group, _, lang_option
from loveletter.cli.text import Integer
from loveletter.core.lang import BilingualError, Lang, Text


@click.group(
    cls=Group, help=_("Bots that play at a referee over HTTP.", "Des robots qui jouent chez un arbitre, par HTTP.")
)
def bot() -> None:
    pass


@bot.command(
    "run",
    help=_(
        "Play one seat with the bot BOT — MODULE:NAME, path/to/bot.py:NAME (a function or class given the seat's "
        "game, answering one of its legal moves) or a built-in (heuristic, random) — until the game ends: a game by "
        "its invite, or the first open public seat of the lobby.",
        "Jouer un siège avec le robot BOT — MODULE:NOM, chemin/du/robot.py:NOM (une fonction ou une classe qui "
        "reçoit la partie du siège et répond l'un de ses coups légaux) ou un robot intégré (heuristic, random) — "
        "jusqu'à la fin de la partie : une partie par son invitation, ou le premier siège ouvert d'une partie "
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
@click.option("--name", default="bot", show_default=True, help=_("the seat's name", "le nom du siège"))
@click.option(
    "--seed",
    type=Integer(UI),
    default=None,
    help=_(
        "seed of a built-in bot's random choices (heuristic, random)",
        "graine des choix au hasard d'un robot intégré (heuristic, random)",
    ),
)
@click.option(
    "--jsonl",
    is_flag=True,
    help=_(
        "print a JSON line for each refused move and for a crash; a refused move is then left to the game's clock "
        "instead of stopping the bot (as loveletter tournament runs its bots)",
        "écrire une ligne JSON par coup refusé et si le robot échoue ; un coup refusé est alors laissé à la "
        "pendule de la partie au lieu d'arrêter le robot (ainsi loveletter tournament lance ses robots)",
    ),
)
@lang_option
def bot_run(
    spec: str,
    server: str,
    game_id: str | None,
    invite: str | None,
    join_open: bool,
    name: str,
    seed: int | None,
    jsonl: bool,
    lang: Lang,
) -> None:
    from loveletter.client import Client, RefereeError
    from loveletter.play.harness import load, play

    try:
        player = load(spec, seed)
    except (ImportError, AttributeError, ValueError, SyntaxError) as exc:
        fail(
            f"cannot load the bot {spec}: {exc}",
            f"impossible de charger le robot {spec} : module, fichier ou nom introuvable, ou écrit autrement que "
            "MODULE:NOM ou chemin/du/robot.py:NOM",
        )
    if (game_id is None) == (not join_open):
        fail("give --game ID (with --invite) or --join-open", "donnez --game ID (avec --invite) ou --join-open")

    def said(item: dict[str, Any]) -> None:
        print(orjson.dumps(item).decode(), flush=True)

    def refused(refusal: RefereeError) -> None:
        said({"refused": refusal.code, "rule_id": refusal.rule_id, "status": refusal.status})

    with Client(server, language=lang) as anyone:
        try:
            if join_open:
                game_id = next((g.game_id for g in anyone.lobby(status="open")), None)
                if game_id is None:  # told by the referee's answer, as a refusal is (tests/test_bot_harness.py)
                    fail_with(
                        BilingualError(
                            Text("no public game has an open seat", "aucune partie publique n'a de siège ouvert")
                        )
                    )
            assert game_id is not None
            joined = anyone.join(game_id, name, invite=invite)
            final = play(anyone.seat(joined.token), game_id, player, on_refused=refused if jsonl else None)
        except RefereeError as exc:
            fail_with(BilingualError(Text(f"the referee refused: {exc}", f"l'arbitre a refusé : {exc}")))
        except httpx.TransportError as exc:
            fail(f"cannot reach {server}: {exc}", f"impossible de joindre {server} (est-il démarré ?)")
        except Failure:
            raise
        except Exception as exc:  # the bot's own code failed: say so, and where
            import traceback

            traceback.print_exc()
            if jsonl:
                said({"crashed": f"{type(exc).__name__}: {exc}"})
            fail(
                f"the bot {spec} failed: {type(exc).__name__}: {exc}",
                f"le robot {spec} a échoué : {type(exc).__name__} : {exc}",
            )
    winners = ", ".join(final.players[w] for w in final.view.winners) or "—"
    print(
        f"{name} (siège {joined.seat}) : partie {game_id} terminée, gagnants : {winners}"
        if lang == "fr"
        else f"{name} (seat {joined.seat}): game {game_id} over, winners: {winners}"
    )
