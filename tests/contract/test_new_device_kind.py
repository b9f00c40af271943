"""Issue 16, "one device base": a new device kind (the shuffler of docs/devices.md) is one module
(its builder, its device on ``DeviceBase``, its events) and one line in the registry. Here a
fourth, fake kind is registered, named in a table config by its URL only, and opened by the
real table start path (``run_table``): its events reach the table's journal under its name,
its commands are the loop's to give, and none of it is taken for the shoe's."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Literal

import pytest

from controller.config import load
from controller.process import run_table
from drivers import registry
from drivers.base import DeviceBase
from drivers.device import Health
from drivers.device_kit import Command
from drivers.events import DeviceEvent, DeviceOnline
from drivers.registry import BuildOptions, DeviceAddress
from drivers.shoe.events import ShoeFault
from tests.integration.table.conftest import write_config


class Shuffled(DeviceEvent):
    """The fake shuffler's own event: a shoe shuffled and ready to load."""

    type: Literal["shuffled"] = "shuffled"
    device: str
    shoe_id: str
    decks: int


class FakeShuffler(DeviceBase):
    def __init__(self, name: str, target: str, decks: int, **options: Any) -> None:
        super().__init__(name, **options)
        self.target = target
        self.decks = decks

    async def _start(self) -> None:
        self.emit(DeviceOnline(device=self.name, detail=self.target))
        self.emit(Shuffled(device=self.name, shoe_id="S1", decks=self.decks))

    async def _stop(self) -> None:
        pass

    def health(self) -> Health:
        return Health(online=self.is_open)

    def commands(self) -> dict[str, Command]:
        return {"shuffle": self._shuffle, "jam": self._jam}

    async def _jam(self) -> None:
        """A fault event of a shape the shoe also uses: it is the shuffler's, never the shoe's."""
        self.emit(ShoeFault(device=self.name, code=21, text="JAM"))

    async def _shuffle(self, shoe_id: str) -> None:
        self.emit(Shuffled(device=self.name, shoe_id=shoe_id, decks=self.decks))


def fake_shuffler(address: DeviceAddress, options: BuildOptions) -> FakeShuffler:
    """``shuffler+fake://rig-1?decks=8``"""
    params = address.options(decks=6)
    return FakeShuffler(options.name, address.target, params["decks"], sink=options.sink)


async def test_a_fourth_device_kind_opens_from_its_config_url_and_reaches_the_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.DEVICES, ("shuffler", "shuffler+fake"), f"{__name__}:fake_shuffler")  # the one line
    path = write_config(tmp_path, stacked=None)
    path.write_text(path.read_text() + '\n[devices.shuffler]\nurl = "shuffler+fake://rig-1?decks=8"\n')
    config = load(path)
    assert config.devices.others["shuffler"].url.startswith("shuffler+fake://")
    ready: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    async def on_ready(loop: Any, devices: Any) -> None:
        ready.set_result(loop)

    with open(tmp_path / "out.txt", "w") as out:
        table = asyncio.create_task(run_table(config, None, out=out, on_ready=on_ready, keyboard=False))
        try:
            loop = await asyncio.wait_for(ready, 30)
            shuffler = loop.devices["shuffler"]
            assert isinstance(shuffler, FakeShuffler) and shuffler.target == "rig-1" and shuffler.decks == 8
            await shuffler.command("shuffle", shoe_id="S2")
            await shuffler.command("jam")
            await loop.settled()

            def shuffled() -> list[dict[str, Any]]:
                return [e.payload for e in loop.journal.entries() if e.kind == "device" and e.source == "shuffler"]

            await loop.until(lambda core: len([p for p in shuffled() if p["type"] == "shuffled"]) == 2)
            assert [(p["shoe_id"], p["decks"]) for p in shuffled() if p["type"] == "shuffled"] == [("S1", 8), ("S2", 8)]
            assert loop.core.health.online("shuffler")
            await loop.until(lambda core: any(p["type"] == "fault" for p in shuffled()))
            assert loop.core.hold is None  # nothing the shuffler said was taken for the shoe's
            assert loop.core.health.fault("shoe") is None
            codes = [e.payload["code"] for e in loop.journal.entries() if e.kind == "alert"]
            assert not [c for c in codes if c.startswith(("shoe.", "table.card"))]
        finally:
            table.cancel()
            await asyncio.gather(table, return_exceptions=True)
