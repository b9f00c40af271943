"""The garbage collector of a studio process, set for many connections held for hours.

Each connected player holds a few hundred objects for as long as it stays (its socket, its
tasks, its outbox): 10,000 players are well over a million objects that the collector's full
passes walk every time, finding nothing to free. With CPython's defaults (a young pass every 700
allocations) the objects of a bet batch, which live a few milliseconds, were carried into the old
generation, and a full pass came every few thousand bets: at 5,000 players four passes in two
rounds, 0.5 to 1.4 s each with the event loop stopped (every accept and push waiting), and at
10,000 players twice as many objects each time, more often.

So: the young generation is collected every ``YOUNG`` allocations instead, when what a batch or a
push made is mostly gone already (freed by its reference count), and far less reaches the old
generation; the middle one is collected every ``MIDDLE`` young passes, to keep it small. What the
process made to start (its modules, its configuration, its pool) is frozen: never walked again.
What it makes once serving is collected as before in every generation, only less often.
"""

from __future__ import annotations

import gc

#: allocations (less frees) between young passes; CPython's default is 700
YOUNG = 100_000
#: young passes between middle passes (default 10); full passes follow CPython's own rule (the
#: old generation grown by a quarter since the last)
MIDDLE = 2
FULL = 10


def tune_collector() -> None:
    """Call once the process started (before the players come): what exists now is frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, FULL)
