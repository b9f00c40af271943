"""The advantage-play watch's measured rates: detection and false alarms per player style.

Shoes are dealt through the real table path (``croupier protection simulate``: the config's
simulated shoe, the journal-first loop, the simulated dealer), one player per box in the given
styles; the watch then reads the journal offline. The journal is cut into gaming days of about
``--day-rounds`` rounds (at a shoe's end), and every day starts the players' evidence afresh:

- detection rate: of a counting style's player-days, the share flagged within ``--within``
  rounds of play, and the median rounds to the flag;
- false-alarm rate: of a non-counting style's player-days (flat, random), the share flagged at all.

Both at several thresholds (per-look significance level and minimum rounds), so the trade-off
between false alarms and rounds to a flag can be read (and plotted: ``--plot FILE.svg``); the
operating point is the watch's defaults. Baselines in the same run: the table path's shoes per
second beside the offline watch's journal entries per second. ``--journal DIR`` reads a journal a
previous run kept with ``--dir`` instead of dealing again.

    python bench/protection.py --shoes 1000 --seed 1 [--styles ...] [--json] [--plot docs/images/protection-tradeoff.svg]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.config import load  # noqa: E402
from controller.journal import Journal  # noqa: E402
from controller.protection.advantage import ALPHA, MIN_ROUNDS, AdvantageWatch, PlayerFlag  # noqa: E402
from controller.protection.simulate import simulate  # noqa: E402

COUNTING = ("counter-1-8", "counter-1-12", "counter-cover", "wonger")
THRESHOLDS = tuple((alpha, least) for least in (10, 25, MIN_ROUNDS) for alpha in (1e-2, 1e-3, 1e-4, ALPHA, 1e-6))
Entry = tuple[str, dict[str, Any], str]


def days(entries: list[Entry], day_rounds: int, alpha: float, least: int, decks: int) -> list[dict[str, PlayerFlag]]:
    """Each gaming day's flags: a day closes at the first new shoe after ``day_rounds`` rounds."""
    watch = AdvantageWatch(decks, alpha=alpha, min_rounds=least)
    out: list[dict[str, PlayerFlag]] = []
    rounds = 0
    for kind, payload, ts in entries:
        if kind == "command" and payload.get("command") == "new_shoe" and rounds >= day_rounds:
            out.append(watch.new_day())
            rounds = 0
        if kind == "command" and payload.get("command") == "open_round":
            rounds += 1
        watch.apply(kind, payload, ts)
    if rounds >= day_rounds // 2:  # a last day only when it is most of a day
        out.append(watch.new_day())
    return out


def rates(day_flags: list[dict[str, PlayerFlag]], styles: dict[str, str], within: int) -> dict[str, dict[str, Any]]:
    per_style: dict[str, list[PlayerFlag]] = defaultdict(list)
    for flags in day_flags:
        for player, flag in flags.items():
            per_style[styles[player]].append(flag)
    out: dict[str, dict[str, Any]] = {}
    for style, flags in per_style.items():
        caught = [f.flagged_after for f in flags if f.flagged_after is not None]
        row: dict[str, Any] = {"player_days": len(flags), "flagged": len(caught),
                               "flag_rate": len(caught) / len(flags) if flags else 0.0}
        if style in COUNTING:
            row["detected_within"] = sum(1 for r in caught if r <= within) / len(flags) if flags else 0.0
            row["median_rounds_to_flag"] = statistics.median(caught) if caught else None
        out[style] = row
    return out


def plot(sweep: list[dict[str, Any]], path: Path) -> None:
    """Median rounds to a flag (counters) against false alarms per day (flat and random), one point
    per threshold, as SVG: a quicker flag costs false alarms."""
    width, height, pad = 560, 360, 56
    colours = {"counter-1-8": "#1f77b4", "counter-1-12": "#2ca02c", "counter-cover": "#d62728", "wonger": "#9467bd"}
    svg = ET.Element("svg", xmlns="http://www.w3.org/2000/svg", width=str(width), height=str(height),
                     attrib={"font-family": "sans-serif", "font-size": "12"})

    def add(tag: str, text: str | None = None, parent: ET.Element = svg, **attrs: object) -> ET.Element:
        node = ET.SubElement(parent, tag, {k.replace("_", "-"): str(v) for k, v in attrs.items()})
        node.text = text
        return node

    top = 100  # rounds

    def xy(false_alarms: float, rounds: float) -> tuple[float, float]:  # false alarms 0 .. 5 % per day
        return (pad + min(1.0, false_alarms / 0.05) * (width - 2 * pad),
                height - pad - min(1.0, rounds / top) * (height - 2 * pad))

    add("rect", width=width, height=height, fill="white")
    add("line", x1=pad, y1=height - pad, x2=width - pad, y2=height - pad, stroke="black")
    add("line", x1=pad, y1=pad, x2=pad, y2=height - pad, stroke="black")
    add("text", "false alarms per player-day, flat and random bettors (%)", x=width / 2, y=height - 14,
        text_anchor="middle")
    add("text", "median rounds to a flag", x=16, y=height / 2,
        transform=f"rotate(-90 16 {height / 2})", text_anchor="middle")
    for tick in range(6):
        add("text", str(tick), x=xy(tick / 100, 0)[0], y=height - pad + 16, text_anchor="middle")
        add("text", str(tick * top // 5), x=pad - 8, y=xy(0, tick * top / 5)[1] + 4, text_anchor="end")
    dashes = {10: "", 25: "6 3", MIN_ROUNDS: "2 3"}
    for row, (style, colour) in enumerate(colours.items()):
        for least, dash in dashes.items():  # one line per minimum, through its significance levels
            shown = [s for s in sweep if s["min_rounds"] == least
                     and s["styles"].get(style, {}).get("median_rounds_to_flag") is not None]
            points = [xy(s["false_alarm_rate"], s["styles"][style]["median_rounds_to_flag"]) for s in shown]
            add("polyline", points=" ".join(f"{x:.1f},{y:.1f}" for x, y in points), fill="none", stroke=colour,
                stroke_width=2, stroke_dasharray=dash or "none")
            for (x, y), s in zip(points, shown):
                dot = add("circle", cx=f"{x:.1f}", cy=f"{y:.1f}", r=3, fill=colour)
                add("title", f"alpha {s['alpha']:g}, at least {s['min_rounds']} rounds", parent=dot)
        add("text", style, x=width - pad - 150, y=pad + 16 * row, fill=colour)
    for row, (least, dash) in enumerate(dashes.items()):
        y = pad + 16 * (len(colours) + row) + 8
        add("line", x1=width - pad - 150, y1=y - 4, x2=width - pad - 120, y2=y - 4, stroke="black",
            stroke_dasharray=dash or "none")
        add("text", f"at least {least} rounds", x=width - pad - 114, y=y)
    ET.ElementTree(svg).write(path, encoding="unicode")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default=str(ROOT / "config" / "blackjack-ru6.toml"))
    parser.add_argument("--styles", default="flat,random,counter-1-8,counter-1-12,counter-cover,wonger")
    parser.add_argument("--shoes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--day-rounds", type=int, default=480, help="rounds in a gaming day (8 h at 60 an hour)")
    parser.add_argument("--within", type=int, default=300)
    parser.add_argument("--dir", help="keep the journal here")
    parser.add_argument("--journal", type=Path, action="append",
                        help="read the journal a run kept in this directory (repeat to pool runs); deal nothing")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--plot", type=Path)
    args = parser.parse_args()
    config = load(args.config)
    styles = args.styles.split(",")
    table_s = None
    journals: list[list[Entry]] = []
    with tempfile.TemporaryDirectory(prefix="croupier-bench-protection-") as scratch:
        workdirs = args.journal or [Path(args.dir or scratch)]
        if not args.journal:
            workdirs[0].mkdir(parents=True, exist_ok=True)
            started = time.perf_counter()
            asyncio.run(simulate(config, styles, args.shoes, args.seed, workdirs[0]))
            table_s = time.perf_counter() - started
        for workdir in workdirs:
            journal = Journal(workdir / "protection.journal")
            journals.append([(e.kind, e.payload, e.ts) for e in journal.entries()])
            journal.close()
    entries = [entry for journal_entries in journals for entry in journal_entries]
    by_player = {p: p.rpartition("-box")[0] for p in {e[1].get("player") for e in entries if e[1].get("command") == "bet"}
                 if isinstance(p, str)}
    shoes = len({(i, e[1].get("shoe_id")) for i, journal_entries in enumerate(journals) for e in journal_entries
                 if e[0] == "device" and e[1].get("type") == "shoe_status"})
    decks: int = config.game_rules().decks  # type: ignore[attr-defined]
    sweep = []
    watch_s = 0.0
    for alpha, least in THRESHOLDS:
        t = time.perf_counter()
        day_flags = [day for journal_entries in journals for day in days(journal_entries, args.day_rounds, alpha, least, decks)]
        watch_s += time.perf_counter() - t
        per_style = rates(day_flags, by_player, args.within)
        quiet = [r for s, r in per_style.items() if s not in COUNTING]
        false_alarms = sum(r["flagged"] for r in quiet) / max(1, sum(r["player_days"] for r in quiet))
        sweep.append({"alpha": alpha, "min_rounds": least, "days": len(day_flags), "false_alarm_rate": false_alarms,
                      "styles": per_style})
    report = {"shoes": shoes, "seed": args.seed, "day_rounds": args.day_rounds, "within": args.within,
              "journal_entries": len(entries), "table_shoes_per_s": None if table_s is None else shoes / table_s,
              "watch_entries_per_s": len(entries) * len(THRESHOLDS) / watch_s, "operating_point": [ALPHA, MIN_ROUNDS],
              "sweep": sweep}
    if args.plot:
        plot(sweep, args.plot)
    if args.json:
        print(json.dumps(report))
        return
    speed = "" if table_s is None else f" ({report['table_shoes_per_s']:.2f} shoes/s through the table path)"
    print(f"{shoes} shoes{speed}, {len(entries):,} journal entries; the watch reads "
          f"{report['watch_entries_per_s']:,.0f} entries/s offline")
    for row in sweep:
        marker = "  <- operating point" if (row["alpha"], row["min_rounds"]) == (ALPHA, MIN_ROUNDS) else ""
        print(f"\nalpha {row['alpha']:g}, at least {row['min_rounds']} rounds: {row['days']} gaming days, false alarms "
              f"{100 * row['false_alarm_rate']:.2f} % of flat and random player-days{marker}")
        for style, r in row["styles"].items():
            extra = (f", detected within {args.within} rounds {100 * r['detected_within']:.1f} %, median "
                     f"{r['median_rounds_to_flag']} rounds" if style in COUNTING else "")
            print(f"  {style:14} {r['player_days']:4} player-days, flagged {r['flagged']:4}{extra}")


if __name__ == "__main__":
    main()
