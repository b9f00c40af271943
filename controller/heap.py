"""The garbage collector of a long-running process: what its start made is frozen, and the
collector's thresholds are set for what the process holds.

A full collection walks every object the collector tracks, finding nothing to free among what
the start made (the modules, the config, the replayed state, the app): after a table's start some
100,000 objects, a 45-75 ms stall of the event loop each time a full pass comes, and a card read
meanwhile waits as long to be journaled and shown (bench/console_latency.py). ``gc.freeze`` moves
what the start left into a generation the collector no longer walks; the garbage among it is
collected first. Objects made later are collected as before, at the thresholds the process sets:
a studio holding 10,000 connections, or a dashboard whose floor snapshots live a few seconds, waits
longer between passes (controller/studio/cli.py, controller/pit/cli.py).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: the collector's thresholds: allocations (less frees) between young passes, young passes between
#: middle ones, middle passes between full ones (CPython's defaults are 700, 10, 10)
Thresholds = tuple[int, int, int]


def freeze_start(thresholds: Thresholds | None = None) -> None:
    """Collect, freeze what is left, and set ``thresholds`` (if given): call once started."""
    gc.collect()
    gc.freeze()
    if thresholds is not None:
        gc.set_threshold(*thresholds)


@contextmanager
def frozen_heap() -> Iterator[None]:
    """``freeze_start`` for a table that may stop in a longer-lived process (a test, the demo's
    many tables): it unfreezes on exit."""
    freeze_start()
    try:
        yield
    finally:
        gc.unfreeze()
