"""Love Letter Referee, in eleven rooms, each a folder at the top of the repository that this package links in, so
that installed they are `loveletter.<room>` and nothing else lands in site-packages (docs/architecture.md draws
them and the directions of their imports):

- `core`: the pure rules (cards, rulesets, rules, events, decide/evolve, views); no I/O.
- `events`: the written record: the JSON codec, the game log, its signatures, the event stores.
- `replays`: recorded games judged and told again: replay, audit, transcripts, rulings, narratives.
- `play`: bots, the bot harness, simulations, tournaments and ratings.
- `referee`: the one authority between players and the store; no HTTP.
- `api`: the HTTP routes, problems, limits and the OpenAPI document.
- `web`: the web pages, with their templates, assets and words.
- `server`: the app built from the referee, the API and the pages, and its runner.
- `cli`: the `loveletter` command line.
- `client`: the typed Python client of the HTTP API.
- `env`: the PettingZoo environment.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    """`__version__`, read from the installed package's metadata when first asked (reading it costs a start-up)."""
    if name != "__version__":
        raise AttributeError(f"module 'loveletter' has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("loveletter-referee")
    except PackageNotFoundError:  # run from a checkout that was never installed
        found = "0+unknown"
    globals()["__version__"] = found
    return found
