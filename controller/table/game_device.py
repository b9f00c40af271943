"""What an event of the game's own device (roulette's wheel) does at the table, once the game's
adapter has said what it means (``GameAdapter.device_step`` -> ``DeviceStep``): the device's
health, the commands it is sent, a fault that holds the round, an engine action (docs/devices.md).
And the one place that decides what a resumed round needs of the devices (``resumption``)."""

from __future__ import annotations

from typing import Any, Protocol

from controller.games.base import GameRules, RuleError
from controller.table.betting import SEALING, BettingDesk
from controller.table.effects import DeviceCommand, Draw, Effect, Gate
from controller.table.games.base import DeviceStep, Engine, GameAdapter
from controller.table.holds import ERROR, WARNING, Hold
from controller.table.phases import BETTING, IDLE, SETTLING
from controller.table.shoe_device import ShoeState


class GameDeviceTable(Protocol):
    """What the game's own device needs of the table."""

    @property
    def engine(self) -> Engine | None: ...

    @property
    def hold(self) -> Hold | None: ...

    @property
    def betting(self) -> BettingDesk: ...

    @property
    def phase(self) -> str: ...

    @property
    def round_id(self) -> str | None: ...

    @property
    def adapter(self) -> GameAdapter: ...

    @property
    def rules(self) -> GameRules: ...

    @property
    def shoe(self) -> ShoeState: ...

    def health_change(self, device: str, **change: Any) -> None: ...

    def emit(self, effect: Effect) -> None: ...

    def alert(self, severity: str, code: str, message: str, **detail: Any) -> None: ...

    def raise_hold(self, code: str, message: str, options: tuple[str, ...], *, severity: str = ERROR) -> Hold: ...

    def advanced(self) -> None: ...

    def draw_due(self) -> bool: ...


def apply_device_step(table: GameDeviceTable, device: str, step: DeviceStep) -> None:
    if step.fault is not None:
        table.health_change(device, fault=step.fault)
    if step.recovered:
        table.health_change(device, online=True, fault=None)
    for name in step.commands:
        table.emit(DeviceCommand(device, name))
    if step.fault is not None and table.engine is not None and table.hold is None:
        severity, code, message = step.alert or (ERROR, f"{device}.fault", step.fault)
        table.raise_hold(code, message, ("void_round",), severity=severity)
    elif step.alert is not None:
        table.alert(*step.alert)
    if step.action is None:
        return
    action = type(step.action).__name__
    if table.engine is None:
        table.alert(WARNING, f"{device}.no_round", f"{device}: {action} with no round open")
    elif table.hold is not None:
        table.alert(WARNING, "table.hold", f"{device}: {action} ignored while the table holds")
    else:
        try:
            table.engine.apply(step.action)
        except RuleError as exc:  # a fact the rules cannot take: hold, never guess
            table.raise_hold(exc.rule, exc.message, ("void_round",))
            return
        table.advanced()


def resumption(table: GameDeviceTable) -> list[Effect]:
    """What the devices need for the table as it stands after a restart, or for a round the
    dealer resumed: the gate locked unless cards are being dealt (and while the table holds),
    the game's own device started again (the wheel's ``*u 1``) for a round still in play, and
    the random draw the round waits for (never journaled before it is made: made now)."""
    out: list[Effect] = []
    if table.adapter.uses_shoe:
        out.append(Gate(locked=table.hold is not None or table.betting.status == SEALING
                        or (table.phase in (IDLE, BETTING) and table.shoe.burn_left == 0)))
    own = table.adapter.device
    if own is not None and table.engine is not None and table.phase != SETTLING and table.hold is None:
        out += [DeviceCommand(own, name) for name in table.adapter.open_commands(table.rules)]
    if table.draw_due():
        out.append(Draw(table.round_id))
    return out
