"""A start checks the chain from its snapshot to the head: a break holds the table with one
``journal.integrity`` alert naming the seq, and nothing is derived from the damaged part."""

from __future__ import annotations

from controller.journal import SNAPSHOT, Journal
from controller.runtime.recovery import INTEGRITY, replay
from tests.unit.journal.tampering import tamper


def _tamper(path, *sql, params=()):
    tamper(path, *sql, params=params, restore_triggers=False)


def _round_after_last_snapshot(path):
    """(round id, seq of its round_closed) of a round entirely after the newest snapshot."""
    with Journal(path) as j:
        covers = next(j.latest(SNAPSHOT)).payload["covers"]
        closes = [e for e in j.entries(after=covers) if e.kind == "round_closed"]
    first = next(e for e in closes[1:])
    return first.round_id, first.seq


def test_deleted_round_holds_naming_the_seq_with_one_alert_and_no_second_close(synthesised, fresh_core):
    path = synthesised(3000)
    rid, _ = _round_after_last_snapshot(path)
    with Journal(path) as j:
        rows = [e.seq for e in j.entries(round_id=rid)]
        before = j.last_seq()
    _tamper(path, f"DELETE FROM events WHERE round_id = '{rid}'")
    gap_end = max(rows) + 1
    core = fresh_core()
    with Journal(path) as j:
        result = replay(j, core)
        added = list(j.entries(after=before))
    assert result.integrity is not None and f"seq {gap_end}" in result.integrity
    assert "append-only triggers had been dropped" in result.integrity
    assert core.hold is not None and core.hold.code == INTEGRITY and core.hold.cause == gap_end
    assert [e.kind for e in added] == ["alert", SNAPSHOT]
    assert added[0].payload["code"] == INTEGRITY and added[0].payload["cause"] == gap_end
    assert "HOLD journal.integrity" in core.prompt()
    # The next start begins after the damage: still held, no new alert, nothing re-closed.
    again = fresh_core()
    with Journal(path) as j:
        second = replay(j, again)
        assert j.last_seq() == added[-1].seq
    assert second.integrity is None and again.hold is not None and again.hold.code == INTEGRITY
    with Journal(path) as j:
        assert not [e for e in j.latest("round_closed") if e.round_id == rid]  # never closed a second time


def test_edited_payout_after_the_snapshot_holds_naming_its_seq(synthesised, fresh_core):
    path = synthesised(3000)
    _, seq = _round_after_last_snapshot(path)
    _tamper(path, f"UPDATE events SET payload = replace(payload, '\"payout\":0', '\"payout\":99999') "
                  f"WHERE seq = {seq}")
    core = fresh_core()
    with Journal(path) as j:
        result = replay(j, core)
    assert result.integrity is not None and f"chain broken at seq {seq}" in result.integrity
    assert core.hold is not None and core.hold.cause == seq


def test_dropped_triggers_alone_hold_and_say_so(synthesised, fresh_core):
    path = synthesised(2000)
    _tamper(path)
    core = fresh_core()
    with Journal(path) as j:
        result = replay(j, core)
    assert result.integrity is not None and "triggers had been dropped" in result.integrity
    assert "chain broken" not in result.integrity
    assert core.hold is not None and core.hold.code == INTEGRITY and core.hold.options == ("dismiss",)


def test_an_edited_snapshot_row_falls_back_to_the_one_before(synthesised, fresh_core):
    path = synthesised(4000)
    with Journal(path) as j:
        snaps = [e.seq for e in j.latest(SNAPSHOT)]
    newest = snaps[0]
    _tamper(path, f"UPDATE events SET payload = replace(payload, '\"format\":1', '\"format\":1 ') WHERE seq = {newest}")
    core = fresh_core()
    with Journal(path) as j:
        result = replay(j, core)
    assert result.integrity is not None and f"seq {newest}" in result.integrity
    assert result.snapshot is not None and result.snapshot < newest
    assert core.hold is not None and core.hold.cause == newest


def test_a_row_edited_into_garbage_holds_instead_of_crashing(synthesised, fresh_core):
    path = synthesised(3000)
    _, seq = _round_after_last_snapshot(path)
    _tamper(path, f"UPDATE events SET payload = '{{not json' WHERE seq = {seq}")
    core = fresh_core()
    with Journal(path) as j:
        result = replay(j, core)
        assert j.entry(seq).payload == {"unreadable": "{not json"}
    assert result.integrity is not None and f"chain broken at seq {seq}" in result.integrity
