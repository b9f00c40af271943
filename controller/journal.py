"""The table's journal: SQLite in WAL mode with synchronous FULL, append-only, one row per event.

Every input is committed here before the table acts on it, so a crash at any instant loses at
most an input that was never acted on. Replaying rows in ``seq`` order rebuilds the table; the
pit feed keeps its own cursor so a broker outage is caught up in journal order.

Tamper evidence (docs/deployment.md, "Journal integrity"): every row carries ``hash``, the
SHA-256 of the previous row's hash and the row's own canonical content (``chain_hash``), so an
edited, deleted or reordered row breaks the chain from that row on; ``croupier verify-journal``
walks it in one streaming pass and the pit feed publishes the head, so a rewrite of the whole
chain is still visible from outside. Rows written before the chain existed keep a NULL hash
and are reported as predating it. The append-only triggers are checked on open: an existing
journal found without them is flagged (``triggers_missing``) before they are re-created.

Keyed (docs/security.md, "The journal chain"): with a key (``[journal] key_file``, a 0600
file, or ``CROUPIER_JOURNAL_KEY``; never in the journal) every row also carries ``mac``, an
HMAC-SHA256 over its seq and chain hash, and every write updates a keyed checkpoint of the head
(the ``checkpoint`` cursor) in the same transaction. Without the key nobody can add a row that
verifies, and rows cut off the end no longer match the checkpoint; a start checks both
(``open_problems``). A keyed journal declares itself keyed in its first row (or, adopting a
key, in a row at its end), and a keyed open refuses a journal whose rows lost their MACs
(``JournalUntrusted``; controller/journal_keyed.py). The plain chain in ``hash`` stays what the
feed publishes as the head, so heads recorded off the table can be compared by anyone, key or not.

One writer per journal file: ``exclusive`` takes a ``flock`` on the file itself
(controller/journal_lock.py), whatever path (symlink, hard link, bind mount) reaches it.

Readers' cursors (the pit feed's) are saved in ``cursors``; a reader may defer a save to the
next row's commit (``defer_cursor``), so a busy table does not pay an fsync per cursor save.

Snapshots of the table state (``snapshot`` rows) are ordinary chained rows whose payload holds
the SHA-256 of a compressed blob kept beside them in ``snapshots``; only the newest few blobs
are kept, the rows stay. Files are created mode 0600.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from controller.journal_checkpoint import BACKSTOP_PAGES, Checkpointer
from controller.journal_keyed import KEY_BYTES as KEY_BYTES
from controller.journal_keyed import (
    KEYED,
    KEYED_SOURCE,
    Declaration,
    Macs,
    declaration_payload,
    default_key_path,
    keyed_from,
    read_declaration,
)
from controller.journal_keyed import JournalKeyError as JournalKeyError
from controller.journal_keyed import JournalUntrusted as JournalUntrusted
from controller.journal_keyed import checkpoint_mac as checkpoint_mac
from controller.journal_keyed import row_mac as row_mac
from controller.journal_lock import JournalInUse as JournalInUse  # raised by a writer's open
from controller.journal_lock import WriterLock

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    ts       TEXT    NOT NULL,
    round_id TEXT,
    kind     TEXT    NOT NULL,
    source   TEXT    NOT NULL,
    payload  TEXT    NOT NULL,
    hash     TEXT,
    mac      TEXT
);
CREATE INDEX IF NOT EXISTS events_round ON events(round_id);
CREATE INDEX IF NOT EXISTS events_kind ON events(kind, seq);
CREATE INDEX IF NOT EXISTS events_unkeyed ON events(seq) WHERE mac IS NULL;
CREATE INDEX IF NOT EXISTS events_press ON events(json_extract(payload, '$.device'), json_extract(payload, '$.seq'))
    WHERE kind = 'device' AND json_extract(payload, '$.type') = 'press';
CREATE TABLE IF NOT EXISTS cursors (
    name  TEXT PRIMARY KEY,
    seq   INTEGER NOT NULL,
    state TEXT
);
CREATE TABLE IF NOT EXISTS snapshots (
    seq  INTEGER PRIMARY KEY,
    data BLOB NOT NULL
);
"""
TRIGGERS = """
CREATE TRIGGER IF NOT EXISTS events_append_only_update BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'journal is append-only'); END;
"""
TRIGGER_NAMES = frozenset(("events_append_only_update", "events_append_only_delete"))
#: the "previous hash" of the first chained row
GENESIS = "0" * 64
SNAPSHOT = "snapshot"
#: the cursor holding the keyed checkpoint of the head (seq, hash, its MAC)
CHECKPOINT = "checkpoint"
#: snapshot blobs kept (the rows naming older ones stay in the chain)
SNAPSHOTS_KEPT = 2
COLUMNS = "seq, ts, round_id, kind, source, payload, hash"


@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    ts: str
    round_id: str | None
    kind: str
    source: str
    payload: dict[str, Any]
    hash: str | None = None


class JournalFull(Exception):
    """The disk (or the database's size limit) is full: the entry was not written, nothing of it is kept.

    The table holds on it (``journal.disk_full``) and retries once space returns; see docs/deployment.md.
    """


def _is_full(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code == sqlite3.SQLITE_FULL or "database or disk is full" in str(exc)


def utc_now() -> str:
    """Now in UTC, ISO-8601 to the millisecond (``2026-12-02T00:21:11.123Z``), the journal's ``ts``."""
    seconds, nanos = divmod(time.time_ns(), 1_000_000_000)
    return f"{_utc_second(seconds)}.{nanos // 1_000_000:03d}Z"


@functools.lru_cache(maxsize=8)
def _utc_second(seconds: int) -> str:
    """The text of one UTC second (a busy table writes many rows within the same second)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%S")


#: the canonical encoders, built once (``json.dumps`` with options builds one per call);
#: their output is exactly ``json.dumps``'s with the same options
_CONTENT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
_PAYLOAD = json.JSONEncoder(separators=(",", ":"), sort_keys=True)


def chain_hash(prev: str, seq: int, ts: str, round_id: str | None, kind: str, source: str, payload: str) -> str:
    """SHA-256 (hex) of the previous row's hash and this row's content, as stored (``payload``
    is the stored JSON text): the one definition the writer and every verifier share."""
    content = _CONTENT.encode([seq, ts, round_id, kind, source, payload])
    return hashlib.sha256(f"{prev}\n{content}".encode()).hexdigest()


def encode_payload(payload: dict[str, Any]) -> str:
    return _PAYLOAD.encode(payload)


def _private_file(path: Path) -> None:
    """Create the database file 0600 before SQLite does (its -wal and -shm take the same mode);
    an existing journal is narrowed to 0600 too (by path: never open and close a descriptor on a
    database this process may hold open, which would drop that connection's POSIX locks)."""
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600))
    for suffix in ("", "-wal", "-shm"):
        p = Path(f"{path}{suffix}")
        if p.exists() and p.stat().st_mode & 0o077:
            p.chmod(0o600)


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection in the journal's settings (autocommit, WAL, full sync, 5 s busy wait)."""
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    db.execute("PRAGMA busy_timeout = 5000")
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


def triggers_present(db: sqlite3.Connection) -> bool:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall()
    return {r[0] for r in rows} >= TRIGGER_NAMES


def _migrate(db: sqlite3.Connection) -> None:
    """Journals made before the chain, the cursor state or the snapshots: add what they lack."""
    columns = {r[1] for r in db.execute("PRAGMA table_info(events)")}
    if columns and "hash" not in columns:
        db.execute("ALTER TABLE events ADD COLUMN hash TEXT")
    if columns and "mac" not in columns:
        db.execute("ALTER TABLE events ADD COLUMN mac TEXT")
    cursor_columns = {r[1] for r in db.execute("PRAGMA table_info(cursors)")}
    if cursor_columns and "state" not in cursor_columns:
        db.execute("ALTER TABLE cursors ADD COLUMN state TEXT")


class ReaderCursors:
    """Readers' cursors (the pit feed's), kept in the journal's own file: saved at once in a
    commit of their own, or deferred to ride in the next row's transaction (``Journal._commit``)."""

    _db: sqlite3.Connection
    _lock: threading.Lock
    #: readers' cursors waiting to be saved with the next row (``defer_cursor``): name ->
    #: (seq, state as stored)
    _cursors_waiting: dict[str, tuple[int, str | None]]

    def cursor(self, name: str) -> int:
        row = self._db.execute("SELECT seq FROM cursors WHERE name = ?", (name,)).fetchone()
        return int(row[0]) if row else 0

    def cursor_state(self, name: str) -> tuple[int, dict[str, Any] | None]:
        """A cursor and the state its owner saved with it (None: saved without, or never)."""
        row = self._db.execute("SELECT seq, state FROM cursors WHERE name = ?", (name,)).fetchone()
        if not row:
            return 0, None
        return int(row[0]), json.loads(row[1]) if row[1] else None

    def set_cursor(self, name: str, seq: int, state: dict[str, Any] | None = None) -> None:
        """Save a reader's cursor (the pit feed's) in a durable commit of its own (it replaces the
        same cursor waiting for the next row); ``JournalFull`` when the disk is full."""
        text = json.dumps(state, separators=(",", ":")) if state is not None else None
        with self._lock:
            try:
                self._upsert_cursor(name, seq, text)
            except sqlite3.Error as exc:
                if _is_full(exc):
                    raise JournalFull(f"cursor {name} not saved: the journal's disk is full") from None
                raise
            self._cursors_waiting.pop(name, None)

    def defer_cursor(self, name: str, seq: int, state: dict[str, Any] | None = None) -> None:
        """Save a reader's cursor with the next row this journal writes, in that row's
        transaction: while the table writes rows, a cursor costs no commit (no fsync) of its own.
        Until then ``cursor`` reads the last one saved; ``flush_cursors`` saves what still waits."""
        text = json.dumps(state, separators=(",", ":")) if state is not None else None
        with self._lock:
            self._cursors_waiting[name] = (seq, text)

    def cursors_waiting(self) -> bool:
        """Cursors deferred and not yet saved."""
        return bool(self._cursors_waiting)

    def flush_cursors(self) -> None:
        """Save the cursors still waiting for a row, in one commit; ``JournalFull`` when the disk is full."""
        with self._lock:
            if not self._cursors_waiting:
                return
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for name, (seq, state) in self._cursors_waiting.items():
                    self._upsert_cursor(name, seq, state)
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                if _is_full(exc):
                    raise JournalFull("cursors not saved: the journal's disk is full") from None
                raise
            self._cursors_waiting.clear()

    def _upsert_cursor(self, name: str, seq: int, state: str | None) -> None:
        self._db.execute(
            "INSERT INTO cursors (name, seq, state) VALUES (?, ?, ?)"
            " ON CONFLICT(name) DO UPDATE SET seq = excluded.seq, state = excluded.state",
            (name, seq, state),
        )


class JournalRows:
    """What is read back from the rows as stored (journal order, one row, one kind, the chain's
    hashes and MACs, the checkpoint, snapshots, watermarks): the journal's reading side, apart
    from its writing (``Journal``)."""

    _db: sqlite3.Connection

    def entries(self, after: int = 0, round_id: str | None = None, *, until: int | None = None) -> Iterator[Entry]:
        """Rows in journal order, after ``after`` (exclusive) up to ``until`` (inclusive), optionally
        of one round; streamed (SQLite's cursor), never the whole journal in memory. Rows appended
        on this connection while iterating are seen too unless ``until`` bounds it."""
        last = until if until is not None else (1 << 62)
        if round_id is None:
            rows = self._db.execute(
                f"SELECT {COLUMNS} FROM events WHERE seq > ? AND seq <= ? ORDER BY seq", (after, last))
        else:
            rows = self._db.execute(
                f"SELECT {COLUMNS} FROM events WHERE seq > ? AND seq <= ? AND round_id = ? ORDER BY seq",
                (after, last, round_id))
        for row in rows:
            yield row_entry(row)

    def rows(self, after: int = 0, until: int | None = None) -> Iterator[tuple[Any, ...]]:
        """Raw rows (``COLUMNS``, the payload as stored text, then ``mac``) in seq order: what
        the chain covers."""
        last = until if until is not None else (1 << 62)
        yield from self._db.execute(f"SELECT {COLUMNS}, mac FROM events WHERE seq > ? AND seq <= ? ORDER BY seq",
                                    (after, last))

    def latest(self, kind: str, *, before: int | None = None) -> Iterator[Entry]:
        """Rows of one kind, newest first (through the kind index: the cost is the rows read)."""
        bound = before if before is not None else (1 << 62)
        rows = self._db.execute(
            f"SELECT {COLUMNS} FROM events WHERE kind = ? AND seq < ? ORDER BY seq DESC", (kind, bound))
        for row in rows:
            yield row_entry(row)

    def entry(self, seq: int) -> Entry | None:
        row = self._db.execute(f"SELECT {COLUMNS} FROM events WHERE seq = ?", (seq,)).fetchone()
        return row_entry(row) if row else None

    def hash_at(self, seq: int) -> tuple[bool, str | None]:
        """Whether row ``seq`` exists, and its stored hash."""
        row = self._db.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return (True, row[0]) if row else (False, None)

    def mac_at(self, seq: int) -> str | None:
        row = self._db.execute("SELECT mac FROM events WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def checkpoint(self) -> tuple[int, str, str] | None:
        """The keyed checkpoint of the head as stored (seq, hash, MAC), None in an unkeyed journal."""
        return read_checkpoint(self._db)

    def declaration(self) -> Declaration | None:
        """The row declaring the journal keyed, as stored (journal_keyed.py), None if none."""
        return read_declaration(self._db)

    def snapshot_blob(self, seq: int) -> bytes | None:
        row = self._db.execute("SELECT CAST(data AS BLOB) FROM snapshots WHERE seq = ?", (seq,)).fetchone()
        return bytes(row[0]) if row else None

    def press_watermark(self, device: str) -> int:
        """The highest journaled press ``seq`` of one bet-spot device (through its index)."""
        row = self._db.execute(
            "SELECT MAX(json_extract(payload, '$.seq')) FROM events WHERE kind = 'device'"
            " AND json_extract(payload, '$.type') = 'press' AND json_extract(payload, '$.device') = ?",
            (device,),
        ).fetchone()
        return int(row[0] or 0)


class Journal(JournalRows, ReaderCursors):
    """Append-only event log. ``append`` returns only once the row is durable on disk.

    ``exclusive=True`` (the table's writer) takes ``WriterLock`` (journal_lock.py) on the
    file first, ``JournalInUse`` if another writer holds it; readers (recall, verify, the
    feed's rebuild) take no lock. ``key``: rows written are keyed (module docstring); a writer
    without a key refuses a journal that is keyed (``JournalKeyError``), one with the key a
    journal not keyed with it (``JournalUntrusted``) unless ``adopting`` (``croupier adopt-key``)."""

    def __init__(self, path: str | Path, *, exclusive: bool = False, key: bytes | None = None,
                 adopting: bool = False) -> None:
        if key is not None and len(key) < KEY_BYTES:
            raise JournalKeyError(f"a journal key has at least {KEY_BYTES} bytes, this one {len(key)}")
        self.path = str(path)
        self.key = key
        self._writer_lock: WriterLock | None = None
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            _private_file(Path(self.path))
            if exclusive:  # on the file itself, whatever path reached it
                self._writer_lock = WriterLock(self.path)
        try:
            self._db = connect(self.path)
        except BaseException:
            self._unlock()
            raise
        self._lock = threading.Lock()
        self._macs = Macs(key) if key is not None else None
        #: the head this writer wrote last, (seq, hash) and SQLite's ``data_version`` then: the
        #: sole writer (``exclusive``) chains onto it without reading the head back per row
        self._head: tuple[int, str] | None = None
        self._head_version = -1
        self._exclusive = exclusive
        #: the sole writer's WAL checkpoints, in a thread of their own (journal_checkpoint.py)
        self._checkpointer: Checkpointer | None = None
        #: told of every row written, with the seconds the durable write took (metrics)
        self.observers: list[Callable[[Entry, float], None]] = []
        self._cursors_waiting = {}
        existed = bool(self._db.execute("SELECT 1 FROM sqlite_master WHERE name = 'events'").fetchone())
        #: an existing journal was found without its append-only triggers (someone dropped them)
        self.triggers_missing = existed and not triggers_present(self._db)
        try:
            _migrate(self._db)
            self._db.executescript(SCHEMA + TRIGGERS)
        except sqlite3.Error as exc:
            self._db.close()
            self._unlock()
            if _is_full(exc):
                raise JournalFull(f"cannot open the journal {self.path}: its disk is full (free space on it)") from None
            raise
        #: what the start must hold on, found before anything is written (truncation, a forged
        #: or missing checkpoint; ``open_problems``), held by the start (controller/runtime/recovery.py)
        self.problems: list[str] = []
        if existed:
            self.problems = open_problems(self._db, key)
        #: the seq from which every row carries a MAC (None: unkeyed, or keyed and still empty)
        self.keyed_from: int | None = None
        if exclusive and self.path != ":memory:":
            self._db.execute(f"PRAGMA wal_autocheckpoint = {BACKSTOP_PAGES}")
            self._checkpointer = Checkpointer(functools.partial(connect, self.path))
        try:
            self._check_key(key, exclusive, adopting)
        except BaseException:
            self.close()
            raise

    def _check_key(self, key: bytes | None, exclusive: bool, adopting: bool) -> None:
        """A writer without the key refuses a keyed journal; with the key, the journal must be
        keyed with it from where it says (``journal_keyed.keyed_from``), and a new one declares
        it at once. ``adopting``: an unkeyed journal is let through for ``declare_keyed``."""
        if key is None:
            if exclusive and (self.checkpoint() is not None or read_declaration(self._db) is not None):
                raise JournalKeyError(f"the journal {self.path} is keyed and its key is missing: put it back at "
                                      f"{default_key_path(Path(self.path))}, or name it in [journal] key_file "
                                      "(or CROUPIER_JOURNAL_KEY), to write to it")
            return
        try:
            self.keyed_from = keyed_from(self._db, self.path, key)
        except JournalUntrusted:
            if not adopting:
                raise
            return
        if self.keyed_from is None and not self.problems:  # a new journal: keyed from its first row
            self.declare_keyed()
        elif read_declaration(self._db) is None and exclusive and not self.problems and self._head_verifies():
            self.declare_keyed(self.keyed_from)  # keyed before declarations existed: say so now

    def _head_verifies(self) -> bool:
        seq, digest = self.head()
        mac = self.mac_at(seq)
        return digest is not None and mac is not None and self._macs is not None \
            and hmac.compare_digest(mac, self._macs.row(seq, digest))

    def declare_keyed(self, since: int | None = None) -> Entry:
        """Write the row declaring this journal keyed with its key from ``since`` (default: this
        row itself); ``croupier adopt-key`` for a journal from before its key."""
        if self.key is None:
            raise JournalKeyError("declaring a journal keyed needs its key")
        start = since if since is not None else self._read_head()[0] + 1
        entry = self.append(KEYED, declaration_payload(start, self.key), source=KEYED_SOURCE)
        self.keyed_from = start
        return entry

    # ------------------------------------------------------------------ writing
    def append(self, kind: str, payload: dict[str, Any], *, source: str, round_id: str | None = None,
               ts: str | None = None) -> Entry:
        """One row, chained to the head; ``JournalFull`` (nothing written) when the disk is full."""
        return self._write(kind, payload, source, round_id, ts, None)

    def append_snapshot(self, payload: dict[str, Any], blob: bytes, *, source: str,
                        round_id: str | None = None) -> Entry:
        """A ``snapshot`` row whose payload carries the blob's SHA-256 and size, and the blob
        beside it, in one transaction; blobs older than the last ``SNAPSHOTS_KEPT`` are dropped."""
        meta = {**payload, "sha256": hashlib.sha256(blob).hexdigest(), "bytes": len(blob)}
        return self._write(SNAPSHOT, meta, source, round_id, None, blob)

    def _write(self, kind: str, payload: dict[str, Any], source: str, round_id: str | None, ts: str | None,
               blob: bytes | None) -> Entry:
        ts = ts or utc_now()
        text = encode_payload(payload)
        started = time.perf_counter()
        try:
            with self._lock:
                seq, digest = self._commit(ts, round_id, kind, source, text, blob)
                if self._checkpointer is not None:
                    self._checkpointer.wrote()
        except sqlite3.OperationalError as exc:
            if _is_full(exc):
                raise JournalFull(f"journal {self.path}: disk full, entry {kind!r} not written") from exc
            raise
        entry = Entry(seq, ts, round_id, kind, source, payload, digest)
        if self.observers:
            took = time.perf_counter() - started
            for observe in self.observers:
                observe(entry, took)
        return entry

    def _commit(self, ts: str, round_id: str | None, kind: str, source: str, text: str,
                blob: bytes | None) -> tuple[int, str]:
        """One row (its checkpoint, its blob) in one durable transaction; the head it became.

        The sole writer whose head is current (no other connection committed since its last
        row: ``data_version``) chains onto the head it holds, and an unkeyed row without a blob
        is one autocommitted INSERT; otherwise the head is read inside ``BEGIN IMMEDIATE``, and
        the cursors waiting (``defer_cursor``) are saved in the same transaction."""
        head = self._current_head()
        if head is not None and self._macs is None and blob is None and not self._cursors_waiting:
            seq, digest = self._chained(head, ts, round_id, kind, source, text)
            self._db.execute(f"INSERT INTO events ({COLUMNS}, mac) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                             (seq, ts, round_id, kind, source, text, digest))
            self._head = (seq, digest)
            return seq, digest
        self._db.execute("BEGIN IMMEDIATE")
        try:
            seq, digest = self._insert(head or self._read_head(), ts, round_id, kind, source, text)
            if blob is not None:
                self._db.execute("INSERT INTO snapshots (seq, data) VALUES (?, ?)", (seq, blob))
                self._db.execute(
                    "DELETE FROM snapshots WHERE seq NOT IN"
                    " (SELECT seq FROM snapshots ORDER BY seq DESC LIMIT ?)", (SNAPSHOTS_KEPT,))
            for name, (cursor_seq, state) in self._cursors_waiting.items():
                self._upsert_cursor(name, cursor_seq, state)
            self._db.execute("COMMIT")
            self._cursors_waiting.clear()
        except BaseException:
            self._head = None  # read again from the file next time
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        if self._exclusive:
            self._head, self._head_version = (seq, digest), self._data_version()
        return seq, digest

    def _current_head(self) -> tuple[int, str] | None:
        """The head held from this writer's last row, if nobody else has written since."""
        if self._head is None or self._data_version() != self._head_version:
            self._head = None
        return self._head

    def _data_version(self) -> int:
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def _read_head(self) -> tuple[int, str]:
        """The last seq issued (a row cut off the end keeps its number) and the last row's hash."""
        last = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        issued = self._db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()
        seq = max(last[0] if last else 0, issued[0] if issued else 0)
        return seq, (last[1] if last and last[1] else GENESIS)

    @staticmethod
    def _chained(head: tuple[int, str], ts: str, round_id: str | None, kind: str, source: str,
                 text: str) -> tuple[int, str]:
        seq = head[0] + 1
        return seq, chain_hash(head[1], seq, ts, round_id, kind, source, text)

    def _insert(self, head: tuple[int, str], ts: str, round_id: str | None, kind: str, source: str,
                text: str) -> tuple[int, str]:
        seq, digest = self._chained(head, ts, round_id, kind, source, text)
        mac = self._macs.row(seq, digest) if self._macs is not None else None
        self._db.execute(
            f"INSERT INTO events ({COLUMNS}, mac) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (seq, ts, round_id, kind, source, text, digest, mac),
        )
        if self._macs is not None:  # the head, keyed, in the same transaction as the row
            state = json.dumps({"hash": digest, "mac": self._macs.checkpoint(seq, digest)}, separators=(",", ":"))
            self._db.execute(
                "INSERT INTO cursors (name, seq, state) VALUES (?, ?, ?)"
                " ON CONFLICT(name) DO UPDATE SET seq = excluded.seq, state = excluded.state",
                (CHECKPOINT, seq, state))
        return seq, digest

    # ------------------------------------------------------------------ reading the head
    def last_seq(self) -> int:
        held = self._current_head()
        if held is not None:  # the sole writer's own last row (asked per feed pump)
            return held[0]
        row = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        return int(row[0])

    def head(self) -> tuple[int, str | None]:
        """The newest row's seq and hash ((0, None) for an empty journal)."""
        held = self._current_head()
        if held is not None:  # the sole writer's own last row (the feed stamps every state with it)
            return held
        row = self._db.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        return (int(row[0]), row[1]) if row else (0, None)

    def close(self) -> None:
        with contextlib.suppress(JournalFull, sqlite3.Error):  # unsaved, a cursor only costs resends
            self.flush_cursors()
        if self._checkpointer is not None:  # before the writer's close, which checkpoints the rest
            self._checkpointer.close()
            self._checkpointer = None
        self._db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self._writer_lock is not None:
            self._writer_lock.release()
            self._writer_lock = None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_checkpoint(db: sqlite3.Connection) -> tuple[int, str, str] | None:
    row = db.execute("SELECT seq, state FROM cursors WHERE name = ?", (CHECKPOINT,)).fetchone()
    if not row:
        return None
    try:
        state = json.loads(row[1] or "null")
        return int(row[0]), str(state["hash"]), str(state["mac"])
    except (ValueError, TypeError, KeyError):
        return int(row[0]), "", ""  # unreadable: it verifies against nothing


def open_problems(db: sqlite3.Connection, key: bytes | None) -> list[str]:
    """What an open journal shows against its own records before anything is written: rows cut
    off the end (SQLite's issued-seq counter; with the key, the keyed checkpoint of the head),
    rows added without the key after the checkpoint, a checkpoint that does not verify."""
    cut = cut_off(db)
    return ([f"{cut[1]} of the journal"] if cut else []) + checkpoint_problems(db, key)


def cut_off(db: sqlite3.Connection) -> tuple[int, str] | None:
    """Rows issued (SQLite's AUTOINCREMENT counter) beyond the last row: the first missing seq."""
    row = db.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
    last = int(row[0])
    issued = db.execute("SELECT seq FROM sqlite_sequence WHERE name = 'events'").fetchone()
    if issued and int(issued[0]) > last:
        return last + 1, f"rows {last + 1}..{issued[0]} were cut off the end"
    return None


def checkpoint_problems(db: sqlite3.Connection, key: bytes | None) -> list[str]:
    """The keyed checkpoint of the head against the rows (nothing to say without the key)."""
    if key is None:
        return []
    problems: list[str] = []
    last_row = db.execute("SELECT seq, mac FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    last = int(last_row[0]) if last_row else 0
    checkpoint = read_checkpoint(db)
    if checkpoint is None:
        if last_row is not None and (last_row[1] is not None or read_declaration(db) is not None):
            problems.append("the journal's keyed checkpoint of its head is missing (removed)")
        return problems
    seq, digest, mac = checkpoint
    if not hmac.compare_digest(mac, checkpoint_mac(key, seq, digest)):
        problems.append("the keyed checkpoint of the head does not verify with this key (a wrong key, or forged)")
    elif seq > last:
        problems.append(f"the journal ends at seq {last} but its keyed checkpoint is at seq {seq}: "
                        f"rows {last + 1}..{seq} were cut off")
    else:
        row = db.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        if row is None or row[0] != digest:
            problems.append(f"row {seq} is not the one the keyed checkpoint names (rewritten)")
        elif seq < last:
            problems.append(f"rows {seq + 1}..{last} were added after the keyed checkpoint, without the key")
    return problems


def row_entry(row: tuple[Any, ...]) -> Entry:
    seq, ts, rid, kind, source, payload, digest = row[:7]
    try:
        data = json.loads(payload)
    except (TypeError, ValueError):  # a damaged row must not stop a reader (the chain check names it)
        data = None
    if not isinstance(data, dict):
        data = {"unreadable": str(payload)[:200]}
    return Entry(seq, ts, rid, kind, source, data, digest)
