"""Resume on start: replay the journal's inputs through the same core as live.

Each ``table_started`` entry carries the rules the table ran under from then on, and replay
uses them for the rounds opened after it: a config changed between runs changes the rounds
to come, never the history (a round left open keeps the rules it was opened with).

Outputs are not replayed, they are re-derived: stepping an input gives the same alerts and
round records it gave live. Those already in the journal are skipped; one that is missing
(the process died between an input and its outputs) is written now, so every round is closed
exactly once. Device commands are not re-sent during replay; ``device_sync`` says which the
devices need to match the rebuilt table.
"""

from __future__ import annotations

from dataclasses import dataclass

from controller.journal import Journal
from controller.table import inputs
from controller.table.core import BETTING, IDLE, SETTLING, TableCore
from controller.table.effects import DeviceCommand, Draw, Effect, Gate, Record

TABLE_SOURCE = "table"


@dataclass(frozen=True, slots=True)
class Replay:
    inputs: int  # input entries stepped
    written: int  # missing output entries written now
    round_id: str | None  # the round left open, resumed where it stood


def replay(journal: Journal, core: TableCore) -> Replay:
    """Rebuild ``core`` from ``journal`` (the core must be fresh)."""
    closed: set[tuple[str, int]] = set()  # (round, corrections applied): a correction is a record of its own
    alerts: set[tuple[int, str]] = set()
    entries = list(journal.entries())
    for e in entries:
        if e.kind == inputs.ROUND_CLOSED:
            closed.add((str(e.payload.get("round")), len(e.payload.get("corrections") or [])))
        elif e.kind == inputs.ALERT:
            alerts.add((int(e.payload.get("cause", 0)), str(e.payload.get("code"))))
    stepped = written = 0
    current = core.rules
    for e in entries:
        if e.kind == inputs.TABLE_STARTED:
            core.restarted()
            if "rules" in e.payload:  # rounds opened after that start: the rules it journaled
                core.rules = core.adapter.rules_from_dump(e.payload["rules"])
            core.set_burn(int(e.payload.get("burn_on_new_shoe", 0)))
        if e.kind == inputs.ALERT:
            core.written(e)
        if e.kind not in inputs.INPUT_KINDS:
            continue
        stepped += 1
        for effect in core.step(e):
            if not isinstance(effect, Record):
                continue
            if effect.kind == inputs.ROUND_CLOSED:
                key = (str(effect.payload["round"]), len(effect.payload.get("corrections") or []))
                if key in closed:
                    continue
                closed.add(key)
            elif effect.kind == inputs.ALERT:
                akey = (int(effect.payload.get("cause", 0)), str(effect.payload.get("code")))
                if akey in alerts:
                    continue
                alerts.add(akey)
            core.written(journal.append(effect.kind, effect.payload, source=TABLE_SOURCE, round_id=effect.round_id))
            written += 1
    core.rules = current  # new rounds from now on: the rules of the config started with
    return Replay(stepped, written, core.round_id)


def device_sync(core: TableCore) -> list[Effect]:
    """The gate as the rebuilt table needs it: locked unless cards are being dealt; a resumed
    round's device game started again; and the random draw the round was waiting for when the
    process stopped (never journaled: made now)."""
    out: list[Effect] = [Gate(locked=core.phase in (IDLE, BETTING) and core.shoe.burn_left == 0)]
    own = getattr(core.adapter, "device", None)
    if own is not None and core.engine is not None and core.phase != SETTLING:
        # a resumed round on the game's own device: start its game again (the wheel's *u 1)
        out += [DeviceCommand(own, name) for name in core.adapter.open_commands(core.rules)]
    if core.draw_due():
        out.append(Draw(core.round_id))
    return out
