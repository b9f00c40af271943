"""A throwaway PostgreSQL cluster in a directory of its own, from Debian's ``postgresql``
binaries (``initdb`` and ``postgres`` in /usr/lib/postgresql/<version>/bin): the suite's floor
database and the demo's back office. Never a production database: trust authentication on a
unix socket in that directory and on a loopback TCP port, no fsync.

PostgreSQL refuses to run as root, so a root caller (CI, the demo started by root) runs initdb
and the server as the ``postgres`` user (or ``$CROUPIER_PG_USER``) and hands it the directory.
The server is started and stopped by its own PID, never through a name.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

SUPERUSER = "croupier"
READY_TIMEOUT = 30.0
RUN_AS_ENV = "CROUPIER_PG_USER"
BIN_ENV = "CROUPIER_PG_BIN"


class ClusterError(RuntimeError):
    """The binaries are missing, or the cluster would not start: the message says which."""


def find_bin() -> Path:
    """``$CROUPIER_PG_BIN``, else the newest /usr/lib/postgresql/<version>/bin with initdb."""
    given = os.environ.get(BIN_ENV)
    if given:
        if (Path(given) / "initdb").exists():
            return Path(given)
        raise ClusterError(f"{BIN_ENV}={given} has no initdb")
    root = Path("/usr/lib/postgresql")
    versions = sorted((p for p in root.glob("*/bin") if (p / "initdb").exists()),
                      key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0)
    if not versions:
        raise ClusterError("PostgreSQL binaries not found (apt-get install postgresql, or make system-deps)")
    return versions[-1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _parent_death_signal() -> None:
    """In the child, after it took the server's user: SIGINT when the parent dies (prctl)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGINT)  # PR_SET_PDEATHSIG


class Cluster:
    """``start()`` initialises the cluster on first use, then serves it on ``port`` (the same
    port on a restart, so clients reconnect where they were); ``stop()`` shuts it down by PID;
    ``close()`` also removes the directory."""

    def __init__(self, directory: Path | None = None, *, port: int = 0, die_with_parent: bool = False) -> None:
        self.bin = find_bin()
        self.dir = Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="pg-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.data = self.dir / "data"
        self.socket_dir = self.dir
        self.port = port
        self._owned_dir = directory is None
        #: the server gets SIGINT (a fast shutdown) if this process dies first (Linux): a demo
        #: killed outright leaves no server behind
        self._die_with_parent = die_with_parent
        self._process: subprocess.Popen[bytes] | None = None
        self._user = self._run_as()

    # -- addresses ---------------------------------------------------------------------------
    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        if self.running:
            return
        if not (self.data / "PG_VERSION").exists():
            self._initdb()
        if not self.port:
            self.port = free_port()
        log = (self.dir / "postgres.log").open("ab")
        self._process = self._spawn(
            [str(self.bin / "postgres"), "-D", str(self.data), "-p", str(self.port), "-k", str(self.socket_dir),
             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "full_page_writes=off",
             "-c", "max_connections=200", "-c", "shared_buffers=64MB"], log)
        log.close()
        self._wait_ready()

    def stop(self, mode: str = "fast") -> None:
        """``fast`` (SIGINT: sessions ended, a clean checkpoint), ``immediate`` (SIGQUIT: as
        after a crash, recovered from the WAL at the next start) or ``smart`` (SIGTERM)."""
        if self._process is None:
            return
        sig = {"smart": signal.SIGTERM, "fast": signal.SIGINT, "immediate": signal.SIGQUIT}[mode]
        if self._process.poll() is None:
            self._process.send_signal(sig)
            try:
                self._process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None

    def close(self) -> None:
        self.stop()
        if self._owned_dir:
            shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------
    def _run_as(self) -> pwd.struct_passwd | None:
        if os.geteuid() != 0:
            return None
        name = os.environ.get(RUN_AS_ENV, "postgres")
        try:
            return pwd.getpwnam(name)
        except KeyError:
            raise ClusterError(f"running as root: PostgreSQL needs a non-root user ({name!r} does not exist; "
                               f"set {RUN_AS_ENV})") from None

    def _spawn(self, args: list[str], stdout: int | IO[bytes]) -> subprocess.Popen[bytes]:
        """``args`` as the cluster's user (root drops to it in the child, so the PID is the program's)."""
        user = self._user
        hook = _parent_death_signal if self._die_with_parent else None
        if user is None:
            return subprocess.Popen(args, stdout=stdout, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                    preexec_fn=hook)
        return subprocess.Popen(args, stdout=stdout, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd=str(self.dir),
                                env={**os.environ, "HOME": str(self.dir), "USER": user.pw_name}, preexec_fn=hook)

    def _initdb(self) -> None:
        if self._user is not None:
            os.chown(self.dir, self._user.pw_uid, self._user.pw_gid)
        self.dir.chmod(0o700)
        initdb = self._spawn([str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", SUPERUSER,
                              "-E", "UTF8", "--locale=C", "--no-sync"], subprocess.PIPE)
        output, _ = initdb.communicate()
        if initdb.returncode != 0:
            raise ClusterError(f"initdb failed: {output.decode(errors='replace').strip()[-500:]}")

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_TIMEOUT
        sock = self.socket_dir / f".s.PGSQL.{self.port}"
        while time.monotonic() < deadline:
            if self._process is None or self._process.poll() is not None:
                break
            if sock.exists() and self._accepts():
                return
            time.sleep(0.02)
        tail = (self.dir / "postgres.log").read_text(errors="replace")[-800:] if (self.dir / "postgres.log").exists() else ""
        self.stop("immediate")
        raise ClusterError(f"PostgreSQL did not start on port {self.port}: {tail.strip()}")

    def _accepts(self) -> bool:
        result = subprocess.run([str(self.bin / "pg_isready"), "-q", "-h", "127.0.0.1", "-p", str(self.port)],
                                capture_output=True, stdin=subprocess.DEVNULL)
        return result.returncode == 0
