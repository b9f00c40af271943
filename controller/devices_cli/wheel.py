"""`croupier sim wheel` (the simulated Cammegh SS2 on a pty) and `croupier listen wheel` (the
driver alone, opened through the device registry, printing every event) for hardware-in-the-loop
work (``docs/devices.md``). A port that cannot be opened is one line saying why."""

from __future__ import annotations

import asyncio
import logging
import random
from pathlib import Path
from typing import Annotated

import typer

from controller.devices_cli import print_event, run_until_stopped
from drivers import registry
from drivers.clock import SYSTEM_CLOCK, Clock, ScaledClock
from drivers.errors import DriverError
from drivers.events import DeviceEvent
from drivers.wheel.replay import replay as replay_trace
from simulators.wheel import WheelSimulator


def _clock(speed: float) -> Clock:
    return SYSTEM_CLOCK if speed == 1 else ScaledClock(speed)


SPEED_HELP = "run protocol time this many times faster (tests and demos; use the same on both sides)"


def register(listen_app: typer.Typer, sim_app: typer.Typer) -> None:
    @sim_app.command("wheel")
    def sim_wheel(
        pockets: Annotated[int, typer.Option(help="37 (single zero) or 38 (with 00)")] = 37,
        seed: Annotated[int | None, typer.Option(help="seed of the random results")] = None,
        result: Annotated[list[str] | None, typer.Option(help="next winning number (repeatable, in order)")] = None,
        mode: Annotated[int, typer.Option(help="operating mode bit sum (1159: vendor's recommendation)")] = 1159,
        off: Annotated[bool, typer.Option("--off", help="start powered down (state 6)")] = False,
        speed: Annotated[float, typer.Option(min=0.01, help=SPEED_HELP)] = 1.0,
    ) -> None:
        """Run the simulated wheel on a pseudo-terminal and print its path; Ctrl-C stops it."""
        if pockets not in (37, 38):
            raise typer.BadParameter("37 or 38", param_hint="--pockets")
        try:
            run_until_stopped(_simulate(pockets, seed, result or [], mode, not off, _clock(speed)))
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--result") from None

    @listen_app.command("wheel")
    def listen_wheel(
        port: Annotated[str | None, typer.Option(help="tty path or pyserial URL, e.g. /dev/ttyUSB0")] = None,
        replay: Annotated[Path | None, typer.Option(help="instead of a port: a trace file, replayed offline")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
        auto_start: Annotated[bool, typer.Option(help="answer every place_bets with *u 1 (modes with bit 2)")] = False,
        speed: Annotated[float, typer.Option(min=0.01, help=SPEED_HELP)] = 1.0,
    ) -> None:
        """Run the wheel driver alone and print every event it emits (or what it makes of a trace)."""
        logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(message)s")
        if (port is None) == (replay is None):
            raise typer.BadParameter("give --port or --replay", param_hint="--port")
        if replay is not None:
            with open(replay, "rb") as lines:
                for _, event in replay_trace(lines).events:
                    print_event(event, as_json)
            return
        assert port is not None
        try:
            run_until_stopped(_listen(port, as_json, auto_start, _clock(speed)))
        except DriverError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None


async def _simulate(pockets: int, seed: int | None, results: list[str], mode: int, powered: bool, clock: Clock) -> None:
    sim = WheelSimulator(
        clock=clock, rng=random.Random(seed), pockets=pockets, mode=mode, results=results, powered=powered
    )
    async with sim:
        typer.echo(sim.path)
        await asyncio.Event().wait()


async def _listen(port: str, as_json: bool, auto_start: bool, clock: Clock) -> None:
    pending: set[asyncio.Task[None]] = set()

    async def start_game() -> None:
        try:
            await device.command("start_game")
        except DriverError as exc:
            logging.warning("*u 1 failed: %s", exc)

    def emit(event: DeviceEvent) -> None:
        print_event(event, as_json)
        if auto_start and event.type == "place_bets":
            task = asyncio.get_running_loop().create_task(start_game())
            pending.add(task)
            task.add_done_callback(pending.discard)

    device = registry.build(port if "://" in port else f"serial://{port}", "wheel", sink=emit, clock=clock)
    await device.open()
    try:
        await asyncio.Event().wait()
    finally:
        await device.close()
