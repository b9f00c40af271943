"""A journal disk that can really fill up: a small tmpfs mounted for the soak (root only), which
a filler file fills to the last byte and whose removal gives the space back. SQLite then gets
ENOSPC (``SQLITE_FULL``) exactly as on a full disk; the table holds (``journal.disk_full``) and
resumes by itself once space returns (docs/deployment.md, docs/hil.md).

Without the privilege to mount, ``available`` is False and the soak reports ``disk_full`` as
not injected, with the reason.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

FILLER = ".hil-filler"


class SoakDisk:
    def __init__(self, mountpoint: Path, size_mb: int = 128) -> None:
        self.mountpoint = mountpoint
        self.size_mb = size_mb
        self.mounted = False
        self.why_not = ""

    @property
    def available(self) -> bool:
        return self.mounted

    def mount(self) -> None:
        self.mountpoint.mkdir(parents=True, exist_ok=True)
        if os.geteuid() != 0:
            self.why_not = "disk_full needs root (a tmpfs is mounted for the journal)"
            return
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={self.size_mb}m,mode=0755", "hil-journal",
                               str(self.mountpoint)], capture_output=True, text=True)
        if done.returncode != 0:
            self.why_not = f"cannot mount a tmpfs for the journal: {done.stderr.strip() or done.returncode}"
            return
        self.mounted = True

    def fill(self) -> int:
        """Take every free byte (to the filesystem's page); returns how many were taken."""
        taken = 0
        fd = os.open(self.mountpoint / FILLER, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            for size in (1 << 20, 1 << 12):
                block = b"\0" * size
                while True:
                    try:
                        taken += os.write(fd, block)
                    except OSError:
                        break
        finally:
            os.close(fd)
        return taken

    def free(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            (self.mountpoint / FILLER).unlink()

    def copy_out(self, files: list[Path], to: Path) -> None:
        """Keep the journal after the tmpfs goes (the report names it)."""
        for f in files:
            if f.exists():
                copy = to / f.name
                copy.write_bytes(f.read_bytes())
                copy.chmod(f.stat().st_mode & 0o777)  # a key stays 0600

    def unmount(self) -> None:
        if self.mounted:
            self.free()
            subprocess.run(["umount", "-l", str(self.mountpoint)], capture_output=True)
            self.mounted = False
