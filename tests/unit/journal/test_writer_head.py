"""The sole writer chains onto the head it holds instead of reading it back per row: the chain,
the MACs, the checkpoint and the issued seqs stay exactly what a reader of the file verifies,
also when another connection wrote in between or rows were cut off the end before the open."""

import re
import sqlite3

from hypothesis import given, settings
from hypothesis import strategies as st

from controller.journal import (
    Journal,
    Macs,
    checkpoint_mac,
    encode_payload,
    open_problems,
    row_mac,
    utc_now,
)
from controller.verify import verify_file

KEY = b"k" * 32


def _rows(j, n, start=0):
    for i in range(start, start + n):
        j.append("device", {"type": "card", "card": "QH", "n": i}, source="shoe", round_id="T1-000001")


def test_an_exclusive_writer_keeps_a_chain_that_verifies(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path, exclusive=True) as j:
        _rows(j, 50)
        assert j.head() == (50, j.entry(50).hash) and j.last_seq() == 50
    report = verify_file(path)
    assert report.ok and report.rows == 50


def test_a_row_another_connection_added_is_chained_onto_not_overwritten(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path, exclusive=True) as writer, Journal(path) as other:
        _rows(writer, 3)
        other.append("alert", {"code": "x"}, source="feed")  # a second connection, as a reader-writer would
        assert writer.head() == other.head() and writer.last_seq() == 4
        _rows(writer, 3, start=3)
        assert [e.seq for e in writer.entries()] == list(range(1, 8))
    assert verify_file(path).ok


def test_a_keyed_writer_keeps_the_macs_and_the_checkpoint(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path, exclusive=True, key=KEY) as j:
        _rows(j, 20)
        seq, digest, mac = j.checkpoint()
        assert (seq, digest) == j.head() and mac == checkpoint_mac(KEY, seq, digest)
        assert j.mac_at(7) == row_mac(KEY, 7, j.entry(7).hash)
    with Journal(path, exclusive=True, key=KEY) as j:
        assert j.problems == []
        _rows(j, 5, start=20)  # the next open continues the same chain
    report = verify_file(path, key=KEY)
    assert report.ok and report.rows == 26  # and the row declaring the key, first


def test_rows_cut_off_before_the_open_keep_their_numbers_unissued(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        _rows(j, 5)
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_append_only_delete")
    db.execute("DELETE FROM events WHERE seq > 3")
    db.commit()
    db.close()
    with Journal(path, exclusive=True) as j:
        assert j.append("alert", {"code": "x"}, source="table").seq == 6  # never 4 again
        assert j.append("alert", {"code": "y"}, source="table").seq == 7


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=32, max_size=64), st.integers(min_value=0, max_value=1 << 40), st.text(max_size=64))
def test_macs_keyed_once_are_the_functions_macs(key, seq, digest):
    macs = Macs(key)
    assert macs.row(seq, digest) == row_mac(key, seq, digest)
    assert macs.checkpoint(seq, digest) == checkpoint_mac(key, seq, digest)


@given(st.dictionaries(st.text(max_size=8), st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)), max_size=5))
def test_the_payload_encoder_is_json_dumps(payload):
    import json

    assert encode_payload(payload) == json.dumps(payload, separators=(",", ":"), sort_keys=True)


def test_utc_now_is_iso_to_the_millisecond():
    from datetime import UTC, datetime

    text = utc_now()
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", text)
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    assert abs((datetime.now(UTC) - parsed).total_seconds()) < 5


def test_open_problems_see_what_the_cached_writer_wrote(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path, exclusive=True, key=KEY) as j:
        _rows(j, 10)
    db = sqlite3.connect(path)
    assert open_problems(db, KEY) == []
    db.close()


def test_a_full_disk_leaves_the_held_head_where_the_file_is(tmp_path):
    from controller.journal import JournalFull

    path = tmp_path / "j.sqlite"
    with Journal(path, exclusive=True) as j:
        _rows(j, 3)
        pages = j._db.execute("PRAGMA page_count").fetchone()[0]
        j._db.execute(f"PRAGMA max_page_count = {pages}")
        refused = 0
        for n in range(200):  # until a row needs a page the limit refuses
            try:
                j.append("device", {"type": "card", "card": "QH", "n": n, "pad": "x" * 500}, source="shoe")
            except JournalFull:
                refused += 1
                break
        assert refused == 1
        head = j.head()
        j._db.execute("PRAGMA max_page_count = 1073741823")
        assert j.append("alert", {"code": "space_back"}, source="table").seq == head[0] + 1
    assert verify_file(path).ok
