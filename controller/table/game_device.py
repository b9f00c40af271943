"""What an event of the game's own device (roulette's wheel) does at the table, once the game's
adapter has said what it means (``GameAdapter.device_step`` -> ``DeviceStep``): the device's
health, the commands it is sent, a fault that holds the round, an engine action (docs/devices.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from controller.games.base import RuleError
from controller.table.effects import DeviceCommand, Draw, Gate
from controller.table.games.base import DeviceStep
from controller.table.holds import ERROR, WARNING
from controller.table.phases import BETTING, IDLE, SETTLING

if TYPE_CHECKING:
    from controller.table.core import TableCore


def apply_device_step(core: TableCore, device: str, step: DeviceStep) -> None:
    if step.fault is not None:
        core.health_change(device, fault=step.fault)
    if step.recovered:
        core.health_change(device, online=True, fault=None)
    for name in step.commands:
        core.emit(DeviceCommand(device, name))
    if step.fault is not None and core.engine is not None and core.hold is None:
        severity, code, message = step.alert or (ERROR, f"{device}.fault", step.fault)
        core.raise_hold(code, message, ("void_round",), severity=severity)
    elif step.alert is not None:
        core.alert(*step.alert)
    if step.action is None:
        return
    action = type(step.action).__name__
    if core.engine is None:
        core.alert(WARNING, f"{device}.no_round", f"{device}: {action} with no round open")
    elif core.hold is not None:
        core.alert(WARNING, "table.hold", f"{device}: {action} ignored while the table holds")
    else:
        try:
            core.engine.apply(step.action)
        except RuleError as exc:  # a fact the rules cannot take: hold, never guess
            core.raise_hold(exc.rule, exc.message, ("void_round",))
            return
        core.advanced()


def resume_round(core: TableCore) -> None:
    """A round resumed after a restart: the game's own device starts its game again (the wheel's
    ``*u 1``), and a random draw the round was waiting for is made now."""
    if core.adapter.uses_shoe:  # the gate stayed locked through the hold
        core.emit(Gate(locked=core.phase in (IDLE, BETTING)))
    own = core.adapter.device
    if own is not None and core.engine is not None and core.phase != SETTLING:
        for name in core.adapter.open_commands(core.rules):
            core.emit(DeviceCommand(own, name))
    core.draw_requested = core.draw_due()
    if core.draw_requested:
        core.emit(Draw(core.round_id))
    core.shoe_device.hold_if_empty(core)  # only a shoe the game deals from is ever empty
