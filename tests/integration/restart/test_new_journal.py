"""A journal is created only when asked: a typo in ``[table] journal`` is one line and exit 2,
not a new table starting again at round 000001 (``croupier init`` or ``run --new-journal``)."""

from __future__ import annotations

from pathlib import Path

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


def test_init_creates_an_empty_journal_once(tmp_path: Path):
    config = write_config(tmp_path, broker="none", table={"journal": "var/t1/table.journal"})
    journal = tmp_path / "var" / "t1" / "table.journal"
    made = croupier("init", "--config", str(config))
    assert made.returncode == 0 and made.stdout.strip() == f"new journal: {journal}", made
    assert journal.stat().st_mode & 0o777 == 0o600
    again = croupier("init", "--config", str(config))
    assert again.returncode == 2 and "already" in again.stderr
    run = croupier("run", "--config", str(config), "--rounds", "1", "--quiet")  # no flag needed any more
    assert run.returncode == 0, run.stderr
    assert closed_rounds(journal) == 1
