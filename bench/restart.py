"""Restart cost against journals of 10k, 100k and 1M entries: snapshot start against full replay.

Each journal is synthesised fast: blackjack rounds stepped through the real ``TableCore`` (bets,
cards from shuffled shoes, decisions, settlement, a new shoe when the shoe runs low), with the
outputs the core gives, snapshots every ``snapshot.EVERY`` inputs as the live loop writes them,
and the hash chain; rows go in by the ten thousand in one transaction (``synchronous=OFF``
while generating only). Journals are kept in ``--dir`` and reused when the size matches.

Each measurement runs in a fresh process (``multiprocessing`` spawn): open the journal, build the
core from the config, replay (from the last snapshot, or the whole journal for the baseline)
until the table is resumed; the time and the process's peak RSS growth (``ru_maxrss``) over a
process that only imported the code. Run: ``python bench/restart.py [--sizes 10000,100000,1000000]``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import sqlite3
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from controller.config import load  # noqa: E402
from controller.games.base import ExpectKind  # noqa: E402
from controller.journal import (  # noqa: E402
    CHECKPOINT,
    COLUMNS,
    GENESIS,
    SNAPSHOT,
    Entry,
    Journal,
    chain_hash,
    checkpoint_mac,
    encode_payload,
    row_mac,
)
from controller.journal_keyed import KEYED, KEYED_SOURCE, declaration_payload  # noqa: E402
from controller.process import build_core  # noqa: E402
from controller.runtime import snapshot  # noqa: E402
from controller.table import inputs  # noqa: E402
from controller.table.effects import Record  # noqa: E402

CONFIG = ROOT / "config" / "blackjack-ru6.toml"
RANKS = "A23456789TJQK"
SUITS = "SHDC"


class Writer:
    """Rows with their chain hashes, inserted in batches."""

    def __init__(self, path: Path, key: bytes | None = None) -> None:
        Journal(path).close()  # schema, triggers, mode 0600
        self.key = key
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA synchronous=OFF")
        self.seq = 0
        self.prev = GENESIS
        self.rows: list[tuple[Any, ...]] = []
        self.blobs: list[tuple[int, bytes]] = []
        self.minute = 0
        if key is not None:  # a keyed journal's first row declares its key, as the table's does
            self.add(KEYED, declaration_payload(1, key), KEYED_SOURCE, None)

    def add(self, kind: str, payload: dict[str, Any], source: str, round_id: str | None) -> Entry:
        self.seq += 1
        self.minute += 1
        ts = f"2026-11-{1 + self.minute // 86400 % 28:02d}T{self.minute // 3600 % 24:02d}:{self.minute // 60 % 60:02d}:" \
             f"{self.minute % 60:02d}.000Z"
        text = encode_payload(payload)
        digest = chain_hash(self.prev, self.seq, ts, round_id, kind, source, text)
        self.prev = digest
        mac = row_mac(self.key, self.seq, digest) if self.key is not None else None
        self.rows.append((self.seq, ts, round_id, kind, source, text, digest, mac))
        if len(self.rows) >= 10_000:
            self.flush()
        return Entry(self.seq, ts, round_id, kind, source, payload, digest)

    def flush(self) -> None:
        self.db.execute("BEGIN")
        self.db.executemany(f"INSERT INTO events ({COLUMNS}, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", self.rows)
        self.db.executemany("INSERT INTO snapshots (seq, data) VALUES (?, ?)", self.blobs)
        self.db.execute("COMMIT")
        self.rows, self.blobs = [], []

    def close(self) -> None:
        self.flush()
        if self.key is not None:  # the keyed checkpoint of the head, as the table keeps it
            state = json.dumps({"hash": self.prev, "mac": checkpoint_mac(self.key, self.seq, self.prev)})
            self.db.execute("INSERT INTO cursors (name, seq, state) VALUES (?, ?, ?)", (CHECKPOINT, self.seq, state))
        self.db.execute("DELETE FROM snapshots WHERE seq NOT IN (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT 2)")
        self.db.close()


def synthesise(path: Path, size: int, seed: int = 7, key: bytes | None = None) -> None:
    """About ``size`` entries of blackjack at one table, three boxes a round (keyed with ``key``)."""
    config = load(CONFIG)
    core = build_core(config)
    rng = random.Random(seed)
    w = Writer(path, key)
    applied = 0

    def shoe() -> list[str]:
        cards = [r + s for r in RANKS for s in SUITS] * 6
        rng.shuffle(cards)
        return cards

    def put(kind: str, payload: dict[str, Any], source: str) -> None:
        nonlocal applied
        entry = w.add(kind, payload, source, core.round_id)
        for effect in core.step(entry):
            if isinstance(effect, Record):
                core.written(w.add(effect.kind, effect.payload, "table", effect.round_id))
        applied += 1
        if applied % snapshot.EVERY == 0:
            blob = snapshot.dump(core)
            meta = {"format": snapshot.FORMAT, "covers": entry.seq, "fingerprint": snapshot.fingerprint(core.adapter.game),
                    "game": core.adapter.game}
            import hashlib

            row = w.add(SNAPSHOT, {**meta, "sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob)},
                        "table", core.round_id)
            w.blobs.append((row.seq, blob))

    w.add(inputs.TABLE_STARTED, {"game": "blackjack", "preset": config.table.preset,
                                 "rules": core.rules.model_dump(mode="json"), "burn_on_new_shoe": 0}, "table", None)
    core.restarted()
    cards, n = shoe(), 0
    put(inputs.DEVICE, {"type": "online", "device": "shoe"}, "shoe")
    while w.seq < size:
        if len(cards) - n < 60:
            put(inputs.COMMAND, {"command": "new_shoe"}, "dealer")
            cards, n = shoe(), 0
        put(inputs.COMMAND, {"command": "open_round"}, "dealer")
        for box in (1, 2, 3):
            put(inputs.COMMAND, {"command": "bet", "box": box, "amount": 500 * box, "player": f"P{box}"},
                f"player:P{box}")
        put(inputs.COMMAND, {"command": "close_betting"}, "dealer")
        while core.engine is not None:
            expect = core.engine.expects()
            if expect.kind in (ExpectKind.CARD, ExpectKind.DEALER_CARD):
                n += 1
                put(inputs.DEVICE, {"type": "card", "device": "shoe", "card": cards[n - 1], "n": n}, "shoe")
            elif expect.kind is ExpectKind.DECISION:
                action = "stand" if "stand" in expect.options else expect.options[-1]
                put(inputs.COMMAND, {"command": "decide", "box": expect.box, "hand": expect.hand or 1,
                                     "action": action, "player": f"P{expect.box}"}, f"player:P{expect.box}")
            elif expect.kind is ExpectKind.DONE:
                put(inputs.COMMAND, {"command": "settle"}, "dealer")
            else:
                raise RuntimeError(f"unexpected {expect}")
            if core.hold is not None:
                raise RuntimeError(f"synthetic journal held: {core.hold}")
    w.close()


#: the key of ``--keyed`` journals (a bench key, not a secret)
BENCH_KEY = b"bench-key-" + b"0" * 32


def _measure(path: str, use_snapshots: bool, queue: Any, key: bytes | None = None) -> None:
    from controller.runtime.recovery import replay

    config = load(CONFIG)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0 = time.perf_counter()
    journal = Journal(path, exclusive=True, key=key)  # as the table opens it: the lock, the checks at open
    core = build_core(config)
    result = replay(journal, core, snapshots=use_snapshots)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    journal.close()
    queue.put({"seconds": seconds, "peak_mb": (peak - base) / 1024, "rss_mb": peak / 1024, "inputs": result.inputs,
               "snapshot": result.snapshot, "integrity": result.integrity})


def measure(path: Path, use_snapshots: bool, key: bytes | None = None) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_measure, args=(str(path), use_snapshots, queue, key))
    proc.start()
    while True:
        try:
            result: dict[str, Any] = queue.get(timeout=1.0)
            break
        except Exception:  # queue.Empty: still replaying, or dead
            if not proc.is_alive():
                raise RuntimeError(f"the measuring process died (exit {proc.exitcode})") from None
    proc.join()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--dir", default="/tmp/croupier-bench-restart")
    parser.add_argument("--baseline-max", type=int, default=10**9,
                        help="skip the full-replay baseline above this many entries")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keyed", action="store_true", help="keyed journals (HMAC per row, keyed checkpoint)")
    args = parser.parse_args()
    key = BENCH_KEY if args.keyed else None
    os.environ["CROUPIER_SNAPSHOT_FINGERPRINT"] = f"bench-{snapshot.fingerprint()}"  # children inherit it
    snapshot.fingerprint.cache_clear()
    out_dir = Path(args.dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    rows = []
    for size in (int(s) for s in args.sizes.split(",")):
        path = out_dir / f"journal-{size}-{snapshot.fingerprint()}{'-keyed' if key else ''}.sqlite"
        t0 = time.perf_counter()
        if not path.exists():
            synthesise(path, size, key=key)
        made = time.perf_counter() - t0
        with Journal(path) as j:
            entries = j.last_seq()
        row: dict[str, Any] = {"entries": entries, "generated_s": round(made, 1),
                               "mb_on_disk": round(path.stat().st_size / 2**20, 1)}
        snap = measure(path, True, key)
        if snap["integrity"]:
            raise RuntimeError(f"the synthesised journal held at start: {snap['integrity']}")
        row.update(keyed=key is not None, restart_s=round(snap["seconds"], 3), restart_peak_mb=round(snap["peak_mb"], 1),
                   restart_rss_mb=round(snap["rss_mb"], 1),
                   replayed_inputs=snap["inputs"])
        if entries <= args.baseline_max:
            full = measure(path, False, key)
            row.update(full_replay_s=round(full["seconds"], 3), full_peak_mb=round(full["peak_mb"], 1),
                       full_rss_mb=round(full["rss_mb"], 1),
                       full_inputs=full["inputs"])
        rows.append(row)
        if not args.json:
            print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
    if args.json:
        print(json.dumps(rows))


if __name__ == "__main__":
    main()
