"""Every benchmark, one table: each bench runs as a subprocess with modest parameters and its
``--json`` output becomes rows of figure, value, baseline (what the bench measured beside it, in
the same run) and the command that gives the figure on its own. Below the table: the machine it
ran on, and its load average when the report started (on a shared machine the figures are noisy;
the baselines, measured in the same run, are what to read them against).

``--quick`` keeps the whole report to a few minutes: restart at 10k and 100k entries only (the
1M journal takes about 150 s to generate, once: it is kept in /tmp/croupier-bench-restart), and
smaller runs elsewhere. Without it, the benches' own defaults and the 1M journal.

    .venv/bin/python bench/report.py [--quick] [--only NAME,...]     (make bench)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
Row = tuple[str, str, str]  # figure, value, baseline


@dataclass(frozen=True)
class Bench:
    """One script: its arguments for ``--quick``, the full run and the test suite's smoke run
    (tests/bench: tiny, a few seconds, to notice a bench that broke, not to measure)."""

    name: str
    script: str
    quick: tuple[str, ...]
    full: tuple[str, ...]
    rows: Callable[[Any], list[Row]]
    smoke: tuple[str, ...]
    timeout: float = 600.0


# -- rows from each bench's JSON ---------------------------------------------------------------------
def _n(value: float) -> str:
    return f"{value:,.0f}"


def _pair(p50: float, p99: float, unit: str) -> str:
    return f"{p50:,.3g} / {p99:,.3g} {unit}" if max(p50, p99) < 100 else f"{_n(p50)} / {_n(p99)} {unit}"


def game(title: str, baseline: str) -> Callable[[Any], list[Row]]:
    def rows(data: dict[str, Any]) -> list[Row]:
        unit = "rounds per CPU s" if data["clock"] == "cpu" else "rounds/s"
        return [(f"engine, {title}", f"{_n(data['engine_rounds_per_s'])} {unit}",
                 f"{_n(data['baseline_rounds_per_s'])} ({baseline})")]
    return rows


def devices(data: dict[str, Any]) -> list[Row]:
    wheel, shoe, spots = data["wheel"], data["shoe"], data["spots"]
    out = [(f"device event, wheel {kind} line (p50 / p99)",
            _pair(wheel[f"{kind}_p50_us"], wheel[f"{kind}_p99_us"], "µs"),
            f"wire time {wheel[f'{kind}_wire_ms']:.1f} ms (9600 baud)") for kind in ("status", "number")]
    for transport, model in (("serial", "115200 8N1"), ("usb", "USB full speed")):
        r = shoe[transport]
        out.append((f"device event, shoe card over {transport} (p50 / p99)", _pair(r["p50_us"], r["p99_us"], "µs"),
                    f"wire time {r['wire_us']:,.0f} µs ({model})"))
    out.append(("device event, bet-spot press via mosquitto (p50 / p99)", _pair(spots["p50_us"], spots["p99_us"], "µs"),
                f"in-loop publisher {_pair(spots['in_loop_publisher_p50_us'], spots['in_loop_publisher_p99_us'], 'µs')}"))
    return out


def table(data: dict[str, Any]) -> list[Row]:
    return [
        ("card to prompt, in process (p50 / p99)", _pair(data["card_to_prompt_p50_us"], data["card_to_prompt_p99_us"], "µs"),
         f"TableCore.step of a card alone {_pair(data['core_card_step_p50_us'], data['core_card_step_p99_us'], 'µs')}"),
        ("card to prompt at a pit client via mosquitto (p50 / p99)",
         _pair(data["card_to_pit_p50_us"], data["card_to_pit_p99_us"], "µs"),
         f"one fsynced journal append {_pair(data['journal_append_p50_us'], data['journal_append_p99_us'], 'µs')}"),
        ("full stack, 7-box blackjack (shoe pty, fsync journal, feed)", f"{data['full_stack_rounds_per_s']:,.1f} rounds/s",
         f"{_n(data['core_alone_rounds_per_s'])} rounds/s (the same inputs through the core alone)"),
    ]


def console(data: dict[str, Any]) -> list[Row]:
    return [("card to console DOM in Chromium (p50 / p99)", _pair(data["dom_p50_ms"], data["dom_p99_ms"], "ms"),
             f"card to the table's journal entry {_pair(data['entry_p50_ms'], data['entry_p99_ms'], 'ms')}; "
             f"to the snapshot handed to the page's socket {_pair(data['snapshot_p50_ms'], data['snapshot_p99_ms'], 'ms')}; "
             f"to its arrival at the page {_pair(data['received_p50_ms'], data['received_p99_ms'], 'ms')}")]


def restart(data: list[dict[str, Any]]) -> list[Row]:
    out = []
    for row in data:
        baseline = (f"full replay {row['full_replay_s']:.2f} s, peak RSS {row['full_rss_mb']:.0f} MB"
                    if "full_replay_s" in row else "full replay not run at this size")
        out.append((f"restart to resumed, {row['entries']:,} entries",
                    f"{row['restart_s']:.3f} s, peak RSS {row['restart_rss_mb']:.0f} MB", baseline))
    return out


def pit_floor(data: dict[str, Any]) -> list[Row]:
    load = (f"{data['tables']} tables x {data['rate_per_table']:g} msg/s: {_n(data['published_per_s'])} msg/s, "
            f"mosquitto {data['mosquitto_cpu_pct']:.0f} % CPU, dashboard {data['dashboard_cpu_pct']:.0f} % CPU")
    bare = f"bare subscriber {_pair(data['baseline_lag_p50_ms'], data['baseline_lag_p99_ms'], 'ms')}"
    return [
        (f"feed lag at {data['tables']} tables, into the dashboard (p50 / p99)",
         _pair(data["dashboard_lag_p50_ms"], data["dashboard_lag_p99_ms"], "ms"), bare),
        (f"feed lag at {data['tables']} tables, on the page's WebSocket (p50 / p99)",
         _pair(data["page_lag_p50_ms"], data["page_lag_p99_ms"], "ms"), "includes the dashboard's 100 ms coalescing tick"),
        ("pit floor load", load, ""),
        (f"dashboard CPU per feed message at {data['tables']} tables (tiles, totals and page pushes included)",
         f"{data['dashboard_cpu_us_per_message']:,.0f} µs",
         f"bare subscriber {data['baseline_cpu_us_per_message']:,.0f} µs (paho, json.loads, the timestamp)"),
    ]


def fuzz(data: dict[str, Any]) -> list[Row]:
    out = []
    for p in data["parsers"]:
        escaped = sum(p["escaped"].values())
        value = f"{_n(p['inputs_per_s'])} inputs/s" + (f", {escaped} ESCAPED" if escaped else ", 0 escaped")
        out.append((f"fuzz, {p['parser']}", value, f"json.loads of the same bytes {_n(p['baseline_inputs_per_s'])}/s"))
    return out


def flood(data: dict[str, Any]) -> list[Row]:
    return [(f"shoe receiver flood, per frame over the last {data['window']:,} of {data['frames']:,}",
             f"{data['last_us']:.1f} µs (largest container {data['largest_entries']:,} entries)",
             f"{data['first_us']:.1f} µs over the first {data['window']:,}")]


def revisions(data: dict[str, Any]) -> list[Row]:
    rev, work = data["revision"], data["working"]
    runs = f"{data['runs']} alternated runs of {data['rounds']} rounds each"
    return [
        (f"full-stack table vs {data['rev']}, median rounds/s", f"{work['median_rounds_per_s']:.1f} rounds/s",
         f"{rev['median_rounds_per_s']:.1f} rounds/s at {data['rev']} ({runs})"),
        (f"full-stack table vs {data['rev']}, median of run-by-run ratios", f"× {data['median_pair_ratio']:.2f}",
         f"runs {data['pair_ratios']}; best run {work['best_rounds_per_s']:.1f} against "
         f"{rev['best_rounds_per_s']:.1f} rounds/s; load {data['load_before']} -> {data['load_after']}"),
        (f"full-stack table vs {data['rev']}, CPU per round", f"{work['median_cpu_ms_per_round']:.1f} ms",
         f"{rev['median_cpu_ms_per_round']:.1f} ms at {data['rev']}"),
        (f"TableCore.step of a card vs {data['rev']} (p50)", f"{work['median_card_step_p50_us']:.1f} µs",
         f"{rev['median_card_step_p50_us']:.1f} µs at {data['rev']}"),
        (f"core alone (the same inputs, no I/O; CPU clock, best of 3 replays) vs {data['rev']}",
         f"{work['median_core_rounds_per_s']} rounds/s", f"{rev['median_core_rounds_per_s']} rounds/s at {data['rev']}"),
        (f"core alone vs {data['rev']}, median of run-by-run ratios", f"× {data['median_core_pair_ratio']:.2f}",
         f"runs {data['core_pair_ratios']}"),
    ]


def backoffice_lag(data: dict[str, Any]) -> list[Row]:
    return [(f"back office lag, {data['tables']:,} tables into PostgreSQL (p50 / p99)",
             f"{_pair(data['lag_p50_ms'], data['lag_p99_ms'], 'ms')}, {data['rounds_stored']:,} of "
             f"{data['rounds_published']:,} rounds", f"bare COPY {_n(data['baseline_copy_rounds_per_s'] or 0)} rounds/s")]


def backoffice_report(data: dict[str, Any]) -> list[Row]:
    fast, slow = data["from_tallies"], data["baseline_from_rounds"]
    return [(f"back office day report, {data['tables']:,} tables, {data['day_rounds']:,} rounds / 7- and 30-day "
             "baselines (from the tallies kept at insert)",
             f"{fast['report_day_without_baselines_s']:.2f} s / {fast['baselines_7_30_days_s']:.2f} s",
             f"recomputed from the rounds {slow['report_day_without_baselines_s']:.2f} s / "
             f"{slow['baselines_7_30_days_s']:.2f} s")]


def protection(data: dict[str, Any]) -> list[Row]:
    alpha, least = data["operating_point"]
    point = next(r for r in data["sweep"] if r["alpha"] == alpha and r["min_rounds"] == least)
    counters = [r for style, r in point["styles"].items() if style.startswith("counter")]
    flagged, days = sum(r["flagged"] for r in counters), sum(r["player_days"] for r in counters)
    return [(f"advantage-play watch, operating point ({data['shoes']:,} shoes)",
             f"counters flagged on {flagged} of {days} player-days, false alarms {100 * point['false_alarm_rate']:.2f} %",
             f"the watch reads {_n(data['watch_entries_per_s'])} journal entries/s offline")]


def fd_exhaustion(data: dict[str, Any]) -> list[Row]:
    base, flooded, burst = data["baseline"], data["flooded"], data["signins"]
    plain = f"no flood: {base['rounds_per_s']:.1f} rounds/s, {base['cpu_ms_per_round']:.1f} ms CPU per round"
    out = [(f"table under {flooded['idle']:,} idle connections to its console",
            f"{flooded['rounds_per_s']:.1f} rounds/s, {flooded['cpu_ms_per_round']:.1f} ms CPU per round", plain)]
    if burst:
        out.append(("table under a burst of wrong sign-ins",
                    f"{burst['rounds_per_s']:.1f} rounds/s, {burst['cpu_ms_per_round']:.1f} ms CPU per round", plain))
    return out


def journal_append(data: dict[str, Any]) -> list[Row]:
    return [("journal append, keyed (HMAC per row), fsynced", f"{_n(data['keyed_per_s'])} appends/s",
             f"unkeyed {_n(data['unkeyed_per_s'])} appends/s")]


def broker_ceiling(data: dict[str, Any]) -> list[Row]:
    return [(f"broker ceiling, QoS 1 publishes over {data['connections']} connections",
             f"{_n(data['published_per_s'])} msg/s acknowledged, mosquitto {data['mosquitto_cpu_pct']:.0f} % CPU",
             f"one Python subscriber got {data['delivered']:,} of {data['messages']:,}")]


def memory(data: dict[str, Any]) -> list[Row]:
    studio = data.get("studio", {})
    names = {"table": "a table process (core + journal + runtime)",
             "pit": f"the pit's floor model ({data.get('pit', {}).get('tables', 0)} tables)",
             "studio": f"a studio process ({studio.get('players', 0)} players betting every round, "
                       f"{studio.get('players_joined', 0)} joined in all)"}
    return [(f"memory, {names[part]}, RSS per 1,000 rounds over the second half of {data[part]['rounds']:,}",
             f"{data[part]['per_1000_second_half_mb']:+.2f} MB (at end {data[part]['end_mb']:.0f} MB)",
             f"{data[part]['first_mb']:+.2f} MB over the first {data[part]['first_rounds']:,} rounds "
             f"(from {data[part]['start_mb']:.0f} MB)") for part in ("table", "pit", "studio") if part in data]


def studio(data: dict[str, Any]) -> list[Row]:
    base = data["baseline"]
    echo, pg = base["ws_echo"], base["pg_insert"]
    settle = "not every player credited" if data["settle_all_s"] is None else f"{data['settle_all_s']:.2f} s"
    where = f"{data['players']:,} players over {data['instances']} studio process(es), {data['rounds']} rounds"
    return [
        (f"studio bet accepted, {where} (p50 / p99)", _pair(data["accept_ms"]["p50"], data["accept_ms"]["p99"], "ms"),
         f"bare WebSocket echo {_pair(echo['accept_ms']['p50'], echo['accept_ms']['p99'], 'ms')}; bare PostgreSQL "
         f"insert {_pair(pg['insert_ms']['p50'], pg['insert_ms']['p99'], 'ms')}"),
        (f"studio: every player settled and credited after the result, {where}", settle,
         f"bare PostgreSQL rows of the same settlement {pg['settle_rows_s']:.3f} s"),
        (f"studio: the number to the players' sockets, {where} (p50 / p99)",
         _pair(data["card_to_page_ms"]["p50"], data["card_to_page_ms"]["p99"], "ms"),
         f"bare push to every socket {echo['push_all_s']:.3f} s"),
        ("studio memory per connected player", f"{data['rss_per_player_kb']:.0f} KB",
         f"bare WebSocket echo {echo['rss_per_player_kb']:.0f} KB"),
        ("studio CPU per accepted bet (accept, seal, settle, push)", f"{data['studio_cpu_ms_per_bet']:.2f} ms",
         f"bare WebSocket echo {echo['cpu_ms_per_bet']:.2f} ms"),
        *([(f"dealer console card frame to DOM while the studio serves {data['players']:,} players (p50 / p99)",
            _pair(console["p50"], console["p99"], "ms"), "bench/console_latency.py alone: its own row")]
          if (console := data.get("console_card_to_dom_ms")) else []),
    ]


def records(data: dict[str, Any]) -> list[Row]:
    old = next(v for k, v in data.items() if isinstance(v, dict) and k != "tree")
    tree = data["tree"]
    return [(f"feed messages read through the record contract ({label})", f"{_n(tree[key])} msg/s",
             f"before the contract {_n(old[key])} msg/s; json.loads alone {_n(tree['json_loads'])} msg/s")
            for key, label in (("pit_intake", "the pit's intake"), ("backoffice_parse", "the back office's parse"))]


BENCHES = (
    Bench("blackjack", "blackjack.py", ("--rounds", "20000", "--repeat", "3"), (),
          game("blackjack ru6, basic strategy", "draws + strategy, no engine"), ("--rounds", "200", "--repeat", "1")),
    Bench("baccarat", "baccarat.py", ("--rounds", "10000"), (), game("baccarat, 3 bets", "drawing rules only"),
          ("--rounds", "200", "--repeat", "1")),
    Bench("russian_poker", "russian_poker.py", ("--rounds", "10000"), (),
          game("Russian poker, 1 box", "deal + evaluate only"), ("--rounds", "200", "--repeat", "1")),
    Bench("three_card_blackjack", "three_card_blackjack.py", ("--rounds", "5000"), (),
          game("Three Card Blackjack, 5 boxes", "shuffle + bare hand values"), ("--rounds", "200")),
    Bench("catch_a_wave", "catch_a_wave.py", ("--rounds", "20000"), (),
          game("Catch a Wave, 1 box", "the same cards drawn, no engine"), ("--rounds", "200")),
    Bench("roulette", "roulette.py", ("--rounds", "5000"), (), game("roulette, 20 bets", "bare settlement of the bets"),
          ("--rounds", "200")),
    Bench("devices", "devices.py", ("200",), ("500",), devices, ("10",)),
    Bench("table", "table.py", ("100", "20"), ("200", "30"), table, ("5", "3")),
    Bench("journal_append", "journal_append.py", ("--rows", "2000"), ("--rows", "5000"), journal_append, ("--rows", "20")),
    Bench("revisions", "compare_revisions.py", ("--rounds", "60", "--runs", "3"), ("--rounds", "100", "--runs", "5"),
          revisions, ("--rounds", "3", "--runs", "1"), timeout=1800.0),
    Bench("console_latency", "console_latency.py", ("50",), ("200",), console, ("5",)),
    Bench("restart", "restart.py", ("--sizes", "10000,100000", "--baseline-max", "200000"),
          ("--sizes", "10000,100000,1000000", "--baseline-max", "200000"), restart,
          ("--sizes", "1000", "--baseline-max", "1000", "--dir", "/tmp/croupier-bench-restart-smoke"), timeout=1800.0),
    Bench("pit_floor", "pit_floor.py", ("--tables", "200", "--rate", "5", "--seconds", "10", "--warmup", "3"),
          ("--tables", "1000", "--rate", "5", "--seconds", "15"), pit_floor,
          ("--tables", "5", "--rate", "5", "--seconds", "1", "--warmup", "0.5", "--procs", "1")),
    Bench("broker_ceiling", "broker_ceiling.py", ("--messages", "20000"), ("--messages", "100000"), broker_ceiling,
          ("--messages", "300", "--procs", "1", "--conns", "2")),
    Bench("backoffice_lag", "backoffice_lag.py", ("--tables", "1000", "--seconds", "20"),
          ("--tables", "1000", "--seconds", "30"), backoffice_lag, ("--tables", "10", "--seconds", "2", "--procs", "1")),
    Bench("backoffice_report", "backoffice_report.py", ("--tables", "1000", "--rounds", "100000", "--baseline-per-day", "3000"),
          ("--tables", "1000", "--rounds", "1000000", "--baseline-per-day", "30000"), backoffice_report,
          ("--tables", "10", "--rounds", "1000", "--baseline-per-day", "100", "--repeat-rounds", "1"), timeout=1800.0),
    Bench("protection", "protection.py", ("--shoes", "100"), ("--shoes", "1000"), protection, ("--shoes", "3")),
    Bench("web_fd_exhaustion", "web_fd_exhaustion.py", ("--rounds", "100", "--idle", "1000", "--signins", "4"),
          ("--rounds", "300", "--idle", "2000", "--signins", "8"), fd_exhaustion,
          ("--rounds", "5", "--idle", "20", "--signins", "1")),
    Bench("memory", "memory.py", ("--rounds", "1000", "--pit-rounds", "10000", "--studio-rounds", "500", "--every",
                                  "250", "--boxes", "1"),
          ("--rounds", "10000"), memory,
          ("--rounds", "40", "--every", "20", "--tables", "2", "--boxes", "1", "--studio-rounds", "3", "--players", "2"),
          timeout=7200.0),
    Bench("fuzz", "fuzz.py", ("--n", "50000", "--traced", "10000"), (), fuzz,
          ("--n", "200", "--traced", "100", "--warm-up", "50"), timeout=1800.0),
    Bench("shoe_receiver_flood", "shoe_receiver_flood.py", ("--frames", "50000"), (), flood, ("--frames", "500")),
    Bench("studio", "studio.py", ("--players", "2000", "--rounds", "5"), ("--players", "2000", "--rounds", "20"), studio,
          ("--players", "5", "--rounds", "2", "--betting-s", "0.5", "--console-cards", "3"), timeout=1800.0),
    Bench("records", "records.py", ("--seconds", "2"), ("--seconds", "5"), records, ("--seconds", "0.2")),
)
#: scripts that are parts of a bench above (run by it), not benches of their own
PARTS = {"devices_wheel.py": "devices.py", "devices_shoe.py": "devices.py", "devices_spots.py": "devices.py",
         "report.py": "report.py", "studio_players.py": "studio.py", "studio_baseline.py": "studio.py"}
MODES = ("quick", "full", "smoke")


# -- running ---------------------------------------------------------------------------------------------
def run(bench: Bench, mode: str, timeout: float | None = None) -> tuple[list[Row], str]:
    """The bench's rows, and the command that gives them (its human output without ``--json``);
    ``mode``: quick, full or smoke. A bench that fails gives one row saying why."""
    args = {"quick": bench.quick, "full": bench.full, "smoke": bench.smoke}[mode]
    shown = shlex.join(["python", f"bench/{bench.script}", *args])
    command = [sys.executable, str(ROOT / "bench" / bench.script), *args, "--json"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (str(ROOT), os.environ.get("PYTHONPATH"))))}
    began = time.perf_counter()
    timeout = timeout or bench.timeout
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return [(bench.name, f"no result: over {timeout:.0f} s", "")], shown
    print(f"  {bench.name}: {time.perf_counter() - began:.0f} s", file=sys.stderr, flush=True)
    try:
        return bench.rows(last_json(done.stdout)), shown
    except (IndexError, ValueError, KeyError, TypeError) as exc:
        why = (done.stderr.strip().splitlines() or [repr(exc)])[-1][:160]
        return [(bench.name, f"no result (exit {done.returncode}): {why}", "")], shown


def last_json(out: str) -> Any:
    """The JSON document that ends ``out`` (one line, or indented over several)."""
    lines = [line for line in out.splitlines() if line.strip()]
    for start in range(len(lines) - 1, -1, -1):
        if lines[start][:1] in "{[":
            try:
                return json.loads("\n".join(lines[start:]))
            except ValueError:
                continue
    raise ValueError("no JSON at the end of the output")


def machine() -> dict[str, str]:
    """What the figures were measured on; the load average is read once, at the start."""
    cpu = platform.processor() or platform.machine()
    ram = "?"
    try:
        cpu = next(line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                   if line.startswith("model name"))
        kib = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                   if line.startswith("MemTotal:"))
        ram = f"{kib / 2**20:.1f} GiB"
    except (OSError, StopIteration, ValueError):
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return {"cpu": cpu, "cores": str(os.cpu_count()), "ram": ram, "python": platform.python_version(),
            "load": load, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}


def markdown(rows: list[tuple[str, str, str, str]]) -> str:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| figure | value | baseline (same run) | command |", "|---|---|---|---|"]
    lines += [f"| {cell(f)} | {cell(v)} | {cell(b)} | `{c}` |" for f, v, b, c in rows]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="restart at 10k/100k only, smaller runs: a few minutes")
    parser.add_argument("--only", default="", help=f"comma-separated, of: {', '.join(b.name for b in BENCHES)}")
    args = parser.parse_args()
    wanted = {name for name in args.only.split(",") if name}
    unknown = wanted - {b.name for b in BENCHES}
    if unknown:
        parser.error(f"--only: no bench named {', '.join(sorted(unknown))}")
    host = machine()
    began = time.perf_counter()
    rows: list[tuple[str, str, str, str]] = []
    for bench in BENCHES:
        if wanted and bench.name not in wanted:
            continue
        found, command = run(bench, "quick" if args.quick else "full")
        rows += [(*row, command) for row in found]
    print(markdown(rows))
    print()
    print(f"Machine: {host['cpu']}, {host['cores']} cores, {host['ram']} RAM, Python {host['python']}; "
          f"load average at start {host['load']}; {host['date']}; "
          f"`python bench/report.py{' --quick' if args.quick else ''}` took {time.perf_counter() - began:.0f} s.")


if __name__ == "__main__":
    main()
