"""CLI glue for hardware-in-the-loop work: one module per device, each with
``register(listen_app, sim_app)`` adding its ``croupier listen <dev>`` and ``croupier sim <dev>``.
Events print as one line each, or with ``--json`` one JSON object per line with a ``type`` field."""

from __future__ import annotations

import typer
from pydantic import BaseModel


def print_event(event: BaseModel, as_json: bool) -> None:
    """One device event on stdout: JSON line (``--json``) or a readable line."""
    if as_json:
        typer.echo(event.model_dump_json())
    else:
        fields = event.model_dump(mode="json")
        kind = fields.pop("type", type(event).__name__)
        typer.echo(f"{kind:<16} " + " ".join(f"{k}={v}" for k, v in fields.items()))
