"""What a start sees in a keyed journal before it writes anything: rows cut off the end, a row
forged without the key, a snapshot whose blob was altered (an alert, not only a log line); and
what it refuses outright: a keyed journal stripped of its MACs (passed off as one from before its
key), a journal that never adopted the key it is given, a key file it cannot use."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from controller.cli import app
from controller.journal import SNAPSHOT, Journal, encode_payload
from controller.journal_keyed import write_new_key
from controller.runtime.recovery import INTEGRITY, SNAPSHOT_DAMAGED, replay
from controller.verify import verify_file
from tests.integration.restart.processes import croupier, write_config
from tests.unit.journal.tampering import rechain, tamper

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


@pytest.mark.parametrize("mac", [None, "0" * 64], ids=["no MAC", "a MAC made up"])
def test_a_row_forged_without_the_key_is_refused_or_holds_the_start(bench, tmp_path, fresh_core, mac):
    """Without a MAC the row is refused at open (a keyed journal has none without one); with a
    MAC made up the start holds on it, naming the seq."""
    path = tmp_path / "j.sqlite"
    bench.synthesise(path, 2500, key=KEY)
    from controller.journal import JournalUntrusted, chain_hash

    db = sqlite3.connect(path)
    seq, prev, rid = db.execute("SELECT seq, hash, round_id FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    payload = '{"command":"void_round","reason":"forged"}'
    ts = "2026-12-01T00:00:00.000Z"
    db.execute("INSERT INTO events (seq, ts, round_id, kind, source, payload, hash, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
               (seq + 1, ts, rid, "command", "dealer", payload, chain_hash(prev, seq + 1, ts, rid, "command", "dealer",
                                                                           payload), mac))
    db.commit()
    db.close()
    assert verify_file(path).ok  # unkeyed, it would pass
    if mac is None:
        with pytest.raises(JournalUntrusted, match=f"at seq {seq + 1}: row {seq + 1} carries no MAC"):
            Journal(path, exclusive=True, key=KEY)
        return
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


def _pay_1000_eur_more(edited: list[int]) -> Callable[[int, str, str], str]:
    """The first round record's last bet paid 1,000.00 EUR more (and its total)."""

    def edit(seq: int, kind: str, payload: str) -> str:
        if kind != "round_closed" or edited:
            return payload
        record = json.loads(payload)
        record["bets"][-1]["payout"] += 100_000
        record["payout_total"] += 100_000
        edited.append(seq)
        return encode_payload(record)

    return edit


def _rows(journal: Path) -> int:
    db = sqlite3.connect(journal)
    try:
        return int(db.execute("SELECT COUNT(*) FROM events").fetchone()[0])
    finally:
        db.close()


@pytest.mark.parametrize("declaration", ["kept", "deleted"])
def test_a_keyed_journal_stripped_of_its_macs_is_refused_by_verify_and_by_the_start(tmp_path: Path, declaration: str):
    """The downgrade: a payout edited, the plain chain recomputed, every MAC set NULL and the
    checkpoint deleted (and the row declaring the key deleted too). With the key, verify-journal
    and the table's start refuse it, naming the first bad seq; nothing is played on it."""
    config = write_config(tmp_path, broker="none")  # no key_file: the key is made beside the journal
    journal = tmp_path / "table.journal"
    played = croupier("run", "--config", str(config), "--rounds", "2", "--quiet", "--new-journal")
    assert played.returncode == 0, played.stderr
    assert (tmp_path / "table.journal.key").stat().st_mode & 0o777 == 0o600
    runner = CliRunner()
    before = runner.invoke(app, ["verify-journal", "--config", str(config)])
    assert before.exit_code == 0 and "keyed" in before.output, before.output

    edited: list[int] = []
    pay_more = _pay_1000_eur_more(edited)
    rechain(journal, lambda seq, kind, payload: None if kind == "journal_keyed" and declaration == "deleted"
            else pay_more(seq, kind, payload))
    assert edited and verify_file(journal).ok  # the plain chain holds again: only the key can tell
    first_bad = 1 if declaration == "kept" else 2  # the declaration stripped, or the first row left

    verdict = runner.invoke(app, ["verify-journal", "--config", str(config)])
    assert verdict.exit_code == 1, verdict.output
    assert f"BROKEN at seq {first_bad}: " in verdict.output and "OK:" not in verdict.output
    rows = _rows(journal)
    start = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")
    assert start.returncode == 1, (start.stdout, start.stderr)
    lines = start.stderr.strip().splitlines()
    assert len(lines) == 1 and f"is not trusted, at seq {first_bad}:" in lines[0], lines
    assert "Traceback" not in start.stderr and "ROUND" not in start.stdout
    assert _rows(journal) == rows  # nothing written: no round played on the forged payout


def test_an_unkeyed_journal_adopts_its_key_explicitly_and_then_starts(tmp_path: Path):
    config = write_config(tmp_path, broker="none")
    journal = tmp_path / "table.journal"
    with Journal(journal) as j:  # a journal from before keys: rows, no MAC
        j.append("command", {"command": "open_round"}, source="dealer")
    assert croupier("run", "--config", str(config), "--rounds", "1", "--quiet").returncode == 0  # no key: as before
    key = tmp_path / "table.journal.key"
    write_new_key(key)
    refused = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")
    assert refused.returncode == 1 and "croupier adopt-key" in refused.stderr, refused.stderr
    runner = CliRunner()
    adopted = runner.invoke(app, ["adopt-key", "--config", str(config)])
    assert adopted.exit_code == 0 and "is keyed from seq" in adopted.output, adopted.output
    again = runner.invoke(app, ["adopt-key", "--config", str(config)])
    assert again.exit_code == 0 and "nothing changed" in again.output
    assert croupier("run", "--config", str(config), "--rounds", "1", "--quiet").returncode == 0
    verdict = verify_file(journal, key.read_bytes().strip())
    assert verdict.ok and verdict.unkeyed > 0, verdict.lines()
    # a stripped journal is no journal from before its key: adopt-key refuses it
    rechain(journal, lambda seq, kind, payload: payload)
    stripped = runner.invoke(app, ["adopt-key", "--config", str(config)])
    assert stripped.exit_code == 1 and "restore it from backup" in stripped.output, stripped.output


@pytest.mark.parametrize("damage", ["missing", "short", "a directory"])
def test_a_keyed_journal_without_a_usable_key_file_is_one_line_at_start(tmp_path: Path, damage: str):
    config = write_config(tmp_path, broker="none", more={"journal": {"key_file": "keys/t.key"}})
    made = croupier("init", "--config", str(config))
    assert made.returncode == 0 and f"new journal key: {tmp_path / 'keys' / 't.key'}" in made.stdout, made
    key = tmp_path / "keys" / "t.key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes().strip()) >= 32
    if damage == "missing":
        key.unlink()
    elif damage == "short":
        key.write_bytes(b"0123456789")
    else:
        key.unlink()
        key.mkdir(mode=0o700)
    run = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and f"journal.key_file {key}" in lines[0] and "Traceback" not in run.stderr, lines
    if damage == "missing":
        assert "missing" in lines[0]
