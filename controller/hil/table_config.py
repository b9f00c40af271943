"""The soak's copy of a table config: the same table (id, game, preset, ``[rules]``,
``[limits]``), its journal in the soak's directory, its shoe or wheel on the soak's rig (a
``serial`` device at the rig's stable link), the soak's mosquitto as its broker, and bet spots
on, so presses can arrive out of turn. Written as TOML, read back by ``croupier run`` like any
config (docs/hil.md).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{json.dumps(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def _section(name: str, values: dict[str, Any]) -> list[str]:
    return [f"[{name}]", *(f"{json.dumps(k)} = {_value(v)}" for k, v in values.items()), ""]


def soak_config(source: Path, directory: Path, journal: Path, *, link: Path, broker: str) -> Path:
    """Write ``directory/table.toml`` for the table of ``source``; returns its path."""
    with source.open("rb") as f:
        data = tomllib.load(f)
    table = {k: v for k, v in data.get("table", {}).items() if k not in ("journal", "burn_on_new_shoe")}
    table["journal"] = str(journal)
    lines = _section("table", table)
    if data.get("rules"):
        lines += _section("rules", data["rules"])
    if data.get("limits"):
        lines += _section("limits", data["limits"])
    device = "shoe" if "shoe" in data.get("devices", {}) or "wheel" not in data.get("devices", {}) else "wheel"
    serial: dict[str, Any] = {"transport": "serial", "port": str(link)}
    if device == "shoe":
        serial["gap_timeout"] = 2.0
    lines += _section(f"devices.{device}", serial)
    lines += _section("devices.spots", {"enabled": True})
    lines += _section("mqtt", {"broker": broker, "insecure": True})
    path = directory / "table.toml"
    path.write_text("# written by croupier hil soak from " + str(source) + "\n" + "\n".join(lines))
    return path
