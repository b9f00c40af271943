"""A reader's cursor saved with the next row (``defer_cursor``): in that row's commit, or alone
when flushed; never lost to a row that could not be written."""

from __future__ import annotations

from pathlib import Path

import pytest

from controller.journal import Journal, JournalFull

KEY = b"k" * 32


def saved(path: Path, name: str) -> tuple[int, dict[str, object] | None]:
    """The cursor as another connection (a restart) reads it from the file."""
    with Journal(path) as reader:
        return reader.cursor_state(name)


@pytest.mark.parametrize("key", [None, KEY], ids=["unkeyed", "keyed"])
def test_a_deferred_cursor_is_saved_in_the_next_rows_commit(tmp_path: Path, key: bytes | None) -> None:
    path = tmp_path / "t.journal"
    with Journal(path, exclusive=True, key=key) as journal:
        journal.append("card", {"n": 1}, source="shoe")
        journal.defer_cursor("feed", 1)
        journal.defer_cursor("feed-ledger", 1, {"rounds": 0})
        assert journal.cursors_waiting() and saved(path, "feed") == (0, None)  # nothing written yet
        entry = journal.append("card", {"n": 2}, source="shoe")
        assert not journal.cursors_waiting()
        assert saved(path, "feed") == (1, None) and saved(path, "feed-ledger") == (1, {"rounds": 0})
        declared = 1 if key else 0  # a keyed journal's first row declares its key
        assert entry.seq == 2 + declared and journal.head() == (2 + declared, entry.hash)
        journal.append("card", {"n": 3}, source="shoe")  # the fast path again, chained on
    with Journal(path) as reader:
        assert [e.seq for e in reader.entries()] == [1, 2, 3, 4][:3 + declared] and not reader.problems


def test_flushed_alone_when_no_row_comes_and_replaced_by_a_direct_save(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    with Journal(path, exclusive=True) as journal:
        journal.defer_cursor("feed", 4)
        journal.flush_cursors()
        assert not journal.cursors_waiting() and saved(path, "feed") == (4, None)
        journal.defer_cursor("feed", 5)
        journal.set_cursor("feed", 6)  # a save of its own replaces the one waiting
        assert not journal.cursors_waiting()
        journal.append("card", {"n": 1}, source="shoe")
        assert saved(path, "feed") == (6, None)


def test_closing_saves_a_cursor_still_waiting(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    with Journal(path, exclusive=True) as journal:
        journal.defer_cursor("feed", 3)
    assert saved(path, "feed") == (3, None)


def test_a_row_the_full_disk_refuses_leaves_the_cursor_waiting(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    with Journal(path, exclusive=True) as journal:
        journal.append("card", {"n": 1}, source="shoe")
        journal._db.execute(f"PRAGMA max_page_count = {journal._db.execute('PRAGMA page_count').fetchone()[0]}")
        journal.defer_cursor("feed", 1)
        with pytest.raises(JournalFull):
            journal.append("card", {"n": 2, "pad": "x" * 20000}, source="shoe")
        assert journal.cursors_waiting() and saved(path, "feed") == (0, None)
        journal._db.execute("PRAGMA max_page_count = 1073741823")
        journal.append("card", {"n": 2}, source="shoe")
        assert saved(path, "feed") == (1, None)
