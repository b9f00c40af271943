"""The demo's back office (``croupier demo``): a throwaway PostgreSQL cluster in the demo's
directory from Debian's binaries, migrated, with the consumer reading the demo's broker. Without
the binaries (or when the cluster will not start) the demo runs on without it, and ``line``
says so in one line."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import tempfile
from pathlib import Path

from controller.backoffice.cluster import Cluster, ClusterError

log = logging.getLogger(__name__)
DATABASE = "floor"


class DemoBackoffice:
    def __init__(self, directory: Path, broker: str) -> None:
        self.directory = directory
        self.broker = broker
        self.url: str | None = None
        self.line = ""
        self._cluster: Cluster | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> DemoBackoffice:
        try:
            self.url = await asyncio.to_thread(self._start_cluster)
        except (ClusterError, OSError) as exc:
            self.line = f"backoffice: not running ({exc}; make demo installs postgresql)"
            return self
        except Exception as exc:  # noqa: BLE001  # a database surprise must not stop the demo's floor
            self.line = f"backoffice: not running ({type(exc).__name__}: {str(exc).strip()[:200]})"
            await asyncio.to_thread(self._stop_cluster)
            return self
        from controller.backoffice.consumer import Consumer

        consumer = Consumer(self.broker, self.url, client_id="croupier-demo-backoffice", backoff_max=1.0)
        self._task = asyncio.create_task(consumer.run(self._stop), name="backoffice")
        self.line = f"backoffice: {self.url}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._task, 10)
        await asyncio.to_thread(self._stop_cluster)

    def _start_cluster(self) -> str:
        import psycopg

        from controller.backoffice.migrate import migrate

        where: Path | None = self.directory / "backoffice-db"
        if os.geteuid() == 0:  # the server runs as the postgres user: it must be able to reach its directory
            if self.directory.parent == Path(tempfile.gettempdir()):
                self.directory.chmod(self.directory.stat().st_mode | 0o011)  # the demo's own temp dir: traverse only
            if not _reachable(self.directory):
                where = None  # a cluster in a temp dir of its own, removed at exit
        cluster = Cluster(where, die_with_parent=True)
        self._cluster = cluster
        cluster.start()
        with psycopg.connect(cluster.url(), autocommit=True) as conn:
            if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
                conn.execute(f'CREATE DATABASE "{DATABASE}"')
        url = cluster.url(DATABASE)
        migrate(url)
        return url

    def _stop_cluster(self) -> None:
        if self._cluster is not None:
            self._cluster.close()  # removes the cluster's directory only if it made it itself


def _reachable(directory: Path) -> bool:
    """Every directory down to ``directory`` lets other users through (the server's user is not root)."""
    return all(p.stat().st_mode & 0o001 for p in (directory, *directory.parents))
