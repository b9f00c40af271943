"""Walking the journal's hash chain: ``croupier verify-journal`` and the check a start makes.

One streaming pass in ``seq`` order, constant memory: each row's hash must be ``chain_hash``
of the previous row's hash and the row's content, and seqs must follow on. The first row that
does not is named: an edited row fails at itself, a deleted run of rows at the row after the
gap, a reordered pair at the first of them. Rows written before the chain (NULL hash, at the
start of a journal that was migrated) are counted as predating it; a NULL hash after the chain
began is a break. The end of the journal is checked against SQLite's own counter of issued
seqs, so rows cut off the end are reported too; beyond that, the head hash the pit feed
published is the outside witness (docs/deployment.md).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from controller.journal import COLUMNS, GENESIS, Entry, Journal, chain_hash, connect, row_entry, triggers_present


class ChainBreak(Exception):
    """The chain does not hold at ``seq``."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq
        self.reason = reason


class ChainChecker:
    """Feed it rows in seq order; it raises ``ChainBreak`` at the first that does not chain."""

    def __init__(self, prev_seq: int = 0, prev_hash: str | None = None) -> None:
        self.last_seq = prev_seq
        self.prev = prev_hash or GENESIS
        self.started = prev_hash is not None  # a chained row seen: a NULL hash from now on is a break
        self.rows = 0
        self.legacy = 0

    def check(self, seq: int, ts: str, round_id: str | None, kind: str, source: str, payload: str,
              digest: str | None) -> None:
        self.rows += 1
        if digest is None:
            if self.started:
                raise ChainBreak(seq, "row has no hash, but the chain had begun before it (hash removed)")
            self.legacy += 1
            self.last_seq = seq
            return
        if self.started and seq != self.last_seq + 1:
            raise ChainBreak(seq, f"follows seq {self.last_seq}: rows {self.last_seq + 1}..{seq - 1} are missing"
                                  if seq > self.last_seq + 1 else f"out of order after seq {self.last_seq}")
        if chain_hash(self.prev, seq, ts, round_id, kind, source, payload) != digest:
            raise ChainBreak(seq, "hash mismatch: the row was edited, or rows before it were deleted or reordered")
        self.started = True
        self.prev = digest
        self.last_seq = seq


@dataclass(frozen=True, slots=True)
class Verdict:
    rows: int
    legacy: int  # rows that predate the chain (not covered by it)
    head_seq: int
    head_hash: str | None
    triggers: bool  # the append-only triggers are in place
    first_bad: int | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.first_bad is None and self.triggers

    def lines(self) -> list[str]:
        """What ``verify-journal`` prints."""
        out: list[str] = []
        if self.first_bad is not None:
            out.append(f"BROKEN at seq {self.first_bad}: {self.reason}")
        if not self.triggers:
            out.append("TAMPERED: the append-only triggers were dropped (UPDATE and DELETE were possible)")
        if self.ok:
            out.append(f"OK: {self.rows} rows, head seq {self.head_seq} hash {self.head_hash}")
        if self.legacy:
            out.append(f"note: {self.legacy} rows predate the hash chain and are not covered by it")
        return out


def _rows(db: sqlite3.Connection) -> Iterator[tuple[int, str, str | None, str, str, str, str | None]]:
    yield from db.execute(f"SELECT {COLUMNS} FROM events ORDER BY seq")


def verify_db(db: sqlite3.Connection) -> Verdict:
    """The whole chain of an open journal database, one pass."""
    triggers = triggers_present(db)
    checker = ChainChecker()
    try:
        for row in _rows(db):
            checker.check(*row)
        issued = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()
        if issued and issued[0] > checker.last_seq:
            raise ChainBreak(checker.last_seq + 1, f"rows {checker.last_seq + 1}..{issued[0]} were cut off the end")
    except ChainBreak as exc:
        return Verdict(checker.rows, checker.legacy, checker.last_seq, checker.prev, triggers, exc.seq, exc.reason)
    head = checker.prev if checker.started else None
    return Verdict(checker.rows, checker.legacy, checker.last_seq, head, triggers)


def verify_file(path: str | Path) -> Verdict:
    """Verify a journal file without changing it (its triggers are not re-created)."""
    if not Path(path).exists():
        raise FileNotFoundError(f"no journal at {path}")
    db = connect(path)
    try:
        return verify_db(db)
    finally:
        db.close()


def chained(journal: Journal, after: int = 0, *, until: int | None = None) -> Iterator[Entry]:
    """The entries after ``after``, each checked against the chain as it is read (``ChainBreak``
    at the first that fails), starting from the stored hash of row ``after``: what a start
    replays is verified in the same pass, so the check costs the tail, not the journal."""
    checker = ChainChecker()
    if after > 0:
        found, digest = journal.hash_at(after)
        if not found:
            raise ChainBreak(after, "the row the replay starts from is missing")
        checker = ChainChecker(after, digest)
    for row in journal.rows(after, until):
        checker.check(*row)
        yield row_entry(row)
