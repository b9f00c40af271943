"""A journal written before the record contract (``old/rl-eu.journal.gz``: a European roulette
table's twelve rounds, ``croupier run --rounds 12`` at 8a7fbe4, with its key) replays in this
code (every output it derives already journaled, nothing held) and its records read through the
contract field for field."""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

from controller import records
from controller.config import load
from controller.journal import Journal
from controller.process import build_core
from controller.runtime.recovery import replay
from controller.table.recall import round_records

ROOT = Path(__file__).resolve().parents[3]
OLD = Path(__file__).parent / "old"


def test_an_old_journal_replays_and_its_records_read_exactly(tmp_path: Path) -> None:
    (tmp_path / "config").mkdir()
    (tmp_path / "var").mkdir()
    shutil.copy(ROOT / "config" / "roulette-european.toml", tmp_path / "config")
    journal_path = tmp_path / "var" / "rl-eu.journal"
    journal_path.write_bytes(gzip.decompress((OLD / "rl-eu.journal.gz").read_bytes()))
    shutil.copy(OLD / "rl-eu.key", tmp_path / "var" / "rl-eu.key")
    (tmp_path / "var" / "rl-eu.key").chmod(0o600)
    config = load(tmp_path / "config" / "roulette-european.toml")

    core = build_core(config)
    with Journal(config.journal_path, key=config.journal_key()) as journal:
        done = replay(journal, core)
    assert done.integrity is None and done.written == 0 and core.closed_rounds == 12 and core.hold is None

    old = round_records(journal_path)
    assert len(old) == 12 and {r["game"] for r in old} == {"roulette"}
    for record in old:
        typed = records.parse_record(record)
        assert type(typed.outcome).__name__ == "TableRouletteRoundOutcome" and records.undeclared(typed, record) == []
