"""Recorded comparison: the same journals replay to the same round records before and after a change.

Two steps, each run once with the code before the change and once with the code after it
(``--code`` names the checkout whose ``controller`` is imported; default: this repository;
``play`` copies the configs it played into ``--out``/configs, and ``replay`` reads those):

``play``   plays a seeded ``--rounds`` run of every example table (config/*.toml) into its own
           journal under ``--out``, in two runs (the second starts on the first's journal);
           each config is copied with the journal moved there, the pit feed off
           (``[mqtt] broker = "none"``) and the simulated wheel sped up (``--speed``).
``replay`` steps every journal under ``--out`` through a fresh ``TableCore`` (inputs in journal
           order, the rules each ``table_started`` journaled) and prints every ``round_closed``
           record the core derives, one canonical JSON line each (sorted keys).

    python scripts/replay_compare.py play --out /tmp/cmp --rounds 30 --code /tmp/croupier-before
    python scripts/replay_compare.py replay --out /tmp/cmp --code /tmp/croupier-before > before.jsonl
    python scripts/replay_compare.py replay --out /tmp/cmp > after.jsonl
    diff before.jsonl after.jsonl && echo identical

``replay-files FILE...`` replays any journals (a test suite's, say) with the game and rules each
one journaled at its first start, and prints every output (alerts and round records).

``--without KEY`` leaves a record key out of the printed records (a field added on purpose);
``--alerts`` prints every alert the core derives too, in order with the round records.

``replay`` never writes to a journal: it reads the entries and keeps the records in memory.
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import io
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def use_code(root: Path) -> None:
    """Import ``controller`` from ``root`` (not the editable install of this repository)."""
    sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()
                        and "editable" not in getattr(f, "__name__", "").lower()]
    sys.path.insert(0, str(root))


def copied_config(path: Path, out: Path, speed: float) -> Any:
    """``path`` as a config whose journal lives under ``out``, with no pit feed (the TOML is
    changed before it is validated, so either side's checks of the feed do not matter)."""
    from controller.config import TableConfig

    raw = tomllib.loads(path.read_text())
    raw["table"]["journal"] = str(out / "journals" / f"{path.stem}.journal")
    raw["mqtt"] = {"broker": "none"}
    wheel = raw.setdefault("devices", {}).setdefault("wheel", {})
    wheel.setdefault("simulated", {})["speed"] = speed
    return TableConfig.model_validate({**raw, "base": path.parent})


def play(out: Path, rounds: int, speed: float, configs: list[Path]) -> None:
    try:
        from controller.process import run_table
    except ImportError:  # the code before the runtime left controller/table/
        from controller.table.app import run_table  # type: ignore[import-not-found,no-redef]

    (out / "journals").mkdir(parents=True, exist_ok=True)
    for path in configs:
        config = copied_config(path, out, speed)
        if config.journal_path.exists():
            raise SystemExit(f"{config.journal_path} exists: give a fresh --out")
        first = rounds // 2  # two runs: the second replays the first and goes on (a restart)
        asyncio.run(run_table(config, first, out=io.StringIO()))
        asyncio.run(run_table(config, rounds - first, out=io.StringIO()))
        print(f"{path.stem}: {rounds} rounds -> {config.journal_path}", file=sys.stderr)


def core_from_journal(journal_path: Path) -> Any:
    """A fresh core for a journal without its config: the game and rules its first
    ``table_started`` journaled, the table id its first round record names (None: nothing to
    compare in it)."""
    from controller.journal import Journal
    from controller.table.core import TableCore

    try:
        from controller.table.registry import adapter_for
    except ImportError:  # the code before the registry
        from controller.table.games import adapter_for  # type: ignore[no-redef,attr-defined]
    started = table = None
    with Journal(journal_path) as journal:
        for entry in journal.entries():
            if started is None and entry.kind == "table_started" and "rules" in entry.payload:
                started = entry.payload
            if table is None and entry.kind == "round_closed":
                table = entry.payload["table"]
    if started is None or table is None:
        return None
    adapter = adapter_for(started["game"])
    return TableCore(table, adapter, adapter.rules_from_dump(started["rules"]), started.get("preset"))


def replayed_records(config: Any, journal_path: Path, kinds: tuple[str, ...] = ("round_closed",),
                     core: Any = None) -> tuple[list[dict[str, Any]], int]:
    """Every output of ``kinds`` stepping the journal's inputs gives, and the entry count."""
    from controller.journal import Journal
    from controller.table import inputs
    from controller.table.effects import Record

    try:
        from controller.process import build_core
    except ImportError:  # the code before the runtime left controller/table/
        from controller.table.app import build_core  # type: ignore[no-redef]
    core = core if core is not None else build_core(config)
    records: list[dict[str, Any]] = []
    count = 0
    with Journal(journal_path) as journal:
        for entry in journal.entries():
            count += 1
            if entry.kind == inputs.TABLE_STARTED:  # as recovery.py applies a start
                if "hold_open_round" in inspect.signature(core.restarted).parameters:
                    core.restarted(hold_open_round=bool(entry.payload.get("hold_open_round")))
                else:  # the code before that hold
                    core.restarted()
                if "rules" in entry.payload:
                    core.rules = core.adapter.rules_from_dump(entry.payload["rules"])
                core.set_burn(int(entry.payload.get("burn_on_new_shoe", 0)))
            elif entry.kind == inputs.ALERT:
                core.written(entry)
            if entry.kind not in inputs.INPUT_KINDS:
                continue
            for effect in core.step(entry):
                if isinstance(effect, Record) and effect.kind in kinds:
                    records.append(effect.payload if len(kinds) == 1 else {"kind": effect.kind, **effect.payload})
    return records, count


def replay(out: Path, configs: list[Path], without: list[str], alerts: bool) -> None:
    for path in configs:
        config = copied_config(path, out, 1.0)
        kinds = ("round_closed", "alert") if alerts else ("round_closed",)
        records, count = replayed_records(config, config.journal_path, kinds)
        print(f"{path.stem}: {count} entries, {len(records)} {'outputs' if alerts else 'round records'}",
              file=sys.stderr)
        for record in records:
            kept = {k: v for k, v in record.items() if k not in without}
            print(json.dumps({"config": path.stem, "record": kept}, sort_keys=True, separators=(",", ":")))


def replay_files(paths: list[Path], without: list[str]) -> None:
    """Any journals (a test suite's): each replayed with the game and rules it journaled."""
    for path in paths:
        core = core_from_journal(path)
        if core is None:
            print(f"{path}: no table_started with rules, or no round: skipped", file=sys.stderr)
            continue
        records, count = replayed_records(None, path, ("round_closed", "alert"), core)
        print(f"{path}: {count} entries, {len(records)} outputs", file=sys.stderr)
        for record in records:
            kept = {k: v for k, v in record.items() if k not in without}
            print(json.dumps({"journal": str(path), "output": kept}, sort_keys=True, separators=(",", ":")))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("play", "replay", "replay-files"))
    parser.add_argument("files", nargs="*", type=Path, help="replay-files: journals to replay")
    parser.add_argument("--out", type=Path, default=Path("."), help="directory of the journals")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--speed", type=float, default=40.0, help="simulated wheel speed-up")
    parser.add_argument("--code", type=Path, default=HERE, help="checkout whose controller is used")
    parser.add_argument("--without", action="append", default=[], metavar="KEY",
                        help="replay: leave this record key out (a field added on purpose), repeatable")
    parser.add_argument("--alerts", action="store_true", help="replay: the alerts too, in order with the records")
    parser.add_argument("--configs", type=Path, default=None,
                        help="play: directory of the configs (default: the --code checkout's config/)")
    args = parser.parse_intermixed_args()
    use_code(args.code.resolve())
    out = args.out.resolve()
    if args.step == "replay-files":
        replay_files(args.files, args.without)
    elif args.step == "play":
        source = args.configs or args.code / "config"
        (out / "configs").mkdir(parents=True, exist_ok=True)
        for path in sorted(source.glob("*.toml")):  # kept beside the journals for the replays
            (out / "configs" / path.name).write_text(path.read_text())
        play(out, args.rounds, args.speed, sorted(source.glob("*.toml")))
    else:
        replay(out, sorted((out / "configs").glob("*.toml")), args.without, args.alerts)


if __name__ == "__main__":
    main()
