"""The bet-spot driver against simulated spots through a real mosquitto."""

from __future__ import annotations

import asyncio

from drivers.events import DeviceOffline, DeviceOnline
from drivers.spots import SpotOnline, SpotPress, SpotRefused
from simulators.spots import SpotsSimulator
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.spots.conftest import Driver, make_driver


async def test_presses_arrive_with_their_fields(driver: Driver, spots: SpotsSimulator) -> None:
    await spots[3].press("hit")
    await spots[2].press("bet", 500, "perfect_pairs")
    await spots[1].press("bet", 100, "straight:17")
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 3)
    assert driver.of(SpotPress, spot=3)[0].model_dump() == {
        "type": "press", "spot": 3, "device": "spot-3", "button": "hit", "seq": 1, "amount": None, "kind": None,
    }
    assert driver.of(SpotPress, spot=2, amount=500, kind="perfect_pairs")
    assert driver.of(SpotPress, spot=1, kind="straight:17")
    assert all(driver.of(SpotOnline, spot=n, online=True) for n in (1, 2, 3, 4))


async def test_republished_seq_is_applied_once(driver: Driver, spots: SpotsSimulator) -> None:
    await spots[1].press("stand")
    await spots[1].duplicate_last()
    await spots[1].duplicate_last()
    await spots[1].press("hit")
    # the last thing spot 1 published: anything before it on its connection has come
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 2 and len(driver.of(SpotRefused)) == 2)
    assert [e.seq for e in driver.of(SpotPress)] == [1, 2]
    assert [e.reason for e in driver.of(SpotRefused)] == ["duplicate", "duplicate"]
    assert driver.session.refusals["duplicate"] == 2


async def test_presses_queued_for_the_controller_while_it_was_away_arrive_once(
    mosquitto: MosquittoBroker, driver: Driver, spots: SpotsSimulator
) -> None:
    """clean_session=False: the broker keeps the driver's subscription and queues QoS 1 presses."""
    await spots[2].press("bet", 200)
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 1)
    await driver.link.close()
    for button in ("hit", "hit", "stand"):
        await spots[2].press(button)
    await spots[2].duplicate_last()
    await driver.link.start()
    # the duplicate was spot 2's last message: everything before it on its connection has come
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 4 and len(driver.of(SpotRefused)) == 1)
    assert [(e.seq, e.button) for e in driver.of(SpotPress)] == [(1, "bet"), (2, "hit"), (3, "hit"), (4, "stand")]


async def test_wrong_device_id_is_refused(driver: Driver, spots: SpotsSimulator) -> None:
    await spots[2].press_as("spot-4", "double")
    await driver.wait_for(lambda: bool(driver.of(SpotRefused)))
    refused = driver.of(SpotRefused)[0]
    assert (refused.reason, refused.spot, refused.device) == ("wrong_device", 2, "spot-2")
    assert not driver.of(SpotPress)


async def test_a_spot_cannot_publish_as_another_spot(driver: Driver, spots: SpotsSimulator) -> None:
    """The ACL drops it silently: observed as non-delivery, with a press after it as the marker."""
    await spots[2].press_on(3, "split")
    await spots[2].publish_raw(b"0", leaf="online")  # its own online: allowed
    await spots[3].press("surrender")
    # spot 2's own online went out after its press on spot 3's topic, on the same connection
    await driver.wait_for(lambda: bool(driver.of(SpotPress)) and bool(driver.of(SpotOnline, spot=2, online=False)))
    assert [(e.spot, e.button) for e in driver.of(SpotPress)] == [(3, "surrender")]
    assert not driver.of(SpotRefused)


async def test_malformed_payloads_are_refused_and_counted(driver: Driver, spots: SpotsSimulator) -> None:
    bad = [
        (b"{not json", "malformed_json"),
        (b"\xff\xfe\xfa", "malformed_json"),
        (b"[1,2]", "invalid_payload"),
        (b'{"v":2,"device":"spot-1","seq":1,"button":"hit"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-1","seq":1,"button":"jump"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-1","seq":"1","button":"hit"}', "invalid_payload"),
        (b'{"v":1,"device":"spot-1","seq":1,"button":"bet"}', "invalid_payload"),
        (b" " * 600, "oversize"),
    ]
    for payload, _ in bad:
        await spots[1].publish_raw(payload)
    await spots[1].publish_raw(b"maybe", leaf="online", retain=True)
    await spots[1].press("hit")
    expected = [reason for _, reason in bad] + ["invalid_online"]
    await driver.wait_for(lambda: len(driver.of(SpotRefused)) == len(expected) and bool(driver.of(SpotPress)))
    assert [e.reason for e in driver.of(SpotRefused)] == expected
    assert driver.of(SpotRefused)[0].raw == "{not json"
    assert sum(driver.session.refusals.values()) == len(expected)
    assert [e.seq for e in driver.of(SpotPress)] == [1]
    await spots[1].publish_raw(b"1", leaf="online", retain=True)  # leave no junk retained


async def test_presence_follows_the_will_and_a_reboot_restarts_seq(driver: Driver, spots: SpotsSimulator) -> None:
    for _ in range(3):
        await spots[4].press("hit")
    await driver.wait_for(lambda: len(driver.of(SpotPress, spot=4)) == 3)
    await spots[4].crash()
    await driver.wait_for(lambda: bool(driver.of(SpotOnline, spot=4, online=False)))
    await spots[4].start()  # the firmware counts from 1 again
    await spots[4].press("stand")
    await driver.wait_for(lambda: len(driver.of(SpotPress, spot=4)) == 4)
    assert [e.seq for e in driver.of(SpotPress, spot=4)] == [1, 2, 3, 1]
    assert [e.online for e in driver.of(SpotOnline, spot=4)] == [True, False, True]


async def test_reboot_restarts_the_count(driver: Driver, spots: SpotsSimulator) -> None:
    for _ in range(2):
        await spots[3].press("hit")
    await spots[3].reboot()
    await spots[3].press("stand")
    await spots[3].duplicate_last()
    await driver.wait_for(lambda: len(driver.of(SpotPress, spot=3)) == 3 and bool(driver.of(SpotRefused)))
    assert [(e.seq, e.button) for e in driver.of(SpotPress, spot=3)] == [(1, "hit"), (2, "hit"), (1, "stand")]
    assert [e.reason for e in driver.of(SpotRefused)] == ["duplicate"]


async def test_lamps_reach_their_spot_only(driver: Driver, spots: SpotsSimulator) -> None:
    driver.session.lamp(2, "turn", "DOUBLE?")
    lamp = await spots[2].wait_lamp(lambda lamp: lamp.get("mode") == "turn")
    assert lamp == {"v": 1, "mode": "turn", "text": "DOUBLE?"}
    for n in (1, 3, 4):  # after the turn lamp on the same link: a stray one would come first
        driver.session.lamp(n, "open", "MARKER")
    for n in (1, 3, 4):
        await spots[n].wait_lamp(lambda lamp: lamp.get("text") == "MARKER", timeout=10)
    assert not any(lamp.get("mode") == "turn" for n in (1, 3, 4) for lamp in spots[n].lamps)


async def test_broker_restart_is_survived(mosquitto: MosquittoBroker, driver: Driver, spots: SpotsSimulator) -> None:
    await spots[1].press("bet", 1000)
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 1)
    mosquitto.stop()
    await driver.wait_for(lambda: bool(driver.of(DeviceOffline, device="broker")))
    for i in range(1, 21):
        driver.session.lamp(1, "open", f"L{i}")  # published during the outage
    assert driver.link.pending == 20
    await asyncio.sleep(0.3)  # the outage under test lasts a moment (the broker is another process: wall time)
    mosquitto.start()
    await driver.wait_for(lambda: len(driver.of(DeviceOnline, device="broker")) == 2, timeout=10)
    await asyncio.wait_for(spots[1].wait_lamp(lambda lamp: lamp.get("text") == "L20"), 10)
    await asyncio.wait_for(driver.link.drained(), 5)
    texts = [lamp["text"] for lamp in spots[1].lamps if lamp["text"].startswith("L")]
    in_order = [t for i, t in enumerate(texts) if i == 0 or texts[i - 1] != t]
    assert in_order == [f"L{i}" for i in range(1, 21)]
    await spots[1].wait_connected()
    await spots[1].press("hit")
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 2, timeout=10)
    assert [e.seq for e in driver.of(SpotPress)] == [1, 2]


async def test_driver_over_the_unix_socket(mosquitto: MosquittoBroker, spots: SpotsSimulator) -> None:
    driver = make_driver(mosquitto, transport="unix")
    async with driver.link, asyncio.TaskGroup() as tg:
        task = tg.create_task(driver.collect())
        await asyncio.wait_for(driver.link.wait_connected(), 5)
        await spots[3].press("fold")
        await driver.wait_for(lambda: bool(driver.of(SpotPress)))
        task.cancel()
    assert driver.of(SpotPress)[0].button == "fold"


async def test_broker_crash_without_saved_state_is_survived(
    mosquitto: MosquittoBroker, driver: Driver, spots: SpotsSimulator
) -> None:
    """SIGKILL: sessions and retained messages since the last save are gone; the link and the
    spots subscribe again, and the lamp set during the outage is the one the spot ends up with."""
    await spots[2].press("hit")
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 1)
    mosquitto.stop(graceful=False)
    await driver.wait_for(lambda: bool(driver.of(DeviceOffline, device="broker")))
    driver.session.lamp(2, "turn", "HIT?")
    mosquitto.start()
    await spots[2].wait_lamp(lambda lamp: lamp.get("text") == "HIT?", timeout=10)
    await spots[2].wait_connected()
    await spots[2].press("stand")
    await driver.wait_for(lambda: len(driver.of(SpotPress)) == 2, timeout=10)
    assert [(e.seq, e.button) for e in driver.of(SpotPress)] == [(1, "hit"), (2, "stand")]
