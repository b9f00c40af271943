"""`croupier listen wheel` and `croupier sim wheel` (to be implemented with the wheel driver)."""

from __future__ import annotations

import typer


def register(listen_app: typer.Typer, sim_app: typer.Typer) -> None:
    pass
