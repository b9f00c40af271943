"""The table controller as the soak's child process: ``croupier run --config F --rounds N
--quiet`` as an operator starts it, killed with a real SIGKILL and started again on the same
journal for the rounds still to play (``--rounds`` answers the restart's resume-or-void hold
itself). Its output goes to one log file per start, so a long run never stalls on a pipe.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path


class ControllerProcess:
    def __init__(self, config: Path, logs: Path, nice: int = 0) -> None:
        self.config = config
        self.logs = logs
        self.nice = nice
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def log(self) -> Path:
        return self.logs / f"run-{self.starts:04d}.log"

    def start(self, rounds: int) -> None:
        self.starts += 1
        cmd = [sys.executable, "-m", "controller.table_cli", "run", "--config", str(self.config),
               "--rounds", str(max(rounds, 1)), "--quiet", "--new-journal"]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                            preexec_fn=(lambda: os.nice(self.nice)) if self.nice else None)

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def returncode(self) -> int | None:
        return None if self.process is None else self.process.poll()

    def kill(self) -> None:
        """SIGKILL, by PID, and reap it."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def stop(self, timeout: float = 10.0) -> None:
        """The end of the soak: SIGTERM, then SIGKILL if it does not go."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while self.process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        self.kill()

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""
