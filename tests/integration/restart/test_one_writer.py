"""One table process per journal: a second ``croupier run`` on the same journal is refused with
one line and exit 2 while the first plays on (two writers closed the same round ids twice),
whatever path reaches the journal file (a symlink, a hard link: the lock is on the file)."""

from __future__ import annotations

import os
import signal
from collections import Counter
from pathlib import Path

import pytest

from controller.journal import Journal, JournalInUse
from controller.verify import verify_file
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.restart.processes import closed_rounds, croupier, feed_url, run_table, wait_until, write_config
from tests.integration.table_stress.harness import round_entries


def test_a_second_table_process_on_the_same_journal_is_refused(mosquitto: MosquittoBroker, tmp_path: Path):
    config = write_config(tmp_path, broker=feed_url(mosquitto))
    journal = tmp_path / "table.journal"
    _second_refused_while_the_first_plays(tmp_path, config, journal, config, journal, "--new-journal")
    assert verify_file(journal).ok
    # the lock goes with the process: a later start takes it
    again = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")
    assert again.returncode == 0, again.stderr


def _second_refused_while_the_first_plays(tmp_path: Path, first_config: Path, journal: Path, second_config: Path,
                                          named: Path, *first_options: str) -> None:
    """A table on ``first_config`` plays; ``croupier run`` on ``second_config`` is refused with one
    line naming ``named`` (its own path to the journal) and the first's pid; the first plays on."""
    first = run_table(first_config, *first_options, log=tmp_path / "first.log")
    try:
        wait_until(lambda: closed_rounds(journal) >= 1, "the first table's first round", process=first, within=90)
        second = croupier("run", "--config", str(second_config), "--rounds", "3", "--quiet")
        assert second.returncode == 2, (second.stdout, second.stderr)
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and f"the journal {named} is in use by process {first.pid}" in lines[0], lines
        assert "Traceback" not in second.stderr and second.stdout == ""
        played = closed_rounds(journal)  # the first one still plays
        wait_until(lambda: closed_rounds(journal) > played, "a round after the refusal", process=first, within=90)
    finally:
        first.send_signal(signal.SIGTERM)
        assert first.wait(60) == 0, (tmp_path / "first.log").read_text()


def test_the_writer_lock_is_per_journal_and_readers_take_none(tmp_path: Path):
    path = tmp_path / "j.sqlite"
    writer = Journal(path, exclusive=True)
    writer.append("command", {"command": "open_round"}, source="dealer")
    with pytest.raises(JournalInUse, match="in use by process"):
        Journal(path, exclusive=True)  # a second writer in this process is refused as well
    with Journal(path) as reader:  # recall, verify and the feed's rebuild read alongside
        assert reader.last_seq() == 1
    writer.append("command", {"command": "close_betting"}, source="dealer")  # SQLite's locks survived
    with Journal(tmp_path / "other.sqlite", exclusive=True):
        pass  # another journal is another lock
    writer.close()
    with Journal(path, exclusive=True) as after:  # released on close
        assert after.last_seq() == 2


@pytest.mark.parametrize("reach", ["symlink", "hard link"])
def test_another_path_to_the_same_journal_file_is_refused_too(tmp_path: Path, reach: str):
    """Two configs, one journal file reached by two paths: the second table process is refused
    naming its journal, the first plays on, and no round is closed twice."""
    first_dir, second_dir = tmp_path / "a", tmp_path / "b"
    first_dir.mkdir()
    second_dir.mkdir()
    journal = first_dir / "table.journal"
    first_config = write_config(first_dir, broker="none")
    made = croupier("init", "--config", str(first_config))
    assert made.returncode == 0, made.stderr
    other = second_dir / "table.journal"
    if reach == "symlink":
        other.symlink_to(journal)
    else:
        os.link(journal, other)
    for made_beside in first_dir.glob("table.journal.key"):  # the same key, so only the lock can refuse
        os.link(made_beside, second_dir / made_beside.name)
    second_config = write_config(second_dir, broker="none")
    _second_refused_while_the_first_plays(tmp_path, first_config, journal, second_config, other)
    closed = Counter(record["round"] for _, record in round_entries(journal) if not record.get("corrections"))
    assert closed and max(closed.values()) == 1, closed
    assert verify_file(journal, (first_dir / "table.journal.key").read_bytes().strip()
                       if (first_dir / "table.journal.key").exists() else None).ok


def test_a_second_writer_through_a_symlink_or_hard_link_in_this_process_is_refused(tmp_path: Path):
    path = tmp_path / "j.sqlite"
    (tmp_path / "via-link").symlink_to(path.name)
    with Journal(path, exclusive=True) as writer:
        writer.append("command", {"command": "open_round"}, source="dealer")
        os.link(path, tmp_path / "hard")
        for other in (tmp_path / "via-link", tmp_path / "hard"):
            with pytest.raises(JournalInUse, match=f"the journal {other} is in use by process {os.getpid()}"):
                Journal(other, exclusive=True)
        writer.append("command", {"command": "close_betting"}, source="dealer")  # SQLite's locks survived
    with Journal(tmp_path / "hard", exclusive=True) as after:  # released on close, whatever the path
        assert after.last_seq() == 2
