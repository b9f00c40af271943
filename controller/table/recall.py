"""Recall: closed rounds straight from the journal, as PROTOCOLS.md §4 round records.

Reads only ``round_closed`` entries, so it works while the table is running (WAL readers do
not block the writer) or held in an error state. A round closed again later (a correction)
is shown as its latest record.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from controller.journal import Journal
from controller.table.inputs import ROUND_CLOSED


def round_records(journal_path: str | Path) -> list[dict[str, Any]]:
    """Every closed round in the order it was first closed, each as its latest record."""
    if not Path(journal_path).exists():
        return []
    by_round: dict[str, dict[str, Any]] = {}
    with Journal(journal_path) as journal:
        for entry in journal.entries():
            if entry.kind == ROUND_CLOSED:
                by_round[str(entry.payload["round"])] = entry.payload
    return list(by_round.values())


def recall(journal_path: str | Path, *, last: int | None = 10, round_id: str | None = None) -> list[dict[str, Any]]:
    """``round_id``: that round only; else the ``last`` rounds (None: all), oldest first."""
    records = round_records(journal_path)
    if round_id is not None:
        return [r for r in records if r["round"] == round_id]
    return records if last is None else records[-last:] if last > 0 else []
