"""Resume on start: the last snapshot, then the journal's inputs after it through the same core as live.

The newest usable ``snapshot`` row (``controller.runtime.snapshot``) gives the core as it stood
after input ``covers``; only the entries after that are read, streamed, and checked against
the hash chain in the same pass, so a start costs the entries since the last snapshot, not the
journal (docs/deployment.md). A start that replayed ``snapshot.AT_START`` inputs or more (the
whole journal without a usable snapshot, or the inputs of many short runs since the last one)
writes a snapshot at once, so the next start is short again: a table killed and restarted
often replays the inputs since its last start, never everything since its first snapshot.

Each ``table_started`` entry carries the rules the table ran under from then on, and replay
uses them for the rounds opened after it: a config changed between runs changes the rounds
to come, never the history (a round left open keeps the rules it was opened with).

Outputs are not replayed, they are re-derived: stepping an input gives the same alerts and
round records it gave live. Those already in the journal are skipped; one that is missing
(the process died between an input and its outputs) is written now, so every round is closed
exactly once. Device commands are not re-sent during replay; ``device_sync`` says which the
devices need to match the rebuilt table.

A break in the chain (an edited, deleted or reordered row) or dropped append-only triggers
hold the table with one ``journal.integrity`` alert naming the seq: the entries from the break
on are not applied and no output is derived from them (a deleted round would otherwise be
"closed" again with whatever the damaged journal implies). A snapshot is written after the
alert, so the hold and the alert survive restarts until the pit dismisses the hold.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from controller.journal import Journal, JournalFull
from controller.runtime import snapshot
from controller.table import inputs
from controller.table.betting import BettingTime
from controller.table.core import TableCore
from controller.table.effects import DeviceCommand, Draw, Effect, Record
from controller.table.game_device import resumption
from controller.table.holds import ERROR, alert
from controller.verify import ChainBreak, chained

TABLE_SOURCE = "table"
INTEGRITY = "journal.integrity"
SNAPSHOT_DAMAGED = "journal.snapshot_damaged"

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Replay:
    inputs: int  # input entries stepped
    written: int  # missing output entries written now
    round_id: str | None  # the round left open, resumed where it stood
    snapshot: int | None = None  # the snapshot row the replay started from
    integrity: str | None = None  # why the table holds on its journal (a break, dropped triggers)
    rounds_closed: int = 0  # round records among ``written``: the last run died between the closing input and its record
    unsnapshotted: int = 0  # inputs in the journal after the last snapshot (the live hook counts on from here)


@dataclass(slots=True)
class _Outputs:
    """The outputs already journaled after the replay's start (so they are not written twice)."""

    closed: set[tuple[str, int]]  # (round, corrections applied): a correction is a record of its own
    alerts: set[tuple[int, str]]  # (cause, code)
    last_input: int = 0
    others: set[tuple[str, int]] = field(default_factory=set)  # (kind, cause): remote totals


def _scan(journal: Journal, after: int, until: int) -> _Outputs:
    """One streaming pass over the tail, each row checked against the chain (ChainBreak)."""
    out = _Outputs(set(), set(), after)
    for e in chained(journal, after, until=until):
        if e.kind == inputs.ROUND_CLOSED:
            out.closed.add((str(e.payload.get("round")), len(e.payload.get("corrections") or [])))
        elif e.kind == inputs.ALERT:
            out.alerts.add((int(e.payload.get("cause", 0)), str(e.payload.get("code"))))
        elif e.kind == inputs.REMOTE_SETTLED:
            out.others.add((e.kind, int(e.payload.get("cause", 0))))
        elif e.kind in inputs.INPUT_KINDS:
            out.last_input = e.seq
    return out


def replay(journal: Journal, core: TableCore, *, snapshots: bool = True) -> Replay:
    """Rebuild ``core`` from ``journal`` (the core must be fresh); ``snapshots=False`` replays
    the whole journal and writes no snapshot (the benchmark's baseline)."""
    fresh = dict(vars(core))
    current = core.rules
    until = journal.last_seq()
    damaged: list[str] = []  # snapshots passed over: an alert, not only a log line
    restored = None
    if snapshots:
        snapshot.fingerprint(core.adapter.game)  # the code as this start found it, not a later upgrade's
        restored = snapshot.restore(journal, core, problems=damaged)
    start = restored.covers if restored else 0
    broken: ChainBreak | None = None
    try:
        seen = _scan(journal, start, until)
    except ChainBreak as exc:
        broken = exc
        if restored is not None and exc.seq <= restored.seq:  # the snapshot itself is past the break
            vars(core).update(fresh)
            restored = snapshot.restore(journal, core, before=exc.seq, problems=damaged)
            start = restored.covers if restored else 0
        until = exc.seq - 1
        seen = _Outputs(set(), set())
    # a journal cut short or written without the key (found at open) derives nothing either
    clean = broken is None and not journal.problems
    stepped, written, rounds_closed = _step_all(journal, core, start, until, seen, write=clean)
    core.started_with(current)  # new rounds from now on: the rules of the config started with
    if damaged:
        core.written(journal.append(inputs.ALERT, alert(ERROR, SNAPSHOT_DAMAGED, "; ".join(damaged) + (
            ": the start replayed from an older snapshot or the journal instead; check the journal "
            "(croupier verify-journal)"), 0), source=TABLE_SOURCE, round_id=core.round_id))
    problem = _integrity_problem(journal, broken)
    unsnapshotted = stepped if snapshots else 0
    if problem is not None:
        _hold_for_integrity(journal, core, problem, broken.seq if broken else 0)  # with a snapshot
        unsnapshotted = 0
    elif snapshots and stepped >= snapshot.AT_START and _snapshot_at_start(journal, core, seen.last_input):
        unsnapshotted = 0  # a long replay: the next start begins here
    return Replay(stepped, written, core.round_id, restored.seq if restored else None, problem,
                  rounds_closed, unsnapshotted)


def _snapshot_at_start(journal: Journal, core: TableCore, covers: int) -> bool:
    """A snapshot after a long replay; on a full disk none (the next start tries again), not a
    start refused for it."""
    try:
        snapshot.take(journal, core, covers)
    except JournalFull:
        log.warning("journal full: the start's snapshot after seq %s skipped", covers)
        return False
    return True


def _step_all(journal: Journal, core: TableCore, start: int, until: int, seen: _Outputs,
              write: bool) -> tuple[int, int, int]:
    """Inputs stepped, outputs written now, and how many of those close a round (not a correction)."""
    stepped = written = rounds_closed = 0
    for e in journal.entries(after=start, until=until):
        if e.kind == inputs.TABLE_STARTED:
            _started(core, e.payload)
        if e.kind == inputs.ALERT:
            core.written(e)
        if e.kind not in inputs.INPUT_KINDS:
            continue
        stepped += 1
        for effect in core.step(e):
            if not isinstance(effect, Record) or not write or _known(effect, seen):
                continue
            core.written(journal.append(effect.kind, effect.payload, source=TABLE_SOURCE, round_id=effect.round_id))
            written += 1
            rounds_closed += effect.kind == inputs.ROUND_CLOSED and not effect.payload.get("corrections")
    return stepped, written, rounds_closed


def _started(core: TableCore, payload: dict[str, Any]) -> None:
    core.restarted(hold_open_round=bool(payload.get("hold_open_round")))
    if "rules" in payload:  # rounds opened after that start: the rules it journaled
        core.started_with(core.adapter.rules_from_dump(payload["rules"]))
    core.set_burn(int(payload.get("burn_on_new_shoe", 0)))
    core.betting.set_time(BettingTime.from_payload(payload))  # the betting time and remote bets of that start


def _known(effect: Record, seen: _Outputs) -> bool:
    """Already journaled (then skipped); if not, remembered as written now."""
    if effect.kind == inputs.ROUND_CLOSED:
        key = (str(effect.payload["round"]), len(effect.payload.get("corrections") or []))
        if key in seen.closed:
            return True
        seen.closed.add(key)
    elif effect.kind == inputs.ALERT:
        akey = (int(effect.payload.get("cause", 0)), str(effect.payload.get("code")))
        if akey in seen.alerts:
            return True
        seen.alerts.add(akey)
    elif effect.kind == inputs.REMOTE_SETTLED:
        okey = (effect.kind, int(effect.payload.get("cause", 0)))
        if okey in seen.others:
            return True
        seen.others.add(okey)
    return False


def _integrity_problem(journal: Journal, broken: ChainBreak | None) -> str | None:
    said = []
    if broken is not None:
        said.append(f"journal chain broken at seq {broken.seq}: {broken.reason}; entries from seq {broken.seq} "
                    f"on were not applied")
    if journal.triggers_missing:
        said.append("the journal's append-only triggers had been dropped (re-created now)")
    said += journal.problems  # found at open, before this start wrote anything (truncation, the key)
    if not said:
        return None
    return "; ".join(said) + ": check the journal (croupier verify-journal) and restore it from backup"


def _hold_for_integrity(journal: Journal, core: TableCore, message: str, seq: int) -> None:
    """One alert, a hold only the pit can release (with a reason) once it has looked, and a
    snapshot past the damage. The rounds opened in the entries not applied still count: no round
    id is issued twice."""
    for number in _round_numbers(journal, core.table_id, after=seq - 1 if seq else journal.last_seq()):
        core.round.seen(number)
    hold = core.raise_hold(INTEGRITY, message, ("dismiss",), cause=seq, pit_only=True, announce=False)
    payload = alert(ERROR, INTEGRITY, message, seq, hold=hold, seq=seq)
    core.written(journal.append(inputs.ALERT, payload, source=TABLE_SOURCE, round_id=core.round_id))
    journal.triggers_missing = False  # said once, in the journal
    journal.problems = []
    snapshot.take(journal, core, journal.last_seq())


def _round_numbers(journal: Journal, table_id: str, after: int) -> Iterator[int]:
    """The numbers of this table's round ids in the entries after ``after`` (not applied: read
    as they stand, whatever the damage)."""
    own = re.compile(rf"{re.escape(table_id)}-(\d{{1,12}})")
    for entry in journal.entries(after=after):
        found = own.fullmatch(entry.round_id or "")
        if found:
            yield int(found.group(1))


def device_sync(core: TableCore) -> list[Effect]:
    """What the devices need for the rebuilt table (``game_device.resumption``: the gate, a
    resumed round's device game, the draw it waits for; while the table holds on the restart
    the dealer's ``resume`` starts the device's game), and a fault of the game's own device in
    the journal cleared afresh (the new driver never saw it)."""
    out = resumption(core)
    own = core.adapter.device
    if own is not None and core.health.fault(own) is not None:
        at = next((i for i, e in enumerate(out) if isinstance(e, Draw)), len(out))  # before the draw
        out[at:at] = [DeviceCommand(own, name) for name in core.adapter.recover_commands()]
    return out
