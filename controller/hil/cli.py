"""``croupier hil soak``: the command line of the hardware-in-the-loop soak (docs/hil.md)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    hil = typer.Typer(no_args_is_help=True, help="Hardware-in-the-loop testing (docs/hil.md).")

    @hil.command("soak")
    def soak(
        config: Annotated[Path, typer.Option(help="the table's TOML config (its game, rules and limits are soaked)")],
        rounds: Annotated[int, typer.Option(min=1, help="rounds (spins) to close")] = 100,
        seed: Annotated[int, typer.Option(help="seed of the fault schedule, the shoe and the wheel")] = 1,
        faults: Annotated[str, typer.Option(help="KIND,... or all (docs/hil.md lists the kinds)")] = "all",
        rate: Annotated[float, typer.Option(min=0.0, max=5.0, help="faults of each kind per round")] = 0.1,
        directory: Annotated[Path | None, typer.Option("--dir", help="keep the journal, config and logs here")]
        = None,
        nice: Annotated[int, typer.Option(min=0, max=19, help="niceness of the controller process")] = 0,
        as_json: Annotated[bool, typer.Option("--json", help="print the report as one JSON object")] = False,
    ) -> None:
        """Run the table under seeded faults; exit 1 on any loss, imbalance or gap, 2 on bad options."""
        from controller.config import ConfigError
        from controller.hil.soak import Soak, SoakOptions

        try:
            run = Soak(SoakOptions(config, rounds, seed, faults, rate, directory, nice))
        except (ConfigError, ValueError, RuntimeError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        report = asyncio.run(run.run())
        if as_json:
            typer.echo(json.dumps(report.as_json()))
        else:
            for line in report.lines():
                typer.echo(line)
        raise typer.Exit(0 if report.passed else 1)

    app.add_typer(hil, name="hil")
