"""One writer per journal *file*: an exclusive ``flock`` on the journal database itself.

The lock is taken on the file, not on its name: a symlink, a hard link or a bind mount that
reaches the same journal reaches the same inode, and so the same lock (two tables on one
journal closed the same round ids twice, and SQLite would keep two ``-wal`` files for it).
``flock`` locks belong to the open file description and are independent of SQLite's POSIX
record locks on the same file, so readers (recall, verify, the feed) are not blocked.

One care: closing *any* descriptor of a file drops every POSIX lock this process holds on it,
SQLite's included (commit dcdf466). So the lock's descriptor is closed only when no other
descriptor of this process is open on the journal (``/proc/self/fd``); otherwise it is kept,
unlocked, and used again by the next writer of that file in this process, or closed by a later
release once SQLite has let go. A second writer in this process is refused by the table of
files held here, without opening anything.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from pathlib import Path

#: (st_dev, st_ino) of a journal -> this process's descriptor on it, and whether it holds the lock
_files: dict[tuple[int, int], tuple[int, bool]] = {}
_guard = threading.Lock()


class JournalInUse(Exception):
    """Another process (or another writer in this one) holds the journal: two writers would
    both play, and close the same round ids twice."""


def _identity(path: str | Path) -> tuple[int, int]:
    st = os.stat(path)  # follows symlinks: the file itself
    return st.st_dev, st.st_ino


def _holder(ident: tuple[int, int]) -> str:
    """Who holds the flock on the file, from /proc/locks (``another process`` when not found)."""
    device = f"{os.major(ident[0]):02x}:{os.minor(ident[0]):02x}:{ident[1]}"
    pids: dict[str, str] = {}  # dev:ino as /proc/locks writes it -> pid
    with contextlib.suppress(OSError):
        for line in Path("/proc/locks").read_text().splitlines():
            fields = line.split()
            if len(fields) > 5 and fields[1] == "FLOCK" and fields[4].isdigit():
                pids.setdefault(fields[5], fields[4])
    # some file systems report another device number there than stat does: the inode alone then
    pid = pids.get(device) or next((p for where, p in pids.items() if where.endswith(f":{ident[1]}")), None)
    return f"process {pid}" if pid else "another process"


def _others_open(ident: tuple[int, int], own: int) -> bool:
    """Whether this process has a descriptor on the file besides ``own`` (SQLite's, say)."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return True  # cannot tell: keep the descriptor rather than risk SQLite's locks
    for name in names:
        if not name.isdigit() or int(name) == own:
            continue
        with contextlib.suppress(OSError):
            st = os.stat(int(name))
            if (st.st_dev, st.st_ino) == ident:
                return True
    return False


def _close_idle() -> None:
    """Close the descriptors kept unlocked whose journals this process no longer has open."""
    for ident, (fd, held) in list(_files.items()):
        if not held and not _others_open(ident, fd):
            os.close(fd)
            del _files[ident]


class WriterLock:
    """An exclusive ``flock`` on the journal file (which must exist), held for the life of the
    writer; ``JournalInUse`` naming the journal and the holder when another writer has it."""

    def __init__(self, journal_path: str | Path) -> None:
        self.journal = str(journal_path)
        with _guard:
            _close_idle()
            ident = _identity(journal_path)
            fd, held = _files.get(ident, (-1, False))
            if held:
                raise JournalInUse(self._refusal(f"process {os.getpid()} (this one)"))
            if fd < 0:
                fd = os.open(journal_path, os.O_RDWR | os.O_CLOEXEC)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                self._keep_or_close(ident, fd)
                raise JournalInUse(self._refusal(_holder(ident))) from None
            except OSError:
                self._keep_or_close(ident, fd)
                raise
            _files[ident] = (fd, True)
        self._ident: tuple[int, int] | None = ident

    def _refusal(self, who: str) -> str:
        return f"the journal {self.journal} is in use by {who}: one table process per journal file"

    @staticmethod
    def _keep_or_close(ident: tuple[int, int], fd: int) -> None:
        if _others_open(ident, fd):
            _files[ident] = (fd, False)
        else:
            _files.pop(ident, None)
            os.close(fd)

    def release(self) -> None:
        """Unlock (call after the writer's own connection is closed)."""
        with _guard:
            if self._ident is None:
                return
            fd, _ = _files[self._ident]
            fcntl.flock(fd, fcntl.LOCK_UN)
            self._keep_or_close(self._ident, fd)
            self._ident = None
