"""``croupier demo``: a small floor in one process with no external service (docs/pit.md).

An embedded broker (amqtt, demo only, plaintext: the configs say ``[mqtt] insecure = true``),
three tables from the shipped configs (blackjack ru6, European roulette, baccarat), each with
its devices simulated on their real transports (shoe on a pty, wheel on a pty) and a console,
and the pit dashboard. With the back office's PostgreSQL, a studio takes remote bets at the
three tables (remote tables with a betting time; at blackjack a remote player may sit at a box
and decide it on the table's decision time), through a reference operator's
wallet, and publishes their feed to the operator's queue on a throwaway RabbitMQ
(controller/studio/operators/demo.py). Simulated players and dealer play continuously; with ``--manual`` nobody
deals: the person at a console is the dealer (the console's simulator panel pulls cards from
the shoe; the wheel spins at its real pace). Journals go to a fresh temporary directory unless
``--dir`` names one (then the tables resume from it on the next run).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import shutil
import sys
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TextIO

import typer

from controller.auth import Account, Accounts, hash_password
from controller.config import SHIPPED_CONFIGS, TableConfig
from controller.journal_keyed import write_new_key
from controller.runtime.loop import TableLoop
from controller.studio.config import TableSection

if TYPE_CHECKING:
    from controller.studio.operators.demo import DemoStudio

CONFIGS = ("blackjack-ru6.toml", "roulette-european.toml", "baccarat.toml")
#: the tables that take remote bets when the studio runs, and their betting time (seconds)
REMOTE = ("blackjack-ru6.toml", "roulette-european.toml", "baccarat.toml")
BETTING_S = 10
#: a seated remote player's time per decision, and what the table does when it runs out (docs/studio.md)
DECISION_S, DECISION_POLICY = 15, "refund"
ENDLESS = 10**9  # rounds: the simulated people never stop on their own
PACE = 0.3  # seconds the simulated people take per action, so a person can follow


@dataclass(frozen=True, slots=True)
class DemoAccount:
    user: str
    role: str
    password: str


def demo_accounts() -> tuple[list[DemoAccount], Accounts]:
    """A dealer and a pit boss with fresh random passwords (printed; nothing is stored)."""
    made = [DemoAccount("dealer", "dealer", secrets.token_urlsafe(6)), DemoAccount("pit", "pit_boss", secrets.token_urlsafe(6))]
    accounts = Accounts({a.user: Account(a.user, a.role, hash_password(a.password)) for a in made})  # type: ignore[arg-type]
    return made, accounts


def table_config(name: str, directory: Path, broker: str, manual: bool, remote: bool = False) -> TableConfig:
    """A shipped config with the demo's journal directory and broker (and, manual, a wheel at
    its real pace; remote, a betting time and the studio's seal), validated by the same model as
    any config file."""
    source = SHIPPED_CONFIGS / name
    raw = tomllib.loads(source.read_text())
    if remote and name in REMOTE:
        raw["table"].update(betting_s=BETTING_S, remote=True, decision_s=DECISION_S, decision_policy=DECISION_POLICY)
    table_id = raw["table"]["id"]
    raw["table"]["journal"] = str(directory / f"{table_id}.journal")
    raw["journal"] = {"key_file": str(directory / f"{table_id}.key")}  # keyed like any table's journal
    raw["mqtt"] = {"broker": broker, "insecure": True}
    wheel = raw.get("devices", {}).get("wheel", {})
    if manual and "simulated" in wheel:
        wheel["simulated"]["speed"] = 1.0
    return TableConfig.model_validate({**raw, "base": source.parent})


def studio_tables() -> dict[str, TableSection]:
    """The remote tables as the studio serves them: the game and rules of their shipped configs."""
    out = {}
    for name in REMOTE:
        raw = tomllib.loads((SHIPPED_CONFIGS / name).read_text())
        table = raw["table"]
        out[table["id"]] = TableSection(game=table["game"], preset=table.get("preset"), rules=raw.get("rules", {}),
                                        limits=raw.get("limits", {}))
    return out


class Demo:
    """Everything ``croupier demo`` runs, in the caller's asyncio loop."""

    def __init__(self, directory: Path, manual: bool = False, out: TextIO | None = None,
                 host: str = "127.0.0.1", pit_port: int = 0) -> None:
        self.directory = directory
        self.manual = manual
        self.out = out
        self.host = host
        self.pit_port = pit_port
        self.accounts_shown, self.accounts = demo_accounts()
        self.consoles: dict[str, str] = {}
        #: each table's loop once it takes inputs (tests drive pit commands through it)
        self.loops: dict[str, TableLoop] = {}
        self.pit_url = ""
        self.backoffice_url: str | None = None
        self.studio: DemoStudio | None = None
        self._ready = asyncio.Event()

    def _say(self, line: str) -> None:
        if self.out is not None:
            self.out.write(line + "\n")
            self.out.flush()

    async def run(self, ready: Callable[[Demo], None] | None = None) -> None:
        from controller.pit.server import PitServer
        from controller.process import run_table
        from simulators.broker import EmbeddedBroker

        async with contextlib.AsyncExitStack() as stack:
            broker = await stack.enter_async_context(EmbeddedBroker(self.host))
            from controller.backoffice.demo import DemoBackoffice  # the floor's memory, when PostgreSQL is there
            from controller.backoffice.floor_store import BackofficeFloorStore
            from controller.studio.operators.demo import DemoStudio

            office = await stack.enter_async_context(DemoBackoffice(self.directory, broker.url))
            self.backoffice_url = office.url
            self.studio = await stack.enter_async_context(DemoStudio(
                self.directory, broker.url, office.url, studio_tables(), self.host, self._say))
            configs = [table_config(name, self.directory, broker.url, self.manual, self.studio.running)
                       for name in CONFIGS]
            for config in configs:  # a new demo table's journal is keyed from its first row
                if config.key_path is not None and not config.journal_path.exists() and not config.key_path.exists():
                    write_new_key(config.key_path)
            store = BackofficeFloorStore(office.url) if office.url is not None else None
            if store is not None:
                stack.callback(store.close)  # after the pit, which reads it
            pit = await stack.enter_async_context(PitServer(broker.url, self.accounts, host=self.host, port=self.pit_port,
                                                            client_id="croupier-demo-pit", history=store))
            self.pit_url = pit.url
            sink = stack.enter_context(open(os.devnull, "w"))  # noqa: SIM115  # prompts go to the consoles
            tasks: list[asyncio.Task[int]] = []
            for config in configs:
                tasks.append(asyncio.create_task(run_table(
                    config, None if self.manual else ENDLESS, pace=PACE, out=sink, prompts=False,
                    on_ready=self._console_starter(config, stack), keyboard=False, stop_when_closed=False),
                    name=f"table {config.table.id}"))
            waiter = asyncio.create_task(self._all_consoles(len(configs)))
            done, _ = await asyncio.wait([waiter, *tasks], return_when=asyncio.FIRST_COMPLETED)
            if waiter not in done:
                waiter.cancel()
                for task in done:
                    task.result()  # a table that failed to start: its error ends the demo
                raise RuntimeError("a table stopped before its console started")
            for config in configs:
                self._say(f"console {config.table.id}: {self.consoles[config.table.id]}")
            self._say(f"pit: {self.pit_url}")
            self._say(office.line)
            for a in self.accounts_shown:
                self._say(f"account {a.user} ({a.role.replace('_', ' ')}): password {a.password}")
            if self.studio.running:
                for line in self.studio.player_lines():
                    self._say(line)
                if not self.manual:
                    self.studio.start_players()
            if ready is not None:
                ready(self)
            try:
                await asyncio.gather(*tasks)
            finally:
                for task in tasks:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)

    def _console_starter(self, config: TableConfig, stack: contextlib.AsyncExitStack) -> Any:
        async def start(loop: TableLoop, devices: Any) -> None:
            from controller.console import start_console

            simulator = getattr(devices, "firmware", None) if self.manual else None
            server = await start_console(loop, config, self.accounts, host=self.host, port=0, simulator=simulator)
            stack.push_async_callback(server.close)
            self.loops[config.table.id] = loop
            self.consoles[config.table.id] = server.url
            self._ready.set()

        return start

    async def _all_consoles(self, count: int) -> None:
        while len(self.consoles) < count:
            self._ready.clear()
            await self._ready.wait()


def run_demo(manual: bool, directory: Path | None, out: TextIO, pit_port: int = 0) -> None:
    """``croupier demo``: until Ctrl-C or SIGTERM; a temporary journal directory is removed
    afterwards. ``--dir`` is taken from the working directory (printed absolute)."""
    from controller import stopping

    temporary = directory is None
    where = Path(tempfile.mkdtemp(prefix="croupier-demo-")) if directory is None else directory.absolute()
    where.mkdir(parents=True, exist_ok=True)
    out.write(f"journals: {where}\n")
    out.flush()
    try:
        stopping.run(Demo(where, manual, out, pit_port=pit_port).run())
    finally:
        if temporary:
            shutil.rmtree(where, ignore_errors=True)


def register(app: typer.Typer) -> None:
    @app.command("demo")
    def demo(
        manual: Annotated[bool, typer.Option("--manual", help="be the dealer yourself at the consoles")] = False,
        directory: Annotated[Path | None, typer.Option("--dir", help="keep the journals here (default: a temp dir)")] = None,
        pit_port: Annotated[int, typer.Option(min=0, max=65535, help="the dashboard's port (0: any free)")] = 0,
    ) -> None:
        """A small floor in one process: embedded broker, three tables with consoles, the pit dashboard."""
        run_demo(manual, directory, sys.stdout, pit_port)
