"""`croupier listen spots` (the bet-spot driver alone, printing its events) and `croupier sim
spots` (simulated spots on a broker; with no broker given, an embedded demo broker)."""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated

import typer

from controller.devices_cli import print_event, run_until_stopped
from drivers.mqtt import BrokerUrl, MqttLink
from drivers.spots import SpotsSession
from drivers.spots.codec import BUTTONS
from simulators.broker import EmbeddedBroker
from simulators.spots import SpotDevice, SpotsSimulator

SIM_HELP = (
    "Type presses on stdin, one per line: <spot> <button>, then for a bet <amount> and optionally <kind>, "
    'e.g. "3 hit" or "2 bet 500 main".'
)


def register(listen_app: typer.Typer, sim_app: typer.Typer) -> None:
    @listen_app.command("spots")
    def listen_spots(
        broker: Annotated[str, typer.Option(help="mqtt://user:pass@host:port or unix://user:pass@/path.sock")],
        table: Annotated[str, typer.Option(help="table id (topic croupier/<table>/...)")],
        spots: Annotated[int | None, typer.Option(min=1, help="spots at the table; others are refused")] = None,
        client_id: Annotated[str | None, typer.Option(help="MQTT client id, default croupier-<table>-listen")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
    ) -> None:
        """Run the bet-spot driver alone and print every event. Its own client id by default, so it
        does not take over the session of a running controller."""
        url = _parse_url(broker)
        run_until_stopped(_listen(url, table, spots, client_id or f"croupier-{table}-listen", as_json))

    @sim_app.command("spots", help=f"Run simulated bet spots, each its own MQTT client. {SIM_HELP}")
    def sim_spots(
        broker: Annotated[
            str | None, typer.Option(help="broker URL (credentials ignored); none: start an embedded demo broker")
        ] = None,
        table: Annotated[str, typer.Option(help="table id")] = "demo",
        spots: Annotated[int, typer.Option(min=1, max=999, help="number of spots")] = 7,
        spot_password: Annotated[
            str | None,
            typer.Option(envvar="CROUPIER_SPOT_PASSWORD", help="password of user spot-<n>; '{n}' is replaced by n"),
        ] = None,
    ) -> None:
        url = _parse_url(broker) if broker else None
        run_until_stopped(_simulate(url, table, spots, spot_password))


def _parse_url(url: str) -> BrokerUrl:
    try:
        return BrokerUrl.parse(url)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--broker") from None


async def _listen(url: BrokerUrl, table: str, spots: int | None, client_id: str, as_json: bool) -> None:
    link = MqttLink(url, client_id)
    session = SpotsSession(link, table, range(1, spots + 1) if spots else None)
    async with link:
        async for event in session.events():
            print_event(event, as_json)


async def _simulate(url: BrokerUrl | None, table: str, count: int, password: str | None) -> None:
    embedded = None
    if url is None:
        embedded = EmbeddedBroker()
        await embedded.start()
        url = BrokerUrl.parse(embedded.url)
        typer.echo(f"embedded demo broker (amqtt, anonymous): {url}")
        typer.echo(f"  listen with: croupier listen spots --broker {url} --table {table}")
    sim = SpotsSimulator.with_credentials(
        str(url), table, count, lambda n: password.replace("{n}", str(n)) if password is not None else None
    )
    for device in sim:
        device.on_lamp = _show_lamp
    try:
        async with sim:
            for device in sim:
                typer.echo(f"{device.device}: user {device.address.username or '-'} on {url.redacted()}, "
                           f"presses to {device.topic('press')}")
            typer.echo(SIM_HELP)
            await _read_presses(sim)
            await asyncio.Event().wait()  # stdin closed: keep the spots online until Ctrl-C
    finally:
        if embedded is not None:
            await embedded.stop()


def _show_lamp(device: SpotDevice, lamp: dict[str, object]) -> None:
    typer.echo(f"{device.device} lamp: {lamp.get('mode')} {lamp.get('text', '')!s}".rstrip())


async def _read_presses(sim: SpotsSimulator) -> None:
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        words = line.split()
        if not words:
            continue
        try:
            spot, button = int(words[0]), words[1]
            amount = int(words[2]) if len(words) > 2 else None
            kind = words[3] if len(words) > 3 else None
            device = sim[spot]
        except (ValueError, IndexError, KeyError):
            typer.echo(f"? {SIM_HELP}", err=True)
            continue
        if button not in BUTTONS:
            typer.echo(f"? buttons: {' '.join(BUTTONS)} (sent anyway: the driver refuses it)", err=True)
        seq = await device.press(button, amount, kind)
        typer.echo(f"{device.device} seq={seq} {button}" + (f" {amount}" if amount else "") + (f" {kind}" if kind else ""))
