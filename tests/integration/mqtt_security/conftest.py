"""Brokers for the MQTT security tests, all the real mosquitto over TLS from throwaway CAs made
here with the openssl command: the shared fixture with a TLS listener, and a floor broker run
from exactly the files ``croupier broker-config`` writes."""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiomqtt
import pytest

from controller import broker_config
from drivers.mqtt import BrokerUrl
from drivers.mqtt.tls import tls_context
from tests.fixtures.mosquitto import BrokerTls, MosquittoBroker, tls_files

NODELAY = ((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),)
TABLES = [broker_config.Table("bj1", 3), broker_config.Table("bj2", 2)]


class FloorBroker(MosquittoBroker):
    """mosquitto on the generated mosquitto.conf, passwd and acl; only the listener's port and
    the persistence directory are changed to suit a test machine."""

    def __init__(self, out: Path, client_certificates: bool = False) -> None:
        self.out = out
        self.client_certificates = client_certificates
        super().__init__(spots=0)
        self.secrets = {p.stem: p.read_text().strip() for p in (out / "secrets").glob("*.secret")}

    def password(self, user: str) -> str:
        return self.secrets[user]

    def url(self, user: str | None, *, cafile: Path | None = None, cert: tuple[Path, Path] | None = None) -> BrokerUrl:
        return BrokerUrl("tcp", "127.0.0.1", self.port, user, self.secrets[user] if user else None, tls=True,
                         cafile=str(cafile or self.out / "tls" / "ca.pem"),
                         certfile=str(cert[0]) if cert else None, keyfile=str(cert[1]) if cert else None)

    def client(self, user: str | None, *, cert: tuple[Path, Path] | None = None, timeout: float = 5) -> aiomqtt.Client:
        url = self.url(user, cert=cert)
        return aiomqtt.Client(url.host, url.port, username=url.username, password=url.password,
                              tls_context=tls_context(url), socket_options=NODELAY, timeout=timeout)

    def _write_auth(self) -> None:
        pass  # the generated passwd and acl are used as written

    def _write_config(self) -> None:
        conf = broker_config.mosquitto_conf(self.out, broker_config.TlsPaths(
            self.out / "tls" / "ca.pem", self.out / "tls" / "broker.pem", self.out / "tls" / "broker.key"),
            port=self.port, bind="127.0.0.1", client_certificates=self.client_certificates)
        conf = conf.replace("persistence_location /var/lib/mosquitto/", f"persistence_location {self.dir}/")
        if os.geteuid() == 0:
            conf = "user root\n" + conf
        conf += f"log_dest file {self.dir / 'mosquitto.log'}\n"
        (self.dir / "mosquitto.conf").write_text(conf)

    def _connectable(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                return True
        except OSError:
            return False


def generate_floor(out: Path) -> None:
    broker_config.generate(out, TABLES, tls=None, make_ca=True, hosts=["127.0.0.1", "localhost"],
                           readers=["viewer"])
    for path in (out / "passwd", out / "tls" / "broker.key"):
        path.chmod(0o644)  # mosquitto started as root drops to user mosquitto unless told otherwise


@pytest.fixture
def floor_files(tmp_path: Path) -> Path:
    out = tmp_path / "floor"
    generate_floor(out)
    return out


@pytest.fixture
def floor(floor_files: Path) -> Iterator[FloorBroker]:
    broker = FloorBroker(floor_files)
    try:
        broker.start()
        yield broker
    finally:
        broker.close()


@pytest.fixture
def broker_tls(tmp_path: Path) -> BrokerTls:
    return tls_files(tmp_path / "ca")


@pytest.fixture
def tls_broker(broker_tls: BrokerTls) -> Iterator[MosquittoBroker]:
    """The shared fixture's broker with its TLS listener."""
    broker = MosquittoBroker(tls=broker_tls)
    try:
        broker.start()
        yield broker
    finally:
        broker.close()


@asynccontextmanager
async def watching(client: aiomqtt.Client, *filters: str) -> AsyncIterator[aiomqtt.Client]:
    async with client:
        for f in filters:
            await client.subscribe(f, qos=1)
        yield client


async def take(client: aiomqtt.Client, n: int, timeout: float = 5.0) -> list[aiomqtt.Message]:
    async def collect() -> list[aiomqtt.Message]:
        out: list[aiomqtt.Message] = []
        async for message in client.messages:
            out.append(message)
            if len(out) == n:
                break
        return out

    return await asyncio.wait_for(collect(), timeout)


def is_verify_failure(error: BaseException | str) -> bool:
    text = str(error)
    return "CERTIFICATE_VERIFY_FAILED" in text or isinstance(error, ssl.SSLCertVerificationError)
