"""Every benchmark runs in the suite, with tiny parameters (``bench/report.py``'s ``smoke``): a
bench that breaks (an API it uses changed, a page it drives, a message it publishes) fails here,
not on the day someone wants its figure. The scripts are discovered: a new ``bench/*.py`` that
``bench/report.py`` does not list, with its smoke parameters, fails until it is listed.

What is checked is that each bench ran and its JSON gave its report rows; its figures at these
sizes mean nothing and are not asserted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench import report

BENCH_DIR = Path(report.__file__).resolve().parent
#: a few seconds each at smoke size; the margin is for a loaded 2-core machine
SMOKE_TIMEOUT = 240.0

pytestmark = pytest.mark.bench


def scripts() -> list[str]:
    """Every runnable script in bench/ (one with a ``__main__`` block)."""
    main = re.compile(r"^if __name__ == .__main__.:", re.MULTILINE)
    return sorted(p.name for p in BENCH_DIR.glob("*.py") if main.search(p.read_text()))


BY_SCRIPT = {bench.script: bench for bench in report.BENCHES}


def test_every_script_is_a_listed_bench_or_a_part_of_one() -> None:
    unlisted = [s for s in scripts() if s not in BY_SCRIPT and s not in report.PARTS]
    assert not unlisted, f"list these in bench/report.py BENCHES, with smoke parameters: {unlisted}"
    assert all(bench.smoke for bench in report.BENCHES)


@pytest.mark.timeout(SMOKE_TIMEOUT + 30)
@pytest.mark.parametrize("script", [s for s in scripts() if s not in report.PARTS])
def test_bench_runs_with_tiny_parameters(script: str) -> None:
    bench = BY_SCRIPT.get(script)
    assert bench is not None, f"bench/{script} is not in bench/report.py BENCHES"
    rows, command = report.run(bench, "smoke", timeout=SMOKE_TIMEOUT)
    failed = [value for _, value, _ in rows if value.startswith("no result")]
    assert rows and not failed, f"{command}: {failed}"
