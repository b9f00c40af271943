"""Walking the journal's hash chain: ``croupier verify-journal`` and the check a start makes.

One streaming pass in ``seq`` order, constant memory: each row's hash must be ``chain_hash``
of the previous row's hash and the row's content, and seqs must follow on. The first row that
does not is named: an edited row fails at itself, a deleted run of rows at the row after the
gap, a reordered pair at the first of them. Rows written before the chain (NULL hash, at the
start of a journal that was migrated) are counted as predating it; a NULL hash after the chain
began is a break. The end of the journal is checked against SQLite's own counter of issued
seqs, so rows cut off the end are reported too; beyond that, the head hash the pit feed
published is the outside witness (docs/deployment.md).

With the journal's key each row's MAC is checked as well: a row without one after keyed rows
began (or from where the journal's key declaration says it is keyed), or with one that does not
verify, was written without the key; a journal with rows that is not keyed at all (no
declaration, no MAC'd head) fails too, since stripping every MAC is how a keyed journal would
be passed off as one from before its key (journal_keyed.py). ``open_problems`` (journal.py) is
what a start checks before it writes anything: the issued-seq counter and the keyed checkpoint
of the head against the rows (truncation, forged tail rows, a wrong key). ``check_heads``
compares heads recorded off the table (``croupier anchor``, the back office) with the rows:
that proves a rewrite even by someone holding the key.
"""

from __future__ import annotations

import hmac
import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from controller.journal import (
    COLUMNS,
    GENESIS,
    Entry,
    Journal,
    chain_hash,
    checkpoint_problems,
    connect,
    cut_off,
    row_entry,
    row_mac,
    triggers_present,
)
from controller.journal_keyed import KEYED, JournalKeyError, declaration_problem, parse_declaration


class ChainBreak(Exception):
    """The chain does not hold at ``seq``."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"seq {seq}: {reason}")
        self.seq = seq
        self.reason = reason


class ChainChecker:
    """Feed it rows in seq order; it raises ``ChainBreak`` at the first that does not chain."""

    def __init__(self, prev_seq: int = 0, prev_hash: str | None = None, *, key: bytes | None = None,
                 keyed: bool = False) -> None:
        self.last_seq = prev_seq
        self.prev = prev_hash or GENESIS
        self.started = prev_hash is not None  # a chained row seen: a NULL hash from now on is a break
        self.rows = 0
        self.legacy = 0
        self.key = key
        self.keyed = keyed  # a keyed row seen (or the start row was one): a row without a MAC is a break
        self.unkeyed = 0  # rows before the first keyed one (written before the journal had a key)
        self.macs_unchecked = 0  # rows with a MAC, read without the key
        self.keyed_since: int | None = None  # the first row of the keyed run the checker is in
        self.declared: int | None = None  # keyed_from of the journal's key declaration, once read
        self.first_chained: int | None = None  # the first row with a hash

    def check(self, seq: int, ts: str, round_id: str | None, kind: str, source: str, payload: str,
              digest: str | None, mac: str | None = None) -> None:
        self._check_chain(seq, ts, round_id, kind, source, payload, digest)
        if digest is None:
            return
        if self.first_chained is None:
            self.first_chained = seq
        if kind == KEYED and self.declared is None:
            self._check_declaration(seq, payload, digest, mac)
        if self.key is None:
            self.macs_unchecked += mac is not None
        elif mac is None:
            if self.keyed:
                raise ChainBreak(seq, "row has no MAC, but keyed rows came before it (written without the key)")
            self.unkeyed += 1
        elif not hmac.compare_digest(mac, row_mac(self.key, seq, digest)):
            raise ChainBreak(seq, "MAC mismatch: the row was not written with the table's key (forged, or a wrong key)")
        elif not self.keyed:
            self.keyed, self.keyed_since = True, seq

    def _check_declaration(self, seq: int, payload: str, digest: str, mac: str | None) -> None:
        """The journal's key declaration: with the key, it verifies, and every row from where it
        says the journal is keyed has carried a MAC (the rows after it are checked as they come)."""
        declared = parse_declaration(seq, payload, digest, mac)
        self.declared = declared.keyed_from
        if self.key is None:
            return
        try:
            problem = declaration_problem(declared, self.key)
        except JournalKeyError as exc:
            raise ChainBreak(seq, str(exc)) from None
        if problem is not None:
            raise ChainBreak(*problem)
        if declared.keyed_from < seq and (self.keyed_since is None or self.keyed_since > declared.keyed_from):
            raise ChainBreak(declared.keyed_from, f"row {declared.keyed_from} carries no MAC, but the journal "
                                                  f"declares itself keyed from it (at seq {seq}): MACs stripped")

    def undeclared(self) -> ChainBreak | None:
        """With the key, after the last row: a journal with rows that is not keyed (no declaration,
        and no run of MAC'd rows up to the head) is refused, naming its first row."""
        if self.key is None or self.declared is not None or self.keyed or self.first_chained is None:
            return None
        return ChainBreak(self.first_chained, (
            "no row carries a MAC and the journal declares no key: it was never keyed, or its MACs and key "
            "declaration were stripped (if it predates its key, check it against recorded heads and adopt the key: "
            "croupier adopt-key)"))

    def _check_chain(self, seq: int, ts: str, round_id: str | None, kind: str, source: str, payload: str,
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
    keyed: bool = False  # checked with the key
    unkeyed: int = 0  # chained rows before the first keyed one
    macs_unchecked: int = 0  # rows with a MAC that were not checked (no key given)
    problems: tuple[str, ...] = ()  # the checkpoint and the issued-seq counter against the rows
    heads: HeadsVerdict | None = None

    @property
    def ok(self) -> bool:
        return (self.first_bad is None and self.triggers and not self.problems
                and (self.heads is None or self.heads.ok))

    def lines(self) -> list[str]:
        """What ``verify-journal`` prints."""
        out: list[str] = []
        if self.first_bad is not None:
            out.append(f"BROKEN at seq {self.first_bad}: {self.reason}")
        if not self.triggers:
            out.append("TAMPERED: the append-only triggers were dropped (UPDATE and DELETE were possible)")
        out += [f"BROKEN: {problem}" for problem in self.problems]
        if self.heads is not None:
            out += self.heads.lines()
        if self.ok:
            keyed = ", keyed" if self.keyed and self.rows > self.unkeyed + self.legacy else ""
            out.append(f"OK: {self.rows} rows{keyed}, head seq {self.head_seq} hash {self.head_hash}")
        if not self.keyed and not self.macs_unchecked and self.rows > self.legacy:
            out.append("note: not checked with a key ([journal] key_file): the chain shows the file is consistent, "
                       "not that the table wrote it; recorded heads (--against) show it was not rewritten")
        if self.legacy:
            out.append(f"note: {self.legacy} rows predate the hash chain and are not covered by it")
        if self.keyed and self.unkeyed and self.rows > self.unkeyed + self.legacy:
            out.append(f"note: {self.unkeyed} rows predate the journal's key: only the plain chain and recorded "
                       "heads cover them")
        if self.macs_unchecked:
            out.append(f"note: {self.macs_unchecked} rows carry a MAC that was not checked (no key given): "
                       "the plain chain proves nothing against someone who can write the file")
        return out


@dataclass(frozen=True, slots=True)
class Head:
    """A journal head as the feed published it and a recorder kept it."""

    table: str
    seq: int
    hash: str
    ts: str = ""


@dataclass(slots=True)
class HeadsVerdict:
    checked: int = 0
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.mismatches and self.checked > 0

    def lines(self) -> list[str]:
        if not self.checked:
            return ["NO HEADS: none of this table's heads is in the file (another table's file, or the anchor "
                    "never saw it): nothing was checked against them"]
        if self.mismatches:
            return [f"REWRITTEN: {m}" for m in self.mismatches[:10]] + (
                [f"... and {len(self.mismatches) - 10} more"] if len(self.mismatches) > 10 else [])
        return [f"heads: {self.checked} recorded heads match the journal"]


def parse_head(data: Any) -> Head | None:
    """A head message (``{"v":1,"table","seq","hash","ts"}``) or None if it is not one."""
    if not isinstance(data, dict) or data.get("v") != 1:
        return None
    table, seq, digest, ts = data.get("table"), data.get("seq"), data.get("hash"), data.get("ts", "")
    if not (isinstance(table, str) and isinstance(seq, int) and not isinstance(seq, bool) and seq > 0
            and isinstance(digest, str) and len(digest) == 64 and isinstance(ts, str)):
        return None
    try:
        int(digest, 16)
    except ValueError:
        return None
    return Head(table, seq, digest, ts)


def read_heads(path: str | Path, table: str) -> list[Head]:
    """One table's heads from a recorder's file (JSON lines); lines that are not heads are skipped."""
    heads: list[Head] = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            try:
                head = parse_head(json.loads(line))
            except ValueError:
                continue
            if head is not None and head.table == table:
                heads.append(head)
    return heads


def check_heads(db: sqlite3.Connection, heads: Iterable[Head]) -> HeadsVerdict:
    """Every recorded head must be a row of the journal with that very hash: a row missing is a
    journal cut short, another hash a rewrite (even one made with the key)."""
    verdict = HeadsVerdict()
    for head in heads:
        verdict.checked += 1
        row = db.execute("SELECT hash FROM events WHERE seq = ?", (head.seq,)).fetchone()
        if row is None:
            verdict.mismatches.append(f"head seq {head.seq} (recorded {head.ts or 'at some time'}) is not in the "
                                      "journal: rows were cut off")
        elif row[0] != head.hash:
            verdict.mismatches.append(f"seq {head.seq}: recorded head hash {head.hash[:16]}..., the journal has "
                                      f"{str(row[0])[:16]}...: the journal was rewritten after that head was published")
    return verdict


def _rows(db: sqlite3.Connection) -> Iterator[tuple[Any, ...]]:
    columns = {r[1] for r in db.execute("PRAGMA table_info(events)")}
    mac = "mac" if "mac" in columns else "NULL"
    yield from db.execute(f"SELECT {COLUMNS}, {mac} FROM events ORDER BY seq")


def verify_db(db: sqlite3.Connection, key: bytes | None = None, heads: Iterable[Head] | None = None) -> Verdict:
    """The whole chain of an open journal database, one pass (with ``key``, every row's MAC and
    the keyed checkpoint too; with ``heads``, those recorded heads against the rows)."""
    triggers = triggers_present(db)
    checker = ChainChecker(key=key)
    first_bad = reason = None
    try:
        for row in _rows(db):
            checker.check(*row)
    except ChainBreak as exc:
        first_bad, reason = exc.seq, exc.reason
    undeclared = checker.undeclared() if first_bad is None else None
    if undeclared is not None:
        first_bad, reason = undeclared.seq, undeclared.reason
    cut = cut_off(db) if first_bad is None else None
    if cut is not None:
        first_bad, reason = cut
    problems = tuple(checkpoint_problems(db, key)) if first_bad is None else ()
    recorded = check_heads(db, heads) if heads is not None else None
    head = checker.prev if checker.started else None
    return Verdict(checker.rows, checker.legacy, checker.last_seq, head, triggers, first_bad, reason,
                   keyed=key is not None, unkeyed=checker.unkeyed, macs_unchecked=checker.macs_unchecked,
                   problems=problems, heads=recorded)


def verify_file(path: str | Path, key: bytes | None = None, heads: Iterable[Head] | None = None) -> Verdict:
    """Verify a journal file without changing it (its triggers are not re-created)."""
    if not Path(path).exists():
        raise FileNotFoundError(f"no journal at {path}")
    db = connect(path)
    try:
        return verify_db(db, key, heads)
    finally:
        db.close()


def chained(journal: Journal, after: int = 0, *, until: int | None = None) -> Iterator[Entry]:
    """The entries after ``after``, each checked against the chain as it is read (``ChainBreak``
    at the first that fails), starting from the stored hash of row ``after``: what a start
    replays is verified in the same pass, so the check costs the tail, not the journal."""
    checker = ChainChecker(key=journal.key)
    if after > 0:
        found, digest = journal.hash_at(after)
        if not found:
            raise ChainBreak(after, "the row the replay starts from is missing")
        mac = journal.mac_at(after)
        if journal.key is not None and mac is not None and digest is not None \
                and not hmac.compare_digest(mac, row_mac(journal.key, after, digest)):
            raise ChainBreak(after, "MAC mismatch at the row the replay starts from: the journal was rewritten "
                                    "before it without the key")
        keyed = mac is not None or (journal.keyed_from is not None and after >= journal.keyed_from)
        if journal.key is not None and keyed and mac is None:
            raise ChainBreak(after, "the row the replay starts from carries no MAC, but the journal is keyed there")
        checker = ChainChecker(after, digest, key=journal.key, keyed=keyed)
        checker.declared = journal.keyed_from
    for row in journal.rows(after, until):
        checker.check(*row)
        yield row_entry(row)
