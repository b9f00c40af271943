"""The ``croupier`` command line: analysis, device simulators and listeners, the table."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from controller import table_cli
from controller.analysis import REPORTS, HouseEdgeOptions
from controller.games.base import RulesConfigError

app = typer.Typer(no_args_is_help=True, add_completion=False, help="Croupier live-dealer table controller.",
                  rich_markup_mode=None)  # the plain help: a flag reads as a flag (the rich panels print "<bool>" after it)


def installed_version() -> str:
    """The installed distribution's version (what ``pip install .`` put in the venv)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("croupier")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _print_version(shown: bool) -> None:
    if shown:
        typer.echo(f"croupier {installed_version()}")
        raise typer.Exit(0)


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="print the version and exit")] = False,
) -> None:
    """Croupier live-dealer table controller."""


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
    game: Annotated[str, typer.Argument(help="a game as a table config names it, e.g. blackjack, roulette")],
    preset: Annotated[str | None, typer.Option(help="rule preset, e.g. ru6, am8, european")] = None,
    set_: Annotated[list[str] | None, typer.Option("--set", help="rule override key=value (repeatable)")] = None,
    rounds: Annotated[int | None, typer.Option(min=1, help="Monte Carlo rounds")] = None,
    seed: Annotated[int, typer.Option(help="seed of the shuffles")] = 1,
    method: Annotated[str | None, typer.Option(help="exact | monte-carlo")] = None,
    strategy: Annotated[str | None, typer.Option(help="player strategy, e.g. seed")] = None,
    decks: Annotated[int | None, typer.Option(min=1, max=8, help="decks in the shoe (blackjack, side-bets)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Measure a game's house edge through the same engine the table uses."""
    from controller.table import registry  # every game, registered once

    report = REPORTS.get(game)  # an analysis that is not a table game (side-bets)
    if registry.find(game) is None and report is None:
        known = ", ".join([*registry.GAMES, *REPORTS])
        raise typer.BadParameter(f"unknown game {game!r}; known: {known}", param_hint="GAME")
    if method not in (None, "exact", "monte-carlo"):
        raise typer.BadParameter("method is exact or monte-carlo", param_hint="--method")
    options = HouseEdgeOptions(
        preset=preset,
        overrides=parse_overrides(set_ or []),
        rounds=rounds,
        seed=seed,
        method=method,
        strategy=strategy,
        progress=sys.stderr.isatty(),
        decks=decks,
    )
    module = importlib.import_module(report) if report else None
    try:
        result: dict[str, Any] = module.house_edge(options) if module else registry.game(game).house_edge(options)
    except RulesConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    if module is None:  # a report (side-bets) keeps its own shape
        result = {"game": game, **result}
    if as_json:
        typer.echo(json.dumps(result))
        return
    if module is not None:
        typer.echo("\n".join(module.format_text(result)))
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


@app.command("verify-journal")
def verify_journal(
    config: Annotated[str, typer.Option(help="the table's TOML config file (its journal, and its key if set)")],
    against: Annotated[Path | None, typer.Option(
        help="a file of recorded heads (croupier anchor --out): each must be a row of the journal")] = None,
) -> None:
    """Walk the journal's hash chain (and MACs, with the key): exit 0 if intact, 1 naming the
    first bad seq or a recorded head the journal no longer has (docs/security.md)."""
    from controller.config import ConfigError, load
    from controller.verify import read_heads, verify_file

    try:
        cfg = load(config)
        heads = read_heads(against, cfg.table.id) if against is not None else None
        verdict = verify_file(cfg.journal_path, cfg.journal_key(), heads)
    except (ConfigError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for line in verdict.lines():
        typer.echo(line, err=not verdict.ok)
    raise typer.Exit(0 if verdict.ok else 1)


@app.command("broker-config")
def broker_config(
    tables: Annotated[str, typer.Option(help="table ids, comma-separated; T:N gives table T N bet spots")],
    out: Annotated[Path, typer.Option(help="an empty directory for mosquitto.conf, passwd, acl and secrets/")],
    spots: Annotated[int, typer.Option(min=0, max=999, help="bet spots per table unless T:N says")] = 7,
    make_ca: Annotated[bool, typer.Option("--make-ca", help="a throwaway CA and broker certificate (lab only)")] = False,
    cafile: Annotated[Path | None, typer.Option(help="the CA that signed the broker's certificate")] = None,
    certfile: Annotated[Path | None, typer.Option(help="the broker's certificate (PEM)")] = None,
    keyfile: Annotated[Path | None, typer.Option(help="the broker's private key (PEM)")] = None,
    host: Annotated[list[str] | None, typer.Option(help="with --make-ca: a name or address clients dial (repeatable)")] = None,
    port: Annotated[int, typer.Option(min=1, max=65535, help="the TLS listener's port")] = 8883,
    bind: Annotated[str | None, typer.Option(help="the listener's address (default: every interface)")] = None,
    pit: Annotated[str, typer.Option(help="the pit dashboard's account, the only one that sends commands")] = "pit",
    readers: Annotated[str, typer.Option(help="read-only accounts for the feed, comma-separated")] = "viewer",
    client_certs: Annotated[bool, typer.Option("--client-certs", help="clients must also present a certificate")] = False,
    install_dir: Annotated[Path | None, typer.Option(help="where the files will live on the broker (default: --out)")] = None,
    backoffice: Annotated[str | None, typer.Option(help="the back office's read-only account (docs/backoffice.md)")] = None,
    central: Annotated[bool, typer.Option("--central", help="a central broker: pit bridges and readers, no table accounts")]
    = False,
    pit_bridge: Annotated[list[str] | None, typer.Option(
        help="with --central: PIT=T1,T2 (PIT+commands=... to send it commands), one account per pit's bridge")] = None,
    bridge_to: Annotated[str | None, typer.Option(help="this pit broker bridges to the central broker at HOST:PORT")] = None,
    bridge_name: Annotated[str | None, typer.Option(help="with --bridge-to: this pit's name (account bridge-<name>)")] = None,
    bridge_cafile: Annotated[Path | None, typer.Option(help="with --bridge-to: the central broker's CA")] = None,
    bridge_password_file: Annotated[Path | None, typer.Option(
        help="with --bridge-to: the central broker's secrets/bridge-<name>.secret")] = None,
    bridge_commands: Annotated[bool, typer.Option("--bridge-commands", help="with --bridge-to: take command from the centre")]
    = False,
    studio: Annotated[list[str] | None, typer.Option(
        help="NAME=T1,T2: the remote players' studio's account and the tables it takes bets for (docs/studio.md)")]
    = None,
    bind_client_ids: Annotated[bool, typer.Option(
        "--bind-client-ids/--shared-client-ids",
        help="each client's id is its user name, so no password can take another client's session (a table's "
             "spots link gets its own account); --shared-client-ids only for a floor not yet moved to it")] = True,
) -> None:
    """Write a TLS mosquitto config, password file and ACL for these tables (docs/security.md)."""
    import socket

    from controller import broker_config as bc
    from controller.lab_ca import CaError

    files = (cafile, certfile, keyfile)
    try:
        if any(files) and not all(files):
            raise ValueError("--cafile, --certfile and --keyfile go together")
        tls = None
        if cafile and certfile and keyfile:
            tls = bc.TlsPaths(cafile.absolute(), certfile.absolute(), keyfile.absolute())
        floor = bc.parse_tables(tables, spots)
        notes = bc.generate(out, floor, tls=tls, make_ca=make_ca,
                            hosts=host or [socket.gethostname(), "localhost", "127.0.0.1"], port=port, bind=bind,
                            pit=pit, readers=[r for r in readers.split(",") if r], client_certificates=client_certs,
                            install_dir=install_dir, backoffice=backoffice, central=central,
                            bridges=bc.parse_bridges(pit_bridge or [], floor),
                            bridge_to=bc.bridge_to(bridge_to, bridge_name, bridge_cafile, bridge_password_file,
                                                   bridge_commands),
                            bind_client_ids=bind_client_ids, studios=bc.parse_studios(studio or [], floor))
    except (ValueError, CaError, OSError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    for line in notes:
        typer.echo(line)


@app.command("hash-password")
def hash_password_command(
    password_stdin: Annotated[bool, typer.Option("--stdin", help="read the password from standard input")] = False,
) -> None:
    """Print the argon2 hash of a password for an account's ``password_hash`` (docs/console.md)."""
    from controller.auth import hash_password

    if password_stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = typer.prompt("password", hide_input=True, confirmation_prompt=True)
    if not 8 <= len(password) <= 256:
        typer.echo("error: a password has 8 to 256 characters", err=True)
        raise typer.Exit(2)
    typer.echo(hash_password(password))


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
table_cli.register(app)
importlib.import_module("controller.pit.cli").register(app)
importlib.import_module("controller.demo").register(app)
importlib.import_module("controller.hil.cli").register(app)
importlib.import_module("controller.anchor").register(app)
importlib.import_module("controller.protection.cli").register(app)
importlib.import_module("controller.backoffice.cli").register(app)
importlib.import_module("controller.studio.cli").register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
