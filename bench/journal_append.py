"""Journal appends per second: keyed (HMAC per row, keyed checkpoint in the same transaction)
against the unkeyed journal as baseline, in the same process, on the same disk.

Each append is a durable SQLite commit (WAL, synchronous FULL), as at the table. Run:
``python bench/journal_append.py [--rows 2000] [--dir /tmp/croupier-bench-append]``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.journal import Journal

KEY = b"bench-key-" + b"0" * 32


def appends_per_second(path: Path, rows: int, key: bytes | None) -> float:
    with Journal(path, exclusive=True, key=key) as journal:
        started = time.perf_counter()
        for i in range(rows):
            journal.append("command", {"command": "bet", "box": i % 7 + 1, "amount": 500}, source="dealer",
                           round_id=f"T1-{i // 20:06d}")
        return rows / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--dir", default=None, help="where the journals go (default: a temporary directory)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    where = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="croupier-bench-append-"))
    where.mkdir(parents=True, exist_ok=True)
    runs = []
    try:
        for round_ in (1, 2):  # interleaved, so a disk that warms up favours neither
            plain = appends_per_second(where / f"plain-{round_}.journal", args.rows, None)
            keyed = appends_per_second(where / f"keyed-{round_}.journal", args.rows, KEY)
            runs.append({"unkeyed_per_s": round(plain), "keyed_per_s": round(keyed)})
            if not args.json:
                print(f"run={round_} rows={args.rows} unkeyed_per_s={plain:.0f} keyed_per_s={keyed:.0f} "
                      f"keyed_vs_unkeyed={keyed / plain:.2f}", flush=True)
    finally:
        if not args.dir:
            shutil.rmtree(where, ignore_errors=True)
    if args.json:  # the second run: the first warms the disk and the imports
        print(json.dumps({"rows": args.rows, **runs[-1]}))


if __name__ == "__main__":
    main()
