"""The ``croupier`` command line: analysis, device simulators and listeners, the table."""

from __future__ import annotations

import importlib
import json
import sys
from typing import Annotated, Any

import typer

from controller.analysis import HOUSE_EDGE, HouseEdgeOptions
from controller.games.base import RulesConfigError

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Croupier live-dealer table controller.")


def parse_overrides(pairs: list[str]) -> dict[str, Any]:
    """``key=value`` pairs; a value is read as JSON where it parses (6, true, [2,4]), else text."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"expected key=value, got {pair!r}", param_hint="--set")
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = raw
        out[key.strip()] = value
    return out


@app.command("house-edge")
def house_edge(
    game: Annotated[str, typer.Argument(help=f"one of: {', '.join(HOUSE_EDGE)}")],
    preset: Annotated[str | None, typer.Option(help="rule preset, e.g. ru6, am8, european")] = None,
    set_: Annotated[list[str], typer.Option("--set", help="rule override key=value (repeatable)")] = [],
    rounds: Annotated[int | None, typer.Option(min=1, help="Monte Carlo rounds")] = None,
    seed: Annotated[int, typer.Option(help="seed of the shuffles")] = 1,
    method: Annotated[str | None, typer.Option(help="exact | monte-carlo")] = None,
    strategy: Annotated[str | None, typer.Option(help="player strategy, e.g. seed")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Measure a game's house edge through the same engine the table uses."""
    if game not in HOUSE_EDGE:
        raise typer.BadParameter(f"unknown game {game!r}; known: {', '.join(HOUSE_EDGE)}", param_hint="GAME")
    if method not in (None, "exact", "monte-carlo"):
        raise typer.BadParameter("method is exact or monte-carlo", param_hint="--method")
    options = HouseEdgeOptions(
        preset=preset,
        overrides=parse_overrides(set_),
        rounds=rounds,
        seed=seed,
        method=method,
        strategy=strategy,
        progress=sys.stderr.isatty(),
    )
    module = importlib.import_module(HOUSE_EDGE[game])
    try:
        result: dict[str, Any] = module.house_edge(options)
    except RulesConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    result = {"game": game, **result}
    if as_json:
        typer.echo(json.dumps(result))
        return
    for key, value in result.items():
        if isinstance(value, float) and key in ("house_edge", "std_error", "theoretical_edge"):
            typer.echo(f"{key:>18}: {value * 100:.4f} %")
        elif isinstance(value, dict):
            typer.echo(f"{key:>18}:")
            for k, v in value.items():
                shown = f"{v * 100:.4f} %" if isinstance(v, float) else v
                typer.echo(f"{'':>20}{k}: {shown}")
        elif isinstance(value, float):
            typer.echo(f"{key:>18}: {value:,.1f}")
        else:
            typer.echo(f"{key:>18}: {value}")


def _register_device_commands() -> None:
    """Each device's listen/sim commands live beside its own CLI glue module."""
    listen_app = typer.Typer(no_args_is_help=True, help="Run one device driver alone and print its events.")
    sim_app = typer.Typer(no_args_is_help=True, help="Run one device simulator standalone.")
    for name in ("wheel", "shoe", "spots"):
        module = importlib.import_module(f"controller.devices_cli.{name}")
        module.register(listen_app, sim_app)
    app.add_typer(listen_app, name="listen")
    app.add_typer(sim_app, name="sim")


_register_device_commands()
importlib.import_module("controller.table_cli").register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
