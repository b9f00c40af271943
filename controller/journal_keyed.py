"""A keyed journal's MACs, and the row that declares it keyed (docs/security.md, "The journal chain").

A row's MAC (``row_mac``) covers its seq and chain hash, so it covers every row before it. On
its own that proves nothing about rows that carry *no* MAC: stripping every MAC (and the keyed
checkpoint) would turn a keyed journal into what looks like one from before its key. So a keyed
journal says so in its own chain: a ``journal_keyed`` row, MAC'd with the key, whose payload
names the seq from which every row carries a MAC (``keyed_from``) and the key's public id
(``key_id``). A new keyed journal writes it as its first row; an old unkeyed journal adopts a
key with ``croupier adopt-key``, which writes it at its end.

With a key, a journal is trusted only if it declares that key (or, keyed before declarations
existed, its head carries a valid MAC, and the start then declares it): a journal that declares
nothing is refused (it was never keyed, or was stripped; only a person can tell, and adopt it),
and so is one with a row without a MAC from ``keyed_from`` on (found through the partial index
of MAC-less rows, so a start does not read the journal to find it).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path

#: shortest key accepted (bytes)
KEY_BYTES = 32
#: the kind of the row declaring the journal keyed
KEYED = "journal_keyed"
#: what ``croupier adopt-key`` (or a new keyed journal) writes as the declaration's source
KEYED_SOURCE = "journal"


def default_key_path(journal: Path) -> Path:
    """Where a journal's key is kept when the config names no ``key_file``: beside it."""
    return Path(f"{journal}.key")


def write_new_key(path: Path) -> None:
    """A fresh random key (32 bytes, written as 64 hex digits) in a new file, mode 0600 from its
    creation (never an existing file: a key replaced under a keyed journal loses it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_hex(KEY_BYTES) + "\n")
        out.flush()
        os.fsync(out.fileno())


def row_mac(key: bytes, seq: int, digest: str) -> str:
    """A row's MAC: HMAC-SHA256 of its seq and chain hash (the hash covers every row before it)."""
    return hmac.new(key, f"row\n{seq}\n{digest}".encode(), hashlib.sha256).hexdigest()


def checkpoint_mac(key: bytes, seq: int, digest: str) -> str:
    """The head checkpoint's MAC (another domain than a row's: a row's MAC is no checkpoint)."""
    return hmac.new(key, f"checkpoint\n{seq}\n{digest}".encode(), hashlib.sha256).hexdigest()


def key_id(key: bytes) -> str:
    """A key's public name (an HMAC of a fixed text, which tells nothing of the key): a journal
    opened with another key than the one it declares is named as such."""
    return hmac.new(key, b"croupier journal key id", hashlib.sha256).hexdigest()[:16]


class Macs:
    """``row_mac`` and ``checkpoint_mac`` for one key, its HMAC state keyed once (a writer's
    per-row cost); the same MACs as the functions."""

    def __init__(self, key: bytes) -> None:
        self._keyed = hmac.new(key, digestmod=hashlib.sha256)

    def row(self, seq: int, digest: str) -> str:
        mac = self._keyed.copy()
        mac.update(f"row\n{seq}\n{digest}".encode())
        return mac.hexdigest()

    def checkpoint(self, seq: int, digest: str) -> str:
        mac = self._keyed.copy()
        mac.update(f"checkpoint\n{seq}\n{digest}".encode())
        return mac.hexdigest()


class JournalKeyError(Exception):
    """A keyed journal opened for writing without its key, with another key, or a key too short."""


class JournalUntrusted(Exception):
    """With its key configured, the journal cannot be trusted: it declares no key, or rows from
    where it is keyed carry no MAC (stripped). The table refuses to start on it."""

    def __init__(self, path: str, seq: int, reason: str) -> None:
        super().__init__(f"the journal {path} is not trusted, at seq {seq}: {reason}")
        self.seq = seq
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Declaration:
    """The first ``journal_keyed`` row as stored."""

    seq: int
    keyed_from: int
    key_id: str
    hash: str | None
    mac: str | None


def declaration_payload(keyed_from: int, key: bytes) -> dict[str, object]:
    return {"keyed_from": keyed_from, "key_id": key_id(key)}


def parse_declaration(seq: int, payload: str, digest: str | None, mac: str | None) -> Declaration:
    """A declaration row's fields; an unreadable payload declares itself keyed from its own seq
    under no key (its MAC, if any, still decides)."""
    try:
        data = json.loads(payload)
    except (TypeError, ValueError):
        data = None
    keyed_from = data.get("keyed_from") if isinstance(data, dict) else None
    kid = data.get("key_id") if isinstance(data, dict) else None
    if not isinstance(keyed_from, int) or isinstance(keyed_from, bool) or not 0 < keyed_from <= seq:
        keyed_from = seq
    return Declaration(seq, keyed_from, kid if isinstance(kid, str) else "", digest, mac)


def read_declaration(db: sqlite3.Connection) -> Declaration | None:
    """The journal's first declaration (through the kind index), None if it declares none."""
    row = db.execute("SELECT seq, payload, hash, mac FROM events WHERE kind = ? ORDER BY seq LIMIT 1",
                     (KEYED,)).fetchone()
    return parse_declaration(*row) if row else None


def first_without_mac(db: sqlite3.Connection, after: int = 0) -> int | None:
    """The first row from ``after`` on that carries no MAC (the partial index ``events_unkeyed``)."""
    row = db.execute("SELECT MIN(seq) FROM events WHERE mac IS NULL AND seq >= ?", (after,)).fetchone()
    return int(row[0]) if row and row[0] is not None else None


def declaration_problem(declared: Declaration, key: bytes) -> tuple[int, str] | None:
    """Why a declaration does not hold with ``key`` (a wrong key is ``JournalKeyError``)."""
    if declared.mac is None:
        return declared.seq, "the journal's key declaration carries no MAC: its MACs were stripped"
    if declared.key_id != key_id(key):
        raise JournalKeyError(f"the journal is keyed with another key (key id {declared.key_id or 'unreadable'}), "
                              f"not the one configured (key id {key_id(key)})")
    if not declared.hash or not hmac.compare_digest(declared.mac, row_mac(key, declared.seq, declared.hash)):
        return declared.seq, "the journal's key declaration does not verify with its key (rewritten without the key)"
    return None


def keyed_from(db: sqlite3.Connection, path: str, key: bytes) -> int | None:
    """From which seq the journal is keyed with ``key`` (every row from there carries a MAC);
    None for an empty journal (its declaration is still to be written). ``JournalUntrusted``
    naming the first bad seq, ``JournalKeyError`` for another key."""
    last = db.execute("SELECT seq, hash, mac FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    if last is None:
        return None
    declared = read_declaration(db)
    if declared is None:
        if last[2] is not None:  # keyed before declarations existed: from after the last MAC-less row
            unkeyed = db.execute("SELECT MAX(seq) FROM events WHERE mac IS NULL").fetchone()
            return int(unkeyed[0] or 0) + 1
        first = int(db.execute("SELECT MIN(seq) FROM events").fetchone()[0])
        raise JournalUntrusted(path, first, (
            "no row carries a MAC and the journal declares no key: it was never keyed, or its MACs and its key "
            "declaration were stripped. If it predates its key, check it against recorded heads and adopt the key "
            "(croupier adopt-key); otherwise restore it from backup"))
    try:
        problem = declaration_problem(declared, key)
    except JournalKeyError as exc:
        raise JournalKeyError(f"{path}: {exc}") from None
    if problem is not None:
        raise JournalUntrusted(path, *problem)
    stripped = first_without_mac(db, declared.keyed_from)
    if stripped is not None:
        raise JournalUntrusted(path, stripped, f"row {stripped} carries no MAC, but the journal is keyed from seq "
                                               f"{declared.keyed_from} (declared at seq {declared.seq}): written "
                                               "without the key, or its MAC stripped")
    return declared.keyed_from
