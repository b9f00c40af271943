"""bench/fuzz.py measures what it says: an exception a parser lets out is counted, a parser that
keeps what it reads shows as memory growth in both measures (and in their second halves), a
parser that keeps nothing does not, and a short run of the whole bench exits 0 with every
parser in its figures."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.fuzz.parsers import PARSERS, Parser

ROOT = Path(__file__).resolve().parents[2]


def bench() -> ModuleType:
    """bench/fuzz.py as a module (registered first: its dataclasses look their module up)."""
    if "fuzz_bench" in sys.modules:
        return sys.modules["fuzz_bench"]
    spec = importlib.util.spec_from_file_location("fuzz_bench", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_bench"] = module
    spec.loader.exec_module(module)
    return module


def test_escaped_exceptions_are_counted_by_type() -> None:
    fuzz = bench()

    def parse(raw: bytes) -> object:
        if raw.startswith(b"{"):
            raise ValueError("allowed")
        empty: dict[bytes, object] = {}
        return empty[raw]  # KeyError: escapes

    tally = fuzz.Tally()
    fuzz.run(Parser("p", parse, (ValueError,), ()), [b"{", b"x", b"y", b"{a"], tally)
    assert tally.done == 4 and dict(tally.escaped) == {"KeyError": 2}


@pytest.mark.slow  # the fuzz bench's memory measure: make test runs it, make test-fast does not
def test_a_leak_shows_in_both_measures_and_a_flat_parser_does_not() -> None:
    fuzz = bench()
    kept: list[bytes] = []

    def leaky(raw: bytes) -> object:
        kept.append(raw + bytes(1000))  # about 1 KiB kept per input
        return None

    seeds = (b"abc",)
    whole, second_half = fuzz.traced_growth(Parser("leaky", leaky, (), seeds), 2000, 7, 500, warm_up=500)
    assert whole >= 2000 * 1000 and second_half >= 1000 * 1000
    flat_whole, flat_half = fuzz.traced_growth(Parser("flat", lambda raw: raw.upper(), (), seeds), 2000, 7, 500,
                                               warm_up=500)
    assert abs(flat_whole) < 20_000 and abs(flat_half) < 20_000

    kept.clear()
    mine, _ = fuzz.timed(Parser("leaky", leaky, (), seeds), 8000, 7, 1000, warm_up=1000)
    assert mine.rss_growth_kib >= 4000 and mine.rss_second_half_kib >= 2000  # 7 and 4 MiB kept


@pytest.mark.slow  # a run of the whole fuzz bench in a process: make test runs it, make test-fast does not
def test_a_short_run_covers_every_parser_with_nothing_escaping() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "fuzz.py"), "--n", "300", "--traced", "200",
                          "--warm-up", "100", "--chunk", "100", "--json"],
                         capture_output=True, text=True, timeout=300, check=False, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert [p["parser"] for p in figures["parsers"]] == [p.name for p in PARSERS]
    assert all(p["inputs"] == 300 and p["escaped"] == {} for p in figures["parsers"])
    assert figures["escaped"] == 0
