"""The wheel protocol's exception rules at the table, end to end: a miss-spin voids the spin and
reopens betting with the bets kept; a sensor fault holds the round with an alert until the
dealer voids it, and no round opens until the table has re-powered the wheel (``*P 1``)."""

from __future__ import annotations

from controller.table.core import BETTING, IDLE, PLAYING, SETTLING
from simulators.wheel import WheelFault
from tests.integration.table.conftest import bets


async def test_miss_spin_voids_reopens_with_bets_kept_then_respin_settles(wheel_table):
    """Bets close on ball in rim; the ball runs the wrong way: the driver's verdict voids the
    spin (and sends *R), betting reopens with the bets kept; B changes red 1000 to black 1000
    before the re-spin. Re-spin 17: A straight 17 100 -> 3600; B black 1000 -> 2000."""
    t = await wheel_table(rules='close_bets_on = "ball_in_rim"')
    t.sim.inject(WheelFault("miss_spin", at=0.5))
    t.sim.queue_results("17")
    await t.cmd("open_round")
    await t.bet(1, "straight:17", 100, "A")
    await t.bet(2, "red", 1000, "B")
    await t.loop.until(lambda core: core.engine is not None and bool(core.engine.voids), timeout=15)

    assert t.core.phase == BETTING and t.prompt == "Spin void (miss-spin) — bets stay, re-spin"
    void_alerts = [a for a in t.alerts() if a["code"] == "wheel.void.miss_spin"]
    assert len(void_alerts) == 1 and void_alerts[0]["severity"] == "warning" and not void_alerts[0]["hold"]
    assert [(b.box, b.spec.kind, b.amount) for b in t.core.engine.bets] == [(1, "straight:17", 100), (2, "red", 1000)]
    await t.cmd("clear_bets", box=2, player="B")
    await t.bet(2, "black", 1000, "B")

    await t.until_phase(SETTLING)
    assert t.prompt == "Winning number 17 black — settle"
    await t.cmd("settle")
    (r,) = t.rounds()
    assert r["status"] == "settled" and r["outcome"]["voids"] == ["miss_spin"]
    assert bets(r) == [(1, 1, "straight:17", "A", 100, 3600), (2, 1, "black", "B", 1000, 2000)]
    assert (r["stake_total"], r["payout_total"]) == (1100, 5600)
    assert "*R" in t.sim.received  # the driver acknowledged the void; the wheel re-spun
    assert len(t.device_entries("ball_in_rim")) == 2


async def test_sensor_fault_holds_until_void_and_repower(wheel_table):
    """Flag 4 in state 4: the round holds (wheel.fault.sensor_fault), nothing settles; the dealer
    voids it (every stake back); no round opens while the fault stands; the wheel shuts down to
    state 6, the table sends *P 1, the driver reports it recovered, and the next round plays."""
    t = await wheel_table()
    t.sim.inject(WheelFault("sensor_fault", at=0.5))
    await t.cmd("open_round")
    await t.bet(1, "straight:5", 200, "A")
    await t.bet(2, "even", 1000, "B")
    await t.loop.until(lambda core: core.hold is not None, timeout=15)

    held = [a for a in t.alerts() if a["hold"]]
    assert [(a["code"], a["severity"], a["options"]) for a in held] == [("wheel.fault.sensor_fault", "error", ["void_round"])]
    assert t.prompt.startswith("HOLD wheel.fault.sensor_fault: wheel fault sensor_fault")
    await t.cmd("settle")
    await t.cmd("burn")
    assert [a["code"] for a in t.alerts()[-2:]] == ["table.hold", "table.burn.not_an_option"]
    await t.cmd("void_round", reason="wheel fault")
    (r,) = t.rounds()
    assert r["status"] == "void"
    assert bets(r) == [(1, 1, "straight:5", "A", 200, 200), (2, 1, "even", "B", 1000, 1000)]

    await t.cmd("open_round")  # the fault is still active: refused
    assert t.alerts()[-1]["code"] == "device.fault" and t.core.phase == IDLE
    assert t.prompt.startswith("Wheel fault (")
    await t.loop.until(lambda core: not core.devices["wheel"].get("fault"), timeout=15)
    assert "*P 1" in t.sim.received and t.alerts()[-1]["code"] == "wheel.recovered"
    assert t.prompt == "Open betting"

    await t.spin((1, "straight:5", 200, "A"), result="5")
    await t.cmd("settle")
    r2 = t.rounds()[1]
    assert bets(r2) == [(1, 1, "straight:5", "A", 200, 7200)]
    assert r2["round"] == "r1-000002" and r2["status"] == "settled"


async def test_result_while_closed_is_never_guessed(wheel_table):
    """The dealer closes betting early by hand; the wheel's own no-more-bets then changes
    nothing, and its result settles the round as usual."""
    t = await wheel_table()
    await t.cmd("open_round")
    await t.bet(1, "low", 500, "A")
    await t.cmd("close_betting")
    assert t.core.phase == PLAYING
    t.sim.queue_results("0")
    await t.until_phase(SETTLING)
    assert [a for a in t.alerts() if a["severity"] != "info"] == []
    await t.cmd("settle")
    assert bets(t.rounds()[0]) == [(1, 1, "low", "A", 500, 0)]


async def test_a_fault_journaled_before_a_restart_is_cleared_by_re_powering(wheel_table):
    """The process dies between a wheel fault and the wheel's recovery (the 1,000-spin soak
    stalled on it): the new driver never saw the fault and the wheel reports healthy, so nothing
    would ever clear it. The restarted table re-powers the wheel the guide's way (*P 0, state 6,
    *P 1); its healthy status then clears the fault, and the next round plays."""
    t = await wheel_table()
    t.sim.inject(WheelFault("sensor_fault", at=0.5))
    await t.cmd("open_round")
    await t.bet(1, "even", 1000, "B")
    await t.loop.until(lambda core: core.hold is not None, timeout=15)
    await t.cmd("void_round", reason="wheel fault")
    await t.stop()  # before the wheel shut down and was re-powered by this process
    assert "*P 1" not in t.sim.received

    t2 = await wheel_table()  # the same journal; the wheel is up and healthy again
    assert t2.core.devices["wheel"]["fault"], "the fault stays active across the restart"
    await t2.loop.until(lambda core: not core.devices["wheel"].get("fault"), timeout=15)
    sent = [line for line in t2.sim.received if line.startswith("*P")]
    assert sent[0] == "*P 0" and "*P 1" in sent  # (state 6 also makes the table send *P 1)
    assert "wheel.recovered" in [a["code"] for a in t2.alerts()]
    await t2.spin((1, "straight:5", 200, "A"), result="5")
    await t2.cmd("settle")
    assert [r["status"] for r in t2.rounds()] == ["void", "settled"]
