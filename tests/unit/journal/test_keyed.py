"""The keyed chain: rows written with the table's key carry an HMAC, the head a keyed
checkpoint. Someone who can write the file but has no key cannot add, rewrite or cut off rows
unseen; recorded heads catch a rewrite even by someone who has the key."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from controller.cli import app
from controller.journal import CHECKPOINT, Journal, JournalKeyError, JournalUntrusted, chain_hash, row_mac
from controller.verify import ChainBreak, chained, verify_file
from tests.unit.journal.tampering import tamper

KEY = b"k" * 32
OTHER = b"o" * 32


def _rounds(path: Path, n: int = 3, key: bytes | None = KEY) -> None:
    with Journal(path, key=key) as j:
        j.append("table_started", {"game": "blackjack"}, source="table")
        for r in range(1, n + 1):
            rid = f"T1-{r:06d}"
            j.append("command", {"command": "bet", "box": 1, "amount": 500}, source="dealer", round_id=rid)
            j.append("round_closed", {"round": rid, "payout_total": 1000}, source="table", round_id=rid)


def _forge_row(path: Path, payload: str = '{"command":"bet","amount":900000}') -> int:
    """INSERT one row at the end with a valid plain-chain hash (the triggers allow INSERT)."""
    db = sqlite3.connect(path)
    seq, prev = db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    ts = "2026-12-01T00:00:00.000Z"
    digest = chain_hash(prev, seq + 1, ts, "T1-000003", "command", "dealer", payload)
    db.execute("INSERT INTO events (seq, ts, round_id, kind, source, payload, hash) VALUES (?, ?, ?, ?, ?, ?, ?)",
               (seq + 1, ts, "T1-000003", "command", "dealer", payload, digest))
    db.commit()
    db.close()
    return seq + 1


def test_a_keyed_journal_verifies_with_its_key_and_every_row_has_a_mac(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path)
    verdict = verify_file(path, KEY)
    assert verdict.ok and verdict.keyed and verdict.unkeyed == 0 and verdict.rows == 8, verdict.lines()
    with Journal(path) as j:  # the first row declares the journal keyed, with its own MAC
        first = j.entry(1)
        assert first is not None and first.kind == "journal_keyed" and first.payload["keyed_from"] == 1
        assert j.mac_at(1) == row_mac(KEY, 1, str(first.hash))
    with Journal(path) as j:
        row = j.entry(7)
        assert row is not None and j.mac_at(7) == row_mac(KEY, 7, str(row.hash))
        assert j.checkpoint() == (8, j.head()[1], j.checkpoint()[2])  # type: ignore[index]
    assert "keyed" in verdict.lines()[-1]
    # without the key the MACs are not checked, and it says so
    plain = verify_file(path)
    assert plain.ok and any("not checked" in line for line in plain.lines())


def test_a_forged_row_with_a_valid_plain_hash_is_caught_only_with_the_key(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path)
    forged = _forge_row(path)
    assert verify_file(path).ok  # the plain chain alone proves nothing against a writer (say so in docs)
    verdict = verify_file(path, KEY)
    assert not verdict.ok and verdict.first_bad == forged and "MAC" in (verdict.reason or "")
    # and a start refuses it at open, before it writes anything: a keyed row without a MAC
    with pytest.raises(JournalUntrusted, match=f"at seq {forged}: row {forged} carries no MAC"):
        Journal(path, key=KEY)
    # one with a MAC made up: held (the checkpoint no longer names the head)
    tamper(path, f"UPDATE events SET mac = '{'0' * 64}' WHERE seq = {forged}")
    with Journal(path, key=KEY) as j:
        assert any("added after the keyed checkpoint" in p for p in j.problems), j.problems


def test_a_rewrite_before_the_replay_start_is_caught_from_the_start_row(tmp_path):
    """Rows before a snapshot are not read at start; their rewrite (the plain chain recomputed)
    changes the start row's hash, whose MAC then fails."""
    path = tmp_path / "j.sqlite"
    _rounds(path)
    db = sqlite3.connect(path)
    rows = db.execute("SELECT seq, ts, round_id, kind, source, payload, hash FROM events ORDER BY seq").fetchall()
    db.close()
    prev, fixes = "0" * 64, []
    for seq, ts, rid, kind, source, payload, _ in rows:
        if seq == 4:
            payload = payload.replace("1000", "9000")
        prev = chain_hash(prev, seq, ts, rid, kind, source, payload)
        fixes.append((payload, prev, seq))
    tamper(path, *[f"UPDATE events SET payload = '{p}', hash = '{h}' WHERE seq = {s}" for p, h, s in fixes])
    assert verify_file(path).ok  # plain chain consistent again
    with Journal(path, key=KEY) as j, pytest.raises(ChainBreak) as caught:
        list(chained(j, 5))
    assert caught.value.seq == 5 and "MAC" in caught.value.reason
    assert not verify_file(path, KEY).ok


def test_rows_cut_off_the_end_are_seen_at_open(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path)
    tamper(path, "DELETE FROM events WHERE seq > 5", "UPDATE sqlite_sequence SET seq = 5 WHERE name = 'events'")
    with Journal(path, key=KEY) as j:
        assert j.problems == ["the journal ends at seq 5 but its keyed checkpoint is at seq 8: rows 6..8 were cut off"]
    assert not verify_file(path, KEY).ok
    # unkeyed, SQLite's own counter still tells a naive cut
    plain = tmp_path / "p.sqlite"
    _rounds(plain, key=None)
    tamper(plain, "DELETE FROM events WHERE seq > 5")
    with Journal(plain) as j:
        assert j.problems == ["rows 6..7 were cut off the end of the journal"]


def test_a_wrong_key_a_removed_checkpoint_and_a_writer_without_the_key(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path)
    with pytest.raises(JournalKeyError, match="keyed with another key"):
        Journal(path, key=OTHER)  # refused: rows MAC'd with a wrong key would follow
    with pytest.raises(JournalKeyError, match="is keyed"):
        Journal(path, exclusive=True)  # a table started without its key
    with Journal(path) as reader:  # recall and the feed read without it
        assert reader.last_seq() == 8
    with pytest.raises(JournalKeyError, match="at least 32 bytes"):
        Journal(path, key=b"short")
    tamper(path, f"DELETE FROM cursors WHERE name = '{CHECKPOINT}'")
    with Journal(path, key=KEY) as j:
        assert j.problems == ["the journal's keyed checkpoint of its head is missing (removed)"]


def test_an_unkeyed_journal_takes_a_key_only_when_adopted_and_says_what_predates_it(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path, 1, key=None)
    with pytest.raises(JournalUntrusted, match="at seq 1: no row carries a MAC and the journal declares no key"):
        Journal(path, exclusive=True, key=KEY)  # never keyed, or stripped: a person decides
    assert not verify_file(path, KEY).ok
    with Journal(path, exclusive=True, key=KEY, adopting=True) as j:
        assert j.declare_keyed().seq == 4 and j.keyed_from == 4
    with Journal(path, exclusive=True, key=KEY) as j:
        assert j.problems == [] and j.keyed_from == 4
        j.append("command", {"command": "open_round"}, source="dealer")
    verdict = verify_file(path, KEY)
    assert verdict.ok and verdict.unkeyed == 3
    assert any("3 rows predate the journal's key" in line for line in verdict.lines())


def test_verify_against_recorded_heads_proves_a_rewrite_made_with_the_key(tmp_path):
    path = tmp_path / "t.journal"
    config = tmp_path / "t.toml"
    key_file = tmp_path / "t.key"
    key_file.write_bytes(KEY)
    key_file.chmod(0o600)
    config.write_text('[table]\nid = "T1"\ngame = "baccarat"\njournal = "t.journal"\n\n'
                      '[journal]\nkey_file = "t.key"\n')
    _rounds(path)
    with Journal(path) as j:
        seq, digest = j.head()
    heads = tmp_path / "heads.jsonl"
    heads.write_text(json.dumps({"v": 1, "table": "T1", "seq": seq, "hash": digest, "ts": "t"}) + "\n"
                     + json.dumps({"v": 1, "table": "other", "seq": 99, "hash": "0" * 64, "ts": "t"}) + "\nnot json\n")
    runner = CliRunner()
    ok = runner.invoke(app, ["verify-journal", "--config", str(config), "--against", str(heads)])
    assert ok.exit_code == 0 and "1 recorded heads match" in ok.output, ok.output
    # the key stolen: every row from seq 3 rewritten with valid hashes and MACs, checkpoint too
    stolen = tmp_path / "rewritten.journal"
    with Journal(stolen, key=KEY) as j:
        j.append("table_started", {"game": "blackjack"}, source="table")
        j.append("command", {"command": "bet", "box": 1, "amount": 500}, source="dealer", round_id="T1-000001")
        for r in range(3, 8):
            j.append("round_closed", {"round": "forged", "r": r}, source="table", round_id="T1-000001")
    path.unlink()
    stolen.rename(path)
    assert verify_file(path, KEY).ok  # the key alone cannot tell
    bad = runner.invoke(app, ["verify-journal", "--config", str(config), "--against", str(heads)])
    assert bad.exit_code == 1 and f"REWRITTEN: seq {seq}" in bad.output, bad.output
    # a journal cut short of a recorded head
    tamper(path, "DELETE FROM events WHERE seq > 4")
    cut = runner.invoke(app, ["verify-journal", "--config", str(config), "--against", str(heads)])
    assert cut.exit_code == 1 and "not in the journal" in cut.output


def test_a_key_file_others_can_read_or_too_short_is_refused(tmp_path, monkeypatch):
    from controller.config import ConfigError, load

    (tmp_path / "k").write_bytes(KEY)
    (tmp_path / "k").chmod(0o644)
    (tmp_path / "t.toml").write_text('[table]\nid = "T1"\ngame = "baccarat"\njournal = "t.journal"\n\n'
                                     '[journal]\nkey_file = "k"\n')
    with pytest.raises(ConfigError, match="chmod 0600"):
        load(tmp_path / "t.toml").journal_key()
    (tmp_path / "k").chmod(0o600)
    assert load(tmp_path / "t.toml").journal_key() == KEY
    (tmp_path / "u.toml").write_text('[table]\nid = "T1"\ngame = "baccarat"\njournal = "t.journal"\n')
    monkeypatch.setenv("CROUPIER_JOURNAL_KEY", "short")
    with pytest.raises(ConfigError, match="at least 32 bytes"):
        load(tmp_path / "u.toml").journal_key()
    monkeypatch.setenv("CROUPIER_JOURNAL_KEY", "e" * 64)
    assert load(tmp_path / "u.toml").journal_key() == b"e" * 64


def test_an_unkeyed_journal_verifies_and_says_what_that_does_not_prove(tmp_path):
    path = tmp_path / "j.sqlite"
    _rounds(path, key=None)
    verdict = verify_file(path)
    assert verdict.ok and not verdict.keyed
    assert any(line.startswith("note: not checked with a key") for line in verdict.lines())
    assert not any("not checked with a key" in line for line in verify_file(path, KEY).lines())


def test_a_heads_file_without_this_tables_heads_checks_nothing_and_fails(tmp_path):
    from controller.verify import read_heads

    path = tmp_path / "j.sqlite"
    _rounds(path)
    heads = tmp_path / "heads.jsonl"
    heads.write_text(json.dumps({"v": 1, "table": "other", "seq": 1, "hash": "0" * 64, "ts": "t"}) + "\n")
    verdict = verify_file(path, KEY, read_heads(heads, "T1"))
    assert not verdict.ok and verdict.lines()[0].startswith("NO HEADS")


def test_anchor_refuses_a_plaintext_broker_unless_insecure(tmp_path):
    result = CliRunner().invoke(app, ["anchor", "--broker", "mqtt://viewer@127.0.0.1:1883", "--out",
                                      str(tmp_path / "h")])
    assert result.exit_code == 2 and "error: --broker:" in result.output and "Traceback" not in result.output


def test_croupier_run_on_a_keyed_journal_without_its_key_is_one_line(tmp_path, monkeypatch):
    from tests.integration.table_stress.harness import write_config

    monkeypatch.delenv("CROUPIER_JOURNAL_KEY", raising=False)
    config = write_config(tmp_path, broker="none")
    _rounds(tmp_path / "table.journal")
    result = CliRunner().invoke(app, ["run", "--config", str(config), "--rounds", "1", "--quiet"])
    assert result.exit_code == 2 and "is keyed and its key is missing: put it back at" in result.output, result.output
    assert "Traceback" not in result.output


def test_macs_stripped_after_the_declaration_are_refused_at_the_first_of_them(tmp_path):
    """The chain left as it was, only the MACs of rows 5 on set NULL and the checkpoint removed:
    verify names seq 5, and a keyed open (the table's start) refuses it there."""
    path = tmp_path / "j.sqlite"
    _rounds(path)
    tamper(path, "UPDATE events SET mac = NULL WHERE seq >= 5", f"DELETE FROM cursors WHERE name = '{CHECKPOINT}'")
    verdict = verify_file(path, KEY)
    assert not verdict.ok and verdict.first_bad == 5 and "no MAC" in (verdict.reason or ""), verdict.lines()
    with pytest.raises(JournalUntrusted, match="at seq 5: row 5 carries no MAC, but the journal is keyed from seq 1"):
        Journal(path, exclusive=True, key=KEY)


@given(st.integers(1, 10**6), st.text(max_size=80) | st.builds(json.dumps, st.dictionaries(
    st.sampled_from(["keyed_from", "key_id", "x"]), st.integers(-5, 10**7) | st.text(max_size=20) | st.none())))
def test_any_declaration_payload_reads_as_keyed_from_a_seq_not_after_it(seq, payload):
    from controller.journal_keyed import parse_declaration

    declared = parse_declaration(seq, payload, "h", None)
    assert 1 <= declared.keyed_from <= seq and isinstance(declared.key_id, str)


def test_a_journal_keyed_before_declarations_existed_is_declared_at_its_next_start(tmp_path):
    """Rows 1..3 from before the key, 4..6 MAC'd with it, a keyed checkpoint and no declaration
    (what an earlier version wrote): it verifies, and the table's next open declares it keyed
    from seq 4, without refusing anything."""
    from controller.journal import GENESIS, checkpoint_mac

    path = tmp_path / "j.sqlite"
    _rounds(path, 1, key=None)
    db = sqlite3.connect(path)
    prev = db.execute("SELECT hash FROM events WHERE seq = 3").fetchone()[0] or GENESIS
    for seq in (4, 5, 6):
        payload = json.dumps({"n": seq})
        prev = chain_hash(prev, seq, "t", None, "card", "shoe", payload)
        db.execute("INSERT INTO events (seq, ts, round_id, kind, source, payload, hash, mac) VALUES (?, 't', NULL,"
                   " 'card', 'shoe', ?, ?, ?)", (seq, payload, prev, row_mac(KEY, seq, prev)))
    db.execute("INSERT INTO cursors (name, seq, state) VALUES (?, 6, ?)",
               (CHECKPOINT, json.dumps({"hash": prev, "mac": checkpoint_mac(KEY, 6, prev)})))
    db.commit()
    db.close()
    assert verify_file(path, KEY).ok
    with Journal(path, exclusive=True, key=KEY) as j:
        assert j.problems == [] and j.keyed_from == 4
        declared = j.declaration()
        assert declared is not None and declared.seq == 7 and declared.keyed_from == 4
    verdict = verify_file(path, KEY)
    assert verdict.ok and verdict.unkeyed == 3, verdict.lines()
