"""The studio process's collector settings (controller/studio/cli.py ``COLLECTOR``, controller/heap.py)."""

from __future__ import annotations

import gc
from typing import Any

from controller.heap import freeze_start
from controller.studio.cli import COLLECTOR


def test_what_a_batch_holds_for_a_moment_reaches_no_collection_and_the_start_is_not_walked() -> None:
    """A batch of 500 requests holds some 20,000 objects for a few milliseconds: with CPython's
    defaults 28 young passes ran meanwhile and carried them to the old generation, whose full
    passes walk the whole heap; tuned, none runs, and what existed at the start is frozen."""
    before = gc.get_threshold()
    passes: list[int] = []

    def seen(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    try:
        freeze_start(COLLECTOR)
        assert gc.get_freeze_count() > 0
        gc.callbacks.append(seen)
        held = [[n] for n in range(COLLECTOR[0] // 5)]  # a batch's requests, answers and rows, held at once
        assert passes == []
        del held
    finally:
        if seen in gc.callbacks:
            gc.callbacks.remove(seen)
        gc.unfreeze()
        gc.set_threshold(*before)
