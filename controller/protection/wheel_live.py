"""The wheel watch at a live roulette table: fed every wheel event the table journals, it journals
its alerts (``wheel.direction_not_alternated``, ``wheel.rotor_speed``, ``wheel.spin_rate``,
``wheel.dealer_signature``) for the pit (docs/protection.md, "The wheel watch").

The readings are the journaled events (``wheel_feed``), timed by the journal, so a replay of the
journal gives the watch the same readings. The operating mode is the wheel's own (its ``*O``
answer at connect, or the mode the host set); a restart rebuilds the watch from the journal's
latest entries without raising again what they already raised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from controller.config import TableConfig
from controller.journal import Entry, Journal
from controller.protection.alerting import alert_after
from controller.protection.wheel_feed import LIVE_SPEED_SUSTAIN, WheelEventFeed
from controller.protection.wheel_watch import WheelWatch, WheelWatchConfig
from controller.runtime.loop import TableLoop
from controller.table import inputs
from controller.table.core import TableCore
from controller.table.pace import seconds
from drivers.wheel.device import WheelDevice

DEVICE: Final = "wheel"
REBUILD_ENTRIES: Final = 20_000


def wheel_mode(loop: TableLoop) -> int | None:
    """The operating mode the table's wheel reported or was set to (None: not known yet)."""
    device: object = loop.devices.get(DEVICE)
    if not isinstance(device, WheelDevice):  # a simulated wheel: the real driver is in front of it
        try:
            device = getattr(device, "driver", None)
        except RuntimeError:  # not opened yet
            return None
    return device.session.mode if isinstance(device, WheelDevice) else None


class WheelListener:
    """A ``TableLoop`` listener: the wheel watch, and the alerts it raises."""

    def __init__(self, loop: TableLoop, feed: WheelEventFeed, mode: Callable[[], int | None]) -> None:
        self.loop, self.feed, self.mode = loop, feed, mode

    def on_entry(self, entry: Entry) -> None:
        if entry.kind != inputs.DEVICE or entry.payload.get("device") != DEVICE:
            return
        core = self.loop.core
        mode = self.mode()
        if mode is not None:
            self.feed.watch.set_mode(mode)
        at = seconds(entry.ts)
        self.feed.watch.set_open(at, not core.closing)
        for found in self.feed.event(at, entry.payload, dealer_of(core)):
            alert_after(self.loop, found.severity, found.code, found.message, entry.seq, device=DEVICE,
                        **found.detail)

    def on_prompt(self, prompt: str, core: TableCore) -> None:
        """The dealer's prompt is no reading of the wheel."""


def dealer_of(core: TableCore) -> str | None:
    """Who spun the ball: the open round's dealer, else the one signed in."""
    return core.round_dealer or core.dealer


def watch_config(config: TableConfig) -> WheelWatchConfig:
    settings = config.protection
    return WheelWatchConfig(
        min_rpm=settings.rotor_min_rpm, max_rpm=settings.rotor_max_rpm,
        target_games_per_hour=settings.spin_rate_target, window_s=settings.spin_rate_window_s,
        speed_sustain=LIVE_SPEED_SUSTAIN, signature_alpha=settings.signature_alpha,
        signature_min_spins=settings.signature_min_spins,
    )


def watch_wheel(loop: TableLoop, journal: Journal, config: TableConfig) -> WheelListener | None:
    """The live wheel watch of a roulette table (``[protection] wheel_watch``), rebuilt from the
    journal's latest entries; None for other games or when it is switched off."""
    if not config.protection.wheel_watch or loop.core.adapter.device != DEVICE:
        return None
    from controller.games.roulette.layout import wheel  # a roulette table's: other tables never import it

    order = tuple(wheel(loop.core.rules.wheel).order)  # type: ignore[attr-defined]
    feed = WheelEventFeed(WheelWatch(order, watch_config(config), open=True))
    for entry in journal.entries(after=max(0, journal.last_seq() - REBUILD_ENTRIES)):
        if entry.kind == inputs.DEVICE and entry.payload.get("device") == DEVICE:
            feed.event(seconds(entry.ts), entry.payload, None)  # what it raised then, it does not raise again
    return WheelListener(loop, feed, lambda: wheel_mode(loop))
