"""Love Letter Referee: the rules (`core`), the event log and its stores (`events`), replay and audit
(`replays`) and the HTTP referee with its command line (`api`).

The four folders live at the top of the repository; this package links them in, so that installed they are
`loveletter.core`, `loveletter.events`, `loveletter.replays` and `loveletter.api` and nothing else.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("loveletter-referee")
except PackageNotFoundError:  # run from a checkout that was never installed
    __version__ = "0+unknown"
