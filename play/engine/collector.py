"""The cyclic garbage collector, paused while the engine thinks.

A search allocates millions of short-lived objects (states, tuples, events) that hold no reference cycles: reference
counting frees each of them as soon as it is dropped. The cyclic collector still wakes every 700 allocations and, in
its older generations, walks the engine's tables of remembered situations again and again, finding nothing: 8–10% of
a two-player search's CPU and 16–18% of a four-player one (docs/performance.md, "The expert's rollouts"). It is
paused for the search and runs as usual afterwards. Nested and concurrent searches share one pause: the collector
comes back when the last of them ends, and only if it was running when the first began.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_resume = False


@contextmanager
def paused() -> Iterator[None]:
    """The cyclic collector off for the `with` block."""
    global _depth, _resume
    with _lock:
        if _depth == 0:
            _resume = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _resume:
                gc.enable()
