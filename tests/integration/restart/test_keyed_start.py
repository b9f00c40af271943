"""What a start sees in a keyed journal before it writes anything: rows cut off the end, a row
forged without the key, and a snapshot whose blob was altered (an alert, not only a log line)."""

from __future__ import annotations

import sqlite3

from controller.journal import SNAPSHOT, Journal
from controller.runtime.recovery import INTEGRITY, SNAPSHOT_DAMAGED, replay
from controller.verify import verify_file
from tests.unit.journal.tampering import tamper

KEY = b"table-key-" + b"x" * 32


def test_a_tail_cut_off_cleanly_holds_the_start_instead_of_replaying_the_last_round_as_new(bench, tmp_path,
                                                                                           fresh_core):
    path = tmp_path / "j.sqlite"
    bench.synthesise(path, 2500, key=KEY)
    with Journal(path) as j:
        last_close = next(j.latest("round_closed")).seq
        end = j.last_seq()
    # the whole last round's close and after removed, the counter put back: only the key can tell
    tamper(path, f"DELETE FROM events WHERE seq >= {last_close}",
         f"UPDATE sqlite_sequence SET seq = {last_close - 1} WHERE name = 'events'")
    core = fresh_core()
    with Journal(path, exclusive=True, key=KEY) as j:
        result = replay(j, core)
    assert result.integrity is not None and f"rows {last_close}..{end} were cut off" in result.integrity
    assert core.hold is not None and core.hold.code == INTEGRITY
    assert result.written == 0  # nothing derived from the damaged journal


def test_a_row_forged_without_the_key_holds_the_start(bench, tmp_path, fresh_core):
    path = tmp_path / "j.sqlite"
    bench.synthesise(path, 2500, key=KEY)
    from controller.journal import chain_hash

    db = sqlite3.connect(path)
    seq, prev, rid = db.execute("SELECT seq, hash, round_id FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    payload = '{"command":"void_round","reason":"forged"}'
    ts = "2026-12-01T00:00:00.000Z"
    db.execute("INSERT INTO events (seq, ts, round_id, kind, source, payload, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (seq + 1, ts, rid, "command", "dealer", payload, chain_hash(prev, seq + 1, ts, rid, "command", "dealer",
                                                                           payload)))
    db.commit()
    db.close()
    assert verify_file(path).ok  # unkeyed, it would pass
    core = fresh_core()
    with Journal(path, exclusive=True, key=KEY) as j:
        result = replay(j, core)
    assert result.integrity is not None and f"chain broken at seq {seq + 1}" in result.integrity
    assert "MAC" in result.integrity and core.hold is not None and core.hold.cause == seq + 1


def test_an_altered_snapshot_blob_raises_an_alert(bench, tmp_path, fresh_core):
    path = tmp_path / "j.sqlite"
    bench.synthesise(path, 3000, key=KEY)
    with Journal(path) as j:
        newest = next(j.latest(SNAPSHOT)).seq
        before = j.last_seq()
    db = sqlite3.connect(path)
    db.execute("UPDATE snapshots SET data = data || x'00' WHERE seq = ?", (newest,))
    db.commit()
    db.close()
    with Journal(path, exclusive=True, key=KEY) as j:
        result = replay(j, fresh_core())
        added = list(j.entries(after=before))
    assert result.snapshot is not None and result.snapshot < newest and result.integrity is None
    alerts = [e.payload for e in added if e.kind == "alert"]
    assert [a["code"] for a in alerts] == [SNAPSHOT_DAMAGED]
    assert f"snapshot {newest}" in alerts[0]["message"] and alerts[0]["severity"] == "error"
    assert verify_file(path, KEY).ok  # the alert itself is keyed like every row
