"""The real table of a simulation: a shipped config of the studio table's game (``config/``, as
``croupier demo`` uses them), with the studio table's preset, rules and limits on top, a remote
table (``[table] remote``) with a betting time, its journal in the run's directory; run by the
table process's own ``run_table`` with batch mode's simulated dealer and seated players, until
the studio's totals of every round are journaled."""

from __future__ import annotations

import contextlib
import io
import tomllib
from pathlib import Path
from typing import Any

from controller.config import SHIPPED_CONFIGS, TableConfig
from controller.journal_keyed import write_new_key
from controller.process import run_table
from controller.runtime.loop import TableLoop
from controller.studio.config import TableSection

#: a seated remote player's decision time: the table's shortest, so a run's timeouts stay quick
DECISION_S = 3


def shipped(game: str, preset: str | None) -> tuple[Path, dict[str, Any]]:
    """The shipped config of ``game`` (the one of ``preset`` when there is one)."""
    found = []
    for path in sorted(SHIPPED_CONFIGS.glob("*.toml")):
        raw = tomllib.loads(path.read_text())
        if raw.get("table", {}).get("game") == game:
            found.append((raw["table"].get("preset") != preset, path, raw))
    if not found:
        raise ValueError(f"no shipped table config plays {game}")
    _, path, raw = min(found, key=lambda f: (f[0], f[1]))
    return path, raw


def table_raw(table_id: str, section: TableSection, directory: Path, broker: str, *, betting_s: int,
              grace_s: int, seed: int) -> tuple[Path, dict[str, Any]]:
    """The config file's contents of the remote table ``table_id`` of ``section``'s game,
    journaled (keyed) in ``directory``, its simulated devices seeded with ``seed``; and the
    shipped config it is made from (its relative paths are relative to that)."""
    source, raw = shipped(section.game, section.preset)
    for device in raw.get("devices", {}).values():
        if "simulated" in device:
            device["simulated"]["seed"] = seed
    raw["table"].update({"id": table_id, "journal": str(directory / f"{table_id}.journal"), "remote": True,
                         "betting_s": betting_s, "seal_grace_s": grace_s,
                         "decision_s": DECISION_S})
    if section.preset is not None:
        raw["table"]["preset"] = section.preset
    raw["rules"] = {**raw.get("rules", {}), **section.rules}
    raw["limits"] = {**raw.get("limits", {}), **{k: v.model_dump() for k, v in section.limits.items()}}
    raw["journal"] = {"key_file": str(directory / f"{table_id}.key")}
    raw["mqtt"] = {"broker": broker, "insecure": True}
    return source, raw


def table_config(table_id: str, section: TableSection, directory: Path, broker: str, *, betting_s: int,
                 grace_s: int, seed: int) -> TableConfig:
    """``table_raw``'s table, validated; its journal's key made when there is none."""
    source, raw = table_raw(table_id, section, directory, broker, betting_s=betting_s, grace_s=grace_s, seed=seed)
    config = TableConfig.model_validate({**raw, "base": source.parent})
    if config.key_path is not None and not config.key_path.exists():
        write_new_key(config.key_path)
    return config


def studio_section(config: TableConfig) -> TableSection:
    """The studio's section of the table: the rules the table's own config has."""
    return TableSection(game=config.table.game, preset=config.table.preset, rules=config.rules, limits=config.limits)


async def play(config: TableConfig, rounds: int, *, settled_within: float = 60.0) -> None:
    """``rounds`` rounds played by the simulated people; returns once the studio's totals of each
    remote round are journaled (or ``settled_within`` seconds after the last: the journal's
    reading then shows what is missing)."""

    async def all_settled(loop: TableLoop) -> None:
        with contextlib.suppress(TimeoutError):
            await loop.until(lambda core: all(_settled(r) for r in core.book.records.values()), timeout=settled_within)

    await run_table(config, rounds, out=io.StringIO(), prompts=False, keyboard=False, after=all_settled)


def _settled(record: dict[str, Any]) -> bool:
    remote = record.get("remote")
    return not isinstance(remote, dict) or remote.get("settled") is not None
