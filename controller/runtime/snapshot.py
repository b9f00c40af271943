"""Snapshots of the table state, so a start replays only what came after the last one.

Every ``every`` inputs the loop pickles the ``TableCore`` (the game adapter left out: it is
rebuilt from the config), compresses it and journals it as a ``snapshot`` row whose payload
carries the blob's SHA-256 and ``covers``, the seq of the last input the core had applied. The
row is in the hash chain like any other, so an edited blob or row is a break. Loading goes
through ``SafeUnpickler``: only this project's state classes (data by their kind: never its
functions, never a class that does I/O) and a few plain standard-library types, so a blob can
build data, never run code. A snapshot written by other code (a different ``fingerprint``: an upgrade) is not
used; that start replays the whole journal once (docs/deployment.md, "Upgrades").
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import logging
import os
import pickle
import zlib
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from controller.games.base import EngineRound
from controller.journal import SNAPSHOT, Entry, Journal, JournalFull
from controller.table.core import TableCore
from controller.table.shoe_device import ShoeDevice

log = logging.getLogger(__name__)

FORMAT = 1
#: inputs applied between two snapshots (a start replays at most about this many)
EVERY = 1000
TABLE_SOURCE = "table"
_ADAPTER = "adapter"

#: the pure layers (the layering test keeps I/O out of them): any class of theirs is state
_PURE_MODULES = ("controller.games.", "controller.shoe", "controller.money", "controller.cards")
#: the table's layer, which also holds the runtime (the loop, devices, the feed's wiring)
_TABLE = "controller.table."
#: the two plain classes of the table's state (every other one is data, see ``_is_state``)
_STATE_ROOTS = (TableCore, ShoeDevice)
_STATE_MODULES = (*_PURE_MODULES, _TABLE)


def _is_state(cls: type) -> bool:
    """A class a snapshot may build: any class of the pure layers, and of the table's layer one
    that is data by its kind (a dataclass, a pydantic model, an enum, an engine's round, the
    table and its shoe accounting), whose construction runs no code of its own. A class that
    does I/O or wires processes (the loop, a device, the feed's listener) is none of these,
    whatever module it is in: there is no list of modules to keep by hand."""
    if cls.__module__.startswith(_PURE_MODULES):
        return True
    return cls.__module__.startswith(_TABLE) and (
        dataclasses.is_dataclass(cls) or issubclass(cls, (BaseModel, Enum, EngineRound, *_STATE_ROOTS)))
_STDLIB = frozenset({
    ("fractions", "Fraction"), ("decimal", "Decimal"), ("collections", "OrderedDict"), ("collections", "deque"),
    ("collections", "Counter"), ("collections", "defaultdict"), ("datetime", "datetime"), ("datetime", "date"),
    ("datetime", "timedelta"), ("datetime", "timezone"), ("builtins", "set"), ("builtins", "frozenset"),
    ("builtins", "bytearray"), ("builtins", "complex"), ("controller.journal", "Entry"),
})


class SnapshotRefused(Exception):
    """A snapshot blob names something it may not build."""


class SafeUnpickler(pickle.Unpickler):
    """Builds only state classes of this project and plain standard-library values."""

    def __init__(self, data: bytes, adapter: Any) -> None:
        super().__init__(io.BytesIO(data))
        self._adapter = adapter

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _STDLIB:
            return super().find_class(module, name)
        if module.startswith(_STATE_MODULES):
            found = super().find_class(module, name)
            if isinstance(found, type) and _is_state(found):
                return found
        raise SnapshotRefused(f"a snapshot may not build {module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        if pid == _ADAPTER:
            return self._adapter
        raise SnapshotRefused(f"unknown reference {pid!r} in a snapshot")


class _Pickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, adapter: Any) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._adapter = adapter

    def persistent_id(self, obj: Any) -> Any:
        return _ADAPTER if obj is self._adapter else None


@cache
def fingerprint() -> str:
    """Of the code whose objects a snapshot holds: a snapshot is used only by the same code.
    ``CROUPIER_SNAPSHOT_FINGERPRINT`` pins it (the restart benchmark, whose generating and
    measuring processes must agree while the source tree is being edited)."""
    pinned = os.environ.get("CROUPIER_SNAPSHOT_FINGERPRINT")
    if pinned:
        return pinned
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for sub in ("games", "table", "shoe.py", "money.py", "cards.py", "journal.py"):
        base = root / sub
        for path in sorted(base.rglob("*.py")) if base.is_dir() else [base]:
            digest.update(path.relative_to(root).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


fingerprint()  # at import: the code this process runs, not what an upgrade puts on disk later


def dump(core: TableCore) -> bytes:
    buf = io.BytesIO()
    _Pickler(buf, core.adapter).dump(core)
    return zlib.compress(buf.getvalue(), 6)


def load(blob: bytes, adapter: Any) -> TableCore:
    core = SafeUnpickler(zlib.decompress(blob), adapter).load()
    if not isinstance(core, TableCore):
        raise SnapshotRefused(f"a snapshot holds a {type(core).__name__}, not a table")
    return core


def take(journal: Journal, core: TableCore, covers: int) -> Entry:
    """Journal a snapshot of ``core`` as it stands after applying input ``covers``."""
    payload = {"format": FORMAT, "covers": covers, "fingerprint": fingerprint(), "game": core.adapter.game}
    return journal.append_snapshot(payload, dump(core), source=TABLE_SOURCE, round_id=core.round_id)


@dataclass(frozen=True, slots=True)
class Restored:
    seq: int  # the snapshot row
    covers: int  # replay continues with the entries after this seq


def restore(journal: Journal, core: TableCore, *, before: int | None = None,
            problems: list[str] | None = None) -> Restored | None:
    """Load the newest usable snapshot (its row before ``before``) into ``core`` in place; each
    damaged one passed over is said in ``problems`` (the start raises an alert with them)."""
    said = problems if problems is not None else []
    for entry in journal.latest(SNAPSHOT, before=before):
        p = entry.payload
        if p.get("format") != FORMAT or p.get("fingerprint") != fingerprint() or p.get("game") != core.adapter.game:
            return None  # older code wrote it, and every one before it: replay from the start
        covers = p.get("covers")
        if not isinstance(covers, int) or isinstance(covers, bool) or not 0 <= covers < entry.seq:
            said.append(f"snapshot {entry.seq} names no input it covers")
            log.error("%s; trying an older one", said[-1])
            continue
        blob = journal.snapshot_blob(entry.seq)
        if blob is None:
            return None  # blobs before this one were pruned as well
        if hashlib.sha256(blob).hexdigest() != p.get("sha256"):
            said.append(f"snapshot {entry.seq}: its blob does not match its journaled hash (altered)")
            log.error("%s; trying an older one", said[-1])
            continue
        try:
            loaded = load(blob, core.adapter)
        except Exception as exc:  # noqa: BLE001 -- a blob can fail in many ways; none may brick a start
            said.append(f"snapshot {entry.seq} cannot be loaded ({exc})")
            log.error("%s; trying an older one", said[-1])
            continue
        vars(core).update(vars(loaded))
        return Restored(entry.seq, covers)
    return None


class Snapshots:
    """The loop's hook: after every ``every`` applied inputs, a snapshot (skipped, and tried at
    the next input, when the disk is full)."""

    def __init__(self, journal: Journal, every: int = EVERY) -> None:
        self.journal = journal
        self.every = every
        self._since = 0
        self.taken = 0

    def applied(self, core: TableCore, entry: Entry) -> None:
        self._since += 1
        if self._since < self.every:
            return
        try:
            take(self.journal, core, entry.seq)
        except JournalFull:
            log.warning("journal full: snapshot after seq %s skipped", entry.seq)
            return
        self._since = 0
        self.taken += 1
