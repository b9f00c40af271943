"""A table killed and restarted often replays the inputs since its last start, not everything
since its first snapshot: a start that replayed many inputs snapshots again, and the live hook
counts on from the inputs the start replayed (the soak restarts its table about 110 times)."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

from controller.journal import Entry, Journal
from controller.runtime import snapshot
from controller.runtime.recovery import replay
from controller.runtime.snapshot import Snapshots
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.effects import Record

#: inputs one run applies before it is killed (between rounds): well under ``snapshot.EVERY``
RUN = 150


def _played(path: Path) -> Iterator[Entry]:
    """The input rows of a synthesised journal: the game every run below plays on."""
    with Journal(path) as j:
        yield from (e for e in j.entries() if e.kind in inputs.INPUT_KINDS)


def _run(j: Journal, core: TableCore, feed: Iterator[Entry]) -> int:
    """One life of the table as the live loop leads it: its start (replay, ``table_started``),
    then inputs journaled, applied and their records written, with the snapshot hook, until
    ``RUN`` inputs are applied and the round closed. Returns the inputs its start replayed."""
    assert core.closed_rounds == 0
    started = replay(j, core)
    hook = Snapshots(j)
    hook.carry(started.unsnapshotted)
    j.append(inputs.TABLE_STARTED, {"game": "blackjack", "rules": core.rules.model_dump(mode="json"),
                                    "burn_on_new_shoe": 0}, source="table", round_id=core.round_id)
    core.restarted()
    online = Entry(0, "", None, inputs.DEVICE, "shoe", {"type": "online", "device": "shoe"})  # the driver reconnects
    applied = 0
    for source in itertools.chain([online], feed):
        entry = j.append(source.kind, source.payload, source=source.source, round_id=core.round_id)
        for effect in core.step(entry):
            if isinstance(effect, Record):
                core.written(j.append(effect.kind, effect.payload, source="table", round_id=effect.round_id))
        hook.applied(core, entry)
        applied += 1
        if applied >= RUN and core.engine is None:
            break  # killed between rounds
    assert applied >= RUN, "the synthesised game ran out"
    return started.inputs


def _view(core: TableCore) -> tuple[object, ...]:
    return (core.state(), core.prompt(), core.rounds, core.records, core.shoe.last_n, core.shoe.composition.left("AS"))


def test_many_restarts_each_replay_a_bounded_tail_and_resume_as_a_full_replay(
        synthesised: Callable[[int], Path], fresh_core: Callable[[], TableCore], tmp_path: Path) -> None:
    feed = _played(synthesised(6000))
    with Journal(tmp_path / "restarted.journal") as j:
        replayed = [_run(j, fresh_core(), feed) for _ in range(24)]
        assert max(replayed) < snapshot.AT_START + 2 * RUN, replayed  # without the fix: 2,000 and growing
        assert sum(1 for _ in j.latest("snapshot")) >= 2  # snapshots after the first one, too
        quick, full = fresh_core(), fresh_core()
        last = replay(j, quick)
        assert replay(j, full, snapshots=False).written == last.written == 0
    assert _view(quick) == _view(full) and quick.closed_rounds > 100


def test_the_loop_hook_counts_on_from_the_inputs_the_start_replayed(
        tmp_path: Path, fresh_core: Callable[[], TableCore]) -> None:
    core = fresh_core()
    with Journal(tmp_path / "j.sqlite") as j:
        hook = Snapshots(j, every=5)
        hook.carry(3)  # the start replayed 3 inputs past the last snapshot
        entries = [j.append("command", {"command": "open_round"}, source="dealer") for _ in range(2)]
        for e in entries:
            hook.applied(core, e)
        assert hook.taken == 1 and next(j.latest("snapshot")).payload["covers"] == entries[-1].seq


def test_a_start_on_a_full_disk_skips_its_snapshot_and_still_resumes(
        synthesised: Callable[[int], Path], fresh_core: Callable[[], TableCore]) -> None:
    path = synthesised(3000)
    db = sqlite3.connect(path)
    db.execute("DELETE FROM snapshots")  # a long replay is due: its start would snapshot
    db.commit()
    db.execute("VACUUM")  # and no free page left to write it in
    db.close()
    with Journal(path) as j:
        last = j.last_seq()
        pages = j._db.execute("PRAGMA page_count").fetchone()[0]
        j._db.execute(f"PRAGMA max_page_count = {pages}")  # not one more page
        result = replay(j, fresh_core())
        assert j.last_seq() == last  # nothing written, nothing refused
    assert result.inputs > snapshot.AT_START and result.unsnapshotted == result.inputs
