"""Full-stack table throughput of another revision beside the working tree, in one invocation.

The revision is checked out into a temporary directory (``git worktree add --detach``, removed
afterwards), and both trees' ``bench/table.py`` throughput runs alternate (A B A B ...), each
in its own subprocess with that tree on ``PYTHONPATH`` and as its working directory, so each
tree's code runs its own bench: its ``full_stack`` (simulated shoe on a pty, fsynced journal,
pit feed on a mosquitto started per run) and its ``core_alone`` over that run's inputs. Runs
are niced. On a shared machine a burst of load can halve a run, so beside each tree's median
and best run it prints every working run's ratio to the revision's run just before it and the
median of those ratios (what such a burst moves least), with the load average before and after.
CPU per round is the process's CPU over the full-stack run, the blackjack strategy (computed once
per process) already warm. The core alone's rounds/s is the best of three replays of that run's
inputs through a fresh core, timed on the process's CPU clock with no clock read per step: one
replay takes a few tens of milliseconds, so on a shared machine its wall time says mostly
whether it was preempted. The card step p50 is ``core_alone``'s, on the wall clock (a median: a
preempted step does not move it).

    python bench/compare_revisions.py [--rev 7e4b78e] [--rounds 100] [--runs 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: the code before the hardening (issue 16's reference)
DEFAULT_REV = "7e4b78e"

#: one throughput run of the tree on sys.path (its own bench/table.py), one JSON line out
RUNNER = """
import asyncio, json, resource, shutil, statistics, sys, tempfile, time
from pathlib import Path
from bench import table
from tests.fixtures.mosquitto import MosquittoBroker

# the core alone's rounds/s: the best of three replays of the run's inputs through a fresh core
# (the tree's own), on the process's CPU clock and with no clock read per step, so time the
# process spent preempted on a shared machine is not counted as the core's
def core_cpu(journal, config, replays=3):
    with table.Journal(journal) as opened:
        entries = [e for e in opened.entries() if e.kind in table.inputs.INPUT_KINDS]
    best = 0.0
    for _ in range(replays):
        core = table.build_core(config)
        began = time.process_time()
        for entry in entries:
            core.step(entry)
        best = max(best, core.closed_rounds / (time.process_time() - began))
    return best

async def run(rounds):
    work = Path(tempfile.mkdtemp(prefix="bench-compare-"))
    try:
        with MosquittoBroker() as broker:
            # the basic strategy is computed once per process (seconds of CPU), not per round
            table.BasicStrategy.for_rules(table._config(work, broker.tcp_url()).game_rules())
            cpu = resource.getrusage(resource.RUSAGE_SELF)
            fast = await table.full_stack(work / "throughput", broker, rounds, 0.0)
            after = resource.getrusage(resource.RUSAGE_SELF)
        base = table.core_alone(fast["journal"], fast["config"])
        core_rounds_per_s = core_cpu(fast["journal"], fast["config"])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    steps = base["card_steps"]
    print(json.dumps({"rounds": fast["rounds"], "rounds_per_s": fast["rounds"] / fast["elapsed"],
                      "entries": fast["entries"],
                      "cpu_ms_per_round": (after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime)
                                          * 1e3 / fast["rounds"],
                      "core_rounds_per_s": core_rounds_per_s,
                      "core_wall_rounds_per_s": base["rounds"] / base["elapsed"],
                      "card_step_p50_us": statistics.median(steps) * 1e6}))

asyncio.run(run(int(sys.argv[1])))
"""


def checkout(rev: str, into: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(into), rev], check=True)


def remove_checkout(into: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(into)], check=False)
    subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=False)


def one_run(tree: Path, rounds: int, nice: int, attempts: int = 2) -> dict[str, Any]:
    """One run of ``tree``; a run that fails (on a loaded machine the feed can miss its 30 s to
    catch up) is said on stderr and run again, up to ``attempts`` times."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    command = ["nice", "-n", str(nice), sys.executable, "-c", RUNNER, str(rounds)]
    for attempt in range(1, attempts + 1):
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode == 0:
            result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
            return result
        said = f"bench run in {tree} failed ({done.returncode}, attempt {attempt} of {attempts})"
        if attempt == attempts:
            raise SystemExit(f"{said}:\n{done.stderr[-3000:]}")
        print(f"{said}: {done.stderr.strip().splitlines()[-1:]}; running it again", file=sys.stderr, flush=True)
    raise AssertionError("unreachable")


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "runs_rounds_per_s": [round(r["rounds_per_s"], 1) for r in runs],
        "median_rounds_per_s": round(statistics.median(r["rounds_per_s"] for r in runs), 1),
        "best_rounds_per_s": round(max(r["rounds_per_s"] for r in runs), 1),
        "runs_cpu_ms_per_round": [round(r["cpu_ms_per_round"], 1) for r in runs],
        "median_core_rounds_per_s": round(statistics.median(r["core_rounds_per_s"] for r in runs)),
        "median_card_step_p50_us": round(statistics.median(r["card_step_p50_us"] for r in runs), 1),
        "median_cpu_ms_per_round": round(statistics.median(r["cpu_ms_per_round"] for r in runs), 1),
        "entries_per_run": runs[0]["entries"],
    }


def compare(rev: str, rounds: int, runs: int, nice: int) -> dict[str, Any]:
    load_before = os.getloadavg()
    parent = Path(tempfile.mkdtemp(prefix="croupier-rev-"))
    other = parent / "tree"
    checkout(rev, other)
    try:
        results: dict[str, list[dict[str, Any]]] = {"revision": [], "working": []}
        for _ in range(runs):
            results["revision"].append(one_run(other, rounds, nice))
            results["working"].append(one_run(ROOT, rounds, nice))
    finally:
        remove_checkout(other)
        shutil.rmtree(parent, ignore_errors=True)
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True, check=True).stdout.strip()
    # each working run against the revision's run just before it: a burst of load on the shared
    # machine falls on one pair, and the median ratio is what it does not move
    pairs = list(zip(results["revision"], results["working"], strict=True))
    ratios = [w["rounds_per_s"] / r["rounds_per_s"] for r, w in pairs]
    core_ratios = [w["core_rounds_per_s"] / r["core_rounds_per_s"] for r, w in pairs]
    return {"rev": rev, "head": head, "rounds": rounds, "runs": runs,
            "median_pair_ratio": round(statistics.median(ratios), 2), "pair_ratios": [round(x, 2) for x in ratios],
            "median_core_pair_ratio": round(statistics.median(core_ratios), 2),
            "core_pair_ratios": [round(x, 2) for x in core_ratios],
            "load_before": [round(x, 2) for x in load_before], "load_after": [round(x, 2) for x in os.getloadavg()],
            "revision": summary(results["revision"]), "working": summary(results["working"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default=DEFAULT_REV, help="the revision to compare against (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=100, help="rounds per throughput run")
    parser.add_argument("--runs", type=int, default=5, help="runs per tree, alternated")
    parser.add_argument("--nice", type=int, default=10)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # a stop (SIGTERM; SIGINT may be ignored under a runner) still removes the checkout
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    data = compare(args.rev, args.rounds, args.runs, args.nice)
    if args.json:
        print(json.dumps(data))
        return
    print(f"Full-stack table throughput, {args.rounds} rounds per run, {args.runs} runs each, alternated "
          f"(load {data['load_before']} -> {data['load_after']})")
    for label, key in ((f"{args.rev} ", "revision"), (f"working tree ({data['head']}+)", "working")):
        s = data[key]
        print(f"  {label:<28} median {s['median_rounds_per_s']:6.1f} rounds/s, best {s['best_rounds_per_s']:.1f}  "
              f"runs {s['runs_rounds_per_s']}")
        print(f"  {'':<28} CPU {s['median_cpu_ms_per_round']} ms/round; core alone {s['median_core_rounds_per_s']} "
              f"rounds/s (CPU clock), card step p50 {s['median_card_step_p50_us']} µs")
    print(f"  working tree / {args.rev}, run by run: {data['pair_ratios']}, median {data['median_pair_ratio']}")
    print(f"  core alone, working tree / {args.rev}, run by run: {data['core_pair_ratios']}, "
          f"median {data['median_core_pair_ratio']}")


if __name__ == "__main__":
    main()
