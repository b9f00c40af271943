import multiprocessing
import os
import signal
import sqlite3

import pytest

from controller.journal import Journal


def test_append_and_replay_in_order(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        a = j.append("bet", {"box": 1, "amount": 500}, source="spot-1", round_id="r1")
        b = j.append("card", {"card": "AS"}, source="shoe", round_id="r1")
        j.append("open", {}, source="dealer", round_id="r2")
    assert (a.seq, b.seq) == (1, 2)
    with Journal(tmp_path / "j.sqlite") as j:
        assert [e.kind for e in j.entries()] == ["bet", "card", "open"]
        assert [e.payload for e in j.entries(round_id="r1")] == [{"box": 1, "amount": 500}, {"card": "AS"}]
        assert [e.seq for e in j.entries(after=2)] == [3]


def test_journal_is_append_only(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        j.append("bet", {"amount": 1}, source="x")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            j._db.execute("UPDATE events SET payload = '{}'")
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            j._db.execute("DELETE FROM events")


def test_wal_and_full_sync(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        assert j._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert j._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_cursor_persists(tmp_path):
    with Journal(tmp_path / "j.sqlite") as j:
        assert j.cursor("feed") == 0
        j.set_cursor("feed", 7)
        j.set_cursor("feed", 9)
    with Journal(tmp_path / "j.sqlite") as j:
        assert j.cursor("feed") == 9


def _writer(path: str, ready) -> None:
    j = Journal(path)
    n = 0
    while True:
        j.append("tick", {"n": n}, source="t")
        n += 1
        if n == 50:
            ready.set()


def test_kill_minus_nine_keeps_every_acknowledged_row_and_a_gapless_sequence(tmp_path):
    path = str(tmp_path / "j.sqlite")
    ready = multiprocessing.Event()
    proc = multiprocessing.Process(target=_writer, args=(path, ready))
    proc.start()
    assert ready.wait(10)
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    with Journal(path) as j:
        rows = list(j.entries())
    assert len(rows) >= 50
    assert [e.payload["n"] for e in rows] == list(range(len(rows)))
    assert [e.seq for e in rows] == list(range(1, len(rows) + 1))
