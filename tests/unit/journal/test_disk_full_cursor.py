"""A reader's cursor on a full disk: ``JournalFull``, which the feed retries quietly, not an OperationalError."""

from pathlib import Path

import pytest

from controller.journal import Journal, JournalFull


def test_saving_a_cursor_on_a_full_disk_raises_journal_full(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.journal")
    journal.set_cursor("pit-feed", 1, {"rounds": list(range(10))})
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(JournalFull, match="cursor pit-feed not saved"):
        journal.set_cursor("pit-feed", 2, {"rounds": ["x" * 4000] * 10})
    assert journal.cursor("pit-feed") == 1  # the old cursor stands
    journal.close()
