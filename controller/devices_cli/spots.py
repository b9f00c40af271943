"""`croupier listen spots` and `croupier sim spots` (to be implemented with the spots driver)."""

from __future__ import annotations

import typer


def register(listen_app: typer.Typer, sim_app: typer.Typer) -> None:
    pass
