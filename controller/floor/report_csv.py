"""A gaming day's report as CSV, one level a file so that each file has one header and opens in
a spreadsheet as one table (docs/backoffice.md, "Reports"): ``tables`` (a row per table, per pit
and the floor, the ``level`` column says which: they share their columns) or ``dealers`` (a row
per dealer and shift). Written by the floor's one CSV writer (formula-safe text cells)."""

from __future__ import annotations

from typing import Any, Final

from controller.floor.csv_sheet import sheet

TABLE_COLUMNS: Final = ("rounds", "settled", "void", "drop", "paid", "win", "hold_pct", "theo_win", "win_vs_theo",
                        "theo_unknown_drop", "rounds_per_hour", "occupancy", "corrected")
DEALER_COLUMNS: Final = ("shift", "dealer", "rounds", "rounds_per_hour", "pace_target", "pace_pct", "holds",
                         "cards_out_of_turn", "wrong_cards_keyed", "result_mismatches", "procedure_errors",
                         "corrections", "voids", "tables")
LEVELS: Final = ("tables", "dealers")


def report_csv(report: dict[str, Any], level: str = "tables") -> str:
    """The report's ``level`` (one of ``LEVELS``; ValueError naming them otherwise)."""
    day, shift = report["day"], report["shift"]
    if level == "tables":
        rows: list[list[Any]] = [[day, shift, "table", table_id, t["game"], t["pit"], t.get("currency"),
                                  *(t.get(c) for c in TABLE_COLUMNS)] for table_id, t in report["tables"].items()]
        rows += [[day, shift, "pit", pit, None, pit, None, *(t.get(c) for c in TABLE_COLUMNS)]
                 for pit, t in report["pits"].items()]
        rows.append([day, shift, "floor", None, None, None, None, *(report["floor"].get(c) for c in TABLE_COLUMNS)])
        remote = report.get("remote") or {}  # the remote players' lines (docs/studio.md): rounds, drop, win
        rows += [[day, shift, "remote", table_id, None, None, None, r["rounds"], None, None, r["drop"], None, r["win"],
                  *(None for _ in TABLE_COLUMNS[6:])] for table_id, r in (remote.get("tables") or {}).items()]
        return sheet(["day", "shift", "level", "id", "game", "pit", "currency", *TABLE_COLUMNS], rows)
    if level == "dealers":
        return sheet(["day", *DEALER_COLUMNS], [[day, *(d.get(c) for c in DEALER_COLUMNS)] for d in report["dealers"]])
    raise ValueError(f"no CSV level {level!r}; the levels are {', '.join(LEVELS)}")
