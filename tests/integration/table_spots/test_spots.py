"""Bet spots at the table, over the real mosquitto: simulated spot devices (their own MQTT
clients and credentials) bet and decide; the table journals every press as a ``spot:<n>`` input,
refuses what is out of turn (alert to the pit, reason on the prompt, lamps unmoved), applies a
redelivered press once, also after a restart, and lights the lamps from its own state."""

from __future__ import annotations

from typing import Any

from controller.feed import Feed
from controller.process import FeedListener
from controller.runtime.spots import TableSpots
from controller.table import inputs
from simulators.spots import SpotDevice, SpotsSimulator
from tests.fixtures.mosquitto import MosquittoBroker
from tests.integration.feed.conftest import TABLE, Pit
from tests.integration.table.conftest import bets
from tests.support.waiting import until


def presses(t: Any, device: str) -> list[dict[str, Any]]:
    return [e.payload for e in t.of_kind(inputs.DEVICE) if e.payload.get("type") == "press"
            and e.payload.get("device") == device]


def spot_alerts(t: Any, code: str) -> list[dict[str, Any]]:
    return [a for a in t.alerts() if a["code"] == code]


def lamp_is(device: SpotDevice, mode: str, text: str | None = None) -> bool:
    lamp = device.lamp
    return lamp is not None and lamp.get("mode") == mode and (text is None or lamp.get("text") == text)


async def test_a_round_played_from_the_spots(table_factory, mosquitto: MosquittoBroker) -> None:
    t = await table_factory(stacked=["TS", "9H", "6D", "6C", "2S", "TD", "TH", "4C"], table_id=TABLE)
    url = mosquitto.tcp_url()
    spots = SpotsSimulator.with_credentials(url, TABLE, 2, lambda n: mosquitto.spot(n).password)
    async with Pit(mosquitto, client_id="pit-spots") as pit, \
            Feed.connect(url, t.journal, TABLE, backoff_max=0.5) as feed, \
            TableSpots(t.loop, t.journal, url, TABLE, 2) as table_spots, spots:
        t.loop.listeners.append(FeedListener(feed))
        s1, s2 = spots[1], spots[2]
        await until(lambda: lamp_is(s1, "off") and lamp_is(s2, "off"), "both lamps off")
        await t.cmd("open_round")
        await until(lambda: lamp_is(s1, "open") and lamp_is(s2, "open"), "both lamps open for bets")

        # bets from the spots; a QoS 1 redelivery of spot 1's bet is applied once
        await s1.press("bet", amount=1000)
        await s2.press("bet", amount=500)
        await until(lambda: len(t.core.adapter.open_bets(t.core.engine)) == 2, "two open bets")
        await s1.duplicate_last()
        await until(lambda: any('"seq":1' in a.get("raw", "") for a in spot_alerts(t, "device.refused")),
                    "the redelivered press refused")
        await t.loop.settled()
        assert [(b.box, b.stake, b.player) for b in t.core.adapter.open_bets(t.core.engine)] == [
            (1, 1000, "spot-1"), (2, 500, "spot-2")]
        assert table_spots.session.refusals["duplicate"] == 1
        (bet1,) = [e for e in t.of_kind(inputs.DEVICE) if e.payload.get("type") == "press" and e.source == "spot:1"]
        assert bet1.payload["button"] == "bet" and bet1.payload["seq"] == 1

        await t.cmd("close_betting")
        await until(lambda: lamp_is(s1, "off") and lamp_is(s2, "off"), "both lamps off at close")
        await t.deal("TS", "9H", "6D", "6C", "2S")  # box 1: TS 6C = 16, box 2: 9H 2S = 11, dealer 6D
        await until(lambda: lamp_is(s1, "turn"), "spot 1's turn lamp")
        assert "HIT" in s1.lamp["text"] and "STAND" in s1.lamp["text"] and lamp_is(s2, "off")

        # spot 2 out of turn: refused, nothing changes, the pit and the dealer are told why
        before = (t.core.serial, t.core.engine.expects(), t.core.adapter.prompt(t.core.engine, t.core.engine.expects()))
        lamps_before = len(s2.lamps)
        await s2.press("double")
        await until(lambda: spot_alerts(t, "spot.out_of_turn"), "the out-of-turn alert")
        await t.loop.settled()
        (refused,) = spot_alerts(t, "spot.out_of_turn")
        assert refused["severity"] == "warning" and refused["refused"]["button"] == "double"
        assert (t.core.serial, t.core.engine.expects()) == before[:2]
        assert t.prompt == f"{before[2]} [spot 2 double refused: spot 2 pressed double: box 1 is to act]"
        await pit.wait_for(lambda: any(a.get("code") == "spot.out_of_turn" for a in pit.on("alert")))
        await pit.wait_for(lambda: bool(pit.on("prompt")) and "refused" in pit.on("prompt")[-1]["text"])
        assert lamp_is(s2, "off") and lamp_is(s1, "turn")

        await s1.press("stand")
        await until(lambda: lamp_is(s2, "turn") and lamp_is(s1, "off"), "spot 2's turn, spot 1 off")
        # the refused press lit nothing: spot 2's lamps arrive in order, and the next is its turn
        assert [lamp["mode"] for lamp in s2.lamps[lamps_before:]] == ["turn"]
        assert "refused" not in t.prompt
        await s2.press("double")
        await until(lambda: t.prompt.startswith("Card to box 2"), "a card due to box 2")
        await t.deal("TD", "TH", "4C")  # box 2 doubles to 21; dealer 6D TH 4C = 20
        await until(lambda: t.core.phase == "settling", "the round settling")
        await t.cmd("settle")
        (record,) = t.rounds()
        assert bets(record) == [(1, 1, "main", "spot-1", 1000, 0), (2, 1, "main", "spot-2", 1000, 2000)]
        await until(lambda: lamp_is(s1, "lose", "LOSE 1000") and lamp_is(s2, "win", "WIN 1000"), "the result lamps")
        await pit.wait_for(lambda: bool(pit.on("round")) and bets(pit.on("round")[-1]) == bets(record))
        sources = [e.source for e in t.of_kind(inputs.DEVICE) if e.payload.get("type") == "press"]
        assert sources == ["spot:1", "spot:2", "spot:2", "spot:1", "spot:2"]


async def test_a_press_redelivered_after_a_restart_is_applied_once(table_factory, mosquitto: MosquittoBroker) -> None:
    t = await table_factory(stacked=["TS", "9H", "6D", "6C", "2S"], table_id=TABLE)
    url = mosquitto.tcp_url()
    spots = SpotsSimulator.with_credentials(url, TABLE, 1, lambda n: mosquitto.spot(n).password)
    async with spots:
        s1 = spots[1]
        await t.cmd("open_round")
        async with TableSpots(t.loop, t.journal, url, TABLE, 1):
            await until(lambda: lamp_is(s1, "open"), "spot 1 open after the restart")
            await s1.press("bet", amount=700)
            await until(lambda: len(presses(t, "spot-1")) == 1, "spot 1's press journaled")
        # the controller's spots side starts again: watermarks from the journal
        async with TableSpots(t.loop, t.journal, url, TABLE, 1) as again:
            assert t.loop.devices["spots"] is again.device  # one of the table's devices, as the shoe
            assert again.session.tracker.last_seq == {"spot-1": 1}
            await s1.duplicate_last()
            await until(lambda: again.session.refusals["duplicate"] == 1, "the duplicate refused")
            await s1.press("bet", amount=300)
            await until(lambda: len(presses(t, "spot-1")) == 2, "spot 1's second press journaled")
            await t.loop.settled()
    assert [(b.box, b.kind, b.stake) for b in t.core.adapter.open_bets(t.core.engine)] == [
        (1, "main", 1000)]  # the redelivered 700 once, then the new 300
    assert "spots" not in t.loop.devices
