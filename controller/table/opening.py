"""When a round may open (docs/rules.md, procedures): the last round closed, the shoe ready (no
cut card out, no burn due, a fresh deck where the game shuffles every round), the table not
closed by the pit, every device the game needs online and no device fault uncleared."""

from __future__ import annotations

from typing import Protocol

from controller.table.games.base import GameAdapter
from controller.table.health import DeviceHealth
from controller.table.refusal import Refusal
from controller.table.shoe_device import SHOE, ShoeState


class OpeningTable(Protocol):
    """What deciding whether a round may open reads of the table."""

    @property
    def round_open(self) -> bool: ...

    @property
    def round_id(self) -> str | None: ...

    @property
    def closing(self) -> bool: ...

    @property
    def shoe(self) -> ShoeState: ...

    @property
    def health(self) -> DeviceHealth: ...

    @property
    def adapter(self) -> GameAdapter: ...


def check_can_open(core: OpeningTable) -> None:
    """Refusal naming the first reason a round cannot open now."""
    shoe, health, own = core.shoe, core.health, core.adapter.device
    if core.round_open:
        raise Refusal("table.round.open", f"round {core.round_id} is not closed")
    if shoe.needs_new and not shoe.cut_seen:  # a game that shuffles every round
        raise Refusal("table.shoe.shuffle", "this game deals every round from a new deck: load it first")
    if shoe.needs_new:
        raise Refusal("table.shoe.cut", "the cut card is out: load a new shoe first")
    if shoe.burn_left > 0:
        raise Refusal("table.shoe.burn", f"burn {shoe.burn_left} more card(s) out of the new shoe first")
    if core.closing:
        raise Refusal("table.closing", "the pit closed the table after the last round")
    if core.adapter.uses_shoe and not health.online(SHOE):
        raise Refusal("device.shoe.offline", "the shoe has not reported since the table started")
    if own is not None and not health.online(own):
        raise Refusal(f"device.{own}.offline", f"the {own} has not reported since the table started")
    faults = health.faults()
    if faults:
        raise Refusal("device.fault", f"device fault not cleared: {faults}")
