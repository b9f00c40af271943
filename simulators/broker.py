"""An in-process amqtt broker so ``croupier sim spots`` works with nothing installed.

Demo only, never the broker of record: amqtt speaks MQTT 3.1.1 only, runs plaintext and
anonymous here (its ACL configuration is fragile, so a spot can publish as another spot, and
anyone on the machine can send pit commands), keeps sessions and retained messages in memory
only (a restart forgets them), and has an open memory-growth issue. A table config therefore
gets it only with ``[mqtt] insecure = true``. Tests and production use mosquitto over TLS with
an ACL (tests/fixtures/mosquitto.py, ``croupier broker-config``, docs/security.md)."""

from __future__ import annotations

import logging
import socket
from typing import Any

from amqtt.broker import Broker
from amqtt.errors import BrokerError


def _free_port(host: str) -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class EmbeddedBroker:
    """``async with EmbeddedBroker() as broker: broker.url`` -> ``mqtt://127.0.0.1:<free port>``."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self.host = host
        self.port = port
        self._broker: Broker | None = None

    @property
    def url(self) -> str:
        return f"mqtt://{self.host}:{self.port}"

    def _config(self, port: int) -> dict[str, Any]:
        return {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }

    async def start(self, attempts: int = 5) -> None:
        """A free port is picked (and re-picked if taken meanwhile) unless one was given."""
        logging.getLogger("amqtt").setLevel(logging.WARNING)
        last: Exception | None = None
        for _ in range(attempts if self.port == 0 else 1):
            port = self.port or _free_port(self.host)
            broker = Broker(self._config(port))
            try:
                await broker.start()
            except BrokerError as exc:
                last = exc
                continue
            self.port, self._broker = port, broker
            return
        raise RuntimeError(f"embedded broker did not start: {last}")

    async def stop(self) -> None:
        if self._broker is not None:
            await self._broker.shutdown()
            self._broker = None

    async def __aenter__(self) -> EmbeddedBroker:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
