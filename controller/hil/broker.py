"""The soak's mosquitto: Debian's broker on a free loopback port, anonymous (loopback only, a
lab rig), persistent, so a stop and start keeps sessions and retained messages the way a
production broker restarted by systemd does. Started and stopped by its own PID.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

CANDIDATES = ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto")


def find_mosquitto() -> Path:
    """``$MOSQUITTO``, then the usual paths, then PATH; RuntimeError with the remedy otherwise."""
    for candidate in (os.environ.get("MOSQUITTO"), *CANDIDATES, shutil.which("mosquitto")):
        if candidate and os.access(candidate, os.X_OK):
            return Path(candidate)
    raise RuntimeError("mosquitto not found (apt-get install mosquitto, or set $MOSQUITTO to its path)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class SoakBroker:
    """One mosquitto in its own temp dir; ``stop()``/``start()`` keep the port."""

    def __init__(self) -> None:
        self.executable = find_mosquitto()
        self.dir = Path(tempfile.mkdtemp(prefix="hil-mq-"))
        self.dir.chmod(0o755)  # mosquitto started as root drops to its own user unless told otherwise
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> None:
        keep = self.port != 0
        for _ in range(5):
            if not keep:
                self.port = free_port()
            lines = ["allow_anonymous true", "persistence true", f"persistence_location {self.dir}/",
                     f"log_dest file {self.dir / 'mosquitto.log'}", "max_queued_messages 100000",
                     f"listener {self.port} 127.0.0.1"]
            if os.geteuid() == 0:
                lines.insert(0, "user root")
            (self.dir / "mosquitto.conf").write_text("\n".join(lines) + "\n")
            self._process = subprocess.Popen([str(self.executable), "-c", str(self.dir / "mosquitto.conf")],
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if self._ready():
                return
            self.stop()
            time.sleep(0.2)
        raise RuntimeError(f"mosquitto did not start on port {self.port}")

    def _ready(self) -> bool:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if self._process is None or self._process.poll() is not None:
                return False
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                time.sleep(0.01)
        return False

    def stop(self) -> None:
        """SIGTERM (sessions and retained messages saved), SIGKILL after 5 s."""
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)
