"""A full disk refuses the entry whole (JournalFull) and the journal takes entries again once space returns."""

import pytest

from controller.journal import Journal, JournalFull


def _fill(j: Journal) -> int:
    """Append until the page limit stops it; return how many entries went in."""
    n = 0
    with pytest.raises(JournalFull, match="disk full"):
        while True:
            j.append("tick", {"n": n, "pad": "x" * 200}, source="t")
            n += 1
    return n


def test_full_database_raises_journal_full_and_keeps_no_partial_row(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        j.append("tick", {"n": -1}, source="t")
        pages = j._db.execute("PRAGMA page_count").fetchone()[0]
        j._db.execute(f"PRAGMA max_page_count = {pages + 3}")
        written = _fill(j)
        assert written > 0
        assert j.last_seq() == written + 1
        with pytest.raises(JournalFull):
            j.append("bet", {"amount": 500, "pad": "x" * 2000}, source="spot-1")
        assert j.last_seq() == written + 1
        # Space returns: the next entry follows on with no gap.
        j._db.execute("PRAGMA max_page_count = 1073741823")
        e = j.append("bet", {"amount": 500}, source="spot-1")
        assert e.seq == written + 2
    with Journal(path) as j:
        assert [e.seq for e in j.entries()] == list(range(1, written + 3))
        assert all(e.kind == "tick" for e in j.entries() if e.seq <= written + 1)
