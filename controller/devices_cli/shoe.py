"""`croupier listen shoe` and `croupier sim shoe` (to be implemented with the shoe driver)."""

from __future__ import annotations

import typer


def register(listen_app: typer.Typer, sim_app: typer.Typer) -> None:
    pass
