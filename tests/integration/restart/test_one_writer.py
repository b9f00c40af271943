"""One table process per journal: a second ``croupier run`` on the same journal is refused with
one line and exit 2 while the first plays on (two writers closed the same round ids twice)."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

from controller.journal import Journal, JournalInUse, lock_path
from controller.verify import verify_file
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.restart.processes import closed_rounds, croupier, feed_url, run_table, wait_until, write_config


def test_a_second_table_process_on_the_same_journal_is_refused(mosquitto: MosquittoBroker, tmp_path: Path):
    config = write_config(tmp_path, broker=feed_url(mosquitto))
    journal = tmp_path / "table.journal"
    first = run_table(config, "--new-journal", log=tmp_path / "first.log")
    try:
        wait_until(lambda: closed_rounds(journal) >= 1, "the first table's first round", process=first, within=90)
        second = croupier("run", "--config", str(config), "--rounds", "3", "--quiet")
        assert second.returncode == 2, (second.stdout, second.stderr)
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "in use by process" in lines[0] and str(first.pid) in lines[0], lines
        assert "Traceback" not in second.stderr and second.stdout == ""
        # the first one still plays
        played = closed_rounds(journal)
        wait_until(lambda: closed_rounds(journal) > played, "a round after the refusal", process=first, within=90)
    finally:
        first.send_signal(signal.SIGTERM)
        assert first.wait(60) == 0, (tmp_path / "first.log").read_text()
    assert verify_file(journal).ok
    # the lock goes with the process: a later start takes it
    again = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")
    assert again.returncode == 0, again.stderr


def test_the_writer_lock_is_per_journal_and_readers_take_none(tmp_path: Path):
    path = tmp_path / "j.sqlite"
    writer = Journal(path, exclusive=True)
    writer.append("command", {"command": "open_round"}, source="dealer")
    with pytest.raises(JournalInUse, match="in use by process"):
        Journal(path, exclusive=True)  # a second writer in this process is refused as well
    with Journal(path) as reader:  # recall, verify and the feed's rebuild read alongside
        assert reader.last_seq() == 1
    writer.append("command", {"command": "close_betting"}, source="dealer")  # SQLite's locks survived
    assert lock_path(path).stat().st_mode & 0o777 == 0o600
    with Journal(tmp_path / "other.sqlite", exclusive=True):
        pass  # another journal is another lock
    writer.close()
    with Journal(path, exclusive=True) as after:  # released on close
        assert after.last_seq() == 2
