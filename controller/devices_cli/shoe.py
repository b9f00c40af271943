"""``croupier sim shoe`` and ``croupier listen shoe``: the CSP/1 card shoe on its own.

``sim shoe`` runs the simulated shoe (on a pseudo-terminal, or with ``--usb`` on an in-process
pyusb backend) and deals at a pace. ``listen shoe`` opens the shoe through the device registry
(``docs/devices.md``) at a serial port or a USB VID:PID, answers it as a real session does
(ACKs, NAKs) and prints every event; a port that cannot be opened is one line saying why.
A pyusb backend lives inside one process, so ``listen --usb`` talks to real hardware through the
system libusb; ``--simulated`` puts the simulated shoe on an in-process backend instead.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Annotated

import typer

from controller.devices_cli import print_event, run_until_stopped
from controller.shoe import Shoe
from drivers import registry
from drivers.errors import DriverError
from drivers.events import DeviceEvent
from drivers.shoe import DEFAULT_PID, DEFAULT_VID, parse_vid_pid
from simulators.shoe import SerialShoeSim, ShoeFirmware, UsbShoeSim

_DEFAULT_USB = f"{DEFAULT_VID:04x}:{DEFAULT_PID:04x}"


def _firmware(decks: int, seed: int | None) -> ShoeFirmware:
    rng = random.Random(seed)

    def shuffled(n: int) -> Shoe:
        return Shoe.with_penetration(n, rng, n * 0.7, n * 0.8)

    return ShoeFirmware(shuffled(decks), rng=rng, reshuffle=shuffled)


def _vid_pid(text: str) -> tuple[int, int]:
    try:
        return parse_vid_pid(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--usb") from None


def register(listen_app: typer.Typer, sim_app: typer.Typer) -> None:
    @sim_app.command("shoe")
    def sim_shoe(
        decks: Annotated[int, typer.Option(min=1, max=16, help="decks in the shoe")] = 6,
        seed: Annotated[int | None, typer.Option(help="seed of the shuffle")] = None,
        on_usb: Annotated[bool, typer.Option("--usb", help="a USB shoe on an in-process pyusb backend")] = False,
        vid_pid: Annotated[str, typer.Option("--vid-pid", help="USB VID:PID (hex)")] = _DEFAULT_USB,
        link: Annotated[Path | None, typer.Option(help="serial: also a stable symlink to the pty")] = None,
        pace: Annotated[float, typer.Option(min=0.01, help="seconds between cards")] = 2.0,
    ) -> None:
        """Run the simulated shoe standalone, dealing a card every PACE seconds."""
        firmware = _firmware(decks, seed)

        async def main() -> None:
            sim: SerialShoeSim | UsbShoeSim
            if on_usb:
                vid, pid = _vid_pid(vid_pid)
                sim = UsbShoeSim(firmware, vid, pid)
                await sim.start()
                usb_id = f"{vid:04x}:{pid:04x}"
                where = f"usb {usb_id} on an in-process pyusb backend (see: croupier listen shoe --usb {usb_id} --simulated)"
            else:
                serial_sim = sim = SerialShoeSim(firmware, link)
                await sim.start()
                where = f"{serial_sim.path} (serial 115200 8N1)"
            typer.echo(f"shoe simulator: {decks} decks, listening on {where}", err=False)
            try:
                await firmware.deal(pace, on_card=lambda card, n: typer.echo(f"dealt {card} n={n}", err=True))
            finally:
                await sim.stop()

        run_until_stopped(main())

    @listen_app.command("shoe")
    def listen_shoe(
        port: Annotated[str | None, typer.Option(help="serial port or pyserial URL of the shoe")] = None,
        usb_id: Annotated[str | None, typer.Option("--usb", help=f"USB VID:PID of the shoe, e.g. {_DEFAULT_USB}")] = None,
        simulated: Annotated[
            bool, typer.Option("--simulated", help="with --usb: a simulated shoe on an in-process backend")
        ] = False,
        pace: Annotated[float, typer.Option(min=0.01, help="with --simulated: seconds between cards")] = 1.0,
        count: Annotated[int | None, typer.Option(min=1, help="stop after this many events")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
    ) -> None:
        """Run the shoe driver alone and print every event it emits."""
        if (port is None) == (usb_id is None):
            raise typer.BadParameter("give exactly one of --port PATH or --usb VID:PID")
        if simulated and usb_id is None:
            raise typer.BadParameter("--simulated goes with --usb", param_hint="--simulated")
        if usb_id is not None:
            vid, pid = _vid_pid(usb_id)
            url = f"{'sim+usb' if simulated else 'usb'}://{vid:04x}:{pid:04x}"
        else:
            assert port is not None
            url = port if "://" in port else f"serial://{port}"
        if usb_id is not None and not simulated:
            import usb.backend.libusb1 as libusb1

            if libusb1.get_backend() is None:
                typer.echo("error: libusb 1.0 is not available (or use --simulated)", err=True)
                raise typer.Exit(2)
        try:
            run_until_stopped(_listen(url, pace, count, as_json))
        except DriverError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None


async def _listen(url: str, pace: float, count: int | None, as_json: bool) -> None:
    seen = 0
    done = asyncio.Event()

    def show(event: DeviceEvent) -> None:
        nonlocal seen
        if done.is_set():
            return
        print_event(event, as_json)
        seen += 1
        if count is not None and seen >= count:
            done.set()

    device = registry.build(url, "shoe", sink=show)
    await device.open()
    firmware: ShoeFirmware | None = getattr(device, "firmware", None)
    dealer = asyncio.create_task(firmware.deal(pace)) if firmware is not None else None
    try:
        await done.wait()
    finally:
        if dealer is not None:
            dealer.cancel()
            await asyncio.gather(dealer, return_exceptions=True)
        await device.close()
