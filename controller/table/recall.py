"""Recall: closed rounds straight from the journal, as the round records of docs/protocols.md.

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


def last_records(journal_path: str | Path, last: int) -> list[dict[str, Any]]:
    """The ``last`` rounds first closed most recently, oldest first, each as its latest record:
    read newest first through the journal's kind index, so the cost is those rounds' records,
    not the journal. A round's first record is the one without corrections."""
    if last <= 0 or not Path(journal_path).exists():
        return []
    latest: dict[str, dict[str, Any]] = {}
    first_closed: dict[str, int] = {}
    with Journal(journal_path) as journal:
        for entry in journal.latest(ROUND_CLOSED):
            rid = str(entry.payload["round"])
            latest.setdefault(rid, entry.payload)
            if not entry.payload.get("corrections"):
                first_closed[rid] = entry.seq
                if len(first_closed) == last:
                    break
    return [latest[rid] for rid in sorted(first_closed, key=first_closed.__getitem__)]


def one_record(journal_path: str | Path, round_id: str) -> list[dict[str, Any]]:
    """That round's latest record (through the journal's round index), or nothing."""
    if not Path(journal_path).exists():
        return []
    with Journal(journal_path) as journal:
        records = [e.payload for e in journal.entries(round_id=round_id) if e.kind == ROUND_CLOSED]
    return records[-1:]


def recall(journal_path: str | Path, *, last: int | None = 10, round_id: str | None = None) -> list[dict[str, Any]]:
    """``round_id``: that round only; else the ``last`` rounds (None: all), oldest first."""
    if round_id is not None:
        return one_record(journal_path, round_id)
    if last is not None:
        return last_records(journal_path, last)
    return round_records(journal_path)
