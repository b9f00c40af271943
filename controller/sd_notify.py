"""systemd's service notification protocol (``sd_notify``), for ``Type=notify`` units.

A datagram of ``KEY=value`` lines to the unix socket named by ``NOTIFY_SOCKET`` (a path, or
``@name`` in the abstract namespace). The table sends ``READY=1`` once it takes inputs,
``WATCHDOG=1`` from its own event loop every third of ``WATCHDOG_USEC`` while the table task is
alive and making progress (so a hung loop stops the pings and systemd restarts the unit), and
``STOPPING=1`` when it shuts down. Without ``NOTIFY_SOCKET`` (not under systemd) nothing is sent.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
from collections.abc import Callable

log = logging.getLogger(__name__)


class Notifier:
    def __init__(self, address: str, watchdog_usec: int | None = None) -> None:
        self.address = "\0" + address[1:] if address.startswith("@") else address
        self.watchdog_usec = watchdog_usec
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)

    @classmethod
    def from_env(cls) -> Notifier | None:
        """The notifier systemd asked for, or None. ``WATCHDOG_PID``, when set, must be this process."""
        address = os.environ.get("NOTIFY_SOCKET")
        if not address:
            return None
        usec: int | None = None
        raw, pid = os.environ.get("WATCHDOG_USEC"), os.environ.get("WATCHDOG_PID")
        if raw and raw.isdigit() and int(raw) > 0 and (not pid or pid == str(os.getpid())):
            usec = int(raw)
        return cls(address, usec)

    def send(self, *fields: str) -> None:
        """One datagram; a failure is logged, never raised (systemd away must not stop a table)."""
        try:
            self._sock.sendto("\n".join(fields).encode(), self.address)
        except OSError as exc:
            log.warning("sd_notify to %s failed: %s", self.address, exc)

    async def watchdog(self, alive: Callable[[], bool]) -> None:
        """Ping ``WATCHDOG=1`` every third of the watchdog interval while ``alive()`` holds."""
        if self.watchdog_usec is None:
            return
        interval = self.watchdog_usec / 3e6
        while True:
            if alive():
                self.send("WATCHDOG=1")
            else:
                log.error("the table loop is not making progress: watchdog pings stopped")
            await asyncio.sleep(interval)

    def close(self) -> None:
        self._sock.close()
