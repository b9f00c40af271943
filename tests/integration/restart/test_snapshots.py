"""A start from the last snapshot rebuilds the same table as a full replay, replaying only the tail."""

from __future__ import annotations

import io
import pickle
import sqlite3

import pytest

from controller.journal import SNAPSHOT, Journal, JournalFull
from controller.runtime import snapshot
from controller.runtime.recovery import replay
from controller.runtime.snapshot import SafeUnpickler, SnapshotRefused, Snapshots


def _view(core):
    return (core.state(), core.prompt(), core.rounds, core.records, core.shoe.last_n, core.shoe.composition.left("AS"))


def test_snapshot_start_equals_full_replay_and_replays_only_the_tail(synthesised, fresh_core):
    path = synthesised(6000)
    with Journal(path) as j:
        full_core = fresh_core()
        full = replay(j, full_core, snapshots=False)
        snap_core = fresh_core()
        quick = replay(j, snap_core)
    assert quick.snapshot is not None and full.snapshot is None
    assert quick.inputs < snapshot.EVERY < full.inputs
    assert quick.written == full.written == 0
    assert _view(snap_core) == _view(full_core)
    assert snap_core.adapter is not None and snap_core.rounds > 100


def test_replayed_inputs_do_not_grow_with_the_journal(synthesised, fresh_core):
    small, large = synthesised(3000), synthesised(15000)
    with Journal(small) as a, Journal(large) as b:
        ra, rb = replay(a, fresh_core()), replay(b, fresh_core())
    assert ra.inputs <= snapshot.EVERY and rb.inputs <= snapshot.EVERY


def test_full_replay_of_a_long_journal_writes_a_snapshot_for_the_next_start(synthesised, fresh_core):
    path = synthesised(3000)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM snapshots")  # as if every blob was written by older code
    db.commit()
    db.close()
    with Journal(path) as j:
        first = replay(j, fresh_core())
        second = replay(j, fresh_core())
    assert first.snapshot is None and first.inputs > 2000
    assert second.snapshot is not None and second.inputs == 0


def test_a_blob_that_does_not_match_its_journaled_hash_is_passed_over(synthesised, fresh_core):
    path = synthesised(3000)
    with Journal(path) as j:
        newest = next(j.latest(SNAPSHOT)).seq
    db = sqlite3.connect(path)
    db.execute("UPDATE snapshots SET data = data || x'00' WHERE seq = ?", (newest,))
    db.commit()
    db.close()
    with Journal(path) as j:
        result = replay(j, fresh_core())
    assert result.snapshot is not None and result.snapshot < newest


class _Evil:
    def __reduce__(self):
        import os

        return (os.system, ("echo pwned",))


def test_the_unpickler_builds_no_functions_and_nothing_from_outside(fresh_core):
    core = fresh_core()
    with pytest.raises(SnapshotRefused, match="posix.system|os.system"):
        SafeUnpickler(pickle.dumps(_Evil()), core.adapter).load()
    from controller.journal import connect

    with pytest.raises(SnapshotRefused, match="controller.journal.connect"):
        SafeUnpickler(pickle.dumps(connect), core.adapter).load()
    from controller.runtime.loop import TableLoop

    with pytest.raises(SnapshotRefused, match="controller.runtime.loop.TableLoop"):
        SafeUnpickler(pickle.dumps(TableLoop), core.adapter).load()
    buf = io.BytesIO()
    pickle.dump({"a": 1}, buf)
    with pytest.raises(SnapshotRefused, match="not a table"):
        snapshot.load(__import__("zlib").compress(buf.getvalue()), core.adapter)


def test_a_hostile_snapshot_row_is_refused_and_the_table_still_starts(synthesised, fresh_core):
    path = synthesised(3000)
    import zlib

    with Journal(path) as j:
        good = next(j.latest(SNAPSHOT)).seq
        payload = {"format": snapshot.FORMAT, "covers": j.last_seq(), "fingerprint": snapshot.fingerprint("blackjack"),
                   "game": "blackjack"}
        j.append_snapshot(payload, zlib.compress(pickle.dumps(_Evil())), source="table")
        result = replay(j, fresh_core())
    assert result.snapshot == good


def test_the_loop_hook_snapshots_every_n_inputs_and_skips_when_the_disk_is_full(tmp_path, fresh_core):
    core = fresh_core()
    with Journal(tmp_path / "j.sqlite") as j:
        hook = Snapshots(j, every=3)
        entries = [j.append("command", {"command": "open_round"}, source="dealer") for _ in range(7)]
        for e in entries:
            hook.applied(core, e)
        assert hook.taken == 2
        snaps = list(j.latest(SNAPSHOT))
        assert [s.payload["covers"] for s in snaps] == [6, 3]
        pages = j._db.execute("PRAGMA page_count").fetchone()[0]
        j._db.execute(f"PRAGMA max_page_count = {pages}")
        for e in entries[:3]:
            hook.applied(core, e)  # JournalFull inside: skipped, no exception
        assert hook.taken == 2
        with pytest.raises(JournalFull):
            snapshot.take(j, core, 9)
