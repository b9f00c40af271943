"""Client ids bound to accounts (``broker-config --bind-client-ids``), on the real mosquitto
with the generated config over TLS: a bet spot's password connecting under the table's feed
client id no longer takes the feed's session; without the binding it does (the attack)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import aiomqtt
import pytest

from controller import broker_config
from drivers.mqtt.tls import tls_context
from tests.integration.mqtt_security.conftest import NODELAY, FloorBroker

TABLES = [broker_config.Table("bj1", 2)]
FEED_ID = "croupier-bj1-feed"


class BoundFloor(FloorBroker):
    def __init__(self, out: Path, bind: bool) -> None:
        self.bind = bind
        super().__init__(out)

    def _write_config(self) -> None:
        super()._write_config()
        if self.bind:
            conf = (self.dir / "mosquitto.conf").read_text()
            assert "use_username_as_clientid true" not in conf
            (self.dir / "mosquitto.conf").write_text(conf.replace("require_certificate false\n",
                                                                  "require_certificate false\nuse_username_as_clientid true\n"))

    def as_client(self, user: str, identifier: str) -> aiomqtt.Client:
        url = self.url(user)
        return aiomqtt.Client(url.host, url.port, username=user, password=url.password, identifier=identifier,
                              clean_session=False, tls_context=tls_context(url), socket_options=NODELAY, timeout=5)


def floor(tmp_path: Path, bind: bool) -> Iterator[BoundFloor]:
    out = tmp_path / ("bound" if bind else "unbound")
    broker_config.generate(out, TABLES, tls=None, make_ca=True, hosts=["127.0.0.1"], bind_client_ids=bind)
    for path in (out / "passwd", out / "tls" / "broker.key"):
        path.chmod(0o644)
    assert ("use_username_as_clientid true" in (out / "mosquitto.conf").read_text()) == bind
    broker = BoundFloor(out, bind)
    broker.start()
    yield broker
    broker.close()


@pytest.fixture(params=[True, False], ids=["bound", "unbound"])
def broker(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[BoundFloor]:
    yield from floor(tmp_path, request.param)


async def feed_survives_an_impostor(broker: BoundFloor) -> bool:
    """The table's feed connects; a spot's password connects under the feed's client id; is the
    feed's connection still the one the broker keeps?"""
    async with broker.as_client("bj1-controller", FEED_ID) as feed, broker.as_client("bj1-spot-1", FEED_ID) as impostor:
        # acknowledged: the broker has handled the impostor's CONNECT (and any takeover) by now
        await impostor.publish("croupier/bj1/spot/1/online", b"1", qos=1)
        try:
            await asyncio.wait_for(feed.publish("croupier/bj1/event", b"still here", qos=1), 3)
        except (aiomqtt.MqttError, TimeoutError):
            return False
    return True


async def test_a_spots_password_cannot_take_the_feeds_session_once_bound(broker: BoundFloor) -> None:
    survived = await feed_survives_an_impostor(broker)
    assert survived == broker.bind
    if broker.bind:
        assert "bj1-spot-1" in broker.log and "already connected" not in broker.log


def test_the_bound_floor_gives_the_tables_spots_link_its_own_account(tmp_path: Path) -> None:
    accounts = {a.username: a for a in broker_config.accounts(TABLES, bind_client_ids=True)}
    spots, controller = accounts["bj1-spots"], accounts["bj1-controller"]
    assert spots.password == controller.password  # one secret file on the table's PC
    assert ("read", "croupier/bj1/spot/+/press") in spots.topics and ("write", "croupier/bj1/spot/+/lamp") in spots.topics
    assert not [t for t in controller.topics if "/spot/" in t[1]]
