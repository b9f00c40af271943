"""``croupier anchor`` records every head a running table publishes; ``verify-journal --against``
those heads proves a rewrite that the journal's own key cannot (the key stolen with the file)."""

from __future__ import annotations

import json
import signal
import sqlite3
from pathlib import Path

from controller.journal import CHECKPOINT, GENESIS, Journal, chain_hash, checkpoint_mac, row_mac
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.restart.processes import TABLE, Lines, croupier, feed_url, run_table, wait_until, write_config


def _rewrite_with_the_key(path: Path, key: bytes, seq: int) -> None:
    """What someone holding the key can do: change row ``seq`` and make every hash, MAC and the
    checkpoint after it valid again."""
    db = sqlite3.connect(path)
    db.execute("DROP TRIGGER events_append_only_update")
    rows = db.execute("SELECT seq, ts, round_id, kind, source, payload FROM events ORDER BY seq").fetchall()
    prev = GENESIS
    for s, ts, rid, kind, source, payload in rows:
        if s == seq:
            payload = payload[:-1] + ',"rewritten":true}'
        digest = chain_hash(prev, s, ts, rid, kind, source, payload)
        if s >= seq:
            db.execute("UPDATE events SET payload = ?, hash = ?, mac = ? WHERE seq = ?",
                       (payload, digest, row_mac(key, s, digest), s))
        prev = digest
    last = rows[-1][0]
    db.execute("UPDATE cursors SET seq = ?, state = ? WHERE name = ?",
               (last, json.dumps({"hash": prev, "mac": checkpoint_mac(key, last, prev)}), CHECKPOINT))
    db.commit()
    db.close()
    Journal(path).close()  # the trigger back


def _recorded(heads: Path) -> list[dict]:
    if not heads.exists():
        return []
    return [json.loads(line) for line in heads.read_text().splitlines() if line.strip()]


def test_heads_recorded_off_the_table_prove_a_rewrite_made_with_the_key(mosquitto: MosquittoBroker, tmp_path: Path):
    config = write_config(tmp_path, broker=feed_url(mosquitto), more={"journal": {"key_file": "table.key"}})
    made = croupier("init", "--config", str(config))
    assert made.returncode == 0 and "new journal key" in made.stdout, made
    assert (tmp_path / "table.key").stat().st_mode & 0o777 == 0o600
    heads = tmp_path / "heads.jsonl"
    anchor = Lines("anchor", "--broker", mosquitto.tcp_url(mosquitto.pit), "--insecure", "--out", str(heads))
    try:
        anchor.until("anchor: recording")
        table = run_table(config, log=tmp_path / "table.log")
        try:
            wait_until(lambda: len(_recorded(heads)) >= 3, "three recorded heads", process=table, within=90)
        finally:
            table.send_signal(signal.SIGTERM)
            assert table.wait(60) == 0, (tmp_path / "table.log").read_text()
        code, stderr = anchor.stop(signal.SIGTERM)
    finally:
        anchor.kill()
    assert code == 0 and "Traceback" not in stderr, stderr
    recorded = _recorded(heads)
    assert {h["table"] for h in recorded} == {TABLE} and len({h["seq"] for h in recorded}) == len(recorded)
    assert all(len(h["hash"]) == 64 and h["seen"].endswith("Z") for h in recorded)

    ok = croupier("verify-journal", "--config", str(config), "--against", str(heads))
    assert ok.returncode == 0 and f"{len(recorded)} recorded heads match" in ok.stdout, ok
    assert "keyed" in ok.stdout

    key = (tmp_path / "table.key").read_bytes().strip()
    target = recorded[1]["seq"]  # a head published after a round record
    _rewrite_with_the_key(tmp_path / "table.journal", key, target)
    alone = croupier("verify-journal", "--config", str(config))
    assert alone.returncode == 0, alone  # the key cannot tell: whoever rewrote it had the key
    caught = croupier("verify-journal", "--config", str(config), "--against", str(heads))
    assert caught.returncode == 1 and f"REWRITTEN: seq {target}" in caught.stderr, caught
