"""`loveletter ratings LOGS…`: the ladders recomputed from finished rated games' logs, as the referee's
`GET /ladder` serves them (docs/accounts.md). Each file is audited first (chain, signature when there is one, seeds,
decks, every move): a ladder is only as good as the games it folds, so a log with a problem stops the command."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import orjson
from rich.console import Console
from rich.table import Table

from loveletter.cli.failures import fail
from loveletter.cli.options import _, command, lang_option
from loveletter.core.lang import os_error

COLUMNS = ("#", "account", "name", "kind", "mu", "sigma", "games")


@command(
    help=_(
        "Recompute the ladders (OpenSkill ratings per ruleset and table size) from finished rated games' logs.",
        "Recalculer les classements (notes OpenSkill par jeu de règles et nombre de joueurs) à partir des journaux "
        "de parties classées terminées.",
    )
)
@click.argument("files", type=click.Path(path_type=Path), nargs=-1, required=True, metavar="LOG...")
@click.option("--ruleset", default=None, help=_("only this ruleset's ladders", "seulement ce jeu de règles"))
@click.option("--players", type=int, default=None, help=_("only this table size", "seulement ce nombre de joueurs"))
@click.option("--json", "as_json", is_flag=True, help=_("print the ladders as JSON", "afficher en JSON"))
@lang_option
def ratings(files: tuple[Path, ...], ruleset: str | None, players: int | None, as_json: bool, lang: str) -> None:
    from loveletter.events.log import read_games
    from loveletter.play.ladder import NotCounted, RatedGame, rated_game, standings
    from loveletter.replays.audit import Options, audit_bytes

    games: list[RatedGame] = []
    skipped: list[str] = []
    for path in files:
        try:
            data = path.read_bytes()
        except OSError as exc:
            reason = os_error(exc)
            fail(f"cannot read {path}: {reason.en}", f"impossible de lire {path} : {reason.fr}")
        report = audit_bytes(data, str(path), Options())
        bad = [g for g in report.games if not g.valid]
        if report.error is not None or bad:
            what = report.error or f"game {bad[0].number} ({bad[0].game_id}) does not audit"
            fail(f"{path}: {what}", f"{path} : {report.error_message('fr') or 'une partie ne passe pas l’audit'}")
        for number, game in enumerate(read_games(data.splitlines()), start=1):
            game_id = game.header.game_id or f"{path}#{number}"
            try:
                games.append(rated_game(game_id, game.events))
            except NotCounted as why:
                skipped.append(str(why))
    ladders = {
        group: ladder
        for group, ladder in standings(games).items()
        if (ruleset is None or group[0] == ruleset) and (players is None or group[1] == players)
    }
    if as_json:
        out = {
            "ladders": [
                {
                    "ruleset": r,
                    "players": n,
                    "games": sum(s.games for s in ladder) // n,
                    "ratings": [{"rank": i, **s.as_dict()} for i, s in enumerate(ladder, start=1)],
                }
                for (r, n), ladder in ladders.items()
            ],
            "skipped": skipped,
        }
        sys.stdout.write(orjson.dumps(out, option=orjson.OPT_INDENT_2).decode() + "\n")
        return
    console = Console()
    french = lang == "fr"
    columns = ("#", "compte", "nom", "genre", "mu", "sigma", "parties") if french else COLUMNS
    for (r, n), ladder in ladders.items():
        table = Table(title=f"{r}, {n} joueurs" if french else f"{r}, {n} players")
        for column in columns:
            table.add_column(column)
        for i, s in enumerate(ladder, start=1):
            table.add_row(str(i), s.account, s.name, s.kind, f"{s.mu:.3f}", f"{s.sigma:.3f}", str(s.games))
        console.print(table)
    for note in skipped:
        console.print(f"non comptée : {note}" if french else f"not counted: {note}")
