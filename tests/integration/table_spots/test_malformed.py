"""A malformed press on a spot's own topic costs that press, never the spots (issue defect 4).

Before: ``{"device":"spot-3x",...}`` passed pydantic's unanchored pattern, then an assertion
ended the spots task; no press was taken after it, and the unread queue grew without bound.
"""

from __future__ import annotations

import json

from controller.runtime.spots import TableSpots
from controller.table import inputs
from simulators.spots import SpotsSimulator
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE
from tests.integration.table_spots.test_spots import presses
from tests.support.waiting import until


async def test_a_spot_3x_press_is_refused_and_the_next_valid_press_is_taken(
        table_factory, mosquitto: MosquittoBroker) -> None:
    t = await table_factory(stacked=["TS", "9H", "6D"], table_id=TABLE)
    url = mosquitto.tcp_url()
    spots = SpotsSimulator.with_credentials(url, TABLE, 3, lambda n: mosquitto.spot(n).password)
    async with TableSpots(t.loop, t.journal, url, TABLE, 3) as table_spots, spots:
        await t.cmd("open_round")
        s3 = spots[3]
        hostile = json.dumps({"v": 1, "device": "spot-3x", "seq": 1, "button": "bet", "amount": 500}).encode()
        await s3.publish_raw(hostile)
        await until(lambda: table_spots.session.refusals["invalid_payload"] == 1, "the bad payload refused")
        await t.loop.settled()
        refused = [e for e in t.of_kind(inputs.DEVICE) if e.payload.get("type") == "refused"]
        assert [(e.source, e.payload["reason"]) for e in refused] == [("spot:3", "invalid_payload")]
        assert "device" in refused[0].payload["detail"]
        assert [a["code"] for a in t.alerts() if a["code"] == "device.refused"] == ["device.refused"]

        await s3.press("bet", amount=700)
        await until(lambda: len(presses(t, "spot-3")) == 1, "spot 3's press journaled")
        await t.loop.settled()
        assert [(b.box, b.stake, b.player) for b in t.core.adapter.open_bets(t.core.engine)] == [(3, 700, "spot-3")]
        assert table_spots.device.health().online  # the spots still run after the hostile press


async def test_the_spots_queue_is_bounded(table_factory, mosquitto: MosquittoBroker) -> None:
    """A reader that falls behind drops presses beyond the limit instead of growing without end."""
    t = await table_factory(stacked=["TS"], table_id=TABLE)
    url = mosquitto.tcp_url()
    spots = SpotsSimulator.with_credentials(url, TABLE, 1, lambda n: mosquitto.spot(n).password)
    table_spots = TableSpots(t.loop, t.journal, url, TABLE, 1)
    table_spots.session._messages.limit = 50
    await table_spots.link.start()  # the link alone: nobody reads the spots' queue
    await table_spots.link.wait_connected()
    async with spots:
        for seq in range(1, 201):
            await spots[1].publish_raw(press_payload(seq))
        await until(lambda: table_spots.session.dropped + len(table_spots.session._messages) >= 200,
                    "200 messages queued or dropped")
        assert len(table_spots.session._messages) <= 50 + 2  # + the link's own up/down items
        assert table_spots.session.dropped >= 148
    await table_spots.link.close()


def press_payload(seq: int) -> bytes:
    from simulators.spots import SpotDevice

    return SpotDevice.encode_press("spot-1", seq, "hit")
