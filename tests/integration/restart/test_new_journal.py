"""A journal is created only when asked: a typo in ``[table] journal`` is one line and exit 2,
not a new table starting again at round 000001 (``croupier init`` or ``run --new-journal``).
Either makes it keyed, with a new key beside it when the config names none."""

from __future__ import annotations

from pathlib import Path

from controller.journal import Journal
from controller.verify import verify_file
from tests.integration.restart.processes import closed_rounds, croupier, write_config


def test_a_missing_journal_is_refused_and_nothing_is_created(tmp_path: Path):
    config = write_config(tmp_path, broker="none", table={"journal": "tabel/table.journal"})
    run = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")
    assert run.returncode == 2, (run.stdout, run.stderr)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "no journal at" in lines[0] and "tabel/table.journal" in lines[0], lines
    assert "croupier init" in lines[0] and "--new-journal" in lines[0]
    assert not (tmp_path / "tabel").exists()  # neither the directory nor the file


def test_new_journal_creates_and_says_so_then_resumes(tmp_path: Path):
    config = write_config(tmp_path, broker="none")
    journal = tmp_path / "table.journal"
    run = croupier("run", "--config", str(config), "--rounds", "2", "--quiet", "--new-journal")
    assert run.returncode == 0, run.stderr
    assert f"new journal: {journal}" in run.stderr.splitlines()
    assert closed_rounds(journal) == 2
    again = croupier("run", "--config", str(config), "--rounds", "1", "--quiet", "--new-journal")
    assert again.returncode == 0 and "new journal" not in again.stderr, again.stderr  # an existing one is resumed
    assert closed_rounds(journal) == 3
    key = tmp_path / "table.journal.key"  # made with it, and the restart resumed keyed
    assert f"new journal key: {key} (back it up apart from the journal)" in run.stderr.splitlines()
    assert verify_file(journal, key.read_bytes().strip()).ok


def test_init_creates_an_empty_journal_once(tmp_path: Path):
    config = write_config(tmp_path, broker="none", table={"journal": "var/t1/table.journal"})
    journal = tmp_path / "var" / "t1" / "table.journal"
    made = croupier("init", "--config", str(config))
    key = journal.parent / "table.journal.key"  # no key_file in the config: the key beside the journal
    assert made.returncode == 0 and made.stdout.splitlines() == [
        f"new journal key: {key} (back it up apart from the journal)", f"new journal: {journal}"], made
    assert journal.stat().st_mode & 0o777 == 0o600 and key.stat().st_mode & 0o777 == 0o600
    assert len(key.read_bytes().strip()) >= 32
    with Journal(journal) as made_journal:  # keyed from its first row
        first = made_journal.entry(1)
        assert first is not None and first.kind == "journal_keyed" and made_journal.checkpoint() is not None
    again = croupier("init", "--config", str(config))
    assert again.returncode == 2 and "already" in again.stderr
    run = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")  # no flag needed any more
    assert run.returncode == 0, run.stderr
    assert closed_rounds(journal) == 1
    assert verify_file(journal, key.read_bytes().strip()).ok
