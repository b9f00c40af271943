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
import sys
import zlib
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from controller.games.base import EngineRound
from controller.journal import SNAPSHOT, Entry, Journal, JournalFull
from controller.table import registry
from controller.table.core import TableCore
from controller.table.shoe_device import ShoeDevice

log = logging.getLogger(__name__)

FORMAT = 1
#: inputs applied between two snapshots (a start replays at most about this many)
EVERY = 1000
#: a start that replayed this many inputs writes a snapshot at once (controller/runtime/recovery.py)
AT_START = EVERY // 4
TABLE_SOURCE = "table"
_ADAPTER = "adapter"
_PROJECT = "controller."

#: the state machine's roots: the table, and through its game registry every engine and adapter
_ROOTS = (TableCore, registry.Game)


def _roots(game: str | None) -> list[str]:
    """The modules the state machine grows from: the table's, the registry's, and the engine, rules
    model and adapter of game ``game`` (None: of every registered game; the registry finds them
    by name, not by import, and imports only the game asked for)."""
    games = registry.GAMES.values() if game is None else (registry.game(game),)
    parts = [part for g in games for part in (g.engine, g.rules_model, type(g.adapter))]
    return [*(root.__module__ for root in _ROOTS), registry.__name__, *(part.__module__ for part in parts)]
#: the two plain classes of the table's state (every other one is data, see ``_is_state``)
_STATE_ROOTS = (TableCore, ShoeDevice)
#: standard-library modules that reach outside the process: a module that uses one is not pure
_OUTSIDE = frozenset({"asyncio", "fcntl", "http", "importlib", "io", "os", "pathlib", "pickle", "select", "shutil",
                      "signal", "socket", "sqlite3", "ssl", "subprocess", "sys", "tempfile", "threading", "urllib"})


def _uses(module: ModuleType) -> set[str]:
    """The modules ``module``'s names come from: the modules it imported and the defining
    module of every class and function it holds (a package's submodules are not followed:
    they are its children, not what it uses)."""
    used = set()
    for value in vars(module).values():
        if isinstance(value, ModuleType):
            if not hasattr(module, "__path__") or not value.__name__.startswith(module.__name__ + "."):
                used.add(value.__name__)
        elif isinstance(value, type) or callable(value):
            owner = getattr(value, "__module__", None)
            if isinstance(owner, str):
                used.add(owner)
    return used


@cache
def state_machine(game: str | None = None) -> tuple[frozenset[str], frozenset[str]]:
    """(the project's modules the state machine of game ``game``'s table is made of (None: of
    every registered game's), those of them that do no I/O of their own), read from the loaded
    modules themselves: everything the table's core and the game use, transitively. The
    runtime, the people and the faces are not in it: the layering test keeps every arrow from
    the table pointing down. Nothing here is a list to keep."""
    seen: set[str] = set()
    todo = _roots(game)
    while todo:
        name = todo.pop()
        module = sys.modules.get(name)
        if name in seen or module is None or not name.startswith(_PROJECT):
            continue
        seen.add(name)
        todo.extend(_uses(module))
    pure = {name for name in seen
            if not any(used.partition(".")[0] in _OUTSIDE for used in _uses(sys.modules[name]))}
    return frozenset(seen), frozenset(pure)


def _is_state(cls: type, game: str) -> bool:
    """A class a snapshot may build: any class of a module of the state machine that does no
    I/O, and of its other modules (the journal's, say) one that is data by its kind (a
    dataclass, a pydantic model, an enum, an engine's round, the table and its shoe accounting),
    whose construction runs no code of its own. A class of the runtime, a device or a face is
    none of these: there is no list of modules to keep by hand."""
    modules, pure = state_machine(game)
    if cls.__module__ in pure:
        return True
    return cls.__module__ in modules and (
        dataclasses.is_dataclass(cls) or issubclass(cls, (BaseModel, Enum, EngineRound, *_STATE_ROOTS)))


_STDLIB = frozenset({
    ("fractions", "Fraction"), ("decimal", "Decimal"), ("collections", "OrderedDict"), ("collections", "deque"),
    ("collections", "Counter"), ("collections", "defaultdict"), ("datetime", "datetime"), ("datetime", "date"),
    ("datetime", "timedelta"), ("datetime", "timezone"), ("builtins", "set"), ("builtins", "frozenset"),
    ("builtins", "bytearray"), ("builtins", "complex"),
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
        game = self._adapter.game
        if module in state_machine(game)[0]:
            found = super().find_class(module, name)
            if isinstance(found, type) and _is_state(found, game):
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
def fingerprint(game: str | None = None) -> str:
    """Of the code whose objects a snapshot of game ``game``'s table holds (None: any game's): a
    snapshot is used only by the same code. Read once per process, at the table's first
    restore, so the code this process runs, not what an upgrade puts on disk later.
    ``CROUPIER_SNAPSHOT_FINGERPRINT`` pins it (the restart benchmark, whose generating and
    measuring processes must agree while the source tree is being edited)."""
    pinned = os.environ.get("CROUPIER_SNAPSHOT_FINGERPRINT")
    if pinned:
        return pinned
    digest = hashlib.sha256()
    for name in sorted(state_machine(game)[0]):
        source = getattr(sys.modules[name], "__file__", None)
        if source is not None:
            digest.update(name.encode())
            digest.update(Path(source).read_bytes())
    return digest.hexdigest()[:16]



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
    payload = {"format": FORMAT, "covers": covers, "fingerprint": fingerprint(core.adapter.game),
               "game": core.adapter.game}
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
        game = core.adapter.game
        if p.get("format") != FORMAT or p.get("fingerprint") != fingerprint(game) or p.get("game") != game:
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
    the next input, when the disk is full). The count goes on from the inputs the start replayed
    past the last snapshot (``carry``): a table restarted before ``every`` live inputs still
    snapshots, so inputs since the last snapshot stay below ``every`` however often it restarts."""

    def __init__(self, journal: Journal, every: int = EVERY) -> None:
        self.journal = journal
        self.every = every
        self._since = 0
        self.taken = 0

    def carry(self, replayed: int) -> None:
        """Inputs the start replayed after the last snapshot (``Replay.unsnapshotted``)."""
        self._since = replayed

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
