"""What ``croupier diagnose --config F`` prints (docs/deployment.md, "Diagnostics"), after Home
Assistant's diagnostics: one JSON-able dump of a table process, with no secret in it.

Two sources. A running table serves its live dump on a unix socket beside its journal
(``diagnostics_socket``: owner-only, the same trust as the journal file; one connection gets
one JSON document, then the socket closes). A table that is not running is described from what
can be read without it: its config and its journal, read-only.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sqlite3
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from controller.config import TableConfig
from controller.journal import Journal
from controller.table import inputs
from drivers.device import Device
from drivers.mqtt.url import redacted

log = logging.getLogger(__name__)

#: a unix socket path is at most this long (``sun_path``)
SOCKET_PATH_MAX = 107


def diagnostics_socket(config: TableConfig) -> Path:
    """Where a running table serves its live dump: beside its journal."""
    return config.journal_path.with_name(config.journal_path.name + ".diag.sock")


def config_summary(config: TableConfig) -> dict[str, Any]:
    """The config as an operator checks it: addresses with their passwords replaced, no key,
    no password hash."""
    devices = config.devices
    return {
        "table": config.table.id, "game": config.table.game, "preset": config.table.preset,
        "currency": config.table.currency, "journal": str(config.journal_path),
        "journal_keyed": config.journal.key_file is not None or "CROUPIER_JOURNAL_KEY" in os.environ,
        "devices": {
            "shoe": {"transport": devices.shoe.transport, "url": _shown(devices.shoe.url or devices.shoe.port)},
            "wheel": {"transport": devices.wheel.transport, "url": _shown(devices.wheel.url or devices.wheel.port)},
            "spots": {"enabled": devices.spots.enabled, "broker": _shown(devices.spots.broker)},
            **{name: {"url": _shown(other.url), "kind": other.kind, "enabled": other.enabled}
               for name, other in devices.others.items()},
        },
        "mqtt": {"broker": redacted(config.mqtt.broker)},
        "console": {"enabled": config.console.enabled, "host": config.console.host, "port": config.console.port},
        "metrics": {"enabled": config.metrics.enabled, "host": config.metrics.host, "port": config.metrics.port},
        "accounts": sorted(config.accounts),
    }


def _shown(url: str | None) -> str | None:
    return None if url is None else redacted(url)


def journal_summary(journal: Journal) -> dict[str, Any]:
    """The open journal's path, head and what its start found wrong."""
    seq, head = journal.head()
    return {"path": journal.path, "seq": seq, "head": head, "problems": list(journal.problems)}


def stored_journal(path: Path) -> dict[str, Any]:
    """A journal read without its writer (read-only, nothing created or migrated): its head, the
    last round it names and whether that round closed, the last start, and how far behind each
    reader's cursor (the pit feed's) is."""
    if not path.exists():
        return {"path": str(path), "exists": False}
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return {"path": str(path), "exists": True, **_stored(db)}
    except sqlite3.Error as exc:
        return {"path": str(path), "exists": True, "error": f"cannot read it: {exc}"}


def _stored(db: sqlite3.Connection) -> dict[str, Any]:
    row = db.execute("SELECT seq, hash, ts, kind FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    if row is None:
        return {"seq": 0, "head": None}
    seq = int(row[0])
    last_round = db.execute("SELECT round_id FROM events WHERE round_id IS NOT NULL ORDER BY seq DESC LIMIT 1").fetchone()
    round_report = None
    if last_round is not None:
        closed = db.execute("SELECT 1 FROM events WHERE kind = ? AND round_id = ? LIMIT 1",
                            (inputs.ROUND_CLOSED, last_round[0])).fetchone()
        round_report = {"round": last_round[0], "closed": closed is not None}
    started = db.execute("SELECT ts FROM events WHERE kind = ? ORDER BY seq DESC LIMIT 1",
                         (inputs.TABLE_STARTED,)).fetchone()
    cursors = {name: {"seq": int(at), "behind": seq - int(at)}
               for name, at in db.execute("SELECT name, seq FROM cursors ORDER BY name")}
    return {"seq": seq, "head": row[1], "last_entry": {"ts": row[2], "kind": row[3]}, "last_round": round_report,
            "last_start": None if started is None else started[0], "cursors": cursors}


def device_report(device: Device) -> dict[str, Any]:
    """One device: its address (no password), health and link (state, last error, reconnects)."""
    inner: Any = device
    with contextlib.suppress(RuntimeError):  # a simulator in front of a driver: the driver's link
        inner = getattr(device, "driver", device)
    health = device.health()
    address = getattr(inner, "address", None)
    link_state = getattr(inner, "link_state", None)
    return {"url": _shown(address if isinstance(address, str) else None), "online": health.online,
            "fault": health.fault, "identity": health.identity,
            "link": link_state() if callable(link_state) else None}


def devices_report(devices: Mapping[str, Device]) -> dict[str, Any]:
    return {name: device_report(device) for name, device in devices.items()}


@contextlib.asynccontextmanager
async def serving(path: Path, dump: Callable[[], dict[str, Any]]) -> AsyncIterator[Path | None]:
    """Serve ``dump()`` on the unix socket ``path`` while open (None: the path is too long for a
    socket, or cannot be bound; the table runs on without it, and says so in its log)."""
    if len(str(path)) > SOCKET_PATH_MAX:
        log.warning("diagnostics: %s is too long for a unix socket; no live diagnostics", path)
        yield None
        return

    async def answer(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            writer.write(json.dumps(dump(), default=str).encode() + b"\n")
            await writer.drain()
        except Exception:  # a broken dump or a reader gone: the table is not affected
            log.exception("diagnostics: the dump failed")
        finally:
            writer.close()

    with contextlib.suppress(FileNotFoundError):
        path.unlink()  # a socket left by a process that died (the journal's lock says none runs now)
    try:
        server = await asyncio.start_unix_server(answer, path=str(path))
    except OSError as exc:
        log.warning("diagnostics: cannot serve on %s (%s); no live diagnostics", path, exc)
        yield None
        return
    try:
        path.chmod(0o600)
        yield path
    finally:
        server.close()
        await server.wait_closed()
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def read_live(path: Path, timeout: float = 5.0) -> dict[str, Any] | None:
    """The live dump of the table serving on ``path``; None when none answers there."""
    import socket

    if not path.exists():
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(str(path))
            chunks = []
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        except OSError:
            return None
    try:
        data = json.loads(b"".join(chunks))
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def offline(config: TableConfig) -> dict[str, Any]:
    """What is known of a table that is not running: its config and its journal."""
    return {"source": "config and journal (the table is not running, or does not answer)",
            "config": config_summary(config), "journal": stored_journal(config.journal_path)}
