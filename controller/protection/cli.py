"""``croupier protection``: the game-protection watches from the command line (docs/protection.md)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    protection = typer.Typer(no_args_is_help=True, help="Game protection: the advantage-play watch (docs/protection.md).")

    @protection.command("simulate")
    def simulate_command(
        config: Annotated[Path, typer.Option(help="a blackjack table's TOML config with a simulated shoe")],
        styles: Annotated[str, typer.Option(
            help="one player per box, comma-separated: flat, random, counter-1-8, counter-1-12, counter-cover, wonger")],
        shoes: Annotated[int, typer.Option(min=1, max=100_000, help="shoes to deal")] = 100,
        seed: Annotated[int, typer.Option(help="seed of the shoe and the players")] = 1,
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    ) -> None:
        """Deal shoes through the real table path with styled simulated players, then run the watch."""
        from controller.config import ConfigError, load
        from controller.protection.simulate import simulate

        try:
            result = asyncio.run(simulate(load(config), [s.strip() for s in styles.split(",") if s.strip()], shoes, seed))
        except (ConfigError, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(result))
            return
        typer.echo(f"{shoes} shoes dealt")
        for player, row in result["players"].items():
            verdict = "FLAGGED" if row["flagged"] else "not flagged"
            typer.echo(f"box {row['box']} {player}: {verdict} after {row['rounds']} rounds ({row['test']}: "
                       f"r = {row['statistic']:.3f}, p = {row['p_value']:.2g}; the count was worth "
                       f"{row['edge_per_hour']} minor units an hour)")

    app.add_typer(protection, name="protection")
