"""A table started where its new journal cannot even be created says so in one line and exits 2
(a journal that exists and fills later holds the table instead: test_disk_full.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.configs import write_table_config


def test_a_start_on_a_full_disk_is_one_clear_line(tmp_path: Path) -> None:
    write_table_config(tmp_path, "baccarat", name="t.toml", table_id="full1", journal="full1.journal", limits={},
                       devices={"shoe": {"transport": "simulated", "port": "serial"}})
    pages = 1  # a new journal on a disk with room for not even its schema
    # max_page_count lasts one connection, so the cap is set by a wrapper that runs the CLI
    code = (
        "import sqlite3, sys\n"
        "from controller import journal\n"
        "original = journal.connect\n"
        f"def capped(path):\n    db = original(path)\n    db.execute('PRAGMA max_page_count = {pages}')\n    return db\n"
        "journal.connect = capped\n"
        "from controller.table_cli import main\n"
        "sys.argv = ['croupier', 'run', '--config', sys.argv[1], '--rounds', '1', '--new-journal']\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "t.toml")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "disk is full" in done.stderr and "Traceback" not in done.stderr
