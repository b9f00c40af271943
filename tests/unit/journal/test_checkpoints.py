"""The table's writer leaves the WAL's checkpoints to a thread of its own
(controller/journal_checkpoint.py): no row's commit copies pages back into the database file,
the thread does once rows were written, and every row stays where a reader finds it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from controller.journal import Journal, connect
from controller.journal_checkpoint import Checkpointer
from controller.verify import verify_file

#: rows between checkpoints here (fewer than the table's, for a short test)
EVERY = 100


def _rows(journal: Journal, n: int) -> None:
    for i in range(n):
        journal.append("device", {"type": "card", "card": "QH", "n": i}, source="shoe", round_id="T1-000001")


def _wal_frames(path: Path) -> tuple[int, int]:
    """(frames in the WAL, frames of it already copied into the database)."""
    with sqlite3.connect(path) as db:
        _, frames, copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return frames, copied


def test_no_commit_of_the_writer_checkpoints(tmp_path: Path) -> None:
    """Past SQLite's 1000 pages the writer's own commits have not copied a page back."""
    path = tmp_path / "j.sqlite"
    with Journal(path, exclusive=True) as journal:
        thread = getattr(journal, "_checkpointer", None)
        if thread is not None:  # only the writer's own commits here
            thread.close()
        size = path.stat().st_size
        _rows(journal, 400)  # some 2000 pages
        assert path.stat().st_size == size
    assert verify_file(path).rows == 400


def test_the_thread_checkpoints_what_was_written(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    with Journal(path, exclusive=True) as journal:
        checkpointer = journal._checkpointer
        assert checkpointer is not None
        checkpointer.every = EVERY
        _rows(journal, EVERY)
        assert checkpointer.checkpointed.wait(10.0)
        assert path.stat().st_size > 8192  # the rows' pages are in the database file now
        frames, copied = _wal_frames(path)
        assert frames == copied
    report = verify_file(path)
    assert report.ok and report.rows == EVERY


def test_a_checkpointer_stops_at_once_when_nothing_was_due(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    connect(path).close()
    checkpointer = Checkpointer(lambda: connect(path), every=3)
    checkpointer.wrote()
    checkpointer.close()
    assert checkpointer.checkpoints == 0


def test_a_writer_that_pauses_starts_its_wal_over(tmp_path: Path) -> None:
    """Checkpointed to its end in each pause, the WAL is overwritten from its start by the next
    rows (no new space, no journal commit of the file system per sync), not grown."""
    path = tmp_path / "j.sqlite"
    wal = Path(f"{path}-wal")
    with Journal(path, exclusive=True) as journal:
        checkpointer = journal._checkpointer
        assert checkpointer is not None
        checkpointer.every = EVERY
        sizes = []
        for _ in range(4):
            checkpointer.checkpointed.clear()
            _rows(journal, EVERY)
            sizes.append(wal.stat().st_size)
            assert checkpointer.checkpointed.wait(10.0)
        assert sizes[-1] < 2 * sizes[0], sizes  # grown, it would be four times the first
    assert verify_file(path).rows == 4 * EVERY
