"""``croupier protection simulate``: shoes dealt through the real table path, one simulated player
per box in a named style, then the advantage-play watch run over the journal they left.

The table is the one ``croupier run --rounds`` runs: the config's simulated shoe on its real
transport, the journal-first loop, the simulated dealer. Each simulated player keeps the Hi-Lo
count of every card the table journaled (what a counter at the table sees) and bets by its style.
The watch then reads the journal offline, exactly as it would read a real table's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from controller.config import TableConfig
from controller.journal import Entry, Journal
from controller.protection.advantage import AdvantageWatch
from controller.protection.seating import TableCount, seat
from controller.protection.styles import STYLES

GAMES = ("blackjack",)


class _ShoeWatcher(TableCount):
    """The players' count, and the end of the ``shoes`` asked for."""

    def __init__(self, decks: int, shoes: int) -> None:
        super().__init__(decks)
        self.shoes = shoes
        self.done = asyncio.Event()

    def on_entry(self, entry: Entry) -> None:
        super().on_entry(entry)
        if self.count.shoes > self.shoes:  # the next shoe is loaded: every asked-for shoe was dealt
            self.done.set()


def check_styles(styles: Sequence[str], boxes: int) -> None:
    unknown = [s for s in styles if s not in STYLES]
    if unknown:
        raise ValueError(f"unknown player style {unknown[0]!r}; styles: {', '.join(STYLES)}")
    if not 1 <= len(styles) <= boxes:
        raise ValueError(f"one style per box: 1 to {boxes} styles, got {len(styles)}")


async def simulate(config: TableConfig, styles: Sequence[str], shoes: int, seed: int,
                   workdir: Path | None = None) -> dict[str, Any]:
    """Deal ``shoes`` shoes at the config's table with one player per box in ``styles``; the
    watch's verdict on every player, as ``croupier protection simulate --json`` prints it."""
    from controller.process import run_table

    if config.table.game not in GAMES:
        raise ValueError(f"the advantage-play watch reads blackjack tables, not {config.table.game}")
    if shoes < 1:
        raise ValueError("shoes: at least 1")
    rules: Any = config.game_rules()
    check_styles(styles, rules.boxes)
    with contextlib.ExitStack() as stack:
        directory = workdir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="croupier-protection-")))
        table = _simulated(config, directory / "protection.journal", seed)
        watcher = _ShoeWatcher(rules.decks, shoes)
        unit = rules.limits["main"].min
        seated = seat(dict(enumerate(styles, start=1)), unit, watcher.count, seed)

        async def on_ready(loop: Any, devices: Any) -> None:
            loop.listeners.append(watcher)

        quiet = stack.enter_context(open(os.devnull, "w"))
        run = asyncio.create_task(run_table(table, 10**9, out=quiet, prompts=False, on_ready=on_ready,
                                            keyboard=False, seated=seated))
        done = asyncio.create_task(watcher.done.wait())
        await asyncio.wait([run, done], return_when=asyncio.FIRST_COMPLETED)
        done.cancel()
        run.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await run
        return verdicts(table.journal_path, {s.player: style for s, style in zip(seated, styles)}, shoes, rules.decks)


def verdicts(journal_path: Path, styles: dict[str, str], shoes: int, decks: int) -> dict[str, Any]:
    watch = AdvantageWatch(decks)
    journal = Journal(journal_path)
    try:
        for entry in journal.entries():
            watch.apply(entry.kind, entry.payload, entry.ts)
    finally:
        journal.close()
    players = {player: {"style": styles.get(player, "unknown"), **flag.as_json()}
               for player, flag in sorted(watch.flags().items())}
    return {"players": players, "shoes": shoes}


def _simulated(config: TableConfig, journal: Path, seed: int) -> TableConfig:
    """The config with its own journal, no broker, no console or metrics, the shoe seeded."""
    shoe = config.devices.shoe
    if shoe.transport != "simulated":
        raise ValueError('the simulation deals from a simulated shoe: devices.shoe.transport = "simulated"')
    devices = config.devices.model_copy(update={"shoe": shoe.model_copy(
        update={"simulated": shoe.simulated.model_copy(update={"seed": seed})})})
    return config.model_copy(update={
        "table": config.table.model_copy(update={"journal": journal}),
        "journal": config.journal.model_copy(update={"key_file": None}),  # a what-if run's own journal: no key
        "mqtt": config.mqtt.model_copy(update={"broker": "none"}),
        "console": config.console.model_copy(update={"enabled": False}),
        "metrics": config.metrics.model_copy(update={"enabled": False}),
        "devices": devices,
    })
