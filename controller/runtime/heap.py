"""The objects a table's start leaves, kept out of the garbage collector's full passes.

A full collection walks every object the collector tracks: after a start (the modules, the
config, the replayed state, the console's app) some 100 000 of them, a 45-75 ms stall of the
event loop each time one comes, and a card read meanwhile waits as long to be journaled and
shown (bench/console_latency.py). ``gc.freeze`` moves what the start left into a generation the
collector no longer walks; the garbage among it is collected first. Objects made later are
collected as before. A stopped table unfreezes (a test process, the demo's many tables, goes on).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def frozen_heap() -> Iterator[None]:
    """Collect, then freeze what is left; unfreeze on exit."""
    gc.collect()
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
