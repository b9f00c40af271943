"""The hash chain: an intact journal verifies; an edited payout, a deleted round, a reordered
pair, a removed hash, rows cut off the end and dropped triggers are each named."""

import sqlite3
import stat

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.journal import GENESIS, Journal, chain_hash
from controller.verify import ChainBreak, chained, verify_file


def _rounds(path, n=3):
    """n rounds of bet, cards, round_closed; returns the seq of each round's round_closed."""
    closes = {}
    with Journal(path) as j:
        j.append("table_started", {"game": "blackjack"}, source="table")
        for r in range(1, n + 1):
            rid = f"T1-{r:06d}"
            j.append("command", {"command": "bet", "box": 1, "amount": 500}, source="dealer", round_id=rid)
            j.append("device", {"type": "card", "card": "AS", "n": r}, source="shoe", round_id=rid)
            e = j.append("round_closed", {"round": rid, "bets": [{"box": 1, "stake": 500, "payout": 1000}],
                                          "payout_total": 1000}, source="table", round_id=rid)
            closes[rid] = e.seq
    return closes


def _tamper(path, *sql):
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_append_only_update")
    db.execute("DROP TRIGGER events_append_only_delete")
    for statement in sql:
        db.execute(statement)
    db.commit()
    db.close()


def test_intact_journal_verifies_and_the_head_is_the_last_rows_hash(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path)
    verdict = verify_file(path)
    assert verdict.ok and verdict.first_bad is None and verdict.rows == 10 and verdict.legacy == 0
    with Journal(path) as j:
        assert j.head() == (10, verdict.head_hash)
        first = j.entry(1)
        assert first is not None
        # worked by hand: the first row chains to the genesis hash over its stored content
        assert first.hash == chain_hash(GENESIS, 1, first.ts, None, "table_started", "table", '{"game":"blackjack"}')


def test_edited_payout_is_named_and_the_dropped_triggers_said(tmp_path):
    path = tmp_path / "j.sqlite"
    closes = _rounds(path)
    seq = closes["T1-000002"]
    _tamper(path, f"UPDATE events SET payload = replace(payload, '1000', '9000') WHERE seq = {seq}")
    verdict = verify_file(path)
    assert not verdict.ok
    assert verdict.first_bad == seq
    assert not verdict.triggers
    assert any("append-only triggers were dropped" in line for line in verdict.lines())


def test_edited_payout_with_triggers_put_back_is_still_named(tmp_path):
    path = tmp_path / "j.sqlite"
    closes = _rounds(path)
    seq = closes["T1-000001"]
    _tamper(path, f"UPDATE events SET payload = replace(payload, '1000', '9000') WHERE seq = {seq}")
    with Journal(path) as j:  # opening re-creates the triggers, but says they were gone
        assert j.triggers_missing
    verdict = verify_file(path)
    assert verdict.triggers and verdict.first_bad == seq


def test_deleted_round_is_named_at_the_row_after_the_gap(tmp_path):
    path = tmp_path / "j.sqlite"
    closes = _rounds(path)
    _tamper(path, "DELETE FROM events WHERE round_id = 'T1-000002'")
    verdict = verify_file(path)
    assert verdict.first_bad == closes["T1-000002"] + 1
    assert "missing" in (verdict.reason or "")


def test_reordered_rows_are_named(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path)
    # swap rows 3 and 4 whole (hashes included): each now sits at the other's seq
    _tamper(path, "UPDATE events SET seq = -3 WHERE seq = 3", "UPDATE events SET seq = 3 WHERE seq = 4",
            "UPDATE events SET seq = 4 WHERE seq = -3")
    assert verify_file(path).first_bad == 3


def test_removed_hash_and_rows_cut_off_the_end_are_named(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path)
    _tamper(path, "UPDATE events SET hash = NULL WHERE seq = 6")
    assert verify_file(path).first_bad == 6
    path2 = tmp_path / "k.sqlite"
    _rounds(path2)
    _tamper(path2, "DELETE FROM events WHERE seq > 7")
    verdict = verify_file(path2)
    assert verdict.first_bad == 8 and "cut off the end" in (verdict.reason or "")


def test_chained_replay_check_stops_at_the_break(tmp_path):
    path = tmp_path / "j.sqlite"
    closes = _rounds(path)
    seq = closes["T1-000003"]
    _tamper(path, f"UPDATE events SET payload = replace(payload, '1000', '9000') WHERE seq = {seq}")
    with Journal(path) as j:
        seen = []
        with pytest.raises(ChainBreak) as broke:
            for e in chained(j, after=4):
                seen.append(e.seq)
        assert broke.value.seq == seq
        assert seen == list(range(5, seq))


def test_journal_made_before_the_chain_is_migrated_and_its_old_rows_reported(tmp_path):
    path = tmp_path / "old.sqlite"
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE events (seq INTEGER PRIMARY KEY AUTOINCREMENT, ts TEXT NOT NULL, round_id TEXT,
                             kind TEXT NOT NULL, source TEXT NOT NULL, payload TEXT NOT NULL);
        CREATE TABLE cursors (name TEXT PRIMARY KEY, seq INTEGER NOT NULL);
        CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
        BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
        CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
        BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
        INSERT INTO events (ts, kind, source, payload) VALUES ('t', 'command', 'dealer', '{"command":"open_round"}');
        INSERT INTO events (ts, kind, source, payload) VALUES ('t', 'command', 'dealer', '{"command":"settle"}');
        INSERT INTO cursors VALUES ('feed', 2);
    """)
    db.commit()
    db.close()
    with Journal(path) as j:
        assert not j.triggers_missing
        assert j.cursor("feed") == 2
        assert j.append("alert", {"code": "x"}, source="table").seq == 3
        assert [e.hash is None for e in j.entries()] == [True, True, False]
    verdict = verify_file(path)
    assert verdict.ok and verdict.legacy == 2 and verdict.head_seq == 3
    assert "2 rows predate the hash chain" in verdict.lines()[-1]


def test_journal_files_are_private(tmp_path):
    path = tmp_path / "j.sqlite"
    with Journal(path) as j:
        j.append("x", {}, source="t")
        for suffix in ("", "-wal", "-shm"):
            mode = stat.S_IMODE((tmp_path / f"j.sqlite{suffix}").stat().st_mode)
            assert mode == 0o600, (suffix, oct(mode))


def test_verify_journal_command_exits_0_then_1_naming_the_seq(tmp_path):
    path = tmp_path / "j.sqlite"
    closes = _rounds(path)
    config = tmp_path / "t.toml"
    config.write_text('[table]\nid = "T1"\ngame = "blackjack"\npreset = "ru6"\njournal = "j.sqlite"\n'
                      '[mqtt]\nbroker = "none"\n')
    runner = CliRunner()
    ok = runner.invoke(app, ["verify-journal", "--config", str(config)])
    assert ok.exit_code == 0, ok.output
    assert "OK: 10 rows" in ok.output
    seq = closes["T1-000002"]
    _tamper(path, f"UPDATE events SET payload = replace(payload, '1000', '9000') WHERE seq = {seq}")
    bad = runner.invoke(app, ["verify-journal", "--config", str(config)])
    assert bad.exit_code == 1
    assert f"BROKEN at seq {seq}" in bad.output
    assert "triggers were dropped" in bad.output
