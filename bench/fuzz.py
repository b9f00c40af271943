"""Fuzz bench: N hostile inputs per parser (mutated valid inputs, see tests/fuzz/parsers.py),
printing inputs/s, escaped exceptions and memory growth. Under each parser, ``json.loads`` of
the very same bytes, run in the same process, gives the baseline: its speed, and its traced
memory (the noise floor of that measure). The exit status is 1 if any exception escaped.

Memory is measured twice, both after a warm-up (``WARM_UP`` inputs) has filled the caches
(pydantic, regular expressions, the interpreter's):

- RSS growth over the timed run (``/proc/self/statm``), from the end of its warm-up to its end:
  what the operating system sees of the whole process (parser, baseline and the bench's own
  inputs together, so it is shown on the parser's row only), and over the second half of the
  run. Read after a garbage collection and ``malloc_trim`` (without which the bench's own
  inputs, made and freed a chunk at a time, move it by 20 MiB either way), it stays within a
  few hundred KiB for a flat parser; a leak goes on climbing through the second half (the spot
  presses' old unread queue grew 15 MB per 50,000 presses).
- Traced growth (``tracemalloc`` current, bytes) over ``--traced`` further inputs after its own
  warm-up: Python objects the parser kept. A leak of even a few bytes per input shows
  here as a growth of that many bytes times the inputs; a flat parser stays within a few KiB.
  It runs apart from the timed run, since tracing slows allocation several times. "2nd half" is
  the part of it added over the second half of those inputs: a cache that fills levels off (its
  growth is all in the first half), a leak goes on.

    python bench/fuzz.py [--n 1000000] [--traced 100000] [--warm-up 40000] [--seed 1] [--only NAME] [--json]
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import json
import os
import random
import sys
import time
import tracemalloc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.fuzz.parsers import PARSERS, Parser, mutate


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None


MALLOC_TRIM = _malloc_trim()


def rss_kib() -> float:
    """Resident memory of what is still in use (Linux ``/proc/self/statm``), in KiB: garbage
    collected, and the C heap's free pages handed back first (glibc ``malloc_trim``), so that the
    bench's own inputs, made and freed a chunk at a time, do not show as growth."""
    gc.collect()
    if MALLOC_TRIM is not None:
        MALLOC_TRIM(0)
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1024


def inputs(parser: Parser, n: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    return [mutate(rng, rng.choice(parser.seeds)) for _ in range(n)]


def json_loads(raw: bytes) -> object:
    return json.loads(raw)


#: inputs run before memory is first read: the regular-expression, pydantic and interpreter
#: caches that fill with use level off within some tens of thousands of hostile inputs
WARM_UP = 40_000

#: the baseline, as a parser: refuses with ValueError (JSON) or RecursionError (deep nesting)
BASELINE = Parser("json.loads", json_loads, (ValueError, RecursionError), ())


@dataclass
class Tally:
    """One parser's figures over a run."""

    done: int = 0
    spent: float = 0.0
    escaped: Counter[str] = field(default_factory=Counter)
    rss_growth_kib: float = 0.0
    rss_second_half_kib: float = 0.0
    traced_growth: int = 0
    traced_second_half: int = 0

    def row(self, name: str, *, rss: bool = True) -> str:
        rate = self.done / self.spent if self.spent else 0.0
        escaped = sum(self.escaped.values())
        shown_rss = (f"{self.rss_growth_kib:>9.0f} {self.rss_second_half_kib:>9.0f}" if rss
                     else f"{'-':>9} {'-':>9}")
        text = (f"{name:18} {self.done:>9} {rate:>10.0f} {self.spent:>8.1f} {escaped:>8} "
                f"{shown_rss} {self.traced_growth:>+10} {self.traced_second_half:>+10}")
        return text + (f"  {dict(self.escaped)}" if self.escaped else "")


def run(parser: Parser, batch: list[bytes], tally: Tally) -> None:
    parse, allowed, escaped = parser.parse, parser.allowed, tally.escaped
    start = time.perf_counter()
    for raw in batch:
        try:
            parse(raw)
        except allowed:
            pass
        except Exception as exc:
            escaped[type(exc).__name__] += 1
    tally.spent += time.perf_counter() - start
    tally.done += len(batch)


def timed(parser: Parser, n: int, seed: int, chunk: int, warm_up: int = WARM_UP) -> tuple[Tally, Tally]:
    """The parser and the baseline over the same ``n`` inputs, chunk by chunk (the inputs of
    one chunk are all the bench holds). RSS growth is the process's, from the end of the warm-up
    to the end, and over the second half."""
    mine, base = Tally(), Tally()
    after_first: float | None = None
    halfway: float | None = None
    while mine.done < n:
        batch = inputs(parser, min(chunk, n - mine.done), seed + mine.done)
        run(parser, batch, mine)
        run(BASELINE, batch, base)
        del batch
        if after_first is None and mine.done >= min(warm_up, n):
            after_first = rss_kib()
        if halfway is None and mine.done >= n // 2:
            halfway = rss_kib()
    end = rss_kib()
    mine.rss_growth_kib = end - (after_first or end)
    mine.rss_second_half_kib = end - (halfway or end)
    return mine, base


def traced_growth(parser: Parser, n: int, seed: int, chunk: int, warm_up: int = WARM_UP) -> tuple[int, int]:
    """Bytes of Python objects still held after ``n`` inputs, counted from after a warm-up,
    and the part of it added over the second half of the inputs (a cache that fills levels off,
    a leak goes on). The inputs are made before tracing starts: making them is no part of a parse."""
    warm_up_inputs = inputs(parser, warm_up, seed - 1)
    batches = [inputs(parser, min(chunk, n - done), seed + done) for done in range(0, n, chunk)]
    tracemalloc.start()
    try:
        run(parser, warm_up_inputs, Tally())
        del warm_up_inputs
        gc.collect()
        start = middle = tracemalloc.get_traced_memory()[0]
        for i, batch in enumerate(batches):
            if i == len(batches) // 2:
                gc.collect()
                middle = tracemalloc.get_traced_memory()[0]
            run(parser, batch, Tally())
        gc.collect()
        end = tracemalloc.get_traced_memory()[0]
        return end - start, end - middle
    finally:
        tracemalloc.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1_000_000, help="inputs per parser, timed")
    ap.add_argument("--traced", type=int, default=100_000, help="inputs per parser run under tracemalloc")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=None)
    ap.add_argument("--chunk", type=int, default=20_000, help="inputs generated at a time (bounds the bench's own memory)")
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--warm-up", type=int, default=WARM_UP, help="inputs run before memory is first read")
    args = ap.parse_args()
    rows: list[dict[str, object]] = []
    say = (lambda *a, **k: None) if args.json else print
    say(f"{'parser':18} {'inputs':>9} {'inputs/s':>10} {'seconds':>8} {'escaped':>8} "
          f"{'RSS KiB':>9} {'2nd half':>9} {'traced B':>10} {'2nd half':>10}", flush=True)
    total_escaped = 0
    began = time.perf_counter()
    for parser in PARSERS:
        if args.only and parser.name != args.only:
            continue
        run(parser, inputs(parser, 2000, args.seed - 1), Tally())  # first calls build caches
        mine, base = timed(parser, args.n, args.seed, args.chunk, args.warm_up)
        traced_seed = args.seed + args.n + 1  # inputs the timed run did not see
        chunk = min(args.chunk, max(args.traced // 4, 1))
        mine.traced_growth, mine.traced_second_half = traced_growth(parser, args.traced, traced_seed, chunk,
                                                                    args.warm_up)
        base.traced_growth, base.traced_second_half = traced_growth(
            replace(BASELINE, seeds=parser.seeds), args.traced, traced_seed, chunk, args.warm_up)
        total_escaped += sum(mine.escaped.values())
        say(mine.row(parser.name), flush=True)
        say(base.row("  json.loads", rss=False), flush=True)
        rows.append({"parser": parser.name, "inputs": mine.done, "inputs_per_s": round(mine.done / mine.spent),
                     "escaped": dict(mine.escaped), "rss_growth_kib": round(mine.rss_growth_kib),
                     "rss_second_half_kib": round(mine.rss_second_half_kib),
                     "traced_growth_b": mine.traced_growth, "traced_second_half_b": mine.traced_second_half,
                     "baseline_inputs_per_s": round(base.done / base.spent)})
    say(f"total {time.perf_counter() - began:.0f} s; escaped exceptions: {total_escaped}", flush=True)
    if args.json:
        print(json.dumps({"n": args.n, "traced": args.traced, "seconds": round(time.perf_counter() - began, 1),
                          "escaped": total_escaped, "parsers": rows}))
    sys.exit(1 if total_escaped else 0)


if __name__ == "__main__":
    main()
