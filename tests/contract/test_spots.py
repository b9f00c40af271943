"""The bet spots' ``Device`` contract against the real mosquitto broker with simulated spots, and
on a rig's broker and real buttons (``CROUPIER_RIG_SPOTS=mqtt://user:pass@host:1883/TABLE``)."""

from __future__ import annotations

import json
import ssl
from collections.abc import AsyncIterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from drivers import registry
from drivers.device import Device
from drivers.errors import CodecError, DeviceAddressError, DeviceUnavailable, DriverError, UnsupportedCommand
from drivers.mqtt import BrokerUrl, Outbox, OutboxFull, Outgoing
from drivers.spots import codec
from drivers.spots.device import SpotsDevice, spots_address
from simulators.spots import SpotsSimulator
from tests.contract.conftest import RIG, Events, rig_url
from tests.fixtures.mosquitto import MosquittoBroker, free_port

TABLE = "bj1"


@pytest.fixture(params=["mosquitto", RIG])
async def spots(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Device, Events, SpotsSimulator | None]]:
    sim: SpotsSimulator | None = None
    if request.param == RIG:
        url = rig_url("spots")
    else:
        broker: MosquittoBroker = request.getfixturevalue("mosquitto")
        url = f"{broker.tcp_url()}/{TABLE}?spots=4"
        sim = SpotsSimulator.with_credentials(broker.tcp_url(), TABLE, 4, lambda n: broker.spot(n).password)
    events = Events()
    device = registry.build(url, sink=events)
    await device.open()
    try:
        if sim is not None:
            await sim.start()
        yield device, events, sim
    finally:
        if sim is not None:
            await sim.stop()
        await device.close()


async def test_is_a_device_online_after_open(spots: tuple[Device, Events, SpotsSimulator | None]) -> None:
    device, _, _ = spots
    assert isinstance(device, Device)
    assert device.name == "spots"
    assert device.health().online


async def test_a_press_arrives_once(spots: tuple[Device, Events, SpotsSimulator | None]) -> None:
    _, events, sim = spots
    if sim is None:
        pytest.skip("real hardware: pressing a button needs a person at the rig")
    seq = await sim[2].press("bet", 500, "main")
    await sim[2].duplicate_last()  # a QoS 1 redelivery: refused as a duplicate, never applied twice
    await events.until(lambda: bool(events.of("press")) and bool(events.of("refused")))
    (press,) = events.of("press")
    assert (press.spot, press.button, press.amount, press.seq) == (2, "bet", 500, seq)


async def test_lamp_command_reaches_the_spot(spots: tuple[Device, Events, SpotsSimulator | None]) -> None:
    device, _, sim = spots
    await device.command("lamp", spot=3, mode="turn", text="your turn")
    if sim is not None:
        lamp = await sim[3].wait_lamp(lambda lamp: lamp.get("mode") == "turn")
        assert json.loads(json.dumps(lamp))["text"] == "your turn"


async def test_a_command_that_does_not_fit_is_refused(spots: tuple[Device, Events, SpotsSimulator | None]) -> None:
    device, _, _ = spots
    with pytest.raises(UnsupportedCommand, match="has no command 'lock'.*lamp"):
        await device.command("lock")
    with pytest.raises(UnsupportedCommand, match="lamp mode 'disco'"):
        await device.command("lamp", spot=1, mode="disco")


async def test_an_address_without_a_table_or_a_broker() -> None:
    with pytest.raises(DeviceAddressError, match="which table"):
        registry.build("mqtt://127.0.0.1:1883")
    device = registry.build(f"mqtt://127.0.0.1:{free_port()}/{TABLE}")  # nobody listens there
    device.connect_timeout = 0.5  # type: ignore[attr-defined]
    await device.open()  # the table plays on without its buttons; the link keeps trying
    try:
        health = device.health()
        assert not health.online
        assert health.fault  # the broker's last error, shown to the dealer and the pit
    finally:
        await device.close()


# --------------------------------------------------------------------------- address and errors
CA = ssl.get_default_verify_paths().cafile or "/etc/ssl/certs/ca-certificates.crt"  # the link reads it when built


@given(table=st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True), count=st.integers(0, 999),
       tls=st.booleans(), client_id=st.none() | st.from_regex(r"[a-z0-9-]{1,16}", fullmatch=True))
def test_spots_address_is_what_the_registry_builds_from(table: str, count: int, tls: bool, client_id: str | None) -> None:
    broker = f"mqtts://ctl:s%40cret@broker.example:8883?cafile={CA}" if tls else "mqtt://ctl:pw@10.0.0.5:1883"
    device = registry.build(spots_address(broker, table, count, client_id), "spots")
    assert isinstance(device, SpotsDevice)
    assert device.session.tracker.table == table
    assert device.session.tracker.spots == (frozenset(range(1, count + 1)) if count else None)
    assert device.link.client_id == (client_id or f"croupier-{table}-spots")
    url = device.link.url
    assert (url.host, url.password, url.tls, url.cafile) == (
        ("broker.example", "s@cret", True, CA) if tls else ("10.0.0.5", "pw", False, None))


def test_spots_on_a_unix_socket_keep_their_socket_path() -> None:
    device = registry.build(spots_address("unix://ctl:pw@/run/mosquitto/b.sock", "T1", 3), "spots")
    assert isinstance(device, SpotsDevice)
    url = device.link.url
    assert (url.transport, url.host, device.session.tracker.table) == ("unix", "/run/mosquitto/b.sock", "T1")


def test_watermarks_and_gate_given_to_the_builder_reach_the_session() -> None:
    seen: list[str] = []
    device = registry.build(spots_address("mqtt://ctl:pw@127.0.0.1:1883", TABLE, 2), "spots",
                            watermarks={"spot-1": 41}, gate=lambda topic: bool(seen.append(topic)))
    assert isinstance(device, SpotsDevice)
    assert device.session.tracker.last_seq == {"spot-1": 41}
    events = device.session.tracker.handle(f"croupier/{TABLE}/spot/1/press",
                                           b'{"v":1,"device":"spot-1","seq":41,"button":"hit"}', False)
    assert [e.type for e in events] == ["refused"] and events[0].reason == "duplicate"  # type: ignore[attr-defined]


def test_an_address_error_never_shows_the_broker_password() -> None:
    with pytest.raises(DeviceAddressError) as caught:
        registry.build("mqtt://ctl:hunter2@127.0.0.1:1883/T1?spots=many")
    assert "spots='many'" in str(caught.value) and "hunter2" not in str(caught.value)


def test_spot_driver_failures_are_in_the_driver_error_tree() -> None:
    with pytest.raises(CodecError) as decoded:
        codec.decode_press(b"{not json")
    assert isinstance(decoded.value, codec.SpotCodecError) and decoded.value.reason == "malformed_json"
    with pytest.raises(codec.SpotCodecError, match="invalid_lamp"):
        codec.encode_lamp("disco")  # type: ignore[arg-type]
    with pytest.raises(DeviceAddressError, match="cannot be an MQTT topic level"):
        codec.topic_root("a/b")
    with pytest.raises(DeviceAddressError, match="unknown option 'cafil'"):
        BrokerUrl.parse("mqtts://h:8883?cafil=/ca.pem")
    outbox = Outbox(limit=1)
    outbox.put(Outgoing("t", b"1"))
    with pytest.raises(DeviceUnavailable, match="waiting for the broker"):
        outbox.put(Outgoing("t", b"2"))
    # the builtins they stood for still catch them, as before the tree
    assert issubclass(codec.SpotCodecError, ValueError) and issubclass(DeviceAddressError, ValueError)
    assert issubclass(OutboxFull, DriverError)
