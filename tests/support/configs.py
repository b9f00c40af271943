"""The one way a test writes a table's config: ``table_config`` builds the TOML of a table (game,
preset, devices, journal, MQTT, limits, rules and any other section) and ``write_table_config``
puts it in a file for ``controller.config.load`` or a ``croupier run --config``.

Every section is given as a mapping or as TOML text of that section's body (what a test would
paste under ``[rules]``); both are merged into one document, so a test states only what it needs
and the rest is the usual test table: no broker, the journal beside the config.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

Section = Mapping[str, Any] | str
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")

#: the preset each game's test tables use unless told otherwise
PRESETS = {"blackjack": "ru6", "roulette": "european"}

#: a table limit of each game's main bet (the games whose config requires one)
LIMITS: dict[str, dict[str, Any]] = {
    "blackjack": {"main": {"min": 100, "max": 500000}},
    "three-card-blackjack": {"ante": {"min": 500, "max": 500000}, "ace_plus": {"min": 100, "max": 50000}},
    "catch-a-wave": {"main": {"min": 100, "max": 500000}},
    "russian-poker": {"ante": {"min": 100, "max": 100000}},
    "baccarat": {"player": {"min": 100, "max": 1000000}},
}


def simulated_shoe(*, port: str = "serial", gap_timeout: float | None = 0.6, seed: int = 3, stacked: list[str] | None = None,
                   cut_after: int | None = None, **simulated: Any) -> dict[str, Any]:
    """``[devices.shoe]`` for the simulated shoe on ``port`` (a pty, or ``usb``); ``gap_timeout``
    None: the driver's own."""
    firmware: dict[str, Any] = {"seed": seed, **simulated}
    if stacked is not None:
        firmware["stacked"] = list(stacked)
    if cut_after is not None:
        firmware["cut_after"] = cut_after
    shoe: dict[str, Any] = {"transport": "simulated", "port": port}
    if gap_timeout is not None:
        shoe["gap_timeout"] = gap_timeout
    return {**shoe, "simulated": firmware}


def simulated_wheel(*, seed: int = 5, **simulated: Any) -> dict[str, Any]:
    """``[devices.wheel]`` for the simulated SS2."""
    return {"transport": "simulated", "simulated": {"seed": seed, **simulated}}


def table_config(game: str = "blackjack", *, table_id: str = "t1", preset: str | None = None,
                 journal: str | Path = "table.journal", devices: Mapping[str, Section] | None = None,
                 limits: Section | None = None, rules: Section | None = None, mqtt: Section | None = None,
                 table: Section | None = None, more: Mapping[str, Section] | None = None,
                 **sections: Section) -> str:
    """The TOML of one table. ``limits`` None: ``LIMITS[game]`` (if any); ``mqtt`` None: no
    broker; ``table``: more keys of ``[table]``; ``sections``: any other top-level section,
    e.g. ``console={...}`` (a mapping or its TOML body); ``more``: sections whose name is taken
    by a parameter, e.g. ``more={"journal": {"key_file": "table.key"}}``."""
    head: dict[str, Any] = {"id": table_id, "game": game, "preset": preset or PRESETS.get(game, "standard"),
                            "journal": str(journal)}
    document: dict[str, Any] = {"table": merge(head, table)}
    if rules is not None:
        document["rules"] = section(rules)
    chosen = LIMITS.get(game) if limits is None else section(limits)
    if chosen:
        document["limits"] = dict(chosen)
    if devices:
        document["devices"] = {name: section(body) for name, body in devices.items()}
    document["mqtt"] = section(mqtt) if mqtt is not None else {"broker": "none"}
    for name, body in {**sections, **(more or {})}.items():
        document[name] = section(body)
    return dumps(document)


def write_table_config(where: Path, game: str = "blackjack", *, name: str = "table.toml", **options: Any) -> Path:
    """``table_config(game, **options)`` written to ``where`` (a directory: ``where/name``)."""
    path = where / name if where.is_dir() else where
    path.write_text(table_config(game, **options), encoding="utf-8")
    return path


def section(body: Section) -> dict[str, Any]:
    """A section's mapping from a mapping or from the TOML text of its body."""
    return tomllib.loads(body) if isinstance(body, str) else dict(body)


def merge(base: dict[str, Any], more: Section | None) -> dict[str, Any]:
    """``base`` with ``more`` on top, nested tables merged key by key."""
    if more is None:
        return base
    merged = dict(base)
    for key, value in section(more).items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge(dict(merged[key]), value)
        else:
            merged[key] = value
    return merged


def dumps(document: Mapping[str, Any]) -> str:
    """TOML text of nested mappings of strings, numbers, booleans and lists (what configs hold);
    a mapping inside a list is an inline table."""
    lines: list[str] = []

    def table(path: list[str], body: Mapping[str, Any]) -> None:
        scalars = {k: v for k, v in body.items() if not isinstance(v, Mapping)}
        tables = {k: v for k, v in body.items() if isinstance(v, Mapping)}
        if path and (scalars or not tables):
            lines.extend(["", "[" + ".".join(_key(p) for p in path) + "]"])
        lines.extend(f"{_key(k)} = {_value(v)}" for k, v in scalars.items())
        for key, child in tables.items():
            table([*path, key], child)

    table([], document)
    return "\n".join(lines).lstrip("\n") + "\n"


def _key(key: str) -> str:
    return key if BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    """A TOML basic string: JSON's escapes, raw non-ASCII (TOML has no surrogate pairs), DEL escaped."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str | Path):
        return _string(str(value))
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML for {value!r}")


def relocated_example(raw: dict[str, Any], directory: Path) -> dict[str, Any]:
    """An example config's TOML (``config/*.toml``, read as a dict) with its journal and journal key
    moved into ``directory``: the key made there (as ``croupier init`` makes it) so the journal is
    keyed from its first row, and nothing written beside the examples."""
    from controller.journal_keyed import write_new_key

    table_id = raw["table"]["id"]
    key = directory / f"{table_id}.key"
    if not key.exists():
        write_new_key(key)
    return {**raw, "table": {**raw["table"], "journal": str(directory / f"{table_id}.journal")},
            "journal": {**raw.get("journal", {}), "key_file": str(key)}}
