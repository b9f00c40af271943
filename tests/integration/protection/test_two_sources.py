"""Two-source results at a live roulette table: the wheel's number and the number the dealer
keys off the wheel. Agreement changes nothing; a disagreement holds the round with
``protection.result_mismatch``; the mismatch rate per device and per dealer raises
``protection.mismatch_rate``. Every alert names the device and the dealer."""

from __future__ import annotations

from pathlib import Path

from controller.config import load
from controller.protection.mismatch import watch_mismatches
from controller.table.core import SETTLING
from simulators.wheel import Timings
from tests.integration.table.conftest import table_factory
from tests.integration.table_roulette.conftest import WheelHarness, write_config
from tests.support.waiting import until

__all__ = ["table_factory"]  # the blackjack table of the table tests: its shoe on a real pty
FAST = Timings(before_game=0.2, place_bets=1.0, ball_in_rim=2.0, no_more_bets=2.0, result=0.2)


async def test_a_keyed_number_checks_the_wheel_s(tmp_path: Path) -> None:
    path = write_config(tmp_path)
    path.write_text(path.read_text() + "\n[protection]\nmismatch_rate = 0.25\nmismatch_min_results = 2\n")
    h = WheelHarness(load(path))
    h.loop.listeners.append(watch_mismatches(h.loop, h.journal, h.config))
    await h.start(FAST)
    try:
        await h.cmd("sign_in", dealer="D3")
        for wheel_number, keyed in (("17", "17"), ("4", "21")):
            h.sim.queue_results(wheel_number)
            await h.cmd("open_round")
            await h.bet(1, "straight:4", 100, "A")
            await h.until_phase(SETTLING, timeout=30)
            await h.cmd("key_result", number=keyed)
            if keyed == wheel_number:
                assert h.core.hold is None
                await h.cmd("settle")
        held = [a for a in h.alerts() if a["hold"]]
        assert [(a["code"], a["severity"], a["device"], a["dealer"], a["device_result"], a["keyed"]) for a in held] == [
            ("protection.result_mismatch", "error", "wheel", "D3", "4", "21")]
        assert h.core.hold is not None and h.core.hold.options == ("resume", "void_round")
        await h.cmd("settle")  # refused while the round holds
        assert h.core.hold is not None and len(h.rounds()) == 1
        await h.cmd("resume")  # the dealer looked: the ball is in 4, the wheel's number stands
        await h.cmd("settle")
        assert h.rounds()[-1]["outcome"]["numbers"] == ["4"] and h.rounds()[-1]["payout_total"] == 3600
        await until(lambda: len([a for a in h.alerts() if a["code"] == "protection.mismatch_rate"]) == 2,
                    "the rate alerts of the wheel and of the dealer", describe=lambda: str(h.alerts()))
        rates = [a for a in h.alerts() if a["code"] == "protection.mismatch_rate"]
        assert {(a["rate_of"], a["device"], a["dealer"], a["checks"], a["mismatches"]) for a in rates} == {
            ("device", "wheel", "D3", 2, 1), ("dealer", "wheel", "D3", 2, 1)}
        confirmed = [a for a in h.alerts() if a["code"] == "protection.result_confirmed"]
        assert [(a["severity"], a["dealer"]) for a in confirmed] == [("info", "D3")]
    finally:
        await h.stop()


async def test_a_keyed_ball_the_wheel_cannot_report_is_no_second_source(tmp_path: Path) -> None:
    """Double ball: the wheel reports ball 1, the dealer keys ball 2; nothing is compared."""
    path = write_config(tmp_path, preset="double-ball")
    h = WheelHarness(load(path))
    await h.start(FAST)
    try:
        h.sim.queue_results("9")
        await h.cmd("open_round")
        await h.bet(1, "straight:9", 100, "A")
        await h.loop.until(lambda core: core.engine is not None and bool(core.engine.balls), timeout=30)
        await h.cmd("key_result", number="12")
        assert h.core.phase == SETTLING and h.core.hold is None
        assert not [a for a in h.alerts() if a["code"].startswith("protection.")]
    finally:
        await h.stop()


async def test_a_keyed_card_checks_the_card_the_shoe_read(table_factory) -> None:
    """Blackjack: the dealer keys the card he sees after the shoe read it; a different card holds."""
    t = await table_factory(stacked=["TS", "7C", "8S", "QD"])
    t.loop.listeners.append(watch_mismatches(t.loop, t.journal, t.config))
    await t.cmd("sign_in", dealer="D5")
    await t.play((1, 1000, "A"))
    await t.deal("TS")
    await t.cmd("key_card", card="ts")
    assert t.core.hold is None and t.alerts()[-1]["code"] == "protection.result_confirmed"
    await t.deal("7C", "8S")
    await t.cmd("key_card", card="9S")
    (held,) = [a for a in t.alerts() if a["hold"]]
    assert (held["code"], held["device"], held["dealer"], held["device_result"], held["keyed"]) == (
        "protection.result_mismatch", "shoe", "D5", "8S", "9S")
    await t.cmd("resume")  # the card on the layout is the shoe's 8S
    await t.cmd("decide", box=1, action="stand", player="A")
    await t.deal("QD")  # dealer 7-Q: 17
    await t.cmd("settle")
    (r,) = t.rounds()
    assert r["outcome"]["boxes"][0]["hands"][0]["cards"] == ["TS", "8S"]
