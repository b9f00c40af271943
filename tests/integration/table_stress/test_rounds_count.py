"""`croupier run --rounds N` after a death between a round's closing input and its record.

The crash test's driver counts the journal's round records and asks the next start for the
rest. When the last run died after journaling ``settle`` but before the round's record, the
next start's replay writes that record: it is this start's round, so ``--rounds`` counts it and
the table ends with exactly the total asked for (it once played one round too many).
"""

from __future__ import annotations

from pathlib import Path

from controller.journal import Journal
from controller.journal_keyed import KEYED
from controller.table import inputs
from tests.integration.feed.conftest import TABLE
from tests.integration.table_stress import harness
from tests.integration.table_stress.test_crash import RUN_TIMEOUT, wait_exit


def _copy_until_last_settle(source: Path, target: Path) -> None:
    """``target``: ``source``'s entries up to and including its last ``settle`` command, newly
    chained, as a journal left by a process killed right after that input was durable."""
    with Journal(source) as full:
        rows = list(full.entries())
    last_settle = max(e.seq for e in rows if e.kind == inputs.COMMAND and e.payload.get("command") == "settle")
    assert not any(e.kind == "snapshot" for e in rows)  # a short run: nothing to carry beyond the rows
    with Journal(target) as cut:  # unkeyed: the copy is a journal from before keys, its rows the same
        for e in rows:
            if e.seq > last_settle:
                break
            if e.kind == KEYED:
                continue
            cut.append(e.kind, e.payload, source=e.source, round_id=e.round_id, ts=e.ts)


async def test_a_round_closed_by_replay_counts_toward_the_rounds_asked_for(tmp_path: Path) -> None:
    played, crashed = tmp_path / "played", tmp_path / "crashed"
    for d in (played, crashed):
        d.mkdir()
    proc = harness.start(harness.write_config(played, broker="none"), 3, log=tmp_path / "played.log")
    assert await wait_exit(proc, RUN_TIMEOUT) == 0, (tmp_path / "played.log").read_text()[-3000:]
    assert harness.closed_rounds(played / "table.journal") == 3

    config = harness.write_config(crashed, broker="none")
    journal = crashed / "table.journal"
    _copy_until_last_settle(played / "table.journal", journal)
    assert harness.closed_rounds(journal) == 2  # round 3 was settled, its record never written

    proc = harness.start(config, 1, log=tmp_path / "crashed.log")  # 3 asked for, 2 recorded
    assert await wait_exit(proc, RUN_TIMEOUT) == 0, (tmp_path / "crashed.log").read_text()[-3000:]
    records = [rec for _, rec in harness.round_entries(journal)]
    assert [r["round"] for r in records] == [f"{TABLE}-{n:06d}" for n in (1, 2, 3)]
    assert records == [rec for _, rec in harness.round_entries(played / "table.journal")]
